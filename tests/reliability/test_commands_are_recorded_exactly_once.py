"""Finding 1 of issue 10 and DESIGN law 7: every command acknowledged to a caller is in the log
exactly once — a retry with the same command id is not a second command, two different commands
are never merged — from the library, the CLI, and many processes at once."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from engine.commands import Ruling, StartEncounter
from engine.errors import ConcurrencyConflict, InvalidInput
from engine.events.checks import CheckRolled
from engine.events.commands import CommandRecorded
from engine.session.live import LiveEncounter
from engine.session.service import SessionService
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore
from tests.cli.test_session_cli import SCENARIO, Ua
from tests.reliability import workers
from tests.reliability.workers import ROLL, STREAM

#: 8 processes × 250 commands with UA_RELIABILITY_COMMANDS=250 (the issue's figure).
WRITERS = int(os.environ.get("UA_RELIABILITY_WRITERS", "8"))
COMMANDS = int(os.environ.get("UA_RELIABILITY_COMMANDS", "12"))


def started(path: Path) -> SqliteStore:
    store = SqliteStore(path)
    LiveEncounter(store, STREAM).execute(StartEncounter(seed=7), command_id="start")
    return store


def test_two_sessions_sending_the_same_roll_at_one_version_are_two_commands(tmp_path: Path) -> None:
    store = started(tmp_path / "s.sqlite")
    one, two = LiveEncounter(SqliteStore(store.path), STREAM), LiveEncounter(SqliteStore(store.path), STREAM)
    first = one.execute(ROLL)
    with pytest.raises(ConcurrencyConflict):
        two.execute(ROLL)  # the same seeded roll at the same place: refused, not taken for a retry
    assert store.version(STREAM) == 2 + len(first)
    again = LiveEncounter(store, STREAM).execute(ROLL)  # re-read and re-run: recorded too
    records = [e for e in LiveEncounter(store, STREAM).records if isinstance(e[1], CommandRecorded)]
    assert len(records) == 3
    assert isinstance(first[1], CheckRolled) and isinstance(again[1], CheckRolled)


def test_a_retry_returns_what_the_command_recorded_even_after_the_session_moved_on() -> None:
    session = LiveEncounter(MemoryStore(), STREAM)
    session.execute(StartEncounter(seed=7))
    original = session.execute(ROLL, command_id="roll-1")
    at = session.result_at
    session.execute(ROLL)
    session.undo()
    version = session.version
    assert session.execute(ROLL, command_id="roll-1") == original
    assert session.result_at == at
    assert session.version == version == session.store.version(STREAM)


def test_undo_redo_and_amend_retried_by_their_ids_are_done_once() -> None:
    session = LiveEncounter(MemoryStore(), STREAM)
    session.execute(StartEncounter(seed=7))
    roll = session.execute(ROLL)[0]
    assert isinstance(roll, CommandRecorded)
    undone = session.undo(command_id="u")
    assert session.undo(command_id="u") == undone
    redone = session.redo(command_id="r")
    assert session.redo(command_id="r") == redone
    amended = session.amend(roll.id, ROLL, command_id="a")
    version = session.version
    retried = session.amend(roll.id, ROLL, command_id="a")
    assert session.version == version
    assert (retried.new_events, retried.after) == (amended.new_events, amended.after)


def test_a_command_id_reused_for_another_command_is_refused() -> None:
    session = LiveEncounter(MemoryStore(), STREAM)
    session.execute(StartEncounter(seed=7), command_id="x")
    with pytest.raises(InvalidInput, match="already used for another command"):
        session.execute(ROLL, command_id="x")
    with pytest.raises(InvalidInput, match="already used for another command"):
        session.undo(command_id="x")
    with pytest.raises(InvalidInput, match="not a command id"):
        session.execute(ROLL, command_id="two words")


def test_command_ids_are_metadata_and_the_log_is_the_same_for_the_same_commands() -> None:
    logs = []
    for prefix in ("a", "b"):
        session = LiveEncounter(MemoryStore(), STREAM)
        session.execute(StartEncounter(seed=7), command_id=f"{prefix}-1")
        session.execute(ROLL, command_id=f"{prefix}-2")
        logs.append([e.data for e in session.store.read(STREAM)])
    assert logs[0] == logs[1]


def test_the_cli_retries_by_command_id_and_refuses_a_second_command_at_one_version(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5", "--command-id", "setup")
    assert ua.count("s") == 6
    again = ua.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5", "--command-id", "setup")
    assert [e["position"] for e in again["events"]] == [1, 2, 3, 4, 5, 6] and ua.count("s") == 6
    first = ua.ok("session", "roll", "s", "--kind", "major", "--rating", "45", "--command-id", "r1")
    ua.ok("session", "roll", "s", "--kind", "major", "--rating", "45")
    retried = ua.ok("session", "roll", "s", "--kind", "major", "--rating", "45", "--command-id", "r1")
    assert retried["events"] == first["events"] and retried["command_id"] == "r1"
    assert ua.count("s") == 10
    assert "already used for another command" in ua.fails("session", "undo", "s", "--command-id", "r1", code=2)
    begun = ua.ok("session", "begin", "s", "--command-id", "b")
    moved = ua.ok("session", "next", "s", "--command-id", "n")
    assert ua.ok("session", "next", "s", "--command-id", "n")["events"] == moved["events"]
    assert begun["events"] and ua.count("s") == 10 + len(begun["events"]) + len(moved["events"])


def test_two_different_commands_at_one_version_from_the_cli_one_is_refused_with_exit_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    opened = SessionService.open

    def another_terminal_writes_meanwhile(service: SessionService, name: str) -> LiveEncounter:
        session = opened(service, name)
        LiveEncounter(SqliteStore(ua.db), name).execute(Ruling(note="the lights go out"))
        return session

    monkeypatch.setattr(SessionService, "open", another_terminal_writes_meanwhile)
    line = ua.fails("session", "roll", "s", "--kind", "major", "--rating", "45", code=4)
    assert line.startswith("error: session 's' changed while this command ran; nothing was written")
    monkeypatch.undo()
    assert ua.count("s") == 8  # the setup and the ruling: the roll was not written, nor merged


def test_many_processes_sending_identical_commands_lose_none_and_merge_none(tmp_path: Path) -> None:
    """Law 7 as the issue measured it: N processes × M commands on one SQLite session."""
    db, out = tmp_path / "s.sqlite", tmp_path / "out"
    out.mkdir()
    started(db).close()
    context = multiprocessing.get_context("spawn")
    children = [
        context.Process(target=workers.write_commands, args=(db, n, COMMANDS, out)) for n in range(WRITERS)
    ]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=600)
    errors = {p.name: p.read_text() for p in out.glob("*.errors")}
    assert errors == {}, next(iter(errors.values()))
    assert [child.exitcode for child in children] == [0] * WRITERS
    acknowledged = [line for p in sorted(out.glob("*.acks")) for line in p.read_text().split()]
    assert len(acknowledged) == len(set(acknowledged)) == WRITERS * COMMANDS

    with SqliteStore(db) as store:
        events = list(store.read(STREAM))
        assert [e.position for e in events] == list(range(1, len(events) + 1))  # no gap
        assert len({e.event_id for e in events}) == len(events)  # no duplicate
        per_command = Counter(e.command_id for e in events)
        assert set(per_command) == {"start", *acknowledged}  # acknowledged = recorded, exactly
        assert set(per_command.values()) == {2}  # every command whole: its record and its roll
        starts = [b for a, b in zip([None, *events], events, strict=False) if a is None or a.command_id != b.command_id]
        assert len(starts) == len(per_command)  # each command's events together
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


def test_a_play_run_again_with_its_command_id_does_nothing_twice(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "night", "--scenario", str(SCENARIO), "--seed", "5")
    night = str(SCENARIO.parent / "tables" / "knife-vs-22-night.toml")
    first = ua.ok("session", "play", "night", night, "--command-id", "evening")
    count = ua.count("night")
    again = ua.ok("session", "play", "night", night, "--command-id", "evening")
    assert again["events"] == first["events"] and ua.count("night") == count


def test_terminals_sending_the_same_roll_through_the_cli_at_once_each_get_theirs_recorded(tmp_path: Path) -> None:
    """Finding 1 as a GM would meet it: several `ua session roll` at once, each retried by its own
    command id when told the session changed (exit 4)."""
    ua = Ua(tmp_path)
    ua.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    ua_main = [sys.executable, "-c", "from engine.cli.app import main; main()"]
    roll = ["session", "roll", "s", "--kind", "major", "--rating", "45", "--db", str(ua.db), "--json"]
    acknowledged: list[str] = []
    failures: list[str] = []

    def terminal(n: int) -> None:
        for k in range(3):
            command_id = f"t{n}-{k}"
            for _ in range(50):
                done = subprocess.run([*ua_main, *roll, "--command-id", command_id], capture_output=True, text=True)
                if done.returncode == 0:
                    acknowledged.append(json.loads(done.stdout)["command_id"])
                    break
                if done.returncode != 4 or "changed while this command ran" not in done.stderr:
                    failures.append(done.stderr)
                    return

    threads = [threading.Thread(target=terminal, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with SqliteStore(ua.db) as store:
        per_command = Counter(e.command_id for e in store.read("s"))
    assert sorted(acknowledged) == sorted(c for c in per_command if c.startswith("t")) and len(acknowledged) == 9
    assert {per_command[c] for c in acknowledged} == {2}
