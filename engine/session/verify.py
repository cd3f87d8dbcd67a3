"""Re-deciding a log: every recorded command, decided again on the history before it with the
dice it recorded, must give exactly the events that follow it (DESIGN law 3 for stored logs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from engine.dice.source import TableDice
from engine.errors import EngineError
from engine.events.commands import MARKERS, CommandRecorded
from engine.reducers.fold import apply
from engine.rules.decide import decide
from engine.session.history import Record, effective_fold


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
    state = effective_fold([])
    checked = 0
    for i, (position, event) in enumerate(records):
        if isinstance(event, MARKERS):
            state = effective_fold(records[: i + 1])
            continue
        if isinstance(event, CommandRecorded):
            logged = [e for _, e in records[i + 1 :] if e.command == event.id and not isinstance(e, CommandRecorded)]
            logged = logged[: _batch_length(records, i)]
            try:
                again = decide(state, event.issued, TableDice(event.dice_used))
            except EngineError as exc:
                return Verification(checked, f"command #{event.id} is refused when re-decided: {exc}", position)
            again = [msgspec.structs.replace(e, command=event.id) for e in again]
            if again != logged:
                first = next((k for k, (a, b) in enumerate(zip(again, logged, strict=False)) if a != b), None)
                where = position + 1 + (first if first is not None else min(len(again), len(logged)))
                return Verification(checked, f"command #{event.id} re-decides differently from event {where} on", where)
            checked += 1
        state = apply(state, event)
    return Verification(checked)


def _batch_length(records: Sequence[Record], index: int) -> int:
    """How many events follow the command record at `index` in its own batch."""
    command = records[index][1].command
    count = 0
    for _, event in records[index + 1 :]:
        if event.command != command or isinstance(event, (CommandRecorded, *MARKERS)):
            break
        count += 1
    return count
