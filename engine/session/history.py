"""The history of a session log: which commands count (undo, redo, amend) and the fold that
skips the rest. Nothing is ever deleted: markers say what no longer counts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import OutOfOrder
from engine.events.base import EventBase
from engine.events.commands import MARKERS, CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.reducers.fold import table_for
from engine.rules.ruleset import apply_one

Record = tuple[int, EventBase]


@dataclass(frozen=True)
class CommandEntry:
    """One recorded command: where it sits, its record, and whether it still counts."""

    id: int
    position: int
    record: CommandRecorded
    status: str  # "effective", "undone" or "superseded"
    by: int = 0  # position of the marker that undid or superseded it


def excluded(records: Iterable[Record]) -> tuple[set[int], dict[int, int], dict[int, int]]:
    """(commands that do not count, undone → marker position, superseded → marker position)."""
    undone: dict[int, int] = {}
    superseded: dict[int, int] = {}
    for position, event in records:
        if isinstance(event, CommandUndone):
            undone[event.id] = position
        elif isinstance(event, CommandRedone):
            undone.pop(event.id, None)
        elif isinstance(event, CommandAmended):
            for cid in event.superseded:
                superseded[cid] = position
    return set(undone) | set(superseded), undone, superseded


def effective_fold(records: Sequence[Record], state: Any = None, *, also_skip: Iterable[int] = ()) -> Any:
    """Fold a session log, skipping markers and every event of a command that does not count
    (and of the commands in `also_skip`). Positions must run 1, 2, 3, … (law 6: a log that
    does not fold names the position)."""
    skip, _, _ = excluded(records)
    skip |= set(also_skip)
    first = next((e for _, e in records if not isinstance(e, MARKERS) and e.command not in skip), None)
    ruleset, table = table_for(state, first)
    appliers = ruleset.appliers
    expected = 1
    for position, event in records:
        if position != expected:
            raise OutOfOrder(f"event at position {position} where {expected} was expected", hint="the log has a gap")
        expected += 1
        if isinstance(event, MARKERS) or event.command in skip:
            continue
        apply_one(appliers, table, event, where=position)
    return table.freeze()


def command_entries(records: Sequence[Record]) -> list[CommandEntry]:
    """Every recorded command in log order, with its status."""
    _, undone, superseded = excluded(records)
    entries = []
    for position, event in records:
        if isinstance(event, CommandRecorded):
            if event.id in superseded:
                status, by = "superseded", superseded[event.id]
            elif event.id in undone:
                status, by = "undone", undone[event.id]
            else:
                status, by = "effective", 0
            entries.append(CommandEntry(id=event.id, position=position, record=event, status=status, by=by))
    return entries


def redo_stack(records: Sequence[Record]) -> list[int]:
    """Commands that `redo` may bring back, latest last: undos since the last new command."""
    stack: list[int] = []
    for _, event in records:
        if isinstance(event, (CommandRecorded, CommandAmended)):
            stack.clear()
        elif isinstance(event, CommandUndone):
            stack.append(event.id)
        elif isinstance(event, CommandRedone) and event.id in stack:
            stack.remove(event.id)
    return stack


def cursors(records: Iterable[Record]) -> tuple[int, int]:
    """(next command id, next seeded die) — both only ever grow, whatever was undone."""
    next_id, dice = 1, 0
    for _, event in records:
        if isinstance(event, CommandRecorded):
            next_id = max(next_id, event.id + 1)
            dice = max(dice, event.seeded_from + event.seeded_count)
    return next_id, dice
