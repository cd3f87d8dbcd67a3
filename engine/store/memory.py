"""An in-memory store, for simulation and tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator

from engine.errors import ConcurrencyConflict
from engine.store.base import EventData, NewEvent, StoredEvent, data_of


class MemoryStore:
    """Streams as lists; a lock makes append atomic across threads."""

    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._ids: set[str] = set()
        #: (stream, command id) → positions of its events
        self._commands: dict[tuple[str, str], list[int]] = {}
        self._lock = threading.Lock()
        self._beside: dict[tuple[str, str], bytes] = {}

    def append(self, stream: str, events: Iterable[NewEvent], expected_version: int) -> int:
        events = list(events)
        with self._lock:
            log = self._streams.setdefault(stream, [])
            if len(log) != expected_version:
                raise ConcurrencyConflict(
                    f"stream {stream!r} is at version {len(log)}, not {expected_version}",
                    hint="the stream changed; re-read it and retry",
                )
            ids = [e.event_id for e in events]
            if len(set(ids)) != len(ids):
                raise ConcurrencyConflict("a batch repeats an event id")
            for e in events:
                if e.event_id in self._ids:
                    raise ConcurrencyConflict(f"event id {e.event_id} is already stored")
            now = time.time()
            for offset, e in enumerate(events, start=1):
                log.append(e.stored(stream, expected_version + offset, now))
                self._ids.add(e.event_id)
                self._commands.setdefault((stream, e.command_id), []).append(expected_version + offset)
            return len(log)

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        with self._lock:
            snapshot = list(self._streams.get(stream, ())[max(from_position, 1) - 1 :])
        return iter(snapshot)

    def read_data(self, stream: str, from_position: int = 1) -> Iterator[EventData]:
        return data_of(self.read(stream, from_position))

    def read_command(self, stream: str, command_id: str) -> list[StoredEvent]:
        with self._lock:
            log = self._streams.get(stream, [])
            return [log[p - 1] for p in self._commands.get((stream, command_id), ())]

    def version(self, stream: str) -> int:
        with self._lock:
            return len(self._streams.get(stream, ()))

    def streams(self) -> list[str]:
        with self._lock:
            return sorted(name for name, log in self._streams.items() if log)

    def delete(self, stream: str) -> int:
        """Remove a whole stream; the number of events it had."""
        with self._lock:
            log = self._streams.pop(stream, [])
            self._ids.difference_update(e.event_id for e in log)
            for key in [k for k in self._beside if k[0] == stream]:
                del self._beside[key]
        return len(log)

    def put_beside(self, stream: str, key: str, value: bytes | None) -> None:
        with self._lock:
            if value is None:
                self._beside.pop((stream, key), None)
            else:
                self._beside[(stream, key)] = value

    def beside(self, stream: str, key: str) -> bytes | None:
        with self._lock:
            return self._beside.get((stream, key))

    def close(self) -> None:
        return None
