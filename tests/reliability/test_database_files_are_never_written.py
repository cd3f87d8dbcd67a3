"""Issue 26: a SQLite database's own files (`D-wal`, `D-shm`, `D-journal`) are never written, with
--force or without, whether they exist or not — by every command that writes a file the user
names, and by a store opened there. Replacing the `-shm` of a database a server has open made the
server and the CLI see different versions and lose acknowledged commands."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import OutputError
from engine.safefile import check_target, write_file
from engine.store.jsonl import JsonlStore
from engine.store.sqlite import SqliteStore
from tests.cli.test_session_cli import SCENARIO, Ua

ROOT = Path(__file__).resolve().parents[2]
KNIFE = str(ROOT / "scenarios" / "knife-vs-22.toml")
SIDECARS = ("-wal", "-shm", "-journal")


@pytest.fixture
def ua(tmp_path: Path) -> Iterator[Ua]:
    table = Ua(tmp_path)
    table.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    # a reader keeps the database open in WAL mode, so its -wal and -shm exist, as under a server
    held = sqlite3.connect(table.db)
    held.execute("BEGIN")
    held.execute("SELECT COUNT(*) FROM events").fetchall()
    yield table
    held.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def events_in(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("suffix", SIDECARS)
def test_session_export_onto_a_live_databases_own_file_is_refused_even_with_force(ua: Ua, suffix: str) -> None:
    target = ua.db.with_name(ua.db.name + suffix)
    before = snapshot(ua.dir)
    for extra in ((), ("--force",)):
        line = ua.fails("session", "export", "s", str(target), *extra, code=1)
        assert f"{suffix} file of the SQLite database {ua.db}" in line and str(target) in line
    assert snapshot(ua.dir) == before  # nothing changed: neither the file nor any other
    assert events_in(ua.db) == 6
    ua.ok("session", "ruling", "s", "still here")  # the database works on
    assert events_in(ua.db) == 8  # its record and the ruling


@pytest.mark.parametrize("suffix", SIDECARS)
def test_fight_save_simulate_plot_and_compare_plot_refuse_a_databases_own_file(ua: Ua, suffix: str) -> None:
    target = str(ua.db.with_name(ua.db.name + suffix))
    before = snapshot(ua.dir)
    runs = [("fight", KNIFE, "--seed", "1", "--save", target, "--force")]
    try:
        import matplotlib  # noqa: F401

        runs += [
            ("simulate", KNIFE, "-n", "5", "--workers", "1", "--plot", target, "--force"),
            ("compare", KNIFE, KNIFE, "-n", "5", "--workers", "1", "--plot", target, "--force"),
        ]
    except ImportError:
        pass
    for args in runs:
        assert "SQLite database" in ua.fails(*args, code=1), args
    assert snapshot(ua.dir) == before


@pytest.mark.parametrize("suffix", SIDECARS)
def test_a_missing_sidecar_of_a_database_is_refused_too(tmp_path: Path, suffix: str) -> None:
    db = tmp_path / "d.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    target = tmp_path / f"d.sqlite{suffix}"
    assert not target.exists()  # SQLite would take whatever is put there for its own
    for force in (False, True):
        with pytest.raises(OutputError, match="never written"):
            check_target(target, force=force)
        with pytest.raises(OutputError, match="never written"):
            write_file(target, b"{}\n", force=force)
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.sqlite"]


def test_names_that_only_look_like_sidecars_are_written(tmp_path: Path) -> None:
    (tmp_path / "notes").write_bytes(b"not a database")
    for name in ("notes-wal", "nothing-shm", "-journal", "d.sqlite-wal.jsonl"):
        write_file(tmp_path / name, b"x")
        assert (tmp_path / name).read_bytes() == b"x"


@pytest.mark.parametrize("suffix", ["-wal", "-journal"])
@pytest.mark.parametrize("opener", [SqliteStore, JsonlStore])
def test_a_store_is_never_opened_on_a_databases_own_file(
    tmp_path: Path, suffix: str, opener: type[SqliteStore] | type[JsonlStore]
) -> None:
    db = tmp_path / "d.sqlite"
    SqliteStore(db).close()
    before = snapshot(tmp_path)
    with pytest.raises(OutputError, match="SQLite database"):
        opener(tmp_path / f"d.sqlite{suffix}")
    assert snapshot(tmp_path) == before


def test_a_live_server_keeps_every_acknowledged_command(tmp_path: Path) -> None:
    """The issue's reproduction: a server has the database open and takes commands while the CLI
    tries to export onto its -shm and -wal; every command the server acknowledged is there."""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    from engine.service.bench import running_server

    ua = Ua(tmp_path)
    with running_server(ua.db) as base, httpx.Client(base_url=base, timeout=20) as http:
        http.post("/sessions", json={"name": "s", "scenario": {"name": "knife-vs-22"}, "seed": 7}).raise_for_status()
        acknowledged = 0
        for i in range(20):
            reply = http.post("/sessions/s/commands", json={"command": {"command": "ruling", "note": f"r{i}"}})
            assert reply.status_code == 200, reply.text
            acknowledged += 1
            suffix = SIDECARS[i % 3]
            ua.fails("session", "export", "s", str(ua.db) + suffix, "--force", code=1)
        version = http.get("/sessions/s").json()["version"]
    assert events_in(ua.db) == version == 6 + 2 * acknowledged  # each ruling: its record and itself
