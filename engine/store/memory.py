"""An in-memory store, for simulation and tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

from engine.errors import ConcurrencyConflict
from engine.store.base import NewEvent, StoredEvent, is_retry


class MemoryStore:
    """Streams as lists; a lock makes append atomic across threads."""

    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    def append(self, stream: str, events: Sequence[NewEvent], expected_version: int) -> int:
        with self._lock:
            log = self._streams.setdefault(stream, [])
            if len(log) != expected_version:
                stored_ids = [e.event_id for e in log[expected_version : expected_version + len(events)]]
                if is_retry(stored_ids, events):
                    return expected_version + len(events)
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
                log.append(
                    StoredEvent(
                        stream=stream,
                        position=expected_version + offset,
                        event_id=e.event_id,
                        type=e.type,
                        schema_version=e.schema_version,
                        data=e.data,
                        recorded_at=now,
                    )
                )
                self._ids.add(e.event_id)
            return len(log)

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        with self._lock:
            snapshot = list(self._streams.get(stream, ())[max(from_position, 1) - 1 :])
        return iter(snapshot)

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
        return len(log)

    def close(self) -> None:
        return None
