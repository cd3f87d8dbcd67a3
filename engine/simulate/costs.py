"""What running on an executor costs beside the fights, as `ua bench` measures it: the time of a
task that fights nothing (sent, run, its result taken back, through the same driver as a batch),
and the client's memory over a long batch (it holds a window of tasks, whatever the batch's size).
"""

from __future__ import annotations

import resource
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import msgspec

from engine.scenario.scenario import LoadedScenario
from engine.simulate.batch import run_batch
from engine.simulate.executors import Executor, run_job
from engine.simulate.identity import engine_identity
from engine.simulate.spans import Runner


class EmptyJob(msgspec.Struct, frozen=True, kw_only=True):
    """A job whose tasks fight nothing: what is left is the cost of a task."""

    engine: str = msgspec.field(default_factory=engine_identity)

    def open(self) -> Runner:
        return _nothing


def _nothing(first: int, stop: int) -> None:
    return None


def seconds_per_task(executor: Executor, tasks: int) -> float:
    """The wall time of one task that fights nothing, over `tasks` of them on `executor`."""
    started = time.perf_counter()
    run_job(EmptyJob(), tasks, lambda result: None, executor=executor, chunk_size=1)
    return (time.perf_counter() - started) / tasks


def rss_mib() -> float:
    """This process's resident memory now (Linux), else its peak so far."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20, 1)


class _Enough(Exception):
    """Raised from the progress callback to stop a soak after its tasks."""


def client_memory(
    loaded: LoadedScenario, executor: Executor, *, fights: int, chunk_size: int, tasks: int, samples: int = 10
) -> dict[str, Any]:
    """Submit a batch of `fights` in tasks of `chunk_size` and stop it after `tasks` of them,
    reading this process's memory `samples` times on the way: it should not grow with the tasks
    (the driver holds a window of tasks, never the batch)."""
    every = max(1, tasks // samples)
    seen: list[dict[str, Any]] = []

    def sample(done: int) -> None:
        count = done // chunk_size
        if count % every == 0:
            seen.append({"tasks": count, "fights": done, "rss_mib": rss_mib()})
        if count >= tasks:
            raise _Enough

    started = time.perf_counter()
    with suppress(_Enough):
        run_batch(loaded, fights, 1, executor=executor, chunk_size=chunk_size, progress=sample)
    after_first = seen[1:] or seen
    return {
        "scenario": loaded.scenario.title,
        "fights_submitted": fights,
        "chunk_size": chunk_size,
        "tasks_run": tasks,
        "seconds": round(time.perf_counter() - started, 2),
        "samples": seen,
        "growth_mib": round(after_first[-1]["rss_mib"] - after_first[0]["rss_mib"], 1) if seen else 0.0,
    }
