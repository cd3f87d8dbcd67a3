"""Measuring the event log: durable append latency per command, fold throughput, and how long a
long session takes to open from SQLite. Used by `ua bench --log N`."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.collector import collection_paused
from engine.commands import RollCheck, StartEncounter
from engine.dice.checks import CheckSpec
from engine.dice.source import SeededDice, derive_seed
from engine.events import decode, encode
from engine.events.base import EventBase
from engine.reducers import fold
from engine.rules.decide import decide_and_fold
from engine.scenario.scenario import load_scenario
from engine.session.encoding import to_new_events
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter
from engine.session.snapshot import save_snapshot
from engine.simulate.fight import prepare, run_fight
from engine.state.encounter import Encounter
from engine.store.sqlite import SqliteStore

CHUNK = 10_000


def _long_log(n_events: int) -> list[EventBase]:
    """A session of plain checks (one command record + one check each) of about `n_events`."""
    dice = SeededDice(1)
    state = Encounter()
    events: list[EventBase] = []
    command = StartEncounter(title="long session", seed=1)
    made, state = decide_and_fold(state, command, dice)
    events.extend(made)
    spec = CheckSpec(kind="major", rating=45)
    while len(events) < n_events:
        made, state = decide_and_fold(state, RollCheck(spec=spec), dice)
        events.extend(made)
    return events[:n_events]


def _combat_logs(n_events: int, scenario: Path) -> list[list[bytes]]:
    """Kept fights of `scenario` (each its own log, every event JSON-encoded) until about
    `n_events` events in all."""
    prep = prepare(load_scenario(scenario))
    logs: list[list[bytes]] = []
    total = 0
    while total < n_events:
        run = run_fight(prep, derive_seed(1, len(logs)), keep_log=True)
        logs.append([encode(e) for e in run.events])
        total += len(run.events)
    return logs


def replay_benchmark(n_events: int, scenario: Path) -> dict[str, Any]:
    """Decoding a combat log's bytes alone, against decoding and folding them fight by fight."""
    logs = _combat_logs(n_events, scenario)
    events = sum(len(log) for log in logs)
    with collection_paused():
        started = time.perf_counter()
        for log in logs:
            for line in log:
                decode(line)
        decode_only = time.perf_counter() - started
        started = time.perf_counter()
        for log in logs:
            fold([decode(line) for line in log])
        decode_and_fold = time.perf_counter() - started
    return {
        "combat_events": events,
        "combat_scenario": scenario.name,
        "decode_events_per_s": round(events / decode_only),
        "decode_and_fold_events_per_s": round(events / decode_and_fold),
        "decode_and_fold_vs_decode": round(decode_only / decode_and_fold, 2),
    }


def log_benchmark(n_events: int, appends: int = 200) -> dict[str, Any]:
    events = _long_log(n_events)
    records = list(enumerate(events, start=1))
    started = time.perf_counter()
    fold(events)
    plain = time.perf_counter() - started
    started = time.perf_counter()
    effective_fold(records)
    effective = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite"
        store = SqliteStore(db)
        for first in range(0, len(events), CHUNK):
            batch = events[first : first + CHUNK]
            store.append("long", to_new_events("long", f"bench-{first}", batch), first)
        store.close()
        started, cpu_started = time.perf_counter(), time.process_time()
        opened = LiveEncounter(SqliteStore(db), "long")
        open_seconds, open_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        assert opened.version == len(events)
        save_snapshot(SqliteStore(db), "long", opened.version, opened.state, opened.next_id, opened.dice_position)
        started = time.perf_counter()
        again = LiveEncounter(SqliteStore(db), "long")
        snapshot_open = time.perf_counter() - started
        assert again.state == opened.state
        session = LiveEncounter(SqliteStore(db), "short")
        session.execute(StartEncounter(seed=3))
        latencies = []
        spec = CheckSpec(kind="major", rating=45)
        for _ in range(appends):
            started = time.perf_counter()
            session.execute(RollCheck(spec=spec))
            latencies.append(time.perf_counter() - started)
    return {
        "events": len(events),
        "fold_events_per_s": round(len(events) / plain),
        "effective_fold_events_per_s": round(len(events) / effective),
        "open_from_sqlite_seconds": round(open_seconds, 3),
        "open_from_sqlite_cpu_seconds": round(open_cpu, 3),  # user + sys: what a busy machine changes least
        "open_events_per_s": round(len(events) / open_seconds),
        "open_with_snapshot_seconds": round(snapshot_open, 4),
        "command_append_ms_median": round(statistics.median(latencies) * 1000, 3),
        "command_append_ms_p99": round(sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000, 3),
    }
