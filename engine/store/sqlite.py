"""The embedded default store for live sessions: one SQLite file (standard library, WAL).

One table of events, `UNIQUE(stream, position)` and `UNIQUE(event_id)`, with the command id of
each event beside it (indexed, so a retry is found at once); every append is one
`BEGIN IMMEDIATE` transaction that checks the expected version inside it, so appenders in
several threads or processes on the same file serialise and exactly one of them wins a race.

A file of format version 1 (no `command_id` column) is upgraded in place when opened, in one
transaction: every event is kept, and the events of each old append (one transaction: one
`recorded_at`) get one command id, `legacy-P` for the position P of its first event.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from engine.errors import ConcurrencyConflict, CorruptLog, EngineError, NotFound
from engine.logging import get_logger
from engine.safefile import check_not_a_database_sidecar
from engine.store.base import ClosesOnExit, EventData, NewEvent, StoredEvent

log = get_logger(__name__)

#: Written into the `meta` table of every file this module creates.
FORMAT = "ua-engine-events"
FORMAT_VERSION = 2

#: The `events` columns and their declared types, in order: the layout a file must have.
COLUMNS = (
    ("stream", "TEXT"),
    ("position", "INTEGER"),
    ("event_id", "TEXT"),
    ("command_id", "TEXT"),
    ("type", "TEXT"),
    ("schema_version", "INTEGER"),
    ("data", "BLOB"),
    ("recorded_at", "REAL"),
)
#: The layout of format version 1, upgraded when opened.
COLUMNS_V1 = tuple(column for column in COLUMNS if column[0] != "command_id")
UNIQUE_KEYS = frozenset({("stream", "position"), ("event_id",)})

#: One snapshot per stream (derived data: losing it costs a slower open, nothing else).
_SNAPSHOTS = """CREATE TABLE IF NOT EXISTS snapshots (
    stream TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    data BLOB NOT NULL
)"""

#: What a session keeps beside its log, never in it: who plays which character, the action
#: waiting on its requests (DESIGN "The table"). Not events: it never replays.
_BESIDE = """CREATE TABLE IF NOT EXISTS beside (
    stream TEXT NOT NULL,
    key TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (stream, key)
)"""

_EVENTS = """CREATE TABLE {name} (
    stream TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 1),
    event_id TEXT NOT NULL,
    command_id TEXT NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data BLOB NOT NULL,
    recorded_at REAL NOT NULL,
    UNIQUE (stream, position),
    UNIQUE (event_id)
)"""
_BY_COMMAND = "CREATE INDEX IF NOT EXISTS events_by_command ON events (stream, command_id, position)"
_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_COLUMN_NAMES = ", ".join(name for name, _ in COLUMNS)
_SELECT = f"SELECT {_COLUMN_NAMES} FROM events"
_INSERT_INTO = "INSERT INTO {table} (" + _COLUMN_NAMES + ") VALUES (" + ", ".join("?" * len(COLUMNS)) + ")"
_INSERT = _INSERT_INTO.format(table="events")
_SELECT_DATA = "SELECT position, schema_version, data FROM events WHERE stream = ? AND position >= ? ORDER BY position"
_VERSION = "SELECT COALESCE(MAX(position), 0) FROM events WHERE stream = ?"

Row = tuple[str, int, str, str, str, int, bytes, float]
#: How many events of an append are kept to name the one whose id was already stored.
_NAMED_IDS = 10_000


class SqliteStore(ClosesOnExit):
    """An event store in one SQLite file.

    Guarantees:
    - an append returns only after its transaction committed with `synchronous=FULL` in WAL
      mode, so an acknowledged append survives a crash of the process (law 7) and of the OS;
    - an append is all or nothing: the expected version is checked inside the write
      transaction; on a conflict nothing is written and `ConcurrencyConflict` is raised;
    - a command's events are found by its id (`read_command`), so a caller recognises a retry;
      a command appended twice breaks `UNIQUE(event_id)` and is a `ConcurrencyConflict`;
    - safe from several threads (each thread gets its own connection, kept until `close`)
      and several processes on the same file (writers queue on SQLite's write lock for up
      to `timeout` seconds); a forked child opens its own connections;
    - a file that is not SQLite, or not laid out as an event store, is a `CorruptLog` naming
      the file; no sqlite3 exception escapes.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = Path(path)
        check_not_a_database_sidecar(self.path)  # `D-wal` opened as a database would be D's undoing
        self.timeout = timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._registry = threading.Lock()
        self._pid = os.getpid()
        self._closed = False
        try:
            with self._translated():
                self._prepare(self._connection())
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    # -- the EventStore interface ---------------------------------------------------------

    def append(self, stream: str, events: Iterable[NewEvent], expected_version: int) -> int:
        now = time.time()
        written = 0
        appended: list[NewEvent] = []  # kept only while short, to name a repeated id

        def rows() -> Iterator[Row]:
            nonlocal written
            for e in events:
                written += 1
                if written <= _NAMED_IDS:
                    appended.append(e)
                position = expected_version + written
                yield stream, position, e.event_id, e.command_id, e.type, e.schema_version, e.data, now

        conn = self._connection()
        with self._translated(), self._transaction(conn):
            current = _version(conn, stream)
            if current != expected_version:
                raise ConcurrencyConflict(
                    f"stream {stream!r} is at version {current}, not {expected_version}",
                    hint="the stream changed; re-read it and retry",
                )
            try:
                conn.executemany(_INSERT, rows())
            except sqlite3.IntegrityError as exc:
                raise _duplicate_ids(conn, appended) from exc
            return expected_version + written

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        conn = self._connection()
        with self._translated():
            rows: list[Row] = conn.execute(
                f"{_SELECT} WHERE stream = ? AND position >= ? ORDER BY position",
                (stream, from_position),
            ).fetchall()
        return (_stored(row) for row in rows)

    def read_data(self, stream: str, from_position: int = 1) -> Iterator[EventData]:
        """One query, its rows streamed as they come (a long log is never held twice: as rows,
        then as events)."""
        conn = self._connection()
        with self._translated():
            rows: Iterator[EventData] = conn.execute(_SELECT_DATA, (stream, from_position))
            yield from rows

    def read_command(self, stream: str, command_id: str) -> list[StoredEvent]:
        conn = self._connection()
        with self._translated():
            rows: list[Row] = conn.execute(
                f"{_SELECT} WHERE stream = ? AND command_id = ? ORDER BY position", (stream, command_id)
            ).fetchall()
        return [_stored(row) for row in rows]

    def version(self, stream: str) -> int:
        conn = self._connection()
        with self._translated():
            return _version(conn, stream)

    def streams(self) -> list[str]:
        conn = self._connection()
        with self._translated():
            rows = conn.execute("SELECT DISTINCT stream FROM events ORDER BY stream").fetchall()
        return [str(name) for (name,) in rows]

    # -- snapshots: derived data that makes opening a long stream fast; never the truth ----

    def save_snapshot(self, stream: str, position: int, data: bytes) -> None:
        """Keep `data` as the stream's snapshot at `position` (replacing an older one)."""
        conn = self._connection()
        with self._translated(), self._transaction(conn):
            conn.execute(_SNAPSHOTS)
            conn.execute(
                "INSERT INTO snapshots (stream, position, data) VALUES (?, ?, ?) "
                "ON CONFLICT (stream) DO UPDATE SET position = excluded.position, data = excluded.data "
                "WHERE excluded.position > snapshots.position",
                (stream, position, data),
            )

    def latest_snapshot(self, stream: str) -> tuple[int, bytes] | None:
        """(position, data) of the stream's snapshot, if one was saved."""
        conn = self._connection()
        with self._translated():
            if "snapshots" not in _tables(conn):
                return None
            row = conn.execute("SELECT position, data FROM snapshots WHERE stream = ?", (stream,)).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    # -- beside the log: the table's players and a waiting action (not events) -------------

    def put_beside(self, stream: str, key: str, value: bytes | None) -> None:
        """Keep `value` under `key` beside the stream's log (None: forget it), in its own transaction."""
        conn = self._connection()
        with self._translated(), self._transaction(conn):
            conn.execute(_BESIDE)
            if value is None:
                conn.execute("DELETE FROM beside WHERE stream = ? AND key = ?", (stream, key))
            else:
                conn.execute(
                    "INSERT INTO beside (stream, key, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (stream, key) DO UPDATE SET value = excluded.value",
                    (stream, key, value),
                )

    def beside(self, stream: str, key: str) -> bytes | None:
        """What `put_beside` keeps under `key` for the stream, if anything."""
        conn = self._connection()
        with self._translated():
            if "beside" not in _tables(conn):
                return None
            row = conn.execute("SELECT value FROM beside WHERE stream = ? AND key = ?", (stream, key)).fetchone()
        return None if row is None else bytes(row[0])

    def delete(self, stream: str) -> int:
        """Remove a whole stream (a session a person deletes), its snapshot and participants, in
        one transaction; the number of events it had (0: there was no such stream)."""
        conn = self._connection()
        with self._translated(), self._transaction(conn):
            count = _version(conn, stream)
            conn.execute("DELETE FROM events WHERE stream = ?", (stream,))
            tables = _tables(conn)
            for table in ("snapshots", "participants", "beside"):  # what is kept beside the log goes with it
                if table in tables:
                    conn.execute(f"DELETE FROM {table} WHERE stream = ?", (stream,))
        return count

    def data_version(self) -> int:
        """A number that changes whenever another connection (another thread of this store, or
        another process) commits to the file: a cheap way to notice new events."""
        conn = self._connection()
        with self._translated():
            (value,) = conn.execute("PRAGMA data_version").fetchone()
        return int(value)

    def close(self) -> None:
        """Close every connection this store opened (in any thread). Idempotent."""
        with self._registry:
            self._closed = True
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()

    # -- connections ----------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        if self._closed:
            raise EngineError("the store is closed", where=str(self.path))
        if self._pid != os.getpid():
            self._forget_inherited_connections()
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            with self._translated():
                conn = self._connect()
            self._local.conn = conn
            with self._registry:
                self._connections.append(conn)
        return conn

    def _connect(self) -> sqlite3.Connection:
        if not self.path.parent.is_dir():
            raise NotFound(
                f"no directory {str(self.path.parent)!r} for the database",
                where=str(self.path),
                hint="create the directory first",
            )
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA synchronous = FULL")
        except BaseException:
            conn.close()
            raise
        return conn

    def _forget_inherited_connections(self) -> None:
        """After a fork, the parent's connections belong to the parent: never use or close
        them here (closing could checkpoint or remove the parent's WAL)."""
        self._local = threading.local()
        self._connections = []
        self._registry = threading.Lock()
        self._pid = os.getpid()

    # -- the file's layout ----------------------------------------------------------------

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Check an existing file's layout (refusing someone else's database before changing
        anything in it), switch to WAL, create the tables in a new file, upgrade an old one."""
        tables = _tables(conn)
        if "events" in tables:
            self._check_layout(conn, tables)
        elif tables - {"meta"}:
            raise self._not_ours(f"it has tables {sorted(tables)} but no 'events' table")
        (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() != "wal":
            log.warning("sqlite store not in WAL mode", path=str(self.path), journal_mode=mode)
        if "events" in tables and _columns(conn) == COLUMNS and "events_by_command" in _indexes(conn):
            return
        with self._transaction(conn):  # under the write lock: another process may have done it meanwhile
            if "events" not in _tables(conn):
                conn.execute(_EVENTS.format(name="events"))
            elif _columns(conn) == COLUMNS_V1:
                self._upgrade_from_v1(conn)
            conn.execute(_BY_COMMAND)
            conn.execute(_META)
            conn.execute(_SNAPSHOTS)
            conn.executemany(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                [("format", FORMAT), ("format_version", str(FORMAT_VERSION))],
            )

    def _upgrade_from_v1(self, conn: sqlite3.Connection) -> None:
        """Format 1 → 2: the same events, each with the command id of its append (see the module)."""
        (count,) = conn.execute("SELECT COUNT(*) FROM events").fetchone()
        log.warning("upgrading the event store to format 2", path=str(self.path), events=count)
        conn.execute(_EVENTS.format(name="events_v2"))
        old = conn.execute(
            "SELECT stream, position, event_id, type, schema_version, data, recorded_at FROM events"
            " ORDER BY stream, position"
        )
        conn.executemany(_INSERT_INTO.format(table="events_v2"), _legacy_rows(old))
        conn.execute("DROP TABLE events")
        conn.execute("ALTER TABLE events_v2 RENAME TO events")

    def _check_layout(self, conn: sqlite3.Connection, tables: set[str]) -> None:
        columns = _columns(conn)
        if columns not in (COLUMNS, COLUMNS_V1):
            raise self._not_ours(f"its 'events' table has columns {columns}, not {COLUMNS}")
        missing = UNIQUE_KEYS - _unique_keys(conn, "events")
        if missing:
            raise self._not_ours(f"its 'events' table lacks UNIQUE{sorted(missing)}")
        if "meta" in tables:
            rows = conn.execute("SELECT key, value FROM meta").fetchall()
            self._check_meta({str(key): str(value) for key, value in rows})

    def _check_meta(self, meta: dict[str, str]) -> None:
        if meta.get("format", FORMAT) != FORMAT:
            raise self._not_ours(f"its format is {meta['format']!r}, not {FORMAT!r}")
        version = meta.get("format_version", str(FORMAT_VERSION))
        if not version.isdigit() or int(version) > FORMAT_VERSION:
            raise CorruptLog(
                f"the file has format version {version}; this engine reads up to {FORMAT_VERSION}",
                where=str(self.path),
                hint="open it with a newer engine",
            )

    def _not_ours(self, detail: str) -> CorruptLog:
        return CorruptLog(
            f"not an event store: {detail}",
            where=str(self.path),
            hint="is this the right file? an event store is made by the engine",
        )

    # -- transactions and errors ----------------------------------------------------------

    @contextmanager
    def _transaction(self, conn: sqlite3.Connection) -> Iterator[None]:
        """`BEGIN IMMEDIATE` (take the write lock now, so the version read inside cannot go
        stale), COMMIT on success, ROLLBACK on any exception — including a conflict."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Turn sqlite3 exceptions into engine errors naming the file."""
        try:
            yield
        except sqlite3.Error as exc:
            raise _engine_error(exc, self.path, self.timeout) from exc


