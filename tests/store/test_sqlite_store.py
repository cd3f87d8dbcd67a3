"""The SQLite store: the contract, several processes on one file, crashes, foreign files."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from engine.errors import CorruptLog, EngineError, NotFound
from engine.store.sqlite import SqliteStore
from tests.store import processes
from tests.store.contract import StoreContract, new_events


class TestSqliteStore(StoreContract):
    durable = True

    def make_store(self, tmp_path: Path) -> SqliteStore:
        return SqliteStore(tmp_path / "events.db")


def test_the_file_is_in_wal_mode_with_the_designed_table(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with SqliteStore(path) as store:
        store.append("s", new_events("s", 0, 1), 0)
        raw = sqlite3.connect(path)
        try:
            assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            columns = [row[1] for row in raw.execute("PRAGMA table_info(events)")]
            assert columns == [
                "stream",
                "position",
                "event_id",
                "command_id",
                "type",
                "schema_version",
                "data",
                "recorded_at",
            ]
            duplicate_position = ("s", 1, "other-id", "c", "t", 1, b"{}", 0.0)
            duplicate_id = ("t", 1, new_events("s", 0, 1)[0].event_id, "c", "t", 1, b"{}", 0.0)
            for row in (duplicate_position, duplicate_id):
                with pytest.raises(sqlite3.IntegrityError):
                    raw.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
        finally:
            raw.close()


def test_every_connection_syncs_fully(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "events.db") as store:
        assert store._connection().execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_appenders_in_several_processes_one_wins_no_gap_no_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    outcomes = processes.race("sqlite", path, contenders=4, rounds=5)
    assert outcomes == {r: ["conflict"] * 3 + ["won"] for r in range(5)}
    with SqliteStore(path) as store:
        events = list(store.read(processes.STREAM))
    assert [e.position for e in events] == list(range(1, 11))
    assert len({e.event_id for e in events}) == 10
    # each round's two events come from one winner
    assert all(events[i].type == events[i + 1].type for i in range(0, 10, 2))


def test_a_killed_appender_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path, acks = tmp_path / "events.db", tmp_path / "acks"
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    for kill in range(4):
        acked = processes.kill_while_appending("sqlite", path, acks, rng)
        with SqliteStore(path) as store:
            events = list(store.read(processes.STREAM))
        context = f"seed {seed}, kill {kill}: acknowledged {acked}, found {len(events)}"
        assert [e.position for e in events] == list(range(1, len(events) + 1)), context
        assert len(events) >= acked, context
        expected = [processes.event_at(p).event_id for p in range(1, len(events) + 1)]
        assert [e.event_id for e in events] == expected, context


def test_a_file_that_is_not_sqlite_is_a_corrupt_log_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    garbage = b"these are my session notes, not a database\n" * 50
    path.write_bytes(garbage)
    with pytest.raises(CorruptLog) as caught:
        SqliteStore(path)
    assert caught.value.where == str(path)
    assert "not a readable SQLite event store" in caught.value.message
    assert path.read_bytes() == garbage  # left as it was


def test_a_database_without_the_events_table_is_a_corrupt_log(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE characters (name TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(CorruptLog) as caught:
        SqliteStore(path)
    assert caught.value.where == str(path)
    assert "no 'events' table" in caught.value.message
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # left untouched
    raw.close()


def test_an_events_table_of_another_shape_is_a_corrupt_log(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, payload TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(CorruptLog, match="columns"):
        SqliteStore(path)


def test_an_events_table_without_its_unique_keys_is_a_corrupt_log(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute(
        "CREATE TABLE events (stream TEXT, position INTEGER, event_id TEXT, type TEXT,"
        " schema_version INTEGER, data BLOB, recorded_at REAL, UNIQUE (event_id))"
    )
    raw.commit()
    raw.close()
    with pytest.raises(CorruptLog, match="UNIQUE"):
        SqliteStore(path)


def test_a_file_from_a_newer_engine_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    SqliteStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE meta SET value = '99' WHERE key = 'format_version'")
    raw.commit()
    raw.close()
    with pytest.raises(CorruptLog, match="format version 99"):
        SqliteStore(path)


def test_a_missing_directory_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        SqliteStore(tmp_path / "nowhere" / "events.db")


def test_a_closed_store_refuses_use(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "events.db")
    store.close()
    with pytest.raises(EngineError, match="closed"):
        store.version("s")


def test_a_format_1_file_is_upgraded_in_place_keeping_every_event(tmp_path: Path) -> None:
    """Files made before command ids: each old append (one `recorded_at`) becomes one command."""
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    raw.executescript(
        """CREATE TABLE events (stream TEXT NOT NULL, position INTEGER NOT NULL CHECK (position >= 1),
               event_id TEXT NOT NULL, type TEXT NOT NULL, schema_version INTEGER NOT NULL,
               data BLOB NOT NULL, recorded_at REAL NOT NULL, UNIQUE (stream, position), UNIQUE (event_id));
           CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
           INSERT INTO meta VALUES ('format', 'ua-engine-events'), ('format_version', '1');"""
    )
    rows = [
        ("s", 1, "id1", "gm_ruling", 1, b'{"type":"gm_ruling","note":"a"}', 100.5),
        ("s", 2, "id2", "gm_ruling", 1, b'{"type":"gm_ruling","note":"b"}', 100.5),
        ("s", 3, "id3", "gm_ruling", 1, b'{"type":"gm_ruling","note":"c"}', 101.0),
        ("t", 1, "id4", "gm_ruling", 1, b'{"type":"gm_ruling","note":"d"}', 100.5),
    ]
    raw.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    raw.commit()
    raw.close()
    with SqliteStore(path) as store:
        found = [
            (e.stream, e.position, e.event_id, e.type, e.schema_version, e.data, e.recorded_at)
            for name in ("s", "t")
            for e in store.read(name)
        ]
        assert found == rows
        assert [e.command_id for e in store.read("s")] == ["legacy-1", "legacy-1", "legacy-3"]
        assert [e.position for e in store.read_command("s", "legacy-1")] == [1, 2]
        store.append("s", new_events("s", 3, 1), 3)
    raw = sqlite3.connect(path)
    try:
        assert dict(raw.execute("SELECT key, value FROM meta").fetchall())["format_version"] == "2"
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        raw.close()
    with SqliteStore(path) as again:  # opening it again changes nothing
        assert again.version("s") == 4
