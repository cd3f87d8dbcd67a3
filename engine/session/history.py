"""The history of a session log: which commands count (undo, redo, amend) and the fold that
skips the rest. Nothing is ever deleted: markers say what no longer counts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from engine.commands.base import CommandBase
from engine.commands.combat import BeginFight
from engine.errors import InvalidInput
from engine.events.base import EventBase
from engine.events.commands import MARKER_TYPES, CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.reducers.fold import table_for
from engine.rules.ruleset import apply_effective

Record = tuple[int, EventBase]


class CommandEntry(msgspec.Struct, frozen=True):
    """One recorded command: where it sits, its record, and whether it still counts."""

    id: int
    position: int
    record: CommandRecorded[CommandBase]
    status: str  # "effective", "undone" or "superseded"
    by: int = 0  # position of the marker that undid or superseded it


def excluded(records: Iterable[Record]) -> tuple[set[int], dict[int, int], dict[int, int]]:
    """(commands that do not count, undone → marker position, superseded → marker position)."""
    undone: dict[int, int] = {}
    superseded: dict[int, int] = {}
    for position, event in records:
        if type(event) not in MARKER_TYPES:  # one look-up for the many events that are not markers
            continue
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
    first = next((e for _, e in records if type(e) not in MARKER_TYPES and e.command not in skip), None)
    ruleset, table = table_for(state, first)
    apply_effective(ruleset.appliers, table, records, skip)
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


def summary_of(record: CommandRecorded[CommandBase]) -> str:
    """What an undo or redo marker says of the command it names ("attack Rosa → Vic")."""
    issued = record.issued
    tag = str(type(issued).__struct_config__.tag)
    actor = str(getattr(issued, "actor", ""))
    target = str(getattr(issued, "target", ""))
    return " ".join(p for p in (tag, actor, f"→ {target}" if target else "") if p)


def cursors(records: Iterable[Record]) -> tuple[int, int]:
    """(next command id, next seeded die) — both only ever grow, whatever was undone."""
    next_id, dice = 1, 0
    for _, event in records:
        if type(event) is CommandRecorded:  # (not `isinstance`: see MARKER_TYPES)
            next_id = max(next_id, event.id + 1)
            dice = max(dice, event.seeded_from + event.seeded_count)
    return next_id, dice


def fork_point(records: Sequence[Record], at: int) -> Any:
    """The state after event `at` of the history that counts now, to fight the rest of from.
    `InvalidInput` naming the event to use instead when `at` is an event of a command an undo or
    an amend took out of the history, or a point before the fight began."""
    entries = command_entries(records)
    by_id = {e.id: e for e in entries}
    skip, _, superseded = excluded(records)
    entry = by_id.get(records[at - 1][1].command)  # a marker's is 0: markers are in the history
    if entry is not None and entry.status != "effective":
        raise _not_in_history(records, entries, entry, superseded, at)
    state = effective_fold(records[:at], also_skip=skip)
    if state.fight.phase == "setup":
        begun = _fight_begins(entries, records)
        hint = f"fork from event {begun} or later" if begun else "begin the fight first, then fork"
        raise InvalidInput(f"event {at} is before the fight began: there is nothing to fight out", hint=hint)
    return state


def _last_event(records: Sequence[Record], command: int) -> int:
    return max(p for p, e in records if e.command == command)


def _not_in_history(
    records: Sequence[Record],
    entries: list[CommandEntry],
    entry: CommandEntry,
    superseded: dict[int, int],
    at: int,
) -> InvalidInput:
    if entry.status == "superseded":
        replaced = entry.id
        while replaced in superseded:  # an amend of an amend: follow to the command that counts
            marker = records[superseded[replaced] - 1][1]
            assert isinstance(marker, CommandAmended)
            replaced = marker.replacements[marker.superseded.index(replaced)]
        return InvalidInput(
            f"event {at} is part of command #{entry.id}, which the amend at event {entry.by} replaced",
            hint=f"fork from event {_last_event(records, replaced)}, where its replacement #{replaced} ends",
        )
    earlier = [e for e in entries if e.status == "effective" and e.position < entry.position]
    use = f"event {_last_event(records, earlier[-1].id)}" if earlier else "a later event"
    return InvalidInput(
        f"event {at} is part of command #{entry.id}, which was undone at event {entry.by}",
        hint=f"fork from {use}, the last that still counts before it",
    )


def _fight_begins(entries: list[CommandEntry], records: Sequence[Record]) -> int:
    """The last event of the command that began the fight, in the current history (0: none)."""
    for entry in entries:
        if entry.status == "effective" and isinstance(entry.record.issued, BeginFight):
            return _last_event(records, entry.id)
    return 0