def _version(conn: sqlite3.Connection, stream: str) -> int:
    (version,) = conn.execute(_VERSION, (stream,)).fetchone()
    return int(version)


def _duplicate_ids(conn: sqlite3.Connection, events: Sequence[NewEvent]) -> ConcurrencyConflict:
    """The conflict to raise when an insert broke UNIQUE(event_id)."""
    for e in events:
        found = conn.execute("SELECT stream, position FROM events WHERE event_id = ?", (e.event_id,)).fetchone()
        if found is not None:
            return ConcurrencyConflict(
                f"event id {e.event_id} is already stored (stream {found[0]!r} position {found[1]})"
            )
    return ConcurrencyConflict("the batch repeats an event id")


def _stored(row: Row) -> StoredEvent:
    stream, position, event_id, command_id, type_, schema_version, data, recorded_at = row
    return StoredEvent(
        stream=stream,
        position=position,
        event_id=event_id,
        command_id=command_id,
        type=type_,
        schema_version=schema_version,
        data=bytes(data),
        recorded_at=recorded_at,
    )


def _legacy_rows(rows: Iterator[tuple[str, int, str, str, int, bytes, float]]) -> Iterator[tuple[object, ...]]:
    """Format-1 rows (in stream and position order) with the command id of their append: the
    events of one append share one `recorded_at`, taken once per transaction."""
    group: tuple[str, float] | None = None
    command_id = ""
    for stream, position, event_id, type_, schema_version, data, recorded_at in rows:
        if group != (stream, recorded_at):
            group, command_id = (stream, recorded_at), f"legacy-{position}"
        yield stream, position, event_id, command_id, type_, schema_version, data, recorded_at


