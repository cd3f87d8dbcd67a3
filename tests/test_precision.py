"""Batches that stop when precise enough (issue 31): the interval is tested only at the fixed
checkpoints (every 1,000 fights in fight order, and at the most allowed), so a seed stops at the
same fight, with the same report, whatever the chunking, the worker count or the executor; the
stop is the first checkpoint at which every figure asked about is within the target."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInput
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import batch_intervals, batch_precision, run_batch
from engine.simulate.compare import COMPARE_FIGURES, Variant, compare_precision, comparison, run_compare
from engine.simulate.executors import InProcess
from engine.simulate.identity import engine_identity
from engine.simulate.pool import LocalPool
from engine.simulate.precision import (
    BATCH_FIGURES,
    CHECKPOINT,
    MOST_FIGHTS,
    Precision,
    most_fights,
    pieces,
    precision_of,
    run_until,
)
from engine.simulate.spans import Runner
from engine.simulate.stats import summary

ROOT = Path(__file__).resolve().parents[1]
KNIFE_FILE = ROOT / "scenarios" / "knife-vs-22.toml"
KNIFE = load_scenario(KNIFE_FILE)
#: ±2 points on knife-vs-22 with seed 7: a few thousand fights, so the tests stay quick.
TWO_POINTS = Precision(target=0.02)


def report_of(n: int, seed: int, precision: Precision, **options: Any) -> bytes:
    prep, tally, _ = run_batch(KNIFE, n, seed, precision=precision, **options)
    block = batch_precision(prep, tally, precision, n)
    return msgspec.json.encode(summary(prep, tally, seed=seed, requested=n, precision=block))


# -- the checkpoints ---------------------------------------------------------------------------


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_a_span_is_cut_at_every_checkpoint_inside_it_and_nowhere_else(first: int, size: int) -> None:
    stop = first + size
    cut = pieces(first, stop)
    assert cut[0][0] == first and cut[-1][1] == stop
    assert all(a[1] == b[0] for a, b in pairwise(cut))  # contiguous, in order
    assert all(a // CHECKPOINT == (b - 1) // CHECKPOINT for a, b in cut)  # none crosses a checkpoint
    assert [b for _, b in cut[:-1]] == list(range((first // CHECKPOINT + 1) * CHECKPOINT, stop, CHECKPOINT))


@dataclass(frozen=True)
class Counting:
    """A toy job: a span's result is how many fights it holds (what the driver is tested on)."""

    @property
    def engine(self) -> str:
        return engine_identity()

    def open(self) -> Runner:
        return lambda first, stop: stop - first


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 12_000), chunk=st.integers(1, 4_000), needed=st.integers(1, 15_000))
def test_a_precise_run_stops_at_the_first_checkpoint_met_or_at_n_whatever_the_chunking(
    n: int, chunk: int, needed: int
) -> None:
    """Law: the stop is a multiple of 1,000 or -n, the first one where the test passes."""
    merged: list[int] = []
    checked: list[int] = []

    def met() -> bool:
        checked.append(sum(merged))
        return sum(merged) >= needed

    run_until(Counting(), n, merged.append, met, executor=InProcess(), chunk_size=chunk)
    fights = sum(merged)
    first_checkpoint = -(-needed // CHECKPOINT) * CHECKPOINT
    assert fights == min(n, first_checkpoint)
    assert fights % CHECKPOINT == 0 or fights == n
    at_n = [n] if fights == n and n % CHECKPOINT else []
    assert checked == [*range(CHECKPOINT, fights + 1, CHECKPOINT), *at_n]  # tested there and only there


# -- the same stop on any executor --------------------------------------------------------------


@pytest.fixture(scope="module")
def in_process() -> bytes:
    return report_of(100_000, 7, TWO_POINTS, executor=InProcess())


@pytest.mark.parametrize(
    "options",
    [{"workers": 1, "chunk_size": 333}, {"executor": LocalPool(2)}, {"executor": LocalPool(2), "chunk_size": 2_500}],
    ids=["in-process, chunks of 333", "2 workers", "2 workers, chunks of 2,500"],
)
def test_a_seed_stops_at_the_same_fight_with_the_same_bytes_on_any_executor_and_chunking(
    in_process: bytes, options: dict[str, Any]
) -> None:
    assert report_of(100_000, 7, TWO_POINTS, **options) == in_process


def test_the_stop_is_the_first_checkpoint_where_every_figure_is_within_the_target(in_process: bytes) -> None:
    report = msgspec.json.decode(in_process)
    fights = report["fights"]
    assert fights % CHECKPOINT == 0 and 0 < fights < 100_000
    assert report["partial"] is False and report["requested"] == 100_000
    block = report["precision"]
    assert block["reached"] is True and block["target"] == 0.02 and block["most"] == 100_000
    assert [f["figure"] for f in block["figures"]] == ["win", "dies"]
    assert all(f["half_width"] <= 0.02 for f in block["figures"])
    prep, before, _ = run_batch(KNIFE, fights - CHECKPOINT, 7)  # the checkpoint before: not yet precise
    assert not TWO_POINTS.met(batch_intervals(prep, before, TWO_POINTS).values())


def test_the_estimate_is_the_fixed_batch_s_own_figures_for_those_fights(in_process: bytes) -> None:
    """A precise run is the first fights of the batch: the same figures as `-n` that many."""
    report = msgspec.json.decode(in_process)
    prep, tally, _ = run_batch(KNIFE, report["fights"], 7)
    plain = summary(prep, tally, seed=7, requested=report["fights"])
    assert {k: v for k, v in report.items() if k not in ("precision", "requested")} == {
        k: v for k, v in plain.items() if k != "requested"
    }


def test_a_target_not_reached_by_n_says_so_with_the_interval_it_reached() -> None:
    prep, tally, _ = run_batch(KNIFE, 1_500, 7, precision=Precision(target=0.005))
    block = batch_precision(prep, tally, Precision(target=0.005), 1_500)
    assert tally.fights == 1_500 and block["reached"] is False
    assert all(f["half_width"] > 0.005 for f in block["figures"])
    assert summary(prep, tally, seed=7, requested=1_500, precision=block)["partial"] is False


@settings(max_examples=6, deadline=None)
@given(n=st.integers(1, 2_600), target=st.floats(0.02, 0.3), chunk=st.sampled_from([None, 1, 250, 1_700]))
def test_on_a_real_scenario_the_stop_is_a_checkpoint_or_n(n: int, target: float, chunk: int | None) -> None:
    precision = Precision(target=target, figures=("win", "down"))
    prep, tally, _ = run_batch(KNIFE, n, 3, precision=precision, chunk_size=chunk)
    assert tally.fights % CHECKPOINT == 0 or tally.fights == n
    reached = batch_precision(prep, tally, precision, n)["reached"]
    assert reached or tally.fights == n


def test_figures_not_asked_about_do_not_hold_a_run_back() -> None:
    """`draw` is never seen in knife-vs-22 (±0 at once); `win` alone needs more fights."""
    draws = run_batch(KNIFE, 100_000, 7, precision=Precision(target=0.02, figures=("draw",)))[1]
    wins = run_batch(KNIFE, 100_000, 7, precision=Precision(target=0.02, figures=("win",)))[1]
    assert draws.fights == CHECKPOINT < wins.fights


# -- comparisons: the paired differences ---------------------------------------------------------


def test_a_comparison_stops_on_its_paired_differences_alike_on_one_and_two_workers() -> None:
    from engine.simulate.overrides import load_with_overrides

    arms = [
        Variant(name="base", loaded=KNIFE),
        Variant(name="tough", loaded=load_with_overrides(KNIFE_FILE, ["combatants.Rosa.stats.body=85"])),
    ]
    precision = Precision(target=0.02)
    here = run_compare(arms, 100_000, 4, precision=precision)
    there = run_compare(arms, 100_000, 4, precision=precision, executor=LocalPool(2), chunk_size=700)
    assert here == there
    tallies, paired = here
    fights = tallies[0].fights
    assert fights % CHECKPOINT == 0 and fights < 100_000
    block = compare_precision(arms, paired, precision, fights, 100_000)
    assert block["reached"] and [(f["variant"], f["figure"]) for f in block["figures"]] == [
        ("tough", "win"),
        ("tough", "dies"),
    ]
    report = comparison(arms, tallies, paired, seed=4, requested=100_000, precision=block)
    assert report["partial"] is False and report["precision"] == block
    assert all(abs(d["win"]["ci95_high"] - d["win"]["ci95_low"]) / 2 <= 0.02 for d in report["differences"])


# -- asking for it ---------------------------------------------------------------------------


def test_the_precision_asked_for_is_checked_in_one_line_with_a_hint() -> None:
    assert precision_of(None, None, BATCH_FIGURES) is None
    assert precision_of(0.01, None, BATCH_FIGURES) == Precision(target=0.01, figures=("win", "dies"))
    assert precision_of(0.01, "down, win,down", BATCH_FIGURES) == Precision(target=0.01, figures=("down", "win"))
    for target in (0.0, -0.1, 0.5, 2.0):
        with pytest.raises(InvalidInput, match="out of range") as caught:
            precision_of(target, None, BATCH_FIGURES)
        assert caught.value.where == "--precision" and "0.01" in caught.value.hint
    with pytest.raises(InvalidInput, match="no such figure") as unknown:
        precision_of(0.01, "win,down", COMPARE_FIGURES)
    assert "win" in unknown.value.hint and "dies" in unknown.value.hint
    with pytest.raises(InvalidInput, match="needs --precision"):
        precision_of(None, "win", BATCH_FIGURES)


def test_n_is_the_most_a_precise_run_fights_and_defaults_high() -> None:
    assert most_fights(None, None, 10_000) == 10_000
    assert most_fights(None, 0.01, 10_000) == MOST_FIGHTS
    assert most_fights(5_000, 0.01, 10_000) == 5_000


def test_a_precise_run_on_dask_stops_where_it_stops_here(dask_cluster: Any, in_process: bytes) -> None:
    assert report_of(100_000, 7, TWO_POINTS, executor=dask_cluster) == in_process
    assert report_of(100_000, 7, TWO_POINTS, executor=dask_cluster, chunk_size=1_234) == in_process


def test_the_library_s_simulate_takes_a_precision_as_the_cli_does(in_process: bytes) -> None:
    from engine.api import simulate

    assert msgspec.json.encode(simulate(KNIFE_FILE, 100_000, 7, precision=0.02)) == in_process
    with pytest.raises(InvalidInput, match="precision_of fled: no such figure"):
        simulate(KNIFE_FILE, precision=0.02, precision_of=("fled",))
