"""Finding 2 of issue 10: every file the engine writes refuses an existing target unless --force,
never writes over a database or anything but a regular file, and fails in one line."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.cli.test_session_cli import SCENARIO, Ua

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    table = Ua(tmp_path)
    table.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    table.ok("session", "new", "t", "--scenario", str(SCENARIO), "--seed", "6")
    return table


def sessions_in(db: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT stream, COUNT(*) FROM events GROUP BY stream ORDER BY stream").fetchall()
    finally:
        conn.close()


def test_exporting_onto_the_session_database_is_refused_even_with_force(ua: Ua) -> None:
    before = sessions_in(ua.db)
    for extra in ((), ("--force",)):
        line = ua.fails("session", "export", "s", str(ua.db), *extra, code=1)
        assert "SQLite database" in line and str(ua.db) in line
    assert sessions_in(ua.db) == before == [("s", 6), ("t", 6)]


def test_exporting_onto_a_scenario_file_is_refused_without_force(ua: Ua) -> None:
    scenario = ua.dir / "mine.toml"
    scenario.write_bytes(SCENARIO.read_bytes())
    line = ua.fails("session", "export", "s", str(scenario), code=1)
    assert "already exists" in line and "--force" in line
    assert scenario.read_bytes() == SCENARIO.read_bytes()
    assert ua("session", "export", "s", str(scenario), "--force").exit_code == 0
    assert scenario.read_bytes().startswith(b'{"stream":"s"')


def test_exporting_onto_a_device_a_folder_or_a_fifo_is_refused_even_with_force(ua: Ua) -> None:
    fifo = ua.dir / "pipe"
    os.mkfifo(fifo)
    for target, kind in (("/dev/null", "character device"), (str(ua.dir), "a directory"), (str(fifo), "FIFO")):
        line = ua.fails("session", "export", "s", target, "--force", code=1)
        assert kind in line


def test_exporting_into_a_missing_folder_or_with_a_name_too_long_is_one_line(ua: Ua) -> None:
    assert "create the folder first" in ua.fails("session", "export", "s", str(ua.dir / "no" / "x.jsonl"))
    assert "shorter file name" in ua.fails("session", "export", "s", str(ua.dir / ("n" * 300)))


def test_a_mistyped_session_name_writes_no_file(ua: Ua) -> None:
    target = ua.dir / "x.jsonl"
    ua.fails("session", "export", "nope", str(target), code=2)
    assert not target.exists()


def test_fight_save_refuses_an_existing_file_before_fighting(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    target = tmp_path / "f.jsonl"
    target.write_bytes(b"mine")
    scenario = str(ROOT / "scenarios" / "knife-vs-22.toml")
    line = ua.fails("fight", scenario, "--seed", "1", "--save", str(target), code=1)
    assert "already exists" in line
    assert target.read_bytes() == b"mine"
    assert ua("fight", scenario, "--seed", "1", "--save", str(target), "--force").exit_code == 0
    assert target.read_bytes() != b"mine"


def test_simulate_keep_refuses_existing_replays_unless_forced(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    scenario = str(ROOT / "scenarios" / "knife-vs-22.toml")
    args = ("simulate", scenario, "-n", "20", "--seed", "3", "--workers", "1", "--keep", "2", "--keep-dir")
    first = ua.ok(*args, str(tmp_path / "runs"))
    files = [Path(k["file"]) for k in first["kept"]]
    assert len(files) == 2 and all(f.is_file() for f in files)
    files[1].write_bytes(b"edited by hand")
    line = ua.fails(*args, str(tmp_path / "runs"), code=1)
    assert "already exists" in line and str(files[0]) in line
    assert files[1].read_bytes() == b"edited by hand"  # nothing was written: every target is checked first
    ua.ok(*args, str(tmp_path / "runs"), "--force")
    assert files[1].read_bytes() != b"edited by hand"


def test_simulate_keep_into_a_file_instead_of_a_folder_is_one_line(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    (tmp_path / "runs").write_bytes(b"")
    scenario = str(ROOT / "scenarios" / "knife-vs-22.toml")
    line = ua.fails("simulate", scenario, "-n", "5", "--keep", "1", "--keep-dir", str(tmp_path / "runs"), code=1)
    assert "cannot make the folder" in line


def test_simulate_plot_refuses_an_existing_file_before_the_batch(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    ua = Ua(tmp_path)
    target = tmp_path / "plot.png"
    target.write_bytes(b"mine")
    scenario = str(ROOT / "scenarios" / "knife-vs-22.toml")
    assert "already exists" in ua.fails("simulate", scenario, "-n", "5", "--plot", str(target), code=1)
    assert target.read_bytes() == b"mine"
