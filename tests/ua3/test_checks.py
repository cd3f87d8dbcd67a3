"""Checks in ua3 follow C-* (U-1): abilities from the gauges now (U-18), identities standing in
(U-19), relationships (U-20), the obsession flip-flop (C-9), passions (U-21), exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.commands import RollCheck, Ruling
from engine.commands.ua3 import AbilityCheck, SpendPassion
from engine.dice.checks import CheckSpec
from engine.dice.odds import success_chance
from engine.errors import Refused
from engine.events.checks import CheckRolled
from engine.events.setup import GmRuling
from engine.events.ua3 import AbilityChecked, PassionSpent
from engine.state.ua3.sheet import Identity, Relationship
from tests.ua3.support import Scene, sheet

TOMMY = sheet(
    "Tommy",
    hardened={"violence": 4},  # Struggle 35
    identities=[Identity(name="Street fighter", rating=55, substitutes=("Struggle", "Dodge"), obsession=True)],
    relationships=[Relationship(person="Gina", rating=45, gauge="favorite")],
)


def test_u1_a_check_with_an_ability_is_a_c_star_check_of_its_rating_now() -> None:
    s = Scene(("Ann", "a", sheet("Ann", hardened={"unnatural": 3})))
    (checked,) = s.do(AbilityCheck(actor="Ann", name="Notice", dice=(5, 0)))  # Notice 65 − 15 = 50
    assert isinstance(checked, AbilityChecked)
    assert (checked.result.spec.kind, checked.result.target, checked.result.outcome) == ("major", 50, "success")
    assert success_chance(checked.result.spec) == Fraction(50, 100)  # exact odds from the stored spec
    (minor,) = s.do(AbilityCheck(actor="Ann", name="notice", kind="minor"))
    assert minor.result.roll is None and minor.result.outcome == "success"  # type: ignore[attr-defined]  # C-3


def test_u19_c9_the_obsession_identity_stands_in_and_its_rolls_flip_flop() -> None:
    s = Scene(("Tommy", "a", TOMMY))
    (checked,) = s.do(AbilityCheck(actor="Tommy", name="Struggle", dice=(7, 2)))
    assert checked.result.spec.label == "Street fighter" and checked.result.spec.flip  # type: ignore[attr-defined]
    assert checked.result.value == 27 and checked.result.outcome == "success"  # type: ignore[attr-defined]
    (stated,) = s.do(AbilityCheck(actor="Tommy", name="Street fighter", flipped=False, dice=(7, 2)))
    assert stated.result.value == 72  # type: ignore[attr-defined]  # C-11: a person's orientation
    with pytest.raises(Refused, match="may not be flip-flopped"):
        s.do(AbilityCheck(actor="Tommy", name="Knowledge", flipped=True))


def test_u20_a_relationship_is_rolled_by_its_person() -> None:
    s = Scene(("Tommy", "a", TOMMY))
    (checked,) = s.do(AbilityCheck(actor="Tommy", name="Gina", dice=(4, 0)))
    assert checked.result.spec.label == "relationship with Gina" and checked.result.target == 45  # type: ignore[attr-defined]


def test_u21_a_passion_rerolls_or_flips_the_last_failed_check_once() -> None:
    s = Scene(("Ann", "a", sheet("Ann")))
    s.do(AbilityCheck(actor="Ann", name="Lie", dice=(7, 1)))  # 71 against Lie 20
    (spent,) = s.do(SpendPassion(actor="Ann", passion="rage", mode="flip"))
    assert isinstance(spent, PassionSpent) and spent.after.value == 17 and spent.after.outcome == "success"
    assert "U-21" in spent.explain()
    s.do(AbilityCheck(actor="Ann", name="Lie", dice=(7, 1)))
    with pytest.raises(Refused, match="already spent this session"):
        s.do(SpendPassion(actor="Ann", passion="rage", mode="flip"))


def test_plain_checks_and_rulings_are_shared_with_every_ruleset() -> None:
    s = Scene(("Ann", "a", sheet("Ann")))
    (rolled,) = s.do(RollCheck(spec=CheckSpec(kind="major", rating=40), actor="Ann", dice=(3, 9)))
    assert isinstance(rolled, CheckRolled) and rolled.result.outcome == "success"
    (ruled,) = s.do(Ruling(note="an objective: the cult active in four cities (U-26)", about="campaign"))
    assert isinstance(ruled, GmRuling)


def test_a_ua2_command_is_refused_by_the_ua3_rules() -> None:
    from engine.commands import MadnessCheck

    s = Scene(("Ann", "a", sheet("Ann")))
    with pytest.raises(Refused, match=r"the ua3 rules have no command .madness_check."):
        s.do(MadnessCheck(actor="Ann", meter="self", rank=2))
