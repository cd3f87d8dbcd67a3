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
                "type",
                "schema_version",
                "data",
                "recorded_at",
            ]
            duplicate_position = ("s", 1, "other-id", "t", 1, b"{}", 0.0)
            duplicate_id = ("t", 1, new_events("s", 0, 1)[0].event_id, "t", 1, b"{}", 0.0)
            for row in (duplicate_position, duplicate_id):
                with pytest.raises(sqlite3.IntegrityError):
                    raw.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", row)
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
