"""JSON-lines logs: replay files people can read, diff and share, that also take appends.

One event a line, every stream of the log in one file:

    {"stream":"fight","position":1,"event_id":"…","type":"gm_ruling","schema_version":1,
     "recorded_at":1718000000.5,"commit":true,"data":{"type":"gm_ruling","note":"…"}}

(one line in the file). `data` is the event's JSON embedded as it is, byte for byte.
`commit` is false on every line of an append but its last: an append whose last line is
missing never happened, so a crash in the middle of a command's events cannot leave half of
them behind. A line without `commit` counts as a whole append (handy for hand-written files).

Appends take an exclusive `flock` on the file, re-read what other processes appended, check
the expected version, write the lines and fsync. POSIX only (fcntl).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated

import msgspec

from engine.errors import (
    ConcurrencyConflict,
    CorruptLog,
    EngineError,
    InvalidInput,
    NotFound,
    TornTail,
)
from engine.logging import get_logger
from engine.safefile import fsync_directory, write_file
from engine.store.base import ClosesOnExit, EventStore, NewEvent, StoredEvent, is_retry

log = get_logger(__name__)


class Line(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One line of the file: an event with its place in its stream."""

    stream: str
    position: Annotated[int, msgspec.Meta(ge=1)]
    event_id: str
    type: str
    schema_version: Annotated[int, msgspec.Meta(ge=1)]
    recorded_at: float
    commit: bool = True
    data: msgspec.Raw


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Line)


class _Log:
    """The committed events of a file, by stream, with every event id seen."""

    def __init__(self) -> None:
        self.streams: dict[str, list[StoredEvent]] = {}
        self.ids: set[str] = set()

    def version(self, stream: str) -> int:
        return len(self.streams.get(stream, ()))

    def ids_at(self, stream: str, after: int, count: int) -> list[str]:
        return [e.event_id for e in self.streams.get(stream, [])[max(after, 0) : after + count]]

    def add(self, events: Iterable[StoredEvent]) -> None:
        for e in events:
            self.streams.setdefault(e.stream, []).append(e)
            self.ids.add(e.event_id)


class _Scan(msgspec.Struct, kw_only=True):
    """What reading new bytes of the file found: whole appends, and what follows them."""

    events: list[StoredEvent]
    committed_bytes: int
    committed_lines: int
    torn: TornTail | None


