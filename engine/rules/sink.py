"""The sink: where the rules hand every fact they decide. Each fact is applied to the working
table at once (so the rules see the consequences of their own facts) by its ruleset's applier —
the same function that folds a stored log — and counted; a recording sink also keeps it as the
event the log will hold, a counting sink does not (a batch fight, where no event needs to exist)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from engine.errors import UnknownEventType
from engine.events.base import EventBase

T = TypeVar("T")
Appliers = Mapping[type[EventBase], Callable[[T, Any], None]]
#: Per event type, a function told of each such fact (the batch tallies wounds dealt this way).
Watchers = Mapping[type[EventBase], Callable[[Any], None]]

_NO_WATCHERS: Watchers = {}


class Sink(Generic[T]):
    """Applies each fact to `table` and counts it; keeps it in `events` when `record`."""

    __slots__ = ("_appliers", "_watchers", "count", "events", "table")

    def __init__(self, table: T, appliers: Appliers[T], *, record: bool = True, watchers: Watchers = _NO_WATCHERS):
        self.table = table
        self._appliers = appliers
        self._watchers = watchers
        self.count = 0
        self.events: list[EventBase] | None = [] if record else None

    def emit(self, *events: EventBase) -> None:
        appliers, table, kept, watchers = self._appliers, self.table, self.events, self._watchers
        for event in events:
            applier = appliers.get(type(event))
            if applier is None:
                raise UnknownEventType(f"no applier for event type {type(event).__name__}")
            applier(table, event)
            table.version += 1  # type: ignore[attr-defined]
            self.count += 1
            if kept is not None:
                kept.append(event)
            if watchers:
                watcher = watchers.get(type(event))
                if watcher is not None:
                    watcher(event)

    @property
    def recorded(self) -> list[EventBase]:
        """The events kept (a recording sink's)."""
        assert self.events is not None, "a counting sink keeps no events"
        return self.events
