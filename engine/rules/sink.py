"""The sink: where the rules hand every fact they decide. Each fact is applied to the working
table at once (so the rules see the consequences of their own facts) by its ruleset's applier —
the same function that folds a stored log — and counted; a recording sink also keeps it as the
event the log will hold, a counting sink does not (a batch fight, where no event needs to exist)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

from engine.errors import UnknownEventType
from engine.events.base import EventBase


class TableBase:
    """What every ruleset's working table has: its version, one on for each fact applied. (A
    compiled build reads and writes it directly when the sink's table is typed by this base.)"""

    __slots__ = ("version",)

    version: int


T = TypeVar("T")
Appliers = Mapping[type[EventBase], Callable[[T, Any], None]]


class Sink(Generic[T]):
    """Applies each fact to `table` and counts it; keeps it in `events` when `record`."""

    __slots__ = ("_appliers", "count", "events", "table")

    def __init__(self, table: T, appliers: Appliers[T], *, record: bool = True) -> None:
        self.table = table
        #: a dict, for a compiled build's fast lookups (a mapping given is copied into one)
        self._appliers: dict[type[EventBase], Callable[[T, Any], None]] = (
            appliers if isinstance(appliers, dict) else dict(appliers)
        )
        self.count = 0
        self.events: list[EventBase] | None = [] if record else None

    def emit(self, *events: EventBase) -> None:
        for event in events:
            self._apply(event)

    def emit_all(self, events: Sequence[EventBase]) -> None:
        for event in events:
            self._apply(event)

    def _apply(self, event: EventBase) -> None:
        applier = self._appliers.get(type(event))
        if applier is None:
            raise UnknownEventType(f"no applier for event type {type(event).__name__}")
        table = self.table
        applier(table, event)
        cast(TableBase, table).version += 1
        self.count += 1
        kept = self.events
        if kept is not None:
            kept.append(event)

    @property
    def recording(self) -> bool:
        """Whether events are kept (built at all): a counting sink only counts facts."""
        return self.events is not None

    def applied(self, event: EventBase | None) -> None:
        """A fact the rules applied to the table themselves, with the same effect function its
        event's applier calls; its event (built only when recording) is kept."""
        table = cast(TableBase, self.table)
        table.version += 1
        self.count += 1
        if event is not None:
            kept = self.events
            if kept is not None:
                kept.append(event)

    @property
    def recorded(self) -> list[EventBase]:
        """The events kept (a recording sink's)."""
        assert self.events is not None, "a counting sink keeps no events"
        return self.events
