"""Character creation rules S2-1…S2-6 (engine.rules.ua2.creation), with worked examples."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings

from engine.catalog import weapon_catalog
from engine.errors import InvalidInput
from engine.rules.ua2.creation import (
    BUDGETS,
    Finding,
    check_sheet,
    check_weapons,
    skill_cost,
    spending,
)
from engine.state.sheet import Passion, Sheet, Skill, Stats, WoundPoints
from tests.strategies import instances_of

THREE_PASSIONS = (
    Passion(kind="rage", trigger="being cheated"),
    Passion(kind="fear", trigger="hospitals"),
    Passion(kind="noble", trigger="family"),
)


def make(
    body: int = 50,
    speed: int = 55,
    mind: int = 60,
    soul: int = 55,
    skills: Sequence[Skill] = (),
    obsession: str | None = None,
    passions: Sequence[Passion] = THREE_PASSIONS,
    weapons: Sequence[str] = (),
    wounds: WoundPoints | None = None,
    hand_to_hand: str = "Fighting",
) -> Sheet:
    """A sheet; the obsession defaults to its first skill."""
    skills = tuple(skills)
    if obsession is None:
        obsession = skills[0].name if skills else ""
    return Sheet(
        name="Test",
        stats=Stats(body=body, speed=speed, mind=mind, soul=soul),
        skills=skills,
        obsession=obsession,
        passions=tuple(passions),
        weapons=tuple(weapons),
        wounds=wounds,
        hand_to_hand=hand_to_hand,
    )


def skill(name: str, stat: str, rating: int, free: bool = False) -> Skill:
    return Skill(name=name, stat=stat, rating=rating, free=free)  # type: ignore[arg-type]


def spent_exactly(body: int = 50, speed: int = 55, mind: int = 60, soul: int = 55) -> list[Skill]:
    """Skills that spend each stat's points exactly, with no bonus."""
    return [
        skill("General Athletics", "body", body),
        skill("Dodge", "speed", speed),
        skill("Notice", "mind", mind),
        skill("Charm", "soul", soul),
    ]


def only(findings: list[Finding], rule: str) -> list[Finding]:
    return [f for f in findings if rule in f.rule]


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]


# --- S2-1 stats ---------------------------------------------------------------------------------


def test_s2_1_a_stat_outside_1_to_99_is_an_error() -> None:
    sheet = make(body=0, speed=100, mind=60, soul=55)
    found = only(check_sheet(sheet, "beginner"), "S2-1")
    assert [(f.severity, f.path, f.message) for f in found] == [
        ("error", "$.stats.body", "Body is 0, must be 1–99 (S2-1)"),
        ("error", "$.stats.speed", "Speed is 100, must be 1–99 (S2-1)"),
    ]


def test_s2_1_stats_outside_the_human_range_are_not_flagged() -> None:
    sheet = make(body=20, speed=80, mind=60, soul=60, skills=spent_exactly(20, 80, 60, 60))
    assert only(check_sheet(sheet, "beginner"), "S2-1") == []


# --- S2-2 budgets by tier -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tier", "stat_points", "bonus_points"),
    [("beginner", 220, 15), ("seasoned", 240, 70), ("experienced", 260, 125)],
)
def test_s2_2_budgets_by_tier(tier: str, stat_points: int, bonus_points: int) -> None:
    assert (BUDGETS[tier].stat_points, BUDGETS[tier].bonus_points) == (stat_points, bonus_points)


def test_s2_2_a_beginner_spending_exactly_220_stat_points_is_clean() -> None:
    bonus = skill("Lying", "soul", 15)  # 15 over on Soul, paid by the 15 bonus points
    sheet = make(skills=[*spent_exactly(), skill("Initiative", "speed", 27), bonus])
    assert check_sheet(sheet, "beginner") == []


