"""The store interface and the stored form of an event."""

from __future__ import annotations

import re
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Protocol, Self

import msgspec

from engine.errors import InvalidInput
from engine.hashing import blake2b

#: A command id: what its caller chose to name one command (one append), so that a retry with the
#: same id is recognised. Letters, digits and `._:-`, 1–128 of them (a uuid4 hex by default).
COMMAND_ID_PATTERN = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class NewEvent(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """An event ready to append: its id, the id of the command that made it, its type tag,
    schema version and encoded bytes."""

    event_id: str
    command_id: str
    type: str
    schema_version: int
    data: bytes

    def stored(self, stream: str, position: int, recorded_at: float) -> StoredEvent:
        """This event as a store holds it at `position` of `stream`."""
        return StoredEvent(
            stream=stream,
            position=position,
            event_id=self.event_id,
            command_id=self.command_id,
            type=self.type,
            schema_version=self.schema_version,
            data=self.data,
            recorded_at=recorded_at,
        )


class StoredEvent(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """An event as a store holds it. `command_id` and `recorded_at` are metadata, not part of the
    fact: the same seed and commands give the same `data` whatever ids the callers chose."""

    stream: str
    position: int
    event_id: str
    command_id: str
    type: str
    schema_version: int
    data: bytes
    recorded_at: float


#: What decoding an event needs of its stored form, and no more: (position, schema_version, data)
#: (the data names its own type). A long log is read as these, without a `StoredEvent` per event.
EventData = tuple[int, int, bytes]


def data_of(events: Iterable[StoredEvent]) -> Iterator[EventData]:
    """The `EventData` of stored events (for stores that hold `StoredEvent`s anyway)."""
    return ((e.position, e.schema_version, e.data) for e in events)


def new_command_id() -> str:
    """A fresh command id (a new intent, never a retry)."""
    return uuid.uuid4().hex


def check_command_id(command_id: str, *, where: str = "") -> str:
    """`command_id` if it is one; else `InvalidInput` saying what one looks like."""
    if not isinstance(command_id, str) or COMMAND_ID_PATTERN.fullmatch(command_id) is None:
        raise InvalidInput(
            f"not a command id: {command_id!r}"[:200],
            where=where,
            hint="a command id is 1–128 letters, digits or ._:- (a fresh one per command; the same one to retry it)",
        )
    return command_id


def event_id_for(stream: str, command_id: str, index: int) -> str:
    """The id of event `index` (0-based) of command `command_id` in `stream`: derived from where it
    comes from, never from its content, so two commands that happen to write the same events are
    two commands, and a retry of one command names the same events."""
    h = blake2b(digest_size=16)
    for part in (stream.encode(), command_id.encode(), str(index).encode()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


class EventStore(Protocol):
    """One interface, three implementations (memory, SQLite, JSON lines), one contract suite."""

    def append(self, stream: str, events: Iterable[NewEvent], expected_version: int) -> int:
        """Append `events` at positions expected_version+1…, all or nothing; return the new version.
        (`events` may be an iterator: a store that can writes it without holding it all.)

        Raises ConcurrencyConflict (writing nothing) when the stream's version is not
        `expected_version`, or when an event id is already stored (a command appended twice).
        Recognising a retry is the caller's part: `read_command` says what a command id wrote.
        """
        ...

    def read_data(self, stream: str, from_position: int = 1) -> Iterator[EventData]:
        """What `read` gives, cut to what decoding needs: (position, schema_version, data)."""
        ...

    def read_command(self, stream: str, command_id: str) -> list[StoredEvent]:
        """The events command `command_id` appended to `stream`, in order (none if it did not)."""
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


class ClosesOnExit(ABC):
    """`with Store(path) as store:` closes the store at the end of the block."""

    @abstractmethod
    def close(self) -> None:
        """Release the store's files and connections."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
