"""The local executor: a pool of this machine's processes (forked where the system can, so
they start at once), each opening the job once (`tasks.py`) and fighting span after span.
Workers ignore SIGINT: Ctrl-C is the parent's, which lets the spans under way finish, keeps
them, and never starts the rest."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from engine.simulate.executors import InProcess, Take, in_order, window_for
from engine.simulate.interrupts import Interrupts
from engine.simulate.spans import Span, Spans
from engine.simulate.tasks import Job, pack, run_packed

#: The most worker processes a batch takes.
MAX_WORKERS = 256


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else every core)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores)


def default_workers() -> int:
    """Every core this process may run on (at most MAX_WORKERS)."""
    return min(MAX_WORKERS, usable_cpus())


def clamp_workers(workers: int, *, oversubscribe: bool = False) -> int:
    """`workers` processes on this machine, at most one a usable CPU unless `oversubscribe`: more
    only share the CPUs, each with its own memory (256 on 2 CPUs took 6 GiB, and no less time)."""
    return workers if oversubscribe else min(workers, usable_cpus())


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _finished(future: Future[Any]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


class LocalPool:
    """A process pool of `slots` workers, made for each batch: `workers`, at most the usable CPUs
    unless `oversubscribe`."""

    name = "local"
    task_seconds = 0.5

    def __init__(self, workers: int, *, oversubscribe: bool = False) -> None:
        self.slots = clamp_workers(workers, oversubscribe=oversubscribe)

    def run(self, job: Job, spans: Spans, take: Take, interrupts: Interrupts) -> None:
        workers = min(self.slots, len(spans))  # a small batch needs no more processes than chunks
        if workers <= 1:
            InProcess().run(job, spans, take, interrupts)
            return
        packed = pack(job)
        context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_ctrl_c)

        def submit(span: Span) -> Future[Any]:
            return pool.submit(run_packed, *packed, *span)

        def stop(futures: list[Any]) -> None:
            pool.shutdown(wait=True, cancel_futures=True)  # chunks under way finish; the rest never start

        try:
            in_order(submit, spans, window_for(workers), take, finished=_finished, stop=stop)
        finally:
            pool.shutdown(wait=True)