def test_s2_2_too_many_stat_points_is_an_error_with_the_numbers() -> None:
    sheet = make(body=60, skills=spent_exactly(body=60))  # 60 + 55 + 60 + 55 = 230
    found = only(check_sheet(sheet, "beginner"), "S2-2")
    assert [(f.severity, f.path, f.message) for f in found] == [
        (
            "error",
            "$.stats",
            "10 stat points over budget: stat points: 230 spent, 220 available for a beginner (S2-2)",
        )
    ]


def test_s2_2_the_same_stats_are_fine_for_a_seasoned_character_but_leave_points_unspent() -> None:
    sheet = make(body=60, skills=spent_exactly(body=60))
    found = only(check_sheet(sheet, "seasoned"), "S2-2")
    assert [(f.severity, f.message) for f in found] == [
        ("warning", "stat points: 230 spent, 240 available for a seasoned — 10 unspent (S2-2)")
    ]


def test_s2_2_an_unknown_tier_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="unknown tier 'legendary'"):
        check_sheet(make(), "legendary")


# --- S2-3 skill points per stat, bonus points, skill above stat ---------------------------------


def test_s2_3_skill_points_on_a_stat_come_from_that_stat() -> None:
    sheet = make(skills=spent_exactly())
    account = spending(sheet, "beginner")
    assert [(a.stat, a.spent, a.available) for a in account.accounts] == [
        ("body", 50, 50),
        ("speed", 55, 55),
        ("mind", 60, 60),
        ("soul", 55, 55),
    ]


def test_s2_3_overflow_beyond_the_bonus_points_is_an_error_with_the_numbers() -> None:
    # Body 50: General Athletics 50 + Fighting 23 = 73 spent, 23 over; a beginner has 15 bonus.
    skills = [*spent_exactly(), skill("Fighting", "body", 23)]
    found = only(check_sheet(make(skills=skills), "beginner"), "S2-3")
    assert [(f.severity, f.path, f.message) for f in found] == [
        (
            "error",
            "$.skills",
            "8 skill points over budget: Body's skills cost 73, 23 more than Body 50; "
            "those 23 come from bonus points, and a beginner has 15 (S2-3)",
        )
    ]


def test_s2_3_bonus_points_pay_for_overflow_on_any_stat() -> None:
    # Body 8 over + Mind 7 over = 15 = a beginner's bonus: no finding at all.
    skills = [*spent_exactly(), skill("Fighting", "body", 8), skill("Occult", "mind", 7)]
    assert check_sheet(make(skills=skills), "beginner") == []
    assert spending(make(skills=skills), "beginner").bonus_needed == 15


def test_s2_3_overflow_is_pooled_across_stats_against_the_bonus() -> None:
    # Body 10 over + Mind 10 over = 20 > 15: one error naming both stats.
    skills = [*spent_exactly(), skill("Fighting", "body", 10), skill("Occult", "mind", 10)]
    found = errors(check_sheet(make(skills=skills), "beginner"))
    assert [f.message for f in found] == [
        "5 skill points over budget: Body's skills cost 60, 10 more than Body 50; "
        "Mind's skills cost 70, 10 more than Mind 60; those 20 come from bonus points, and a beginner has 15 (S2-3)"
    ]


def test_s2_3_points_a_stat_leaves_unspent_do_not_pay_for_another_stat() -> None:
    # Body spends nothing (50 unspent), Mind 20 over; only the 15 bonus points cross stats.
    skills = [skill("Dodge", "speed", 55), skill("Notice", "mind", 60), skill("Occult", "mind", 20)]
    skills.append(skill("Charm", "soul", 55))
    found = errors(check_sheet(make(skills=skills), "beginner"))
    assert [f.message for f in found] == [
        "5 skill points over budget: Mind's skills cost 80, 20 more than Mind 60; "
        "those 20 come from bonus points, and a beginner has 15 (S2-3)"
    ]


def test_s2_3_unspent_skill_points_are_a_warning() -> None:
    skills = [skill("Dodge", "speed", 55), skill("Notice", "mind", 60), skill("Charm", "soul", 50)]
    found = only(check_sheet(make(skills=skills), "beginner"), "S2-3")
    assert [(f.severity, f.path, f.message) for f in found] == [
        ("warning", "$.skills", "skill points unspent: Body 50, Soul 5, bonus 15 of 15 (S2-3)")
    ]


