"""A live encounter over a store: load, decide, append (one atomic append per command), fold;
undo, redo and amend (DESIGN laws 4 and 5) as appended markers."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import msgspec

from engine.commands import Command
from engine.commands.base import CommandBase
from engine.dice.source import RecordingDice, SeededDice, TableDice
from engine.errors import InvalidInput, Refused
from engine.events import Event, decode, encode, tag_of, version_of
from engine.events.base import EventBase
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.setup import EncounterStarted
from engine.reducers.fold import apply
from engine.rules.decide import decide_and_fold
from engine.session.history import (
    Record,
    command_entries,
    cursors,
    effective_fold,
    redo_stack,
)
from engine.session.snapshot import open_from_snapshot, save_snapshot
from engine.state.encounter import Encounter
from engine.store.base import EventStore, NewEvent, StoredEvent, event_id_for


def stored_events(store: EventStore, stream: str, from_position: int = 1) -> Iterator[tuple[int, Event]]:
    """(position, event) pairs of a stream, upcast where older; errors name the position."""
    for stored in store.read(stream, from_position):
        where = f"{stream} event {stored.position}"
        if stored.schema_version == version_of(stored.type):
            yield stored.position, decode(stored.data, where=where)  # current: no upcasting needed
        else:
            yield stored.position, decode(stored.data, schema_version=stored.schema_version, where=where)


def load_state(store: EventStore, stream: str) -> Encounter:
    """Fold a stored stream, undo and amend included (law 2)."""
    state: Encounter = effective_fold(list(stored_events(store, stream)))
    return state


def import_log(store: EventStore, stream: str, records: Sequence[Record]) -> int:
    """Copy a session's records (read from a replay file) into a new, empty `stream` as one
    append: all or nothing. A log that does not fold is refused before anything is written."""
    effective_fold(records)  # positions 1, 2, 3, … and every event folds, or a named error
    if store.version(stream):
        raise InvalidInput(f"stream {stream!r} already has events", hint="import into a new session")
    events = [event for _, event in records]
    store.append(stream, to_new_events(stream, 0, events), 0)
    return len(events)


def stored_log(stream: str, events: Sequence[EventBase], *, recorded_at: float = 0.0) -> list[StoredEvent]:
    """Events as a store would hold them from position 1 (for writing a replay file)."""
    return [
        StoredEvent(
            stream=stream,
            position=i,
            event_id=new.event_id,
            type=new.type,
            schema_version=new.schema_version,
            data=new.data,
            recorded_at=recorded_at,
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


@dataclass(frozen=True)
class Amendment:
    """What an amend did: the states and the events before and after, for the audit's diff."""

    before: Encounter
    after: Encounter
    old_events: list[EventBase]
    new_events: list[EventBase]


