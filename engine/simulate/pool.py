"""Fights 0…n−1 in chunks, in this process or on a local process pool, each chunk's integer
result absorbed in chunk order; Ctrl-C stops cleanly, keeping the chunks already finished.

A job is built once per process by a module-level factory, `factory(*args)(start, stop)`, so
it can be sent to any executor."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

R = TypeVar("R")
Job = Callable[[int, int], Any]

#: The most worker processes a batch takes.
MAX_WORKERS = 256


def default_workers() -> int:
    """Every core this process may run on (at most MAX_WORKERS)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(MAX_WORKERS, cores))


def chunks(n: int, workers: int) -> Iterator[tuple[int, int]]:
    size = max(100, min(5_000, n // max(1, workers * 8)))
    for start in range(0, n, size):
        yield start, min(n, start + size)


_JOB: Job | None = None


def _init_worker(factory: Callable[..., Job], args: tuple[Any, ...]) -> None:
    global _JOB
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _JOB = factory(*args)


def _run(start: int, stop: int) -> Any:
    assert _JOB is not None
    return _JOB(start, stop)


class _Interrupts:
    """Ctrl-C as KeyboardInterrupt, except while a result is being absorbed (a half-merged
    tally would be wrong): then it waits until the result is whole."""

    def __init__(self) -> None:
        self.absorbing = False
        self.pending = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.absorbing:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def absorbing_result(self) -> Iterator[None]:
        self.absorbing = True
        try:
            yield
        finally:
            self.absorbing = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


@contextmanager
def _handling(interrupts: _Interrupts) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only
        return
    previous = signal.signal(signal.SIGINT, interrupts)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _ignoring_interrupts() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_chunks(
    factory: Callable[..., Job],
    args: tuple[Any, ...],
    n: int,
    workers: int,
    absorb: Callable[[Any, int], None],
    *,
    interruptible: bool = False,
) -> bool:
    """Run fights 0…n−1 in chunks and `absorb(result, stop)` each in order. Returns True when
    Ctrl-C stopped it early (only if `interruptible`; else KeyboardInterrupt goes on, after the
    workers have stopped): what was absorbed is every chunk finished by then."""
    interrupts = _Interrupts()

    def take(result: Any, stop: int) -> None:
        with interrupts.absorbing_result():
            absorb(result, stop)

    spans = list(chunks(n, workers))
    workers = min(workers, len(spans))  # a small batch needs no more processes than chunks
    with _handling(interrupts):
        try:
            if workers == 1:
                job = factory(*args)
                for first, stop in chunks(n, 1):
                    take(job(first, stop), stop)
            else:
                _on_pool(factory, args, spans, workers, take)
        except KeyboardInterrupt:
            if not interruptible:
                raise
            return True
    return False


def _on_pool(
    factory: Callable[..., Job],
    args: tuple[Any, ...],
    spans: list[tuple[int, int]],
    workers: int,
    take: Callable[[Any, int], None],
) -> None:
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(factory, args)
    )
    pending: deque[tuple[Future[Any], int]] = deque()
    try:
        window = workers * 4
        for first, stop in spans:
            pending.append((pool.submit(_run, first, stop), stop))
            if len(pending) >= window:
                future, end = pending.popleft()
                take(future.result(), end)
        while pending:
            future, end = pending.popleft()
            take(future.result(), end)
    except KeyboardInterrupt:
        with _ignoring_interrupts():  # a second Ctrl-C must not cut the clean-up short
            pool.shutdown(wait=True, cancel_futures=True)  # chunks under way finish; the rest never start
            for future, end in pending:
                if future.done() and not future.cancelled() and future.exception() is None:
                    take(future.result(), end)
        raise
    finally:
        pool.shutdown(wait=True)