def test_s2_3_a_skill_above_its_tied_stat_is_a_warning_the_gm_may_allow() -> None:
    # Seed 001: "50 body and 70 speed. Your GM may allow having fighting at 60."
    skills = [
        skill("Fighting", "body", 60),  # 10 over Body: paid by bonus
        skill("Dodge", "speed", 70),
        skill("Notice", "mind", 45),
        skill("Charm", "soul", 50),
    ]
    sheet = make(body=50, speed=70, mind=45, soul=55, skills=skills)
    found = check_sheet(sheet, "beginner")
    assert errors(found) == []
    warning = next(f for f in found if f.path == "$.skills[0].rating")
    assert warning.severity == "warning"
    assert warning.message == ("Fighting 60 is above its tied stat Body 50; the GM may allow it (S2-3)")


# --- S2-4 free skills and Initiative -----------------------------------------------------------


def test_s2_4_a_free_skill_starts_at_15_and_costs_only_what_is_above() -> None:
    stats = Stats(body=50, speed=55, mind=60, soul=55)
    assert skill_cost(skill("First Aid", "mind", 15, free=True), stats) == 0
    assert skill_cost(skill("First Aid", "mind", 40, free=True), stats) == 25
    assert skill_cost(skill("First Aid", "mind", 40), stats) == 40


def test_s2_4_initiative_starts_at_half_speed_rounded_down_and_costs_nothing() -> None:
    stats = Stats(body=50, speed=55, mind=60, soul=55)  # 55 // 2 = 27
    assert skill_cost(skill("Initiative", "speed", 27), stats) == 0
    assert skill_cost(skill("initiative", "speed", 28), stats) == 1
    assert skill_cost(skill("Initiative", "speed", 40), stats) == 13


def test_s2_4_a_free_initiative_starts_at_the_larger_of_15_and_half_speed() -> None:
    slow = Stats(body=50, speed=20, mind=50, soul=50)  # half Speed 10 < 15
    fast = Stats(body=50, speed=70, mind=50, soul=50)  # half Speed 35 > 15
    assert skill_cost(skill("Initiative", "speed", 20, free=True), slow) == 5
    assert skill_cost(skill("Initiative", "speed", 40, free=True), fast) == 5


def test_s2_4_initiative_must_be_tied_to_speed() -> None:
    skills = [*spent_exactly(), skill("Initiative", "body", 27)]
    found = errors(check_sheet(make(skills=skills), "beginner"))
    assert found[0].path == "$.skills[4].stat"
    assert found[0].message == (
        "Initiative is tied to Body; Initiative is a Speed skill and starts at half Speed (S2-4)"
    )


def test_s2_4_initiative_below_half_speed_is_a_warning() -> None:
    skills = [*spent_exactly(), skill("Initiative", "speed", 20)]
    found = only(check_sheet(make(skills=skills), "beginner"), "S2-4")
    assert [(f.severity, f.path, f.message) for f in found] == [
        (
            "warning",
            "$.skills[4].rating",
            "Initiative 20 is below its start, half Speed 55 = 27 (nothing is refunded) (S2-4)",
        )
    ]


def test_s2_4_a_free_skill_below_15_is_a_warning() -> None:
    skills = [*spent_exactly(), skill("First Aid", "mind", 10, free=True)]
    found = only(check_sheet(make(skills=skills), "beginner"), "S2-4")
    assert [(f.severity, f.path) for f in found] == [("warning", "$.skills[4].rating")]


def test_s2_4_free_skills_and_initiative_do_not_draw_on_any_budget() -> None:
    skills = [
        *spent_exactly(),
        skill("Initiative", "speed", 27),
        skill("First Aid", "mind", 15, free=True),
        skill("Lying", "soul", 15),
    ]
    assert check_sheet(make(skills=skills), "beginner") == []


