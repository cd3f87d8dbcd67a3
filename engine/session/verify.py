"""Re-deciding a log: a verified log is its setup and then exactly the events its recorded
commands decide, each in its command's append, nothing more or less (DESIGN law 3 for stored
logs).

- The setup is the events from position 1 that no command record precedes: an encounter's start
  (`EncounterStarted`, command 0), then joins — events of command 0 each bringing one new
  combatant in — and what the scenario says of a joined combatant (an event type marked
  `of_setup`, such as a helpless start). A fight's log (`ua fight --save`, `simulate --keep`)
  begins with it; a session's has none (its start and joins are commands).
- After it, every event is in a command's batch (its record, then the events it decided, all
  naming its number and, when the command ids are known, its command id) or an undo, redo or
  amend marker naming what the engine would have named there (`engine.session.ledger`).
- Every recorded command, valid by its own type's constraints, decided again on the history
  before it with the dice it recorded, must read all of them and give exactly its events.

One pass over the records, in order, holding one command's events at a time (a log read from a
file may be far larger than memory); after a marker the history that counts is folded again
from the records before it (`records[:position]`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import msgspec

from engine.commands.base import CommandBase
from engine.dice.source import TableDice
from engine.errors import EngineError
from engine.events import tag_of
from engine.events.base import EventBase
from engine.events.commands import MARKERS, CommandRecorded
from engine.events.setup import EncounterStarted
from engine.reducers.fold import apply
from engine.rules.decide import decide
from engine.session.history import Record, effective_fold
from engine.session.ledger import Forged, Ledger
from engine.session.replayfile import ReplayLog
from engine.session.validate import valid_command


@dataclass(frozen=True)
class Verification:
    commands: int
    mismatch: str = ""
    position: int = 0

    @property
    def ok(self) -> bool:
        return not self.mismatch


def verify(records: Sequence[Record], command_ids: Iterable[str] | None = None) -> Verification:
    """Check the log (see the module); `command_ids`, one per record, also place every event in
    its command's append. A log read by `read_replay` may be given whole (its command ids too)."""
    records, command_ids = _unpacked(records, command_ids)
    checked = 0
    ledger = Ledger()
    try:
        state: Any = effective_fold([])
        for item in _batches(records, command_ids):
            if isinstance(item, tuple):
                position, record, logged = item
                state = _redecided(state, position, record, logged, ledger.record(record, position))
                checked += 1
            elif item.event is None:
                state = _setup(state, item.position, item.lone)
            else:
                ledger.marker(item.event, item.position)
                state = effective_fold(records[: item.position])
        ledger.finish(len(records))
    except Forged as exc:
        return Verification(checked, exc.message, exc.position)
    return Verification(checked)


def _unpacked(records: Any, command_ids: Iterable[str] | None) -> tuple[Sequence[Record], Iterable[str] | None]:
    """(records, command ids) of a `ReplayLog` or of records (with the ids given, if any)."""
    if isinstance(records, ReplayLog):
        return records.records, records.command_ids() if command_ids is None else command_ids
    return records, command_ids


def _redecided(
    state: Any,
    position: int,
    record: CommandRecorded[CommandBase],
    logged: list[EventBase],
    replaced: CommandRecorded[CommandBase] | None,
) -> Any:
    """The state after a command that re-decides to its logged events; else `Forged`."""
    number = record.id
    try:
        valid_command(record.issued)
    except EngineError as exc:
        raise Forged(f"command #{number} is not one the engine takes: {exc}", position) from None
    if replaced is not None:
        _same_command(record, replaced, position)
    try:
        dice = TableDice(record.dice_used)
        again = decide(state, record.issued, dice)
    except EngineError as exc:
        raise Forged(f"command #{number} is refused when re-decided: {exc}", position) from None
    again = [msgspec.structs.replace(e, command=number) for e in again]
    if again != logged:
        first = next((k for k, (a, b) in enumerate(zip(again, logged, strict=False)) if a != b), None)
        where = position + 1 + (first if first is not None else min(len(again), len(logged)))
        raise Forged(f"command #{number} re-decides differently from event {where} on", where)
    if dice.used != len(record.dice_used):
        raise Forged(f"command #{number} reads {dice.used} of the {len(record.dice_used)} dice it records", position)
    state = apply(state, record)
    for event in logged:
        state = apply(state, event)
    return state


def _same_command(record: CommandRecorded[CommandBase], replaced: CommandRecorded[CommandBase], position: int) -> None:
    """An amend re-decides each later command as it was issued, with the dice it recorded first
    (law 5): one list of faces is the start of the other."""
    if record.issued != replaced.issued:
        raise Forged(f"command #{record.id} re-decides #{replaced.id} for an amend, but is another command", position)
    shared = min(len(record.dice_used), len(replaced.dice_used))
    if record.dice_used[:shared] != replaced.dice_used[:shared]:
        raise Forged(f"command #{record.id} re-decides #{replaced.id} for an amend, but with other dice", position)


def _setup(state: Any, position: int, event: EventBase) -> Any:
    """The state after one event of the setup: the start first, then joins."""
    if event.command:
        raise Forged(
            f"event {position} is of command {event.command}, but no such command is recorded before it", position
        )
    if position == 1:
        if not isinstance(event, EncounterStarted):
            raise Forged("the log does not begin with the encounter's start", position)
        return apply(state, event)
    after = apply(state, event)
    known = {c.id for c in state.combatants}
    if type(event).of_setup and getattr(event, "actor", None) in known and after != state:
        return after  # a scenario's word on a combatant already joined (a helpless start)
    new = [c.id for c in after.combatants if c.id not in known]
    if isinstance(event, EncounterStarted) or len(new) != 1 or len(after.combatants) != len(state.combatants) + 1:
        raise Forged(
            f"event {position} ({tag_of(event)}) is decided by no command: only the setup's start and joins need none",
            position,
        )
    return after


@dataclass(frozen=True)
class _Single:
    """A marker (`event`) or, with `event` None, a lone event (`lone`) at `position`."""

    position: int
    event: EventBase | None
    lone: EventBase


Batch = tuple[int, CommandRecorded[CommandBase], list[EventBase]]


def _batches(records: Sequence[Record], command_ids: Iterable[str] | None) -> Iterator[Batch | _Single]:
    """The records grouped: a command record with the events of its own batch that follow it
    (same command, no record or marker between), a marker, or a lone event. Lone events after
    the setup, and a batch across two command ids, are `Forged`."""
    pending: tuple[int, CommandRecorded[CommandBase], list[EventBase], str] | None = None
    setup = True
    run = ""
    for (position, event), command_id in zip(records, repeat("") if command_ids is None else command_ids, strict=False):
        if pending is not None:
            if event.command == pending[1].id and not isinstance(event, (CommandRecorded, *MARKERS)):
                if command_id != pending[3]:
                    raise Forged(
                        f"event {position} of command #{event.command} is outside its command's append", position
                    )
                pending[2].append(event)
                continue
            yield pending[:3]
            pending = None
        if isinstance(event, MARKERS):
            setup = False
            yield _Single(position, event, event)
        elif isinstance(event, CommandRecorded):
            setup = False
            pending = (position, event, [], command_id)
        elif setup and (position == 1 or command_id == run):
            yield _Single(position, None, event)
        else:
            raise Forged(
                f"event {position} ({tag_of(event)}) is in no command's batch: no recorded command decided it",
                position,
            )
        run = command_id
    if pending is not None:
        yield pending[:3]
