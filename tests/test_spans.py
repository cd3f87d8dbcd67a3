"""Chunk plans: every fight once, in order; tasks sized by measured cost to the executor's task
length, never fewer than the workers can share, never tiny; a plan of 10⁹ fights is about 10⁴
tasks on a cluster."""

from __future__ import annotations

import pytest

from engine.errors import InvalidInput
from engine.simulate.spans import MIN_SIZE, SPREAD, UNMEASURED_SIZE, plan, seconds_per_index


@pytest.mark.parametrize(
    ("n", "slots", "per_index", "size"),
    [(1, 1, None, None), (49, 2, None, None), (1000, 3, 1e-4, None), (123_457, 8, None, None), (10_007, 2, None, 333)],
)
def test_a_plan_covers_every_fight_once_in_order(n: int, slots: int, per_index: float | None, size: int | None) -> None:
    spans = plan(n, slots, task_seconds=1.0, per_index=per_index, size=size)
    covered = [i for first, stop in spans for i in range(first, stop)]
    assert covered == list(range(n))
    assert len(spans) == len(list(spans))


def test_a_billion_fights_at_33000_a_second_are_about_ten_thousand_tasks_of_three_seconds() -> None:
    spans = plan(10**9, 100, task_seconds=3.0, per_index=1 / 33_000)
    assert 9_000 <= len(spans) <= 11_000
    assert spans.size == 99_000


def test_a_batch_is_never_cut_into_fewer_tasks_than_the_workers_can_share() -> None:
    spans = plan(1_000_000, 2, task_seconds=3.0, per_index=1 / 33_000)
    assert len(spans) == 2 * SPREAD


def test_tasks_are_never_tiny_nor_unmeasured_ones_long() -> None:
    assert plan(10**6, 2, task_seconds=3.0, per_index=1.0).size == MIN_SIZE  # a second a fight: still 100
    assert plan(10**8, 2).size == UNMEASURED_SIZE
    assert len(plan(50, 8)) == 1


def test_a_given_chunk_size_is_kept_and_checked() -> None:
    assert plan(10_000, 2, task_seconds=3.0, per_index=1e-6, size=7).size == 7
    assert plan(10, 2, size=1000).size == 10
    for bad in (0, -1, 10**9):
        with pytest.raises(InvalidInput, match="--chunk-size"):
            plan(10, 1, size=bad)


def test_a_plan_of_a_billion_fights_takes_no_memory() -> None:
    spans = plan(10**9, 1, size=1)
    assert len(spans) == 10**9 and next(iter(spans)) == (0, 1)


def test_the_cost_sample_runs_the_first_fights_in_doubling_spans() -> None:
    seen: list[tuple[int, int]] = []
    per = seconds_per_index(lambda first, stop: seen.append((first, stop)), most=20)
    assert seen == [(0, 1), (1, 3), (3, 7), (7, 15), (15, 20)] and per >= 0