# --- S2-5 obsession and passions ----------------------------------------------------------------


def test_s2_5_a_sheet_needs_an_obsession_skill() -> None:
    found = only(check_sheet(make(skills=spent_exactly(), obsession=""), "beginner"), "S2-5")
    assert [(f.severity, f.path) for f in found] == [("error", "$.obsession")]
    assert "no obsession skill" in found[0].message


def test_s2_5_the_obsession_is_one_of_the_sheets_skills() -> None:
    found = only(check_sheet(make(skills=spent_exactly(), obsession="Firearms"), "beginner"), "S2-5")
    assert [f.message for f in found] == [
        "the obsession 'Firearms' is not one of the sheet's skills (General Athletics, Dodge, Notice, Charm) (S2-5)"
    ]


def test_s2_5_the_obsession_matches_a_skill_ignoring_case() -> None:
    sheet = make(skills=[*spent_exactly(), skill("Lying", "soul", 15)], obsession="dodge")
    assert check_sheet(sheet, "beginner") == []


def test_s2_5_three_passions_one_of_each_kind() -> None:
    rage_twice = (THREE_PASSIONS[0], THREE_PASSIONS[1], THREE_PASSIONS[0])
    found = only(check_sheet(make(skills=spent_exactly(), passions=rage_twice), "beginner"), "C-10")
    assert [(f.severity, f.path, f.message) for f in found] == [
        (
            "error",
            "$.passions",
            "3 passions given; need one each of rage, fear and noble — noble missing; rage 2 times (S2-5, C-10)",
        )
    ]
    found = only(check_sheet(make(skills=spent_exactly(), passions=()), "beginner"), "C-10")
    assert "rage, fear, noble missing" in found[0].message


# --- S2-6 wounds; weapons -----------------------------------------------------------------------


def test_s2_6_maximum_wound_points_other_than_body_is_a_warning() -> None:
    sheet = make(skills=spent_exactly(), wounds=WoundPoints(current=40, maximum=45))
    found = only(check_sheet(sheet, "beginner"), "S2-6")
    assert [(f.severity, f.path, f.message) for f in found] == [
        ("warning", "$.wounds.maximum", "maximum wound points 45, Body is 50 (S2-6)")
    ]


def test_weapons_outside_the_catalog_or_without_their_skill_are_warnings_c2_1() -> None:
    sheet = make(skills=spent_exactly(), weapons=["fists", ".44 revolver", "lightsaber"])
    found = check_weapons(sheet, weapon_catalog())
    assert [(f.severity, f.path) for f in found] == [
        ("warning", "$.weapons[0]"),  # fists: Fighting, which the sheet lacks
        ("warning", "$.weapons[1]"),  # .44 revolver: Firearms, which the sheet lacks
        ("warning", "$.weapons[2]"),  # not in the catalog
    ]
    assert "attacks with Fighting" in found[0].message
    assert "'lightsaber' is not in the weapon catalog" in found[2].message


def test_a_brawlers_fists_use_the_sheets_own_hand_to_hand_skill_c2_1() -> None:
    skills = [skill("Kung Fu", "body", 50), *spent_exactly()[1:]]
    sheet = make(skills=skills, weapons=["fists"], hand_to_hand="Kung Fu")
    assert check_weapons(sheet, weapon_catalog()) == []


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=300)
@given(sheet=instances_of(Sheet))
def test_any_sheet_gets_findings_never_an_exception(sheet: Sheet) -> None:
    for tier in BUDGETS:
        findings = check_sheet(sheet, tier)
        for finding in findings:
            assert finding.path.startswith("$")
            assert finding.rule in finding.message
            assert "\n" not in finding.line()
        account = spending(sheet, tier)
        assert all(c.cost >= 0 for c in account.skills)
        over_budget = account.bonus_needed > account.bonus_available
        assert over_budget == any(f.severity == "error" and f.path == "$.skills" for f in findings)
