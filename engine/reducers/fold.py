"""The fold: a log of events folded into its ruleset's state, on one working table.

Each ruleset brings its appliers (what each fact does to its table); folding thaws a table once,
applies every event through them and freezes the result, so a long log is folded without
building a new immutable state per event. An unknown type or a gap is a named error (law 6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from engine.commands.setup import StartEncounter
from engine.errors import OutOfOrder
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.events.setup import EncounterStarted
from engine.rules.registry import DEFAULT, find_ruleset
from engine.rules.ruleset import Ruleset, apply_one

Record = tuple[int, EventBase]


def _ruleset(state: Any, first: EventBase | None) -> Ruleset[Any, Any]:
    """The state's ruleset, else the one the log's first event starts (a session log begins with
    the start command's record), else the default (an empty log)."""
    if state is not None:
        return find_ruleset(state.ruleset)
    if isinstance(first, CommandRecorded) and isinstance(first.issued, StartEncounter):
        return find_ruleset(first.issued.ruleset)
    return find_ruleset(first.ruleset if isinstance(first, EncounterStarted) else DEFAULT)


def _starts(event: EventBase | None) -> bool:
    """Whether `event` starts an encounter (a start command's record, or the started event)."""
    return isinstance(event, EncounterStarted) or (
        isinstance(event, CommandRecorded) and isinstance(event.issued, StartEncounter)
    )


def fold(events: Iterable[EventBase], state: Any = None) -> Any:
    """`fold(reduce, events)` from an empty encounter (or from `state`)."""
    stream = iter(events)
    first = next(stream, None)
    if state is not None and not state.version and _starts(first):
        state = None  # an encounter not started yet is the one its start names, whichever ruleset
    ruleset = _ruleset(state, first)
    return ruleset.fold(stream if first is None else chain((first,), stream), state)


def apply(state: Any, event: EventBase) -> Any:
    """One event applied to a stored state (a new state, one version on)."""
    return fold((event,), state)


def peek(records: Iterable[Record]) -> tuple[Record | None, Iterator[Record]]:
    """The first record (None for an empty log) and an iterator over all of them."""
    stream = iter(records)
    first = next(stream, None)
    return first, stream if first is None else chain((first,), stream)


def table_for(state: Any, first: EventBase | None) -> tuple[Ruleset[Any, Any], Any]:
    """The ruleset of a log (its state's, else its first event's) and a table to fold it on."""
    ruleset = _ruleset(state, first)
    return ruleset, ruleset.thaw(state)


def fold_positions(records: Iterable[Record], state: Any = None) -> Any:
    """Fold (position, event) pairs, checking each position is exactly version + 1 (law 6)."""
    first, stream = peek(records)
    ruleset, table = table_for(state, first[1] if first is not None else None)
    appliers = ruleset.appliers
    for position, event in stream:
        if position != table.version + 1:
            raise OutOfOrder(
                f"event at position {position} does not follow version {table.version}",
                hint="the log has a gap or is out of order",
            )
        apply_one(appliers, table, event, where=position)
    return table.freeze()
