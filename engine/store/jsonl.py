"""JSON-lines logs as a store: replay files people can read, diff and share, that also take appends.

Every stream of the log is in one file, in the format of `engine.store.logfile` (one checksummed
event a line, `commit` on the last line of each append). Appends take an exclusive `flock` on the
file, re-read what other processes appended, check the expected version, write the lines and
fsync. POSIX only (fcntl).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from engine.errors import ConcurrencyConflict, CorruptLog, EngineError, NotFound, TornTail
from engine.logging import get_logger
from engine.safefile import check_not_a_database_sidecar, fsync_directory, write_all, write_file
from engine.store.base import ClosesOnExit, EventData, EventStore, NewEvent, StoredEvent, data_of
from engine.store.logfile import Index, Scanner, check_data, encode_commands, encode_lines

log = get_logger(__name__)


class _Log(Index):
    """The committed events of a file, by stream, with every event id and command seen."""

    def __init__(self) -> None:
        super().__init__()
        self.streams: dict[str, list[StoredEvent]] = {}
        self.positions: dict[tuple[str, str], list[int]] = {}

    def add(self, events: Sequence[StoredEvent]) -> None:
        super().add(events)
        for e in events:
            self.streams.setdefault(e.stream, []).append(e)
            self.positions.setdefault((e.stream, e.command_id), []).append(e.position)


class JsonlStore(ClosesOnExit):
    """An event store in one JSON-lines file.

    Guarantees:
    - an append returns only after its lines were written and fsynced, so an acknowledged
      append survives a crash (law 7); an append is all or nothing (see `commit`);
    - the expected version is checked under an exclusive lock on the file, after re-reading
      what other processes appended, so exactly one of several racing appenders wins and the
      rest get `ConcurrencyConflict` with nothing written; an event id already stored (a
      command appended twice) is a conflict too;
    - on open, a torn tail (an append cut short by a crash) is reported in `torn_tail`, never
      glued to: the next append first truncates it (it was never acknowledged, so nothing
      acknowledged is lost) and logs a warning; a last line missing only its newline is kept,
      and the next append starts on a new line;
    - any other damage — an edited line, a bad line followed by good ones, positions that are
      not consecutive, a repeated event id — is a `CorruptLog` naming the file and line.

    The whole log is held in memory; reads re-read only what was appended since. (To read a
    large log once, `engine.store.logfile.LogFile` streams it instead.)
    """

    def __init__(self, path: str | os.PathLike[str], *, unchecked: bool = False) -> None:
        self.path = Path(path)
        self.unchecked = unchecked
        #: the unfinished append at the end of the file, if any (cleared once truncated)
        self.torn_tail: TornTail | None = None
        self._log = _Log()
        self._committed_bytes = 0
        self._committed_lines = 0
        self._needs_newline = False
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

    def __repr__(self) -> str:
        return f"JsonlStore({str(self.path)!r})"

    # -- the EventStore interface ---------------------------------------------------------

    def append(self, stream: str, events: Iterable[NewEvent], expected_version: int) -> int:
        events = list(events)
        for e in events:
            check_data(e.event_id, e.data)
        with self._locked(fcntl.LOCK_EX):
            self._catch_up()
            self._drop_torn_tail()
            current = self._log.version(stream)
            if current != expected_version:
                raise ConcurrencyConflict(
                    f"stream {stream!r} is at version {current}, not {expected_version}",
                    hint="the stream changed; re-read it and retry",
                )
            self._check_new_ids(events)
            if not events:
                return current
            now = time.time()
            stored_events = [e.stored(stream, expected_version + i, now) for i, e in enumerate(events, start=1)]
            self._write(encode_lines(stored_events))
            self._log.add(stored_events)
            self._committed_lines += len(stored_events)
            return current + len(stored_events)

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        with self._locked(fcntl.LOCK_SH):
            self._catch_up()
            snapshot = list(self._log.streams.get(stream, ())[max(from_position, 1) - 1 :])
        return iter(snapshot)

    def read_data(self, stream: str, from_position: int = 1) -> Iterator[EventData]:
        return data_of(self.read(stream, from_position))

    def read_command(self, stream: str, command_id: str) -> list[StoredEvent]:
        with self._locked(fcntl.LOCK_SH):
            self._catch_up()
            events = self._log.streams.get(stream, [])
            return [events[p - 1] for p in self._log.positions.get((stream, command_id), ())]

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
        scanner = Scanner(self.path, self._log, first_line=self._committed_lines + 1, unchecked=self.unchecked)
        scanner.feed(_read_from(self._fd, self._committed_bytes, size))
        _, self.torn_tail = scanner.finish()
        self._committed_bytes += scanner.committed_bytes
        self._committed_lines = scanner.committed_lines
        if scanner.committed_bytes:
            self._needs_newline = scanner.ends_without_newline

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
        ids = self._log.ids if self._log.ids is not None else set()
        for e in events:
            if e.event_id in ids or e.event_id in seen:
                raise ConcurrencyConflict(f"event id {e.event_id} is already stored")
            seen.add(e.event_id)

    def _write(self, payload: bytes) -> None:
        """Write every byte, then fsync; on failure cut the file back to its last commit."""
        if self._needs_newline:
            payload = b"\n" + payload
        try:
            write_all(self._fd, payload)
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
        self._needs_newline = False

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


# -- files ------------------------------------------------------------------------------------


def _open(path: Path) -> int:
    check_not_a_database_sidecar(path)  # appending to a database's `-wal` would be its undoing
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


def log_lines(events: Iterable[StoredEvent], path: str | os.PathLike[str] = "<log>") -> Iterator[bytes]:
    """The lines of a new log of `events` (every stream's, each stream in order), checked as they
    are made — consecutive positions, unique ids, JSON data — so what is written always reopens.
    Each command's events are one append."""
    scanner = Scanner(Path(path), Index())
    for line in encode_commands(events):
        scanner.feed(line)
        yield line
    scanner.finish()


def write_log(path: str | os.PathLike[str], events: Iterable[StoredEvent], *, force: bool = False) -> int:
    """Write `events` (every stream's, each stream in order) as a new JSON-lines log at `path`;
    return how many were written. An existing file is refused unless `force` (see
    `engine.safefile.write_file`: never a database or anything but a regular file; atomic).
    Nothing takes the name unless every line checks (see `log_lines`)."""
    count = 0

    def counted() -> Iterator[bytes]:
        nonlocal count
        for line in log_lines(events, path):
            count += 1
            yield line

    write_file(path, counted(), force=force)
    return count


def export_log(store: EventStore, path: str | os.PathLike[str], *, force: bool = False) -> int:
    """Write every stream of `store` to a JSON-lines log at `path` (see `write_log`)."""
    return write_log(path, (e for stream in store.streams() for e in store.read(stream)), force=force)
