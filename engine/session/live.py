"""A live encounter: load a stream, decide commands, append their events, fold them in."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec

import engine.rules.ua2  # noqa: F401  (registers the rules)
from engine.commands import Command
from engine.dice.source import RecordingDice, SeededDice, TableDice
from engine.events import Event, decode, encode, tag_of
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.reducers import fold, fold_positions
from engine.rules.decide import decide
from engine.state.encounter import Encounter
from engine.store.base import EventStore, NewEvent, StoredEvent, event_id_for


def stored_events(store: EventStore, stream: str, from_position: int = 1) -> Iterator[tuple[int, Event]]:
    """(position, event) pairs of a stream, upcast where older; errors name the position."""
    for stored in store.read(stream, from_position):
        where = f"{stream} event {stored.position}"
        yield (
            stored.position,
            decode(stored.data, schema_version=stored.schema_version, where=where),
        )


def load_state(store: EventStore, stream: str) -> Encounter:
    """Fold a stored stream (law 2)."""
    return fold_positions(stored_events(store, stream))


def stored_log(stream: str, events: Sequence[EventBase], *, recorded_at: float = 0.0) -> list[StoredEvent]:
    """Events as a store would hold them from position 1 (for writing a replay file)."""
    return [
        StoredEvent(
            stream=stream, position=i, event_id=new.event_id, type=new.type, schema_version=new.schema_version,
            data=new.data, recorded_at=recorded_at,
        )
        for i, new in enumerate(to_new_events(stream, 0, events), start=1)
    ]


def to_new_events(stream: str, version: int, events: Sequence[EventBase]) -> list[NewEvent]:
    out = []
    for offset, event in enumerate(events, start=1):
        data = encode(event)
        tag = tag_of(event)
        out.append(
            NewEvent(
                event_id=event_id_for(stream, version + offset, tag, data),
                type=tag,
                schema_version=type(event).schema_version,
                data=data,
            )
        )
    return out


class LiveEncounter:
    """State kept while running, backed by a store; every command is one atomic append."""

    def __init__(self, store: EventStore, stream: str, *, seed: int | None = None) -> None:
        self.store = store
        self.stream = stream
        self.state = load_state(store, stream)
        self._seed = seed

    @property
    def seed(self) -> int:
        if self.state.seed is not None:
            return self.state.seed
        return 0 if self._seed is None else self._seed

    def execute(self, command: Command) -> list[EventBase]:
        """Decide, append (expected version = current), fold. Refused commands write nothing."""
        seeded = SeededDice(self.seed, position=self.state.dice_position)
        start = seeded.position
        table = TableDice(command.dice, fallback=seeded)
        dice = RecordingDice(table)
        decided = decide(self.state, command, dice)
        command_id = self.state.last_command + 1
        record = CommandRecorded(
            id=command_id,
            issued=command,
            dice_used=tuple(dice.faces),
            table_dice=table.used,
            seeded_from=start,
            seeded_count=seeded.position - start,
            command=command_id,
        )
        events: list[EventBase] = [record]
        events.extend(msgspec.structs.replace(e, command=command_id) for e in decided)
        new_state = fold(events, self.state)
        self.store.append(self.stream, to_new_events(self.stream, self.state.version, events), self.state.version)
        self.state = new_state
        return events
