"""The store interface and the stored form of an event."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Protocol, Self

import msgspec


class NewEvent(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """An event ready to append: its id, type tag, schema version and encoded bytes."""

    event_id: str
    type: str
    schema_version: int
    data: bytes


class StoredEvent(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """An event as a store holds it. `recorded_at` is wall-clock metadata, not part of the fact."""

    stream: str
    position: int
    event_id: str
    type: str
    schema_version: int
    data: bytes
    recorded_at: float


def event_id_for(stream: str, position: int, type_: str, data: bytes) -> str:
    """A deterministic id: the same event at the same place always gets the same id, so a
    retried append is recognised, and different content never collides."""
    h = hashlib.blake2b(digest_size=16)
    for part in (stream.encode(), str(position).encode(), type_.encode(), data):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


class EventStore(Protocol):
    """One interface, three implementations (memory, SQLite, JSON lines), one contract suite."""

    def append(self, stream: str, events: Sequence[NewEvent], expected_version: int) -> int:
        """Append `events` at positions expected_version+1…; return the new version.

        Raises ConcurrencyConflict (writing nothing) when the stream's version is not
        `expected_version` — unless these exact events (same ids) are already stored there,
        in which case the append is a no-op retry and returns the version after them.
        """
        ...

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        """Events of `stream` from `from_position` (1-based) on, in order."""
        ...

    def version(self, stream: str) -> int:
        """The position of the stream's last event (0 if it has none)."""
        ...

    def streams(self) -> list[str]:
        """Every stream with at least one event, sorted."""
        ...

    def close(self) -> None: ...


def is_retry(stored_ids: Sequence[str], events: Sequence[NewEvent]) -> bool:
    """True when the ids already stored at the positions `events` would take are exactly theirs:
    the append is a retry of one that succeeded, and must succeed again without writing."""
    return bool(events) and list(stored_ids) == [e.event_id for e in events]


class ClosesOnExit(ABC):
    """`with Store(path) as store:` closes the store at the end of the block."""

    @abstractmethod
    def close(self) -> None:
        """Release the store's files and connections."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