def _columns(conn: sqlite3.Connection) -> tuple[tuple[str, str], ...]:
    return tuple((str(name), str(kind).upper()) for _, name, kind, *_ in conn.execute("PRAGMA table_info(events)"))


def _indexes(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
    return {str(name) for (name,) in rows}


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(name) for (name,) in rows if not str(name).startswith("sqlite_")}


def _unique_keys(conn: sqlite3.Connection, table: str) -> set[tuple[str, ...]]:
    """The column tuples of every UNIQUE index (or constraint) on `table`."""
    keys = set()
    for _, index, unique, *_ in conn.execute(f"PRAGMA index_list({table})"):
        if unique:
            info = conn.execute(f"PRAGMA index_info({index!r})").fetchall()
            keys.add(tuple(str(column) for _, _, column in sorted(info)))
    return keys


def _engine_error(exc: sqlite3.Error, path: Path, timeout: float) -> EngineError:
    """The engine error for a sqlite3 exception: corruption, a lock held too long, or other."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    where = str(path)
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return CorruptLog(
            f"not a readable SQLite event store ({exc})",
            where=where,
            hint="is this the right file? restore it from a backup or a JSON-lines export",
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return EngineError(
            f"the database stayed locked for more than {timeout:g}s",
            where=where,
            hint="another process holds a long write; retry",
        )
    return EngineError(f"SQLite failed: {exc}", where=where)
