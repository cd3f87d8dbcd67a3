"""The fold: `apply` one event, `fold` a log; an unknown type or a gap is a named error."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgspec

from engine.errors import CorruptLog, EngineError, OutOfOrder, UnknownEventType
from engine.events.base import EventBase
from engine.state.encounter import Encounter

E = TypeVar("E", bound=EventBase)
Reducer = Callable[[Encounter, Any], Encounter]

REDUCERS: dict[type[EventBase], Reducer] = {}


def reducer(
    event_type: type[E],
) -> Callable[[Callable[[Encounter, E], Encounter]], Callable[[Encounter, E], Encounter]]:
    """Register the reducer of one event type."""

    def register(fn: Callable[[Encounter, E], Encounter]) -> Callable[[Encounter, E], Encounter]:
        REDUCERS[event_type] = fn
        return fn

    return register


def apply(state: Encounter, event: EventBase) -> Encounter:
    """Apply one event and advance the version by one."""
    fn = REDUCERS.get(type(event))
    if fn is None:
        raise UnknownEventType(f"no reducer for event type {type(event).__name__}")
    return msgspec.structs.replace(fn(state, event), version=state.version + 1)


def fold(events: Iterable[EventBase], state: Encounter | None = None) -> Encounter:
    """`fold(reduce, events)` from an empty encounter (or from `state`)."""
    current = Encounter() if state is None else state
    for event in events:
        current = apply(current, event)
    return current


def fold_positions(records: Iterable[tuple[int, EventBase]], state: Encounter | None = None) -> Encounter:
    """Fold (position, event) pairs, checking each position is exactly version + 1 (law 6)."""
    current = Encounter() if state is None else state
    for position, event in records:
        if position != current.version + 1:
            raise OutOfOrder(
                f"event at position {position} does not follow version {current.version}",
                hint="the log has a gap or is out of order",
            )
        try:
            current = apply(current, event)
        except EngineError:
            raise
        except Exception as exc:  # a reducer must never raise on a decided event (law 6)
            raise CorruptLog(f"event at position {position} ({type(event).__name__}) does not fold: {exc}") from exc
    return current
