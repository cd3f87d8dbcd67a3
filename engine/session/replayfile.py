"""Reading a session out of a JSON-lines replay file: every line checked (checksum, positions,
whole commands) before anything is used, one stream chosen, a torn tail refused unless asked to
recover the whole commands before it.

A file of up to `IN_MEMORY_BYTES` is decoded once and kept in memory. A larger one is never held
whole: its records are read from the file again each time they are gone through (`LogRecords`),
so memory stays flat however long the log; the file's size limit is `UA_MAX_LOG_BYTES`
(`engine.store.logfile`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from engine.collector import collection_paused
from engine.errors import CorruptLog, InvalidInput, NotFound, TornTail
from engine.session.encoding import decoded
from engine.session.history import Record
from engine.store.base import StoredEvent
from engine.store.logfile import LogFile

#: Logs up to this size (bytes) are decoded once and kept in memory; larger ones stream.
IN_MEMORY_BYTES = 64 * 2**20


class LogRecords(Sequence[Record]):
    """The records of one stream of a log file, read from the file each time they are iterated
    (the first `length` of them). A prefix `records[:n]` is another such view."""

    def __init__(self, log: LogFile, stream: str, length: int) -> None:
        self.log = log
        self.stream = stream
        self.length = length

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[Record]:
        for stored, _ in self._stored():
            yield stored

    def command_ids(self) -> Iterator[str]:
        for _, command_id in self._stored():
            yield command_id

    def _stored(self) -> Iterator[tuple[Record, str]]:
        seen = 0
        versions = SchemaVersions(self.log.path)
        for stored in self.log.events():
            if stored.stream != self.stream:
                continue
            if seen == self.length:
                return
            seen += 1
            versions.check(stored)
            yield (stored.position, decoded(stored)), stored.command_id
        if seen != self.length:
            raise CorruptLog("the file changed while it was read", where=str(self.log.path), hint="read it again")

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> LogRecords: ...

    def __getitem__(self, index: int | slice) -> Record | LogRecords:
        if isinstance(index, slice):
            if index.start not in (None, 0) or index.step not in (None, 1):
                raise TypeError("a log file's records are read from the start")
            stop = self.length if index.stop is None else max(0, min(self.length, index.stop))
            return LogRecords(self.log, self.stream, stop)
        if not -self.length <= index < self.length:
            raise IndexError(index)
        wanted = index % self.length
        return next(record for k, record in enumerate(self) if k == wanted)


class SchemaVersions:
    """Along a stream, an event type's schema version never goes down: each append was written by
    an engine no older than the one before (an older one refuses to read a newer version), so a
    line of an older version after a newer one had its version changed."""

    def __init__(self, path: os.PathLike[str] | str) -> None:
        self.path = path
        self.seen: dict[tuple[str, str], tuple[int, int]] = {}

    def check(self, stored: StoredEvent) -> None:
        key = (stored.stream, stored.type)
        version, position = self.seen.get(key, (0, 0))
        if stored.schema_version < version:
            raise CorruptLog(
                f"event {stored.position} is a {stored.type!r} of schema version {stored.schema_version}, "
                f"after one of version {version} at event {position}",
                where=f"{self.path} event {stored.position}",
                hint="the line's schema version was changed; restore it from where it came from",
            )
        if stored.schema_version != version:
            self.seen[key] = (stored.schema_version, stored.position)


@dataclass(frozen=True)
class ReplayLog:
    """One stream of a log file: its records, and the command id of each (in the same order)."""

    path: str
    stream: str
    records: Sequence[Record]
    #: what a recovery left out (the torn tail), if anything
    dropped: TornTail | None = None
    _command_ids: list[str] = field(default_factory=list)

    def command_ids(self) -> Iterable[str]:
        """The command id of each record, in order (may be gone through again, as the records)."""
        if isinstance(self.records, LogRecords):
            return _CommandIds(self.records)
        return self._command_ids


@dataclass(frozen=True)
class _CommandIds(Iterable[str]):
    """The command ids of a log file's records, read from the file each time they are gone through."""

    records: LogRecords

    def __iter__(self) -> Iterator[str]:
        return self.records.command_ids()


def read_replay(
    path: str | os.PathLike[str],
    stream: str | None = None,
    *,
    recover: bool = False,
    unchecked: bool = False,
) -> ReplayLog:
    """The records of one stream of a log file (the only one, or `stream`). A file that ends inside
    a command is a `TornTail`, unless `recover`: then the whole commands before it are read, and
    the tail comes back as `dropped`."""
    log = LogFile(path, unchecked=unchecked)
    in_memory = log.size <= IN_MEMORY_BYTES
    counts: dict[str, int] = {}
    kept: dict[str, tuple[list[Record], list[str]]] = {}
    versions = SchemaVersions(log.path)
    with collection_paused():
        for stored in log.events():
            counts[stored.stream] = counts.get(stored.stream, 0) + 1
            versions.check(stored)
            if in_memory:
                records, command_ids = kept.setdefault(stored.stream, ([], []))
                records.append((stored.position, decoded(stored)))
                command_ids.append(stored.command_id)
    if log.torn is not None and not recover:
        raise TornTail(log.torn.message, where=log.torn.where, hint="--recover reads the whole commands before it")
    names = sorted(counts)
    if stream is None:
        if len(names) != 1:
            raise InvalidInput(f"{path} holds {len(names)} streams", where=str(path), hint="name one with --stream")
        stream = names[0]
    elif stream not in counts:
        raise NotFound(f"no stream {stream!r} in {path}", hint=f"streams: {', '.join(names)}")
    if not in_memory:
        return ReplayLog(str(path), stream, LogRecords(log, stream, counts[stream]), log.torn)
    records, command_ids = kept[stream]
    return ReplayLog(str(path), stream, records, log.torn, command_ids)