class JsonlStore(ClosesOnExit):
    """An event store in one JSON-lines file.

    Guarantees:
    - an append returns only after its lines were written and fsynced, so an acknowledged
      append survives a crash (law 7); an append is all or nothing (see `commit`);
    - the expected version is checked under an exclusive lock on the file, after re-reading
      what other processes appended, so exactly one of several racing appenders wins and the
      rest get `ConcurrencyConflict` with nothing written; a retry of an append that
      succeeded (the same ids at the same positions) writes nothing and returns its version;
    - on open, a torn tail (an append cut short by a crash) is reported in `torn_tail`, never
      glued to: the next append first truncates it (it was never acknowledged, so nothing
      acknowledged is lost) and logs a warning;
    - any other damage — a bad line followed by good ones, positions that are not
      consecutive, a repeated event id — is a `CorruptLog` naming the file and line.

    The whole log is held in memory; reads re-read only what was appended since.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        #: the unfinished append at the end of the file, if any (cleared once truncated)
        self.torn_tail: TornTail | None = None
        self._log = _Log()
        self._committed_bytes = 0
        self._committed_lines = 0
        self._lock = threading.Lock()
        self._closed = False
        self._pid = os.getpid()
        self._fd = _open(self.path)
        try:
            with self._locked(fcntl.LOCK_SH):
                self._catch_up()
        except BaseException:
            os.close(self._fd)
            raise
        if self.torn_tail is not None:
            log.warning("torn tail in event log", path=str(self.path), error=str(self.torn_tail))

    def __repr__(self) -> str:
        return f"JsonlStore({str(self.path)!r})"

    # -- the EventStore interface ---------------------------------------------------------

    def append(self, stream: str, events: Sequence[NewEvent], expected_version: int) -> int:
        for e in events:
            _check_data(e.event_id, e.data)
        with self._locked(fcntl.LOCK_EX):
            self._catch_up()
            self._drop_torn_tail()
            current = self._log.version(stream)
            if current != expected_version:
                stored = self._log.ids_at(stream, expected_version, len(events))
                if is_retry(stored, events):
                    return expected_version + len(events)
                raise ConcurrencyConflict(
                    f"stream {stream!r} is at version {current}, not {expected_version}",
                    hint="the stream changed; re-read it and retry",
                )
            self._check_new_ids(events)
            if not events:
                return current
            stored_events = _stored(stream, expected_version, events, time.time())
            self._write(encode_lines(stored_events))
            self._log.add(stored_events)
            self._committed_lines += len(stored_events)
            return current + len(stored_events)

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        with self._locked(fcntl.LOCK_SH):
            self._catch_up()
            snapshot = list(self._log.streams.get(stream, ())[max(from_position, 1) - 1 :])
        return iter(snapshot)

    def version(self, stream: str) -> int:
        with self._locked(fcntl.LOCK_SH):
            self._catch_up()
            return self._log.version(stream)

    def streams(self) -> list[str]:
        with self._locked(fcntl.LOCK_SH):
            self._catch_up()
            return sorted(name for name, events in self._log.streams.items() if events)

    def close(self) -> None:
        """Close the file. Idempotent."""
        with self._lock:
            if not self._closed:
                self._closed = True
                os.close(self._fd)

    # -- reading --------------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Read whatever was appended since we last looked (by us or another process)."""
        size = os.fstat(self._fd).st_size
        if size < self._committed_bytes:
            raise CorruptLog(
                f"the file shrank from {self._committed_bytes} to {size} bytes while open",
                where=str(self.path),
                hint="another program rewrote or truncated it; reopen it",
            )
        if size == self._committed_bytes:
            self.torn_tail = None
            return
        new = _read_from(self._fd, self._committed_bytes, size)
        scan = _scan_lines(new, self.path, self._log, first_line=self._committed_lines + 1)
        self._log.add(scan.events)
        self._committed_bytes += scan.committed_bytes
        self._committed_lines = scan.committed_lines
        self.torn_tail = scan.torn

    # -- writing --------------------------------------------------------------------------

    def _drop_torn_tail(self) -> None:
        """Truncate an unfinished append (under the exclusive lock) before writing after it."""
        if self.torn_tail is None:
            return
        size = os.fstat(self._fd).st_size
        os.ftruncate(self._fd, self._committed_bytes)
        os.fsync(self._fd)
        log.warning(
            "dropped torn tail of event log",
            path=str(self.path),
            line=self._committed_lines + 1,
            bytes=size - self._committed_bytes,
            error=str(self.torn_tail),
        )
        self.torn_tail = None

    def _check_new_ids(self, events: Sequence[NewEvent]) -> None:
        seen: set[str] = set()
        for e in events:
            if e.event_id in self._log.ids or e.event_id in seen:
                raise ConcurrencyConflict(f"event id {e.event_id} is already stored")
            seen.add(e.event_id)

    def _write(self, payload: bytes) -> None:
        """Write every byte, then fsync; on failure cut the file back to its last commit."""
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError as exc:
            with suppress(OSError):  # if this fails too, lines without a commit are torn
                os.ftruncate(self._fd, self._committed_bytes)
            raise EngineError(
                f"could not write the event log: {exc.strerror or exc}",
                where=str(self.path),
                hint="check free disk space and permissions, then re-read the stream",
            ) from exc
        self._committed_bytes += len(payload)

    # -- locking --------------------------------------------------------------------------

    @contextmanager
    def _locked(self, mode: int) -> Iterator[None]:
        """This process's threads one at a time, and `flock(mode)` against other processes."""
        self._reopen_after_fork()
        with self._lock:
            if self._closed:
                raise EngineError("the store is closed", where=str(self.path))
            fcntl.flock(self._fd, mode)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _reopen_after_fork(self) -> None:
        """A forked child shares the parent's open file, and with it the parent's flock:
        give it its own, so the two exclude each other again."""
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        self._lock = threading.Lock()
        if not self._closed:
            self._fd = _open(self.path)


# -- lines ------------------------------------------------------------------------------------


def encode_line(event: StoredEvent, *, commit: bool = True) -> bytes:
    """One line, newline included. `data` must be one JSON value on one line."""
    line = Line(
        stream=event.stream,
        position=event.position,
        event_id=event.event_id,
        type=event.type,
        schema_version=event.schema_version,
        recorded_at=event.recorded_at,
        commit=commit,
        data=msgspec.Raw(event.data),
    )
    return _encoder.encode(line) + b"\n"


def encode_lines(events: Sequence[StoredEvent]) -> bytes:
    """The lines of one append: `commit` only on the last."""
    last = len(events) - 1
    return b"".join(encode_line(e, commit=i == last) for i, e in enumerate(events))


def _scan_lines(buf: bytes, path: Path, known: _Log | None = None, *, first_line: int = 1) -> _Scan:
    """Check the lines in `buf` (which follows the committed events `known`).

    Returns the events of every whole append, and as `torn` what follows the last one when
    it is an append cut short: an incomplete or invalid last line, or lines whose append
    has no commit line. A bad line with good lines after it raises `CorruptLog`.
    """
    known = known if known is not None else _Log()
    checker = _Checker(path, known)
    events: list[StoredEvent] = []
    pending: list[StoredEvent] = []
    committed_bytes = 0
    line_no = first_line - 1
    start = 0
    while start < len(buf):
        line_no += 1
        end = buf.find(b"\n", start)
        if end == -1:
            break  # no newline: the write stopped in this line
        line = _decode(buf, start, end, path, line_no)
        if line is None:
            break  # the very last line is not valid: the write stopped in it
        event = checker.admit(line, line_no, pending)
        pending.append(event)
        start = end + 1
        if line.commit:
            events.extend(pending)
            pending = []
            committed_bytes = start
    committed_lines = first_line - 1 + len(events)
    torn = None
    if committed_bytes < len(buf):
        torn = _torn(path, committed_lines + 1, len(buf) - committed_bytes, bool(pending))
    return _Scan(
        events=events,
        committed_bytes=committed_bytes,
        committed_lines=committed_lines,
        torn=torn,
    )


