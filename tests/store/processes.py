"""Several processes on one store file: racing appenders, and an appender killed mid-run.

The children run in fresh interpreters (`spawn`), each opening the file itself, as separate
programs would. The functions here are shared by the SQLite and JSON-lines tests.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from engine.errors import ConcurrencyConflict
from engine.store.base import EventStore, NewEvent, event_id_for
from engine.store.jsonl import JsonlStore
from engine.store.sqlite import SqliteStore
from tests.store.contract import new_events

OPENERS = {"sqlite": SqliteStore, "jsonl": JsonlStore}
CONTEXT = multiprocessing.get_context("spawn")
STREAM = "fight"

#: (round, contender, "won" | "conflict" | the error); round -1 for an error
Outcome = tuple[int, int, str]


def open_store(kind: str, path: Path) -> EventStore:
    store: EventStore = OPENERS[kind](path)
    return store


# -- racing appenders -----------------------------------------------------------------------------


def contend(kind: str, path: Path, n: int, rounds: int, barrier: Barrier, results: Queue[Outcome]) -> None:
    """In round r every contender appends 2 events at the version the round starts at."""
    store = open_store(kind, path)
    try:
        for r in range(rounds):
            version = 2 * r
            events = new_events(STREAM, version, 2, tag=f"p{n}")
            barrier.wait(timeout=20)
            try:
                store.append(STREAM, events, version)
                results.put((r, n, "won"))
            except ConcurrencyConflict:
                results.put((r, n, "conflict"))
            barrier.wait(timeout=20)  # everyone is done before the next round begins
    except BaseException as exc:  # reported to the parent, which fails the test
        barrier.abort()
        results.put((-1, n, repr(exc)))
    finally:
        store.close()


def race(kind: str, path: Path, contenders: int = 4, rounds: int = 5) -> dict[int, list[str]]:
    """Run the contenders; return each round's outcomes, sorted."""
    open_store(kind, path).close()  # create the file before the race
    barrier = CONTEXT.Barrier(contenders)
    results: Queue[Outcome] = CONTEXT.Queue()
    children = [
        CONTEXT.Process(target=contend, args=(kind, path, n, rounds, barrier, results)) for n in range(contenders)
    ]
    for child in children:
        child.start()
    outcomes: dict[int, list[str]] = {}
    for _ in range(contenders * rounds):
        r, _n, outcome = results.get(timeout=60)
        outcomes.setdefault(r, []).append(outcome)
        if r == -1:
            break
    for child in children:
        child.join(timeout=30)
    return {r: sorted(found) for r, found in outcomes.items()}


# -- an appender killed at a random moment -------------------------------------------------------


def event_at(position: int) -> NewEvent:
    """The event a crash child appends at `position`: a function of the position alone, so
    the parent knows every acknowledged event. Some are large, so a write takes a while."""
    size = 20_000 if position % 7 == 0 else 40
    data = f'{{"type":"gm_ruling","note":"event {position}","pad":"{"x" * size}"}}'.encode()
    return NewEvent(
        event_id=event_id_for(STREAM, f"event-{position}", 0),
        command_id=f"event-{position}",
        type="gm_ruling",
        schema_version=1,
        data=data,
    )


def append_until_killed(kind: str, path: Path, acks: Path) -> None:
    """Append batches of 1–3 events forever; after each append returns, record its version
    in `acks` (one line each). Only what is in `acks` was acknowledged."""
    store = open_store(kind, path)
    out = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    version = store.version(STREAM)
    while True:
        batch = [event_at(version + i) for i in range(1, 2 + version % 3)]
        version = store.append(STREAM, batch, version)
        os.write(out, f"{version}\n".encode())


def acknowledged(acks: Path) -> int:
    """The last version the child acknowledged (its last whole line)."""
    lines = acks.read_bytes().split(b"\n")[:-1] if acks.exists() else []
    return int(lines[-1]) if lines else 0


def kill_while_appending(kind: str, path: Path, acks: Path, rng: random.Random) -> int:
    """Start an appender, let it acknowledge a random number of appends, wait a random
    moment more, SIGKILL it; return the last version it acknowledged."""
    child = CONTEXT.Process(target=append_until_killed, args=(kind, path, acks))
    child.start()
    wanted = acknowledged(acks) + rng.randint(1, 25)
    deadline = time.monotonic() + 30
    while acknowledged(acks) < wanted and child.is_alive() and time.monotonic() < deadline:
        time.sleep(0.001)
    time.sleep(rng.uniform(0, 0.004))
    assert child.pid is not None
    with contextlib.suppress(ProcessLookupError):  # died already: the exit code says how
        os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=10)
    assert child.exitcode == -signal.SIGKILL, "the appender died before it was killed"
    return acknowledged(acks)
