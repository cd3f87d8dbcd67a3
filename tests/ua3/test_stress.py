"""Stress checks (U-23), burnout (U-24), passions lost (U-21), the sample catalog (U-25)."""

from __future__ import annotations

import pytest

from engine.commands.ua3 import SpendPassion, StressCheck, ThreatGone
from engine.errors import Refused
from engine.events.ua3 import (
    BurnedOut,
    FailedNotchMarked,
    HardenedNotchMarked,
    PassionSpent,
    ReactionEnded,
    ReactionTaken,
    StressChecked,
    TraumaMarked,
)
from engine.rules.ua3.abilities import ability_value
from engine.state.ua3.sheet import Identity, Relationship
from tests.ua3.support import Scene, of_type, sheet

MARGE = sheet("Marge", hardened={"helplessness": 2})  # Fitness 65 − 10 = 55 (U-18)


def test_u23_the_example_marge_fails_a_violence_3_check_with_fitness_55_and_flees() -> None:
    scene = Scene(("Marge", "bystanders", MARGE))
    events = scene.do(
        StressCheck(actor="Marge", gauge="violence", rank=3, source="the gunman", reaction="flee", dice=(6, 1))
    )
    (checked,) = of_type(events, StressChecked)
    assert checked.explain() == (
        "Marge resists a Violence 3 stress check with Fitness 55: 61, failure — a failed notch on violence; "
        "Marge flees until the gunman is gone (U-23)."
    )
    assert checked.result.spec.kind == "major" and checked.result.spec.label == "Fitness"
    marge = scene.who("Marge")
    assert marge.gauges.violence.failed == 1 and marge.gauges.violence.hardened == 1
    assert marge.reaction is not None and (marge.reaction.kind, marge.reaction.source) == ("flee", "the gunman")


def test_u23_hardened_notches_at_or_above_the_rank_mean_no_roll_and_nothing_marked() -> None:
    scene = Scene(("Vic", "b", sheet("Vic", hardened={"violence": 4})))
    (checked,) = scene.do(StressCheck(actor="Vic", gauge="violence", rank=4))
    assert isinstance(checked, StressChecked) and checked.outcome == "hardened" and checked.result is None
    assert scene.who("Vic").gauges.violence.hardened == 4
    assert scene.live.records[-2][1].dice_used == ()  # type: ignore[attr-defined]  # no die drawn


def test_u23_five_failed_and_a_rank_above_hardened_is_an_automatic_failure_with_its_reaction() -> None:
    worn = sheet("Ed", hardened={"self": 2}, failed={"self": 5})
    scene = Scene(("Ed", "a", worn))
    events = scene.do(StressCheck(actor="Ed", gauge="self", rank=3, source="the lie"))
    checked = of_type(events, StressChecked)[0]
    assert checked.outcome == "automatic_failure" and checked.result is None
    assert of_type(events, FailedNotchMarked) == []  # at most 5 failed
    (reaction,) = of_type(events, ReactionTaken)
    assert (reaction.reaction, reaction.chosen_by) == ("freeze", "setting")  # U-23 automated: freeze
    # rank at or below hardened still means no roll, five failed or not
    (immune,) = scene.do(StressCheck(actor="Ed", gauge="self", rank=2))
    assert immune.outcome == "hardened"  # type: ignore[attr-defined]


def test_u23_a_success_marks_a_hardened_notch_and_recomputes_both_abilities_at_once() -> None:
    scene = Scene(("Marge", "a", MARGE))
    events = scene.do(StressCheck(actor="Marge", gauge="helplessness", rank=3, dice=(3, 0)))
    checked = of_type(events, StressChecked)[0]
    assert checked.result.spec.label == "Status" and checked.outcome == "success"  # Status 60 resists
    (notch,) = of_type(events, HardenedNotchMarked)
    assert (notch.before, notch.after) == (2, 3)
    assert (notch.upbeat, notch.upbeat_before, notch.upbeat_after) == ("Fitness", 55, 50)
    assert (notch.downbeat, notch.downbeat_before, notch.downbeat_after) == ("Dodge", 25, 30)
    gauges = scene.who("Marge").gauges
    assert ability_value(gauges, "fitness") == 50 and ability_value(gauges, "dodge") == 30
    assert "Fitness 55 → 50, Dodge 25 → 30" in notch.explain()


def test_u23_the_best_of_the_ability_a_resists_identity_and_a_relationship_involved_is_rolled() -> None:
    cop = sheet(
        "Dana",
        identities=[Identity(name="Beat cop", rating=65, resists=("violence",))],
        relationships=[Relationship(person="Sam", rating=75, gauge="favorite")],
    )
    scene = Scene(("Dana", "a", cop))
    (checked, *_) = scene.do(StressCheck(actor="Dana", gauge="violence", rank=5, dice=(7, 0)))
    assert (checked.result.spec.label, checked.result.target, checked.rolled_with) == ("Beat cop", 65, "identity")
    (checked, *_) = scene.do(StressCheck(actor="Dana", gauge="violence", rank=5, involves=("Sam",), dice=(7, 0)))
    assert checked.result.spec.label == "relationship with Sam" and checked.outcome == "success"
    (checked, *_) = scene.do(StressCheck(actor="Dana", gauge="violence", rank=5, roll_with="Fitness", dice=(7, 0)))
    assert checked.result.spec.label == "Fitness" and checked.outcome == "failure"
    with pytest.raises(Refused, match="'Connect' cannot be rolled to resist a violence stress check"):
        scene.do(StressCheck(actor="Dana", gauge="violence", rank=5, roll_with="Connect"))


