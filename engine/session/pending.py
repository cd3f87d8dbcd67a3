"""Appends held back: what a live encounter's commands decided inside `LiveEncounter.atomic`,
kept in memory until the block ends and stored then as one append (or dropped)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events.base import EventBase
from engine.session.history import Record
from engine.store.base import NewEvent, StoredEvent


class Pending:
    """The events held for one append to `stream` at expected version `version`, in order, with
    the records they become and, by command id, where each command's events are."""

    def __init__(self, stream: str, version: int) -> None:
        self.stream = stream
        self.version = version
        self.events: list[NewEvent] = []
        self.records: list[Record] = []
        self._by_command: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self.events)

    def hold(self, new: Sequence[NewEvent], events: Sequence[EventBase]) -> None:
        """One command's events (as stored, and as decided), after those held already."""
        for item, event in zip(new, events, strict=True):
            self._by_command.setdefault(item.command_id, []).append(len(self.events))
            self.records.append((self.version + len(self.events) + 1, event))
            self.events.append(item)

    def read_command(self, command_id: str) -> list[StoredEvent]:
        """The held events of command `command_id`, as the store will hold them (none if none)."""
        return [
            self.events[i].stored(self.stream, self.version + i + 1, 0.0) for i in self._by_command.get(command_id, ())
        ]

    def truncate(self, count: int) -> None:
        """Drop every event held after the first `count` (a step inside the block that failed)."""
        if count >= len(self.events):
            return
        del self.events[count:], self.records[count:]
        self._by_command = {}
        for i, item in enumerate(self.events):
            self._by_command.setdefault(item.command_id, []).append(i)
