"""Comparisons on common random numbers (engine.simulate.compare): fight i of every variant is
that variant's fight i alone; the paired sums are the per-fight differences; the paired interval
is narrower than two independent runs of the same size; directions that the rules fix come out."""

from __future__ import annotations

import math
from pathlib import Path

import msgspec
import pytest

from engine.dice.source import derive_seed
from engine.simulate.batch import run_batch
from engine.simulate.compare import (
    Variant,
    comparison,
    independent_interval,
    paired_interval,
    players_figures,
    run_compare,
)
from engine.simulate.fight import prepare, run_fight
from engine.simulate.outcome import outcome_of
from engine.simulate.overrides import load_with_overrides
from engine.simulate.stats import Z95, summary

ROOT = Path(__file__).resolve().parents[1]
KNIFE = ROOT / "scenarios" / "knife-vs-22.toml"


def _variant(name: str, *changes: str) -> Variant:
    return Variant(name=name, loaded=load_with_overrides(KNIFE, list(changes)), changes=changes)


def test_each_variant_is_fought_on_the_same_seeds_as_its_own_batch() -> None:
    arms = [_variant("base"), _variant("tough", "combatants.Rosa.stats.body=85")]
    tallies, _ = run_compare(arms, 300, 11, workers=2)
    for arm, tally in zip(arms, tallies, strict=True):
        _, alone, _ = run_batch(arm.loaded, 300, 11, workers=1)
        assert tally == alone


def test_the_paired_sums_are_the_per_fight_differences_in_win_and_death() -> None:
    arms = [_variant("base"), _variant("cautious", "combatants.Rosa.tactics=cautious")]
    n, seed = 120, 5
    _, (paired,) = run_compare(arms, n, seed, workers=1)
    preps = [prepare(a.loaded) for a in arms]
    diffs = []
    for i in range(n):
        fights = [outcome_of(p, run_fight(p, derive_seed(seed, i))) for p in preps]
        (w0, d0), (w1, d1) = (players_figures(f, "knife") for f in fights)
        diffs.append((w1 - w0, d1 - d0))
    assert paired.n == n
    assert paired.sums == {"win": sum(d[0] for d in diffs), "someone_dies": sum(d[1] for d in diffs)}
    assert paired.squares == {"win": sum(d[0] ** 2 for d in diffs), "someone_dies": sum(d[1] ** 2 for d in diffs)}
    assert any(d != (0, 0) for d in diffs), "the tactics change some fights"


def test_a_comparison_is_the_same_on_one_and_two_workers() -> None:
    arms = [_variant("base"), _variant("soft", "combatants.Rosa.stats.body=50")]
    one = run_compare(arms, 400, 8, workers=1)
    two = run_compare(arms, 400, 8, workers=2)
    assert one == two
    assert msgspec.json.encode(comparison(arms, *one, seed=8, requested=400)) == msgspec.json.encode(
        comparison(arms, *two, seed=8, requested=400)
    )


def test_common_random_numbers_give_a_narrower_interval_than_two_independent_runs() -> None:
    """The same two variants: paired on one seed, and as two batches on different seeds."""
    n = 2000
    a, b = _variant("body 70"), _variant("body 60", "combatants.Rosa.stats.body=60")
    tallies, (paired,) = run_compare([a, b], n, 21, workers=2)
    _, low, high = paired_interval(paired.n, paired.sums["win"], paired.squares["win"])
    _, alone_a, _ = run_batch(a.loaded, n, 21, workers=2)
    _, alone_b, _ = run_batch(b.loaded, n, 4242, workers=2)  # an independent run: other dice
    p_a, p_b = alone_a.wins.get("knife", 0) / n, alone_b.wins.get("knife", 0) / n
    low_i, high_i = independent_interval(p_a, p_b, n)
    assert (high - low) < 0.75 * (high_i - low_i), f"paired {high - low:.4f}, independent {high_i - low_i:.4f}"
    # the report's own "separate runs" interval has the width two such runs would have
    report = comparison([a, b], tallies, [paired], seed=21, requested=n)
    win = report["differences"][0]["win"]
    assert win["ci95_high"] - win["ci95_low"] < win["independent_ci95_high"] - win["independent_ci95_low"]


def test_a_tougher_knife_fighter_wins_more_and_dies_less() -> None:
    """A direction the rules fix: more Body is more wound points (S2-6, C2-31)."""
    arms = [_variant("body 40", "combatants.Rosa.stats.body=40"), _variant("body 90", "combatants.Rosa.stats.body=90")]
    report = comparison(arms, *run_compare(arms, 1500, 3, workers=2), seed=3, requested=1500)
    diff = report["differences"][0]
    assert diff["win"]["ci95_low"] > 0 and diff["someone_dies"]["ci95_high"] < 0
    assert report["headlines"][0].startswith("body 90 against body 40: your side wins +")


def test_each_variants_full_report_is_the_batch_report() -> None:
    arms = [_variant("base"), _variant("soft", "combatants.Rosa.stats.body=50")]
    tallies, paired = run_compare(arms, 100, 2, workers=1)
    report = comparison(arms, tallies, paired, seed=2, requested=100)
    for arm, out in zip(arms, report["variants"], strict=True):
        prep, tally, _ = run_batch(arm.loaded, 100, 2, workers=1)
        assert out["report"] == summary(prep, tally, seed=2, requested=100)
        assert out["win"]["rate"] == out["report"]["sides"]["knife"]["rate"]


def test_the_paired_interval_from_sums() -> None:
    assert paired_interval(0, 0, 0) == (0.0, 0.0, 0.0)
    assert paired_interval(1, 1, 1) == (1.0, 1.0, 1.0)
    mean, low, high = paired_interval(100, 10, 30)  # 20 at +1, 10 at −1, 70 at 0
    variance = (30 - 100 * 0.1**2) / 99
    assert mean == pytest.approx(0.1)
    assert high - mean == pytest.approx(Z95 * math.sqrt(variance / 100))
    assert mean - low == pytest.approx(high - mean)
    assert paired_interval(50, 0, 0) == (0.0, 0.0, 0.0)  # identical variants: no uncertainty
