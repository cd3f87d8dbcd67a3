"""Batches: fight i takes seed derive(batch seed, i); a batch is a job (`BatchJob`, a value any
executor runs), its chunks' integer tallies merge exactly, so the result is the same on any
executor, for any number of workers and any chunk size."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec

from engine.collector import collection_paused
from engine.dice.source import derive_seed
from engine.errors import InvalidInput
from engine.scenario.scenario import LoadedScenario
from engine.simulate.executors import Executor
from engine.simulate.fight import Prepared, prepare, run_fight
from engine.simulate.identity import engine_identity
from engine.simulate.openings import Openings
from engine.simulate.outcome import FightOutcome, outcome_of
from engine.simulate.picks import Picks
from engine.simulate.pool import MAX_WORKERS
from engine.simulate.pool import default_workers as default_workers  # re-exported: callers know it from here
from engine.simulate.precision import Interval, Precision, outcome, run_until
from engine.simulate.spans import Runner
from engine.simulate.stats import Tally, players_counts, wilson
from engine.state.encounter import Encounter

MAX_FIGHTS = 100_000_000
class ChunkResult(msgspec.Struct, kw_only=True):
    tally: Tally
    picks: Picks


class Fights:
    """The fights of one prepared scenario. Each is fought with a counting sink (its facts applied
    and counted, no event built); with `fast=False`, with a recording sink that builds every
    event as the log would hold it (the reference check: the numbers are the same)."""

    def __init__(self, prep: Prepared, *, fast: bool = True) -> None:
        self.prep = prep
        self.record = not fast
        self.openings = Openings()

    def outcome(self, seed: int) -> FightOutcome:
        """The fight of `seed`."""
        return outcome_of(self.prep, run_fight(self.prep, seed, record=self.record, openings=self.openings))


def run_chunk(fights: Fights, seed: int, start: int, stop: int, keep: int) -> ChunkResult:
    tally = Tally()
    picks = Picks(size=keep)
    side = fights.prep.scenario.players
    with collection_paused():
        for i in range(start, stop):
            fight = fights.outcome(derive_seed(seed, i))
            tally.add(fight)
            if keep:
                picks.add(fight.score(side), i, seed)
    return ChunkResult(tally=tally, picks=picks)


class BatchJob(msgspec.Struct, frozen=True, kw_only=True):
    """A batch's work as a value any executor runs: the resolved scenario, the batch seed, the
    options, the state a what-if starts from, and the engine that made it (a worker running
    another refuses it)."""

    loaded: LoadedScenario
    seed: int
    fast: bool = True
    keep: int = 0
    start: Encounter | None = None
    engine: str = msgspec.field(default_factory=engine_identity)

    def open(self) -> Runner:
        """A worker's setup, once per batch: its prepared fights (and their openings cache)."""
        fights = Fights(prepare(self.loaded, self.start), fast=self.fast)
        seed, keep = self.seed, self.keep
        return lambda first, stop: run_chunk(fights, seed, first, stop, keep)


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
    interruptible: bool = False,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    sampled: Callable[[float], object] | None = None,
    precision: Precision | None = None,
) -> tuple[Prepared, Tally, Picks]:
    """Run fights 0…n−1 (from `start` when given: a what-if); merge their tallies;
    `progress(done)` after each chunk. `fast=False` builds every event of every fight (the
    reference check); the numbers are the same. `interruptible`: Ctrl-C stops the batch and the
    tally holds the first fights (`tally.fights < n`). `executor`: where the chunks run (default:
    this process for one worker, else a local pool of `workers`); `chunk_size`: fights a chunk
    (default: sized from a timed sample); `sampled(seconds)`: what that sample took a fight.
    `precision`: stop at the first checkpoint where the players' figures are precise enough
    (`n` is then the most)."""
    check_size(n, workers)
    prep = prepare(loaded, start)
    tally = Tally()
    picks = Picks(size=keep)

    def merge(result: ChunkResult) -> None:
        tally.merge(result.tally)
        picks.merge(result.picks)

    job = BatchJob(loaded=loaded, seed=seed, fast=fast, keep=keep, start=start)

    def met(precision: Precision) -> bool:
        return precision.met(batch_intervals(prep, tally, precision).values())

    stop = None if precision is None else partial(met, precision)
    run_until(job, n, merge, stop, executor=executor, workers=workers, progress=progress, interruptible=interruptible,
              chunk_size=chunk_size, sampled=sampled)
    return prep, tally, picks


def batch_intervals(prep: Prepared, tally: Tally, precision: Precision) -> dict[str, Interval]:
    """The 95% Wilson interval of each figure `precision` is about, for the players' side."""
    counts = players_counts(prep, tally)
    return {figure: wilson(counts[figure], tally.fights) for figure in precision.figures}


def batch_precision(prep: Prepared, tally: Tally, precision: Precision, most: int) -> dict[str, Any]:
    """The report's `precision` for a batch of at most `most` fights."""
    intervals = batch_intervals(prep, tally, precision)
    return outcome(precision, (({"figure": f}, i) for f, i in intervals.items()), tally.fights, most)