class LiveEncounter:
    """State kept while running, backed by a store; every command is one atomic append whose
    expected version is what this session last saw (a race → ConcurrencyConflict, nothing written)."""

    #: Save a snapshot each time the log grows past another multiple of this many events.
    snapshot_every = 1000

    def __init__(self, store: EventStore, stream: str, *, seed: int | None = None) -> None:
        self.store = store
        self.stream = stream
        self._seed = seed
        self._records: list[Record] | None = None
        opened = open_from_snapshot(store, stream)
        if opened is not None:  # the snapshot and the events after it: no need to read the rest yet
            self.state, self._count, self.next_id, self.dice_position = opened
            self._snapshot_at = self._count
        else:
            self._records = list(stored_events(store, stream))
            self.state = effective_fold(self._records)
            self._count = len(self._records)
            self.next_id, self.dice_position = cursors(self._records)
            self._snapshot_at = 0

    @property
    def records(self) -> list[Record]:
        """Every (position, event) of the session, read from the store on first use."""
        records = self._records
        if records is None:
            records = self._records = [(p, e) for p, e in stored_events(self.store, self.stream) if p <= self._count]
        return records

    @property
    def seed(self) -> int:
        """The encounter's seed; if its start was undone, the seed it was started with, so that
        every session on this log (whatever `seed` it was opened with) draws the same dice."""
        if self.state.seed is not None:
            return int(self.state.seed)
        started = [e.seed for _, e in self.records if isinstance(e, EncounterStarted) and e.seed is not None]
        if started:
            return started[-1]
        return 0 if self._seed is None else self._seed

    @property
    def version(self) -> int:
        return self._count

    def _decide(
        self,
        state: Encounter,
        command: CommandBase,
        command_id: int,
        faces: Sequence[int] = (),
        *,
        given: int | None = None,
    ) -> tuple[list[EventBase], Encounter]:
        """The command's events (its record first) and the state after them. Dice: `faces` first
        (table dice or a command's recorded dice), then fresh seeded dice.

        The first `given` faces (all, by default) are dice a person rolled; the rest of `faces`
        are seeded dice an earlier decision drew, reused by an amend (still not the table's)."""
        seeded = SeededDice(self.seed, position=self.dice_position)
        start = seeded.position
        table = TableDice(faces, fallback=seeded)
        dice = RecordingDice(table)
        decided, after = decide_and_fold(state, command, dice)  # the rule's own fold is reused
        record = CommandRecorded(
            id=command_id,
            issued=command,  # type: ignore[arg-type]
            dice_used=tuple(dice.faces),
            table_dice=table.used if given is None else min(table.used, given),
            seeded_from=start,
            seeded_count=seeded.position - start,
            command=command_id,
        )
        self.dice_position = seeded.position
        events = [record, *(msgspec.structs.replace(e, command=command_id) for e in decided)]
        return events, apply(after, record)  # the record changes nothing but the version

    def _append(self, events: Sequence[EventBase]) -> None:
        version = self.version
        self.store.append(self.stream, to_new_events(self.stream, version, events), version)
        if self._records is not None:
            self._records.extend(enumerate(events, start=version + 1))
        self._count = version + len(events)

    def _changed(self) -> None:
        """After the state moved on: save a snapshot when the log crossed another boundary."""
        if self._count // self.snapshot_every > self._snapshot_at // self.snapshot_every:
            save_snapshot(self.store, self.stream, self._count, self.state, self.next_id, self.dice_position)
            self._snapshot_at = self._count

    def execute(self, command: Command | CommandBase) -> list[EventBase]:
        """Decide, append, fold. A refused command writes nothing."""
        dice_before = self.dice_position
        try:
            events, new_state = self._decide(self.state, command, self.next_id, command.dice)
            self._append(events)
        except BaseException:
            self.dice_position = dice_before
            raise
        self.state = new_state
        self.next_id += 1
        self._changed()
        return events

    def undo(self) -> list[EventBase]:
        """Law 4: the latest command that counts stops counting."""
        effective = [e for e in command_entries(self.records) if e.status == "effective"]
        if not effective:
            raise Refused("there is nothing to undo")
        last = effective[-1]
        marker = CommandUndone(id=last.id, summary=_summary(last.record))
        self._append([marker])
        self.state = effective_fold(self.records)
        self._changed()
        return [marker]

    def redo(self) -> list[EventBase]:
        """Law 4: the most recently undone command counts again (until a new command is made)."""
        stack = redo_stack(self.records)
        if not stack:
            raise Refused("there is nothing to redo", hint="redo only follows undo, before any new command")
        entry = next(e for e in command_entries(self.records) if e.id == stack[-1])
        marker = CommandRedone(id=entry.id, summary=_summary(entry.record))
        self._append([marker])
        self.state = effective_fold(self.records)
        self._changed()
        return [marker]

    def amend(self, command_id: int, corrected: Command | CommandBase, note: str = "") -> Amendment:
        """Law 5: replace command `command_id` and re-decide it and every later command with the
        dice they recorded (fresh dice only if the corrected history needs more). All or nothing."""
        entries = [e for e in command_entries(self.records) if e.status == "effective"]
        ids = [e.id for e in entries]
        if command_id not in ids:
            known = ", ".join(f"#{i}" for i in ids) or "none"
            raise Refused(f"command #{command_id} is not one that counts now", hint=f"commands that count: {known}")
        index = ids.index(command_id)
        later = entries[index:]
        base = effective_fold(self.records, also_skip=ids[index:])
        dice_before, next_before = self.dice_position, self.next_id
        new_events: list[EventBase] = []
        state = base
        k = 0
        try:
            for k, entry in enumerate(later):
                record = entry.record
                command = corrected if k == 0 else record.issued
                # the recorded dice, in the order they were used: the table's, then the seeded ones;
                # the corrected command's own table dice replace the table's (the GM says what was rolled)
                faces, given = record.dice_used, record.table_dice
                if k == 0 and corrected.dice:
                    faces, given = (*corrected.dice, *record.dice_used[record.table_dice :]), len(corrected.dice)
                events, state = self._decide(state, command, self.next_id, faces, given=given)
                self.next_id += 1
                new_events.extend(events)
        except Refused as exc:
            self.dice_position, self.next_id = dice_before, next_before
            what = "the amended command" if k == 0 else f"command #{later[k].id} after it"
            raise Refused(f"the amend no longer makes sense: {what} is refused: {exc.message}", hint=exc.hint) from None
        except BaseException:
            self.dice_position, self.next_id = dice_before, next_before
            raise
        marker = CommandAmended(
            id=command_id,
            superseded=tuple(e.id for e in later),
            replacements=tuple(range(next_before, self.next_id)),
            note=note,
        )
        old_events = [ev for _, ev in self.records if ev.command in set(marker.superseded)]
        before = self.state
        try:
            self._append([marker, *new_events])
        except BaseException:
            self.dice_position, self.next_id = dice_before, next_before
            raise
        self.state = effective_fold(self.records)
        self._changed()
        return Amendment(before=before, after=self.state, old_events=old_events, new_events=new_events)

    def state_at(self, position: int) -> Encounter:
        """The state as it was right after event `position` (markers up to there included)."""
        state: Encounter = effective_fold(self.records[:position])
        return state


def _summary(record: CommandRecorded) -> str:
    issued = record.issued
    tag = str(type(issued).__struct_config__.tag)
    actor = str(getattr(issued, "actor", ""))
    target = str(getattr(issued, "target", ""))
    return " ".join(p for p in (tag, actor, f"→ {target}" if target else "") if p)


Session = LiveEncounter
