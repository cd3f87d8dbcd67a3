"""A batch of n fights cut into spans of fight indexes, one task each, sized by measured cost.

A task should last about its executor's `task_seconds` (long enough that the cost of sending it
and merging its result is negligible, short enough for progress, Ctrl-C and a lost worker to
cost little), and a batch is never cut into fewer tasks than the executor's slots × SPREAD when
it has the fights for them (a slow task, or a worker lost, then leaves the others busy). On a
cluster, 10⁹ fights at 33,000 fights/s are about 10⁴ tasks of 3 s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidInput

Span = tuple[int, int]
#: Fights `first…stop−1` → that span's result.
Runner = Callable[[int, int], Any]

#: The fewest fights a task gets (unless it is the whole batch).
MIN_SIZE = 100
#: Without a measured cost, the most fights a task gets.
UNMEASURED_SIZE = 5_000
#: Never fewer tasks than slots × SPREAD, when the batch has the fights.
SPREAD = 8
#: The most fights a task may be given (`--chunk-size`).
MAX_SIZE = 100_000_000


@dataclass(frozen=True)
class Spans:
    """Fights 0…n−1 in spans of `size` (the last one shorter); made as they are iterated, so a
    plan of 10⁹ fights takes no memory."""

    n: int
    size: int

    def __iter__(self) -> Iterator[Span]:
        for first in range(0, self.n, self.size):
            yield first, min(self.n, first + self.size)

    def __len__(self) -> int:
        return math.ceil(self.n / self.size)


def check_chunk_size(size: int | None) -> None:
    if size is not None and not 1 <= size <= MAX_SIZE:
        raise InvalidInput(
            f"--chunk-size {size} is out of range", where="--chunk-size", hint=f"1 to {MAX_SIZE:,} fights a task"
        )


def plan(
    n: int,
    slots: int,
    *,
    task_seconds: float = 0.0,
    per_index: float | None = None,
    size: int | None = None,
) -> Spans:
    """The spans of a batch of `n` on `slots` tasks at a time: `size` fights each when given,
    else as many as take `task_seconds` at `per_index` seconds a fight (measured), never so many
    that there are fewer than slots × SPREAD tasks, never fewer than MIN_SIZE."""
    check_chunk_size(size)
    if size is None:
        spread = math.ceil(n / (max(1, slots) * SPREAD))
        by_cost = UNMEASURED_SIZE if not per_index else max(1, int(task_seconds / per_index))
        size = max(MIN_SIZE, min(spread, by_cost))
    return Spans(n=n, size=max(1, min(size, n)))


def seconds_per_index(run: Runner, *, budget: float = 0.2, most: int = 200) -> float:
    """About how long one fight of `run` takes here: a short timed sample of its first fights
    (at least 5, then until `budget` seconds or `most` fights), in doubling spans."""
    started = time.perf_counter()
    done, size = 0, 1
    while done < most and (done < 5 or time.perf_counter() - started < budget):
        stop = min(most, done + size)
        run(done, stop)
        done, size = stop, size * 2
    return (time.perf_counter() - started) / done
