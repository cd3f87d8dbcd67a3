"""DESIGN law 7 under kill -9: a process killed at a random moment while it sends commands loses
none it was told were done, leaves no half of a command, and leaves a file that checks out.
A few trials by default; UA_RELIABILITY_TRIALS=50 for the issue's figure."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.commands import StartEncounter
from engine.session.live import LiveEncounter
from tests.reliability import workers
from tests.reliability.workers import OPENERS, STREAM

TRIALS = int(os.environ.get("UA_RELIABILITY_TRIALS", "3"))
CONTEXT = multiprocessing.get_context("spawn")


def acknowledged(acks: Path) -> list[str]:
    """The command ids the child was told were done (its whole lines)."""
    if not acks.exists():
        return []
    return [line.decode() for line in acks.read_bytes().split(b"\n")[:-1]]


def kill_while_sending(kind: str, path: Path, acks: Path, rng: random.Random) -> None:
    child = CONTEXT.Process(target=workers.append_until_killed, args=(kind, path, acks))
    child.start()
    wanted = len(acknowledged(acks)) + rng.randint(1, 30)
    deadline = time.monotonic() + 60
    while len(acknowledged(acks)) < wanted and child.is_alive() and time.monotonic() < deadline:
        time.sleep(0.001)
    time.sleep(rng.uniform(0, 0.005))
    assert child.pid is not None
    with contextlib.suppress(ProcessLookupError):
        os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=10)
    assert child.exitcode == -signal.SIGKILL, "the sender died before it was killed"


@pytest.mark.parametrize("kind", ["sqlite", "jsonl"])
def test_commands_acknowledged_before_a_kill_9_are_all_there_and_whole(kind: str, tmp_path: Path) -> None:
    path, acks = tmp_path / f"s.{kind}", tmp_path / "acks"
    with OPENERS[kind](path) as store:
        LiveEncounter(store, STREAM).execute(StartEncounter(seed=3), command_id="start")
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    for trial in range(TRIALS):
        kill_while_sending(kind, path, acks, rng)
        acked = acknowledged(acks)
        with OPENERS[kind](path) as store:
            events = list(store.read(STREAM))
            session = LiveEncounter(store, STREAM)  # it opens and folds
        context = f"seed {seed}, trial {trial}: acknowledged {len(acked)}, events {len(events)}"
        assert [e.position for e in events] == list(range(1, len(events) + 1)), context
        per_command = Counter(e.command_id for e in events)
        assert set(acked) <= set(per_command), context  # none acknowledged is lost
        assert set(per_command.values()) == {2}, context  # no command half there
        assert 0 <= len(per_command) - 1 - len(acked) <= trial + 1, context  # at most one a kill, not acked
        assert session.version == len(events)
        if kind == "sqlite":
            conn = sqlite3.connect(path)
            try:
                assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",), context
            finally:
                conn.close()
