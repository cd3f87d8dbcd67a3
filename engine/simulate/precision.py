"""Batches that stop when the answer is precise enough (`--precision`): the fights are merged in
fight order and the 95% intervals of the figures asked about are tested only at fixed
checkpoints — every CHECKPOINT fights, and at the most allowed — so for a seed the stopping point,
and so the report, are the same whatever the chunking, the worker count or the executor.

A precise run sends its batch's job wrapped (`Pieces`): every span comes back cut at the
checkpoints inside it, one result a piece, so the driver stops exactly at a checkpoint without
fighting anything twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import msgspec

from engine.errors import InvalidInput
from engine.simulate.executors import Executor, run_job
from engine.simulate.spans import Runner, Span

if TYPE_CHECKING:
    from engine.simulate.tasks import Job

#: The interval is tested after every this many fights, in fight order.
CHECKPOINT = 1_000
#: With --precision and no -n, the most fights a run may take.
MOST_FIGHTS = 1_000_000
#: A precision is a half-width strictly between these (0.5: ±50 points says nothing).
LOWEST, HIGHEST = 0.0, 0.5
#: What a batch may be precise about (the players' side), by name.
BATCH_FIGURES = {
    "win": "the players' side wins",
    "dies": "someone on it dies",
    "down": "everyone on it is down",
    "draw": "a draw",
}
DEFAULT_FIGURES = ("win", "dies")
#: A figure's 95% interval (low, high).
Interval = tuple[float, float]


class Precision(msgspec.Struct, frozen=True, kw_only=True):
    """Stop once every figure's 95% interval is at most ±`target` (a proportion: 0.01 is ±1 point)."""

    target: float
    figures: tuple[str, ...] = DEFAULT_FIGURES

    def met(self, intervals: Iterable[Interval]) -> bool:
        return all(half_width(i) <= self.target for i in intervals)


def half_width(interval: Interval) -> float:
    low, high = interval
    return (high - low) / 2


def precision_of(
    target: float | None,
    figures: str | Iterable[str] | None,
    allowed: Mapping[str, str],
    *,
    names: tuple[str, str] = ("--precision", "--precision-of"),
) -> Precision | None:
    """The precision asked for (None: none), checked: one line naming the option (`names`: the
    target's and the figures') and a hint."""
    option, of = names
    if target is None:
        if figures is not None:
            raise InvalidInput(f"{of} needs {option}", where=of, hint=f"give {option} too, e.g. 0.01 for ±1 point")
        return None
    if not LOWEST < target < HIGHEST:
        raise InvalidInput(
            f"{option} {target:g} is out of range",
            where=option,
            hint="a half-width above 0 and below 0.5: 0.01 stops at ±1 point",
        )
    if figures is None:
        return Precision(target=target)
    asked = tuple(dict.fromkeys(f.strip() for f in (figures.split(",") if isinstance(figures, str) else figures)))
    unknown = [n for n in asked if n not in allowed]
    if unknown or not asked:
        listed = ", ".join(f"{k} ({v})" for k, v in allowed.items())
        raise InvalidInput(
            f"{of} {', '.join(unknown)}: no such figure" if unknown else f"{of} names no figure",
            where=of,
            hint=f"one or more of: {listed}",
        )
    return Precision(target=target, figures=asked)


def most_fights(given: int | None, precision: Precision | float | None, default: int) -> int:
    """`-n` as given; else the default, or MOST_FIGHTS when stopping at a precision."""
    if given is not None:
        return given
    return default if precision is None else MOST_FIGHTS


def pieces(first: int, stop: int) -> list[Span]:
    """`first…stop−1` cut at every checkpoint inside it."""
    cuts = range((first // CHECKPOINT + 1) * CHECKPOINT, stop, CHECKPOINT)
    bounds = [first, *cuts, stop]
    return list(pairwise(bounds))


@dataclass(frozen=True)
class Pieces:
    """A job whose spans come back cut at the checkpoints: [(piece's stop, its result), …]."""

    job: Job

    @property
    def engine(self) -> str:
        return self.job.engine

    def open(self) -> Runner:
        run = self.job.open()
        return lambda first, stop: [(end, run(start, end)) for start, end in pieces(first, stop)]


class _Reached(Exception):
    """Raised through the executor at the checkpoint where the run is precise enough: it stops
    the tasks left as any failure does."""


def run_until(
    job: Job,
    n: int,
    merge: Callable[[Any], None],
    met: Callable[[], bool] | None,
    *,
    executor: Executor | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    interruptible: bool = False,
    chunk_size: int | None = None,
    sampled: Callable[[float], object] | None = None,
) -> bool:
    """Run fights of `job` in order and `merge` each result; with `met`, stop at the first
    checkpoint (or at `n`) where `met()`: the merged results are then exactly fights
    0…checkpoint−1, in chunks of CHECKPOINT fights unless `chunk_size` (any size stops at the
    same fight). Without `met`, `run_job` as it is. Returns True when Ctrl-C stopped it early."""
    if met is None:
        return run_job(job, n, merge, executor=executor, workers=workers, progress=progress,
                       interruptible=interruptible, chunk_size=chunk_size, sampled=sampled)  # fmt: skip
    precise = met

    def take(results: list[tuple[int, Any]]) -> None:
        for stop, result in results:
            merge(result)
            if progress is not None:
                progress(stop)
            if (stop % CHECKPOINT == 0 or stop == n) and precise():
                raise _Reached

    try:
        return run_job(Pieces(job), n, take, executor=executor, workers=workers, interruptible=interruptible,
                       chunk_size=chunk_size or CHECKPOINT)  # fmt: skip
    except _Reached:
        return False


def outcome(
    precision: Precision, intervals: Iterable[tuple[dict[str, Any], Interval]], fights: int, most: int
) -> dict[str, Any]:
    """The report's `precision`: the target, whether a checkpoint reached it, each figure's half-width.
    `intervals`: (what names the figure, its interval) at the end of the run."""
    listed = [(names, half_width(i)) for names, i in intervals]
    at_checkpoint = fights % CHECKPOINT == 0 or fights == most
    return {
        "target": precision.target,
        "reached": at_checkpoint and all(h <= precision.target for _, h in listed),
        "checked_every": CHECKPOINT,
        "most": most,
        "figures": [{**names, "half_width": round(h, 6)} for names, h in listed],
    }


def points(x: float) -> str:
    """A half-width in percentage points: `±1.0`."""
    return f"±{100 * x:.1f}"


def stop_line(report: dict[str, Any]) -> str | None:
    """What the human report says of a precise run, in one line (None: not one)."""
    block = report.get("precision")
    if block is None:
        return None
    target = f"{points(block['target'])} point{'' if points(block['target']) == '±1.0' else 's'}"
    if block["reached"]:
        return f"stopped after {report['fights']:,} fights: every figure asked about is within {target}"
    widths = ", ".join(f"{_named(f)} {points(f['half_width'])}" for f in block["figures"])
    return f"precision {target} not reached in {report['fights']:,} fights: {widths} points"


def _named(figure: dict[str, Any]) -> str:
    """`win`, or in a comparison `tough Rosa win`."""
    return " ".join(str(v) for k, v in figure.items() if k != "half_width")