def _decode(buf: bytes, start: int, end: int, path: Path, line_no: int) -> Line | None:
    """The line in buf[start:end]; None when it is bad but is the file's last line."""
    try:
        return _decoder.decode(buf[start:end])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        if end + 1 == len(buf):
            return None
        raise CorruptLog(
            f"line {line_no} is not an event line: {exc}",
            where=f"{path}:{line_no}",
            hint="the file was damaged or edited by hand; fix or remove that line",
        ) from exc


class _Checker:
    """Checks each line against what precedes it: consecutive positions, unique ids."""

    def __init__(self, path: Path, known: _Log) -> None:
        self.path = path
        self.known = known
        self.versions: dict[str, int] = {}
        self.ids: set[str] = set()

    def admit(self, line: Line, line_no: int, pending: Sequence[StoredEvent]) -> StoredEvent:
        where = f"{self.path}:{line_no}"
        if pending and pending[0].stream != line.stream:
            raise CorruptLog(
                f"line {line_no} starts a new append, but the append of stream "
                f"{pending[0].stream!r} before it has no commit line",
                where=where,
            )
        version = self.versions.get(line.stream, self.known.version(line.stream))
        if line.position != version + 1:
            raise CorruptLog(
                f"line {line_no}: stream {line.stream!r} position {line.position} follows position {version}",
                where=where,
                hint="positions of a stream must be consecutive from 1",
            )
        if line.event_id in self.ids or line.event_id in self.known.ids:
            raise CorruptLog(f"line {line_no}: event id {line.event_id} repeats", where=where)
        self.versions[line.stream] = line.position
        self.ids.add(line.event_id)
        return StoredEvent(
            stream=line.stream,
            position=line.position,
            event_id=line.event_id,
            type=line.type,
            schema_version=line.schema_version,
            data=bytes(line.data),
            recorded_at=line.recorded_at,
        )


def _torn(path: Path, line_no: int, size: int, uncommitted: bool) -> TornTail:
    what = "an append without its commit line" if uncommitted else "an incomplete last line"
    return TornTail(
        f"the file ends in {what}: {size} bytes from line {line_no} were never acknowledged",
        where=f"{path}:{line_no}",
        hint="a crash cut an append short; the next append drops these bytes",
    )


# -- files ------------------------------------------------------------------------------------


def _check_data(event_id: str, data: bytes) -> None:
    """`data` goes into the line as it is: it must be one JSON value without line breaks."""
    if b"\n" in data or b"\r" in data:
        raise InvalidInput(
            f"event {event_id} data has a line break",
            hint="encode events as compact JSON (msgspec does)",
        )
    try:
        msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InvalidInput(
            f"event {event_id} data is not JSON: {exc}",
            hint="a JSON-lines log embeds each event's JSON",
        ) from exc


def _stored(stream: str, version: int, events: Sequence[NewEvent], now: float) -> list[StoredEvent]:
    return [
        StoredEvent(
            stream=stream,
            position=version + i,
            event_id=e.event_id,
            type=e.type,
            schema_version=e.schema_version,
            data=e.data,
            recorded_at=now,
        )
        for i, e in enumerate(events, start=1)
    ]


def _open(path: Path) -> int:
    existed = path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
    except FileNotFoundError as exc:
        raise NotFound(
            f"no directory {str(path.parent)!r} for the log",
            where=str(path),
            hint="create the directory first",
        ) from exc
    except OSError as exc:
        raise EngineError(f"cannot open the log: {exc.strerror or exc}", where=str(path)) from exc
    if not existed:
        fsync_directory(path.parent)
    return fd


def _read_from(fd: int, start: int, end: int) -> bytes:
    chunks = []
    while start < end:
        chunk = os.pread(fd, end - start, start)
        if not chunk:
            break
        chunks.append(chunk)
        start += len(chunk)
    return b"".join(chunks)


def write_log(path: str | os.PathLike[str], events: Iterable[StoredEvent], *, force: bool = False) -> int:
    """Write `events` (every stream's, each stream in order) as a new JSON-lines log at `path`;
    return how many were written. An existing file is refused unless `force` (see
    `engine.safefile.write_file`: never a database or anything but a regular file; atomic).

    The result always reopens: it is checked like any log (consecutive positions, unique
    ids, JSON data) before it is written. Each event is its own append.
    """
    events = list(events)
    for e in events:
        _check_data(e.event_id, e.data)
    payload = b"".join(encode_line(e) for e in events)
    _scan_lines(payload, Path(path))
    write_file(path, payload, force=force)
    return len(events)


def export_log(store: EventStore, path: str | os.PathLike[str], *, force: bool = False) -> int:
    """Write every stream of `store` to a JSON-lines log at `path` (see `write_log`)."""
    return write_log(path, (e for stream in store.streams() for e in store.read(stream)), force=force)
