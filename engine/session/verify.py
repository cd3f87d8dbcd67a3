"""Re-deciding a log: every recorded command, decided again on the history before it with the
dice it recorded, must give exactly the events that follow it (DESIGN law 3 for stored logs).

One pass over the records, in order, holding one command's events at a time (a log read from a
file may be far larger than memory); after an undo, redo or amend marker the history that counts
is folded again from the records before it (`records[:position]`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import msgspec

from engine.commands.base import CommandBase
from engine.dice.source import TableDice
from engine.errors import EngineError
from engine.events.base import EventBase
from engine.events.commands import MARKERS, CommandRecorded
from engine.reducers.fold import apply
from engine.rules.decide import decide
from engine.session.history import Record, effective_fold
from engine.state.encounter import Encounter


@dataclass(frozen=True)
class Verification:
    commands: int
    mismatch: str = ""
    position: int = 0

    @property
    def ok(self) -> bool:
        return not self.mismatch


def verify(records: Sequence[Record]) -> Verification:
    """Re-decide each command with its recorded dice and compare with the logged events."""
    state: Encounter = effective_fold([])
    checked = 0
    for item in _batches(records):
        if isinstance(item, int):  # a marker at this position: the history that counts changed
            state = effective_fold(records[:item])
            continue
        position, record, logged = item
        if record is None:
            state = apply(state, logged[0])
            continue
        try:
            again = decide(state, record.issued, TableDice(record.dice_used))
        except EngineError as exc:
            return Verification(checked, f"command #{record.id} is refused when re-decided: {exc}", position)
        again = [msgspec.structs.replace(e, command=record.id) for e in again]
        if again != logged:
            first = next((k for k, (a, b) in enumerate(zip(again, logged, strict=False)) if a != b), None)
            where = position + 1 + (first if first is not None else min(len(again), len(logged)))
            return Verification(checked, f"command #{record.id} re-decides differently from event {where} on", where)
        checked += 1
        state = apply(state, record)
        for event in logged:
            state = apply(state, event)
    return Verification(checked)


Batch = tuple[int, CommandRecorded[CommandBase] | None, list[EventBase]]


def _batches(records: Sequence[Record]) -> Iterator[Batch | int]:
    """The records grouped: a command record with the events of its own batch that follow it
    (same command, no record or marker between), a lone event (record None), or a marker's
    position."""
    pending: tuple[int, CommandRecorded[CommandBase], list[EventBase]] | None = None
    for position, event in records:
        if pending is not None:
            if event.command == pending[1].id and not isinstance(event, (CommandRecorded, *MARKERS)):
                pending[2].append(event)
                continue
            yield pending
            pending = None
        if isinstance(event, MARKERS):
            yield position
        elif isinstance(event, CommandRecorded):
            pending = (position, event, [])
        else:
            yield position, None, [event]
    if pending is not None:
        yield pending
