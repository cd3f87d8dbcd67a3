"""Batches: fight i takes seed derive(batch seed, i); chunks run on a local process pool and
their integer tallies merge, so the result is the same for any number of workers."""

from __future__ import annotations

import heapq
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Literal

import msgspec

from engine.dice.source import derive_seed
from engine.errors import InvalidInput
from engine.scenario.scenario import LoadedScenario
from engine.simulate.fight import Prepared, prepare, run_fight
from engine.simulate.kernel import Unsupported, compile_kernel
from engine.simulate.outcome import FightOutcome, outcome_of
from engine.simulate.stats import Tally
from engine.state.encounter import Encounter

MAX_FIGHTS = 100_000_000
Keep = Literal["worst", "best", "random"]
_RANDOM_PICK = 0x5EED


class Picks(msgspec.Struct, kw_only=True):
    """The indices of fights worth keeping: best and worst for the players' side (by
    `FightOutcome.score`), and a random few."""

    size: int = 0
    best: list[tuple[int, ...]] = msgspec.field(default_factory=list)
    worst: list[tuple[int, ...]] = msgspec.field(default_factory=list)
    random: list[tuple[int, int]] = msgspec.field(default_factory=list)

    def add(self, score: tuple[int, ...], index: int, seed: int) -> None:
        if not self.size:
            return
        _push(self.best, (*score, -index), self.size)
        _push(self.worst, (*(-s for s in score), -index), self.size)
        _push(self.random, (-derive_seed(seed ^ _RANDOM_PICK, index), -index), self.size)

    def merge(self, other: Picks) -> None:
        for item in other.best:
            _push(self.best, item, self.size)
        for item in other.worst:
            _push(self.worst, item, self.size)
        for r in other.random:
            _push(self.random, r, self.size)

    def indices(self, which: Keep) -> list[int]:
        if which == "random":
            return sorted(-item[-1] for item in self.random)
        return sorted(-item[-1] for item in (self.best if which == "best" else self.worst))


def _push(heap: list, item: tuple, size: int) -> None:  # type: ignore[type-arg]
    """Keep the `size` largest items (ties broken by index, deterministic)."""
    if len(heap) < size:
        heapq.heappush(heap, item)
    elif item > heap[0]:
        heapq.heapreplace(heap, item)


class ChunkResult(msgspec.Struct, kw_only=True):
    tally: Tally
    picks: Picks


class Fights:
    """The fights of one prepared scenario: each on the fast kernel when it can take it, else —
    or with `fast=False` — on the event-sourced engine. Both give the same outcome."""

    def __init__(self, prep: Prepared, *, fast: bool = True) -> None:
        self.prep = prep
        self.kernel = compile_kernel(prep) if fast else None

    def outcome(self, seed: int) -> tuple[FightOutcome, bool]:
        """The fight of `seed`, and whether the kernel fought it."""
        if self.kernel is not None:
            try:
                return self.kernel.fight(seed), True
            except Unsupported:
                pass
        return outcome_of(self.prep, run_fight(self.prep, seed)), False


def run_chunk(fights: Fights, seed: int, start: int, stop: int, keep: int) -> ChunkResult:
    tally = Tally()
    picks = Picks(size=keep)
    side = fights.prep.scenario.players
    for i in range(start, stop):
        fight, fast = fights.outcome(derive_seed(seed, i))
        tally.add(fight)
        tally.fast_path += fast
        if keep:
            picks.add(fight.score(side), i, seed)
    return ChunkResult(tally=tally, picks=picks)


_WORKER_FIGHTS: Fights | None = None


def _init_worker(loaded: LoadedScenario, start: Encounter | None, fast: bool) -> None:
    global _WORKER_FIGHTS
    _WORKER_FIGHTS = Fights(prepare(loaded, start), fast=fast)


def _worker_chunk(seed: int, start: int, stop: int, keep: int) -> ChunkResult:
    assert _WORKER_FIGHTS is not None
    return run_chunk(_WORKER_FIGHTS, seed, start, stop, keep)


def chunks(n: int, workers: int) -> Iterator[tuple[int, int]]:
    size = max(100, min(5_000, n // max(1, workers * 8)))
    for start in range(0, n, size):
        yield start, min(n, start + size)


#: The most worker processes a batch takes.
MAX_WORKERS = 256


def default_workers() -> int:
    """Every core this process may run on (at most MAX_WORKERS)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(MAX_WORKERS, cores))


def check_size(n: int, workers: int) -> None:
    if not 1 <= n <= MAX_FIGHTS:
        raise InvalidInput(f"-n {n} is out of range", where="-n", hint=f"run 1 to {MAX_FIGHTS:,} fights")
    if not 1 <= workers <= MAX_WORKERS:
        raise InvalidInput(f"--workers {workers} is out of range", where="--workers", hint=f"1 to {MAX_WORKERS}")


def run_batch(
    loaded: LoadedScenario,
    n: int,
    seed: int,
    *,
    workers: int = 1,
    keep: int = 0,
    progress: Callable[[int], None] | None = None,
    start: Encounter | None = None,
    fast: bool = True,
) -> tuple[Prepared, Tally, Picks]:
    """Run fights 0…n−1 (from `start` when given: a what-if); merge their tallies;
    `progress(done)` after each chunk. `fast=False` fights every fight on the event-sourced
    engine (the reference) instead of the kernel; the numbers are the same."""
    check_size(n, workers)
    prep = prepare(loaded, start)
    tally = Tally()
    picks = Picks(size=keep)

    def absorb(result: ChunkResult, stop: int) -> None:
        tally.merge(result.tally)
        picks.merge(result.picks)
        if progress is not None:
            progress(stop)

    spans = list(chunks(n, workers))
    workers = min(workers, len(spans))  # a small batch needs no more processes than chunks
    if workers == 1:
        fights = Fights(prep, fast=fast)
        for first, stop in chunks(n, 1):
            absorb(run_chunk(fights, seed, first, stop, keep), stop)
        return prep, tally, picks
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(loaded, start, fast)
    ) as pool:
        pending: list[tuple[Future[ChunkResult], int]] = []
        window = workers * 4
        for first, stop in spans:
            pending.append((pool.submit(_worker_chunk, seed, first, stop, keep), stop))
            if len(pending) >= window:
                future, end = pending.pop(0)
                absorb(future.result(), end)
        for future, end in pending:
            absorb(future.result(), end)
    return prep, tally, picks