def test_u23_the_fifth_failed_notch_marks_a_trauma() -> None:
    scene = Scene(("Ann", "a", sheet("Ann", failed={"unnatural": 4})))
    events = scene.do(StressCheck(actor="Ann", gauge="unnatural", rank=6, dice=(9, 9)))
    (notch,) = of_type(events, FailedNotchMarked)
    assert (notch.before, notch.after) == (4, 5)
    (trauma,) = of_type(events, TraumaMarked)
    assert trauma.gauge == "unnatural" and "trauma" in trauma.explain()
    assert scene.who("Ann").gauges.unnatural.trauma


def test_u23_the_reaction_is_the_persons_choice_else_the_characters_default_else_the_setting() -> None:
    from engine.commands.ua3 import AddCharacter

    scene = Scene(("Ann", "a", sheet("Ann")), default_reaction="frenzy")
    scene.do(AddCharacter(id="Bo", side="a", sheet=sheet("Bo"), reaction="flee"))
    chosen = [
        of_type(scene.do(StressCheck(actor=who, gauge="self", rank=4, reaction=r, dice=(9, 9))), ReactionTaken)[0]
        for who, r in (("Ann", "freeze"), ("Bo", None), ("Ann", None))
    ]
    assert [(x.reaction, x.chosen_by) for x in chosen] == [
        ("freeze", "stated"),
        ("flee", "combatant_default"),
        ("frenzy", "setting"),
    ]


def test_u23_a_reaction_lasts_until_the_threat_is_gone() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")))
    scene.do(StressCheck(actor="Ann", gauge="unnatural", rank=4, source="the thing", dice=(9, 9)))
    (ended,) = scene.do(ThreatGone(source="The Thing"))
    assert isinstance(ended, ReactionEnded) and scene.who("Ann").reaction is None
    with pytest.raises(Refused, match="no one has a reaction kept for 'the thing'"):
        scene.do(ThreatGone(source="the thing"))


def test_u23_a_rank_outside_1_to_10_or_an_unknown_gauge_is_refused() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")))
    for bad in (0, 11):
        with pytest.raises(Refused, match="rank is 1–10"):
            scene.do(StressCheck(actor="Ann", gauge="self", rank=bad))
    with pytest.raises(Refused, match="unknown shock gauge 'dread'"):
        scene.do(StressCheck(actor="Ann", gauge="dread", rank=2))
    with pytest.raises(Refused, match="no character 'Ghost'"):
        scene.do(StressCheck(actor="Ghost", gauge="self", rank=2))


def test_u23_at_9_hardened_a_success_marks_nothing_more() -> None:
    scene = Scene(("Max", "a", sheet("Max", hardened={"isolation": 9})))
    events = scene.do(StressCheck(actor="Max", gauge="isolation", rank=10, dice=(0, 5)))
    assert of_type(events, StressChecked)[0].outcome == "success"
    assert of_type(events, HardenedNotchMarked) == [] and scene.who("Max").gauges.isolation.hardened == 9
    assert "already has all 9 hardened notches" in events[0].explain()


def test_u24_the_25th_hardened_notch_burns_the_character_out_and_u21_its_passions_are_lost() -> None:
    worn = sheet("Hal", hardened={"violence": 8, "helplessness": 6, "isolation": 5, "unnatural": 1, "self": 4})
    scene = Scene(("Hal", "a", worn))
    assert worn.gauges.hardened_total == 24
    events = scene.do(StressCheck(actor="Hal", gauge="violence", rank=9, dice=(0, 5)))
    (burnout,) = of_type(events, BurnedOut)
    assert (burnout.hardened, burnout.threshold, burnout.passions) == (25, 25, ("rage", "fear", "noble"))
    assert "U-24, U-21" in burnout.explain()
    with pytest.raises(Refused, match="burned out and has no passions"):
        scene.do(StressCheck(actor="Hal", gauge="self", rank=6, passion="fear"))


def test_u24_the_burnout_threshold_is_a_setting() -> None:
    scene = Scene(("Hal", "a", sheet("Hal", hardened={"violence": 3})), burnout_hardened=8)
    events = scene.do(StressCheck(actor="Hal", gauge="violence", rank=5, dice=(0, 5)))
    assert of_type(events, BurnedOut)[0].hardened == 8


def test_u21_a_passion_in_play_rerolls_a_failed_stress_check_once_per_session() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")))
    events = scene.do(StressCheck(actor="Ann", gauge="violence", rank=4, passion="fear", dice=(9, 9, 1, 0)))
    (spent,) = of_type(events, PassionSpent)
    assert (spent.before.outcome, spent.after.outcome) == ("matched_failure", "success")
    assert of_type(events, StressChecked)[0].outcome == "success"
    with pytest.raises(Refused, match="already spent this session"):
        scene.do(StressCheck(actor="Ann", gauge="violence", rank=4, passion="fear"))
    with pytest.raises(Refused, match="no rolled check for a passion"):
        scene.do(SpendPassion(actor="Ann", passion="rage"))  # the stress check's notch is marked: too late


def test_u25_a_sample_named_by_text_takes_its_gauge_and_its_lower_bound() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")))
    (checked, *_) = scene.do(StressCheck(actor="Ann", sample="violence: kill someone in a fight", dice=(9, 9)))
    assert (checked.gauge, checked.rank, checked.low, checked.high) == ("violence", 3, 3, 5)
    assert "(sample “kill someone in a fight”, 3–5)" in checked.explain()
    (checked, *_) = scene.do(StressCheck(actor="Ann", sample="kill someone in a fight", rank=5, dice=(9, 9)))
    assert checked.rank == 5
    with pytest.raises(Refused, match="violence 3–5, not rank 7"):
        scene.do(StressCheck(actor="Ann", sample="violence: kill someone in a fight", rank=7))
    with pytest.raises(Refused, match="is a violence check, not self"):
        scene.do(StressCheck(actor="Ann", gauge="self", sample="violence: kill someone in a fight"))
