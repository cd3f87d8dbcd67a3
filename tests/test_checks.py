"""Checks: targets, outcome classes (C-1…C-13) and exact odds."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.dice.checks import OUTCOMES, CheckSpec, Shift, classify, resolve
from engine.dice.odds import exact_odds
from engine.dice.percentile import Percentile


def outcome(spec: CheckSpec, tens: int, ones: int) -> str:
    return resolve(spec, Percentile(tens=tens, ones=ones)).outcome


def counts(spec: CheckSpec) -> dict[str, int]:
    return {name: int(p * 100) for name, p in exact_odds(spec).items()}


def test_target_is_rating_plus_every_shift_unclamped_c1_c12() -> None:
    """C-1, C-12: the target is the rating plus every named, signed shift, never clamped."""
    spec = CheckSpec(kind="major", rating=20, shifts=(Shift("wounds", -20), Shift("blind", -30)))
    assert spec.target == -30
    assert outcome(spec, 0, 1) == "crit"  # a target below 1 still succeeds on a crit


def test_at_or_under_the_target_succeeds_c2() -> None:
    """C-2: success is a value at or under the target (seed 001's "under" read as seed 000's)."""
    spec = CheckSpec(kind="major", rating=45)
    assert outcome(spec, 4, 5) == "success"
    assert outcome(spec, 4, 6) == "failure"


def test_worked_major_45_odds_c13() -> None:
    """C-5, C-6, C-13: a major check is success or failure; crit, matches and fumble on top."""
    assert counts(CheckSpec(kind="major", rating=45)) == {
        "crit": 1,
        "matched_success": 4,
        "success": 40,
        "weak_success": 0,
        "failure": 49,
        "matched_failure": 5,
        "fumble": 1,
    }


def test_worked_significant_45_stat_60_odds_c4_c13() -> None:
    assert counts(CheckSpec(kind="significant", rating=45, stat=60)) == {
        "crit": 1,
        "matched_success": 4,
        "success": 40,
        "weak_success": 15,
        "failure": 35,
        "matched_failure": 4,
        "fumble": 1,
    }


def test_significant_52_against_45_over_60_is_a_weak_success_c4() -> None:
    assert outcome(CheckSpec(kind="significant", rating=45, stat=60), 5, 2) == "weak_success"


def test_a_match_inside_the_weak_band_is_just_weak_c13() -> None:
    assert outcome(CheckSpec(kind="significant", rating=45, stat=60), 5, 5) == "weak_success"


def test_shifts_move_the_stat_band_too_c4() -> None:
    spec = CheckSpec(kind="significant", rating=45, stat=60, shifts=(Shift("a", -10), Shift("b", 20)))
    assert (spec.target, spec.stat_target) == (55, 70)
    assert outcome(spec, 5, 2) == "success"


def test_minor_at_15_or_more_succeeds_without_a_roll_c3() -> None:
    assert counts(CheckSpec(kind="minor", rating=15))["success"] == 100


def test_minor_rolled_for_quality_is_strong_or_weak_never_failure_c3() -> None:
    spec = CheckSpec(kind="minor", rating=30, roll_anyway=True)
    assert outcome(spec, 2, 5) == "success"
    assert outcome(spec, 8, 7) == "weak_success"
    assert outcome(spec, 8, 8) == "weak_success"
    assert outcome(spec, 0, 0) == "fumble"
    assert counts(spec)["failure"] == 0


def test_minor_under_15_resolves_as_significant_c3() -> None:
    spec = CheckSpec(kind="minor", rating=10, stat=40)
    assert outcome(spec, 3, 5) == "weak_success"
    assert outcome(spec, 5, 0) == "failure"


def test_untrained_significant_is_stat_minus_30_weak_only_c7() -> None:
    spec = CheckSpec(kind="significant", untrained=True, stat=50)
    assert spec.target == 20
    assert outcome(spec, 1, 5) == "weak_success"
    assert outcome(spec, 1, 1) == "weak_success"
    assert outcome(spec, 3, 3) == "matched_failure"
    assert outcome(spec, 2, 5) == "failure"


def test_untrained_major_succeeds_only_on_a_crit_or_match_under_the_stat_c7() -> None:
    spec = CheckSpec(kind="major", untrained=True, stat=50)
    assert spec.target == 50
    assert outcome(spec, 3, 3) == "success"
    assert outcome(spec, 2, 5) == "failure"
    assert outcome(spec, 6, 6) == "matched_failure"
    assert outcome(spec, 0, 1) == "crit"
    assert counts(spec) == {
        "crit": 1,
        "matched_success": 0,
        "success": 4,
        "weak_success": 0,
        "failure": 89,
        "matched_failure": 5,
        "fumble": 1,
    }


def test_below_the_minimum_fails_even_if_matched_and_a_crit_meets_it_c8() -> None:
    spec = CheckSpec(kind="major", rating=60, minimum=30)
    assert outcome(spec, 2, 2) == "failure"
    assert outcome(spec, 2, 9) == "failure"
    assert outcome(spec, 3, 0) == "success"
    assert outcome(spec, 0, 1) == "crit"


def test_flip_flop_takes_the_better_outcome_c9_c11() -> None:
    spec = CheckSpec(kind="major", rating=45, flip=True)
    roll = resolve(spec, Percentile(tens=7, ones=2))
    assert (roll.value, roll.outcome, roll.roll and roll.roll.flipped) == (27, "success", True)
    assert resolve(spec, Percentile(tens=1, ones=0)).outcome == "crit"  # 10 → 01


def test_flip_flop_keeps_the_dice_as_rolled_d4() -> None:
    result = resolve(CheckSpec(kind="major", rating=45, flip=True), Percentile(tens=7, ones=2))
    assert result.roll is not None
    assert (result.roll.tens, result.roll.ones) == (7, 2)


def test_flip_tie_prefers_the_higher_value_for_damage_c11() -> None:
    spec = CheckSpec(kind="major", rating=90, flip=True)
    assert resolve(spec, Percentile(tens=2, ones=7), prefer="high").value == 72
    assert resolve(spec, Percentile(tens=2, ones=7)).value == 27


def test_a_stated_orientation_is_kept_even_if_worse_c11() -> None:
    spec = CheckSpec(kind="major", rating=45, flip=True)
    assert resolve(spec, Percentile(tens=2, ones=7), orientation=True).value == 72


def _oracle(kind: str, target: int, stat_target: int, value: int, matched: bool) -> str:
    """An independent reading of C-13 for trained major and significant checks."""
    if value == 1:
        return "crit"
    if value == 100:
        return "fumble"
    if value <= target:
        return "matched_success" if matched else "success"
    if kind == "significant" and value <= stat_target:
        return "weak_success"
    return "matched_failure" if matched else "failure"


@given(
    st.sampled_from(["major", "significant"]),
    st.integers(-40, 140),
    st.integers(0, 60),
    st.integers(-30, 30),
    st.booleans(),
)
def test_odds_match_an_exhaustive_count_and_sum_to_one(
    kind: str, rating: int, extra: int, shift: int, flip: bool
) -> None:
    spec = CheckSpec(kind=kind, rating=rating, stat=rating + extra, shifts=(Shift("s", shift),), flip=flip)  # type: ignore[arg-type]
    expected = dict.fromkeys(OUTCOMES, 0)
    rank = {name: i for i, name in enumerate(OUTCOMES)}
    for tens in range(10):
        for ones in range(10):
            options = [(tens, ones), (ones, tens)] if flip else [(tens, ones)]
            results = []
            for t, o in options:
                value = 100 if t == o == 0 else 10 * t + o
                results.append(_oracle(kind, spec.target, spec.stat_target, value, t == o and value != 100))
            expected[min(results, key=rank.__getitem__)] += 1
    odds = exact_odds(spec)
    assert counts(spec) == expected
    assert sum(odds.values()) == Fraction(1)


@given(
    st.sampled_from(["minor", "significant", "major"]),
    st.integers(0, 120),
    st.none() | st.integers(1, 99),
    st.booleans(),
    st.none() | st.integers(1, 100),
    st.booleans(),
    st.booleans(),
)
def test_odds_always_sum_to_exactly_one(
    kind: str,
    rating: int,
    stat: int | None,
    untrained: bool,
    minimum: int | None,
    flip: bool,
    quality: bool,
) -> None:
    spec = CheckSpec(
        kind=kind,
        rating=rating,
        stat=stat,
        untrained=untrained,
        minimum=minimum,
        flip=flip,
        roll_anyway=quality,  # type: ignore[arg-type]
    )
    assert sum(exact_odds(spec).values()) == Fraction(1)


def test_major_flip_flop_45_odds_are_exact() -> None:
    c = counts(CheckSpec(kind="major", rating=45, flip=True))
    assert sum(c.values()) == 100
    assert c["crit"] == 2  # 01 and 10
    assert c["fumble"] == 1
    assert c["matched_success"] == 4
    # every roll whose smaller reading is ≤ 45 (and not matched or special) succeeds
    assert c["success"] == 60  # unordered pairs {a<b} with 10a+b ≤ 45, both orders: 30 × 2


def test_classify_is_total_over_every_value() -> None:
    spec = CheckSpec(kind="major", rating=50)
    assert {classify(spec, v, False) for v in range(1, 101)} <= set(OUTCOMES)


def test_a_failure_either_way_keeps_the_dice_as_rolled_c11() -> None:
    spec = CheckSpec(kind="major", rating=50, flip=True)
    result = resolve(spec, Percentile(tens=5, ones=8), prefer="high")
    assert (result.value, result.outcome) == (58, "failure")
