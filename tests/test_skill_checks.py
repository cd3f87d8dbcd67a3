"""Skill checks built from the sheet (C-4, C-7, C-9, C-11, S2-3), driven through a live session."""

from __future__ import annotations

import pytest

from engine.commands import AddCombatant, SkillCheck, StartEncounter
from engine.dice.checks import Shift
from engine.errors import InvalidInput, Refused
from engine.events import CheckRolled
from engine.events.base import EventBase
from engine.session import LiveEncounter, load_state
from engine.state.sheet import Sheet, Skill, Stats
from engine.store import MemoryStore

MARA = Sheet(
    name="Mara",
    stats=Stats(body=55, speed=50, mind=60, soul=40),
    skills=(
        Skill(name="Notice", stat="mind", rating=45),
        Skill(name="Firearms", stat="speed", rating=40),
    ),
    obsession="Firearms",
)


def session() -> LiveEncounter:
    live = LiveEncounter(MemoryStore(), "enc")
    live.execute(StartEncounter(seed=5))
    live.execute(AddCombatant(id="mara", side="a", sheet=MARA))
    return live


def rolled(events: list[EventBase]) -> CheckRolled:
    (check,) = [e for e in events if isinstance(e, CheckRolled)]
    return check


def roll(live: LiveEncounter, **fields: object) -> CheckRolled:
    return rolled(live.execute(SkillCheck(actor="mara", **fields)))  # type: ignore[arg-type]


def test_a_skill_rolls_its_rating_with_its_tied_stat_as_the_weak_band_c4_s2_3() -> None:
    check = roll(session(), skill="Notice", kind="significant", dice=(5, 2))
    spec = check.result.spec
    assert (spec.rating, spec.stat, spec.label, spec.untrained) == (45, 60, "Notice", False)
    assert check.actor == "mara"
    assert check.result.outcome == "weak_success"  # 52: over Notice 45, under Mind 60


def test_at_or_under_the_skill_is_a_strong_success_c4() -> None:
    assert roll(session(), skill="notice", kind="significant", dice=(4, 5)).result.outcome == ("success")


def test_shifts_minimum_and_purpose_reach_the_check_c1_c8_c12() -> None:
    live = session()
    fields = {"skill": "Notice", "kind": "major", "minimum": 30, "purpose": "spot the tail"}
    shifts = (Shift("fog", -10),)
    check = roll(live, shifts=shifts, dice=(3, 2), **fields)
    assert check.result.spec.target == 35
    assert check.result.outcome == "success"
    assert check.purpose == "spot the tail"
    assert "fog -10" in check.explain()
    assert roll(live, shifts=shifts, dice=(2, 9), **fields).result.outcome == "failure"


def test_the_obsession_skill_may_flip_flop_and_says_so_c9() -> None:
    check = roll(session(), skill="Firearms", kind="major", dice=(7, 2))
    assert check.result.spec.flip
    assert check.result.roll is not None and check.result.roll.flipped  # 72 read as 27
    assert check.result.outcome == "success"
    assert "obsession (C-9)" in check.explain()


def test_a_person_states_the_orientation_of_an_obsession_roll_c11() -> None:
    check = roll(session(), skill="Firearms", kind="major", flipped=False, dice=(7, 2))
    assert check.result.value == 72
    assert check.result.outcome == "failure"


def test_a_skill_that_is_not_the_obsession_does_not_flip_c9() -> None:
    live = session()
    check = roll(live, skill="Notice", kind="major", dice=(7, 2))
    assert not check.result.spec.flip and check.result.value == 72
    assert "obsession" not in check.explain()
    with pytest.raises(Refused, match="flip"):
        live.execute(SkillCheck(actor="mara", skill="Notice", kind="major", flipped=True))


def test_a_skill_the_sheet_lacks_is_rolled_untrained_on_the_named_stat_c7() -> None:
    live = session()
    check = roll(live, skill="Driving", kind="significant", stat="speed", dice=(1, 5))
    spec = check.result.spec
    assert (spec.untrained, spec.target, spec.label) == (True, 20, "Driving")  # Speed 50 − 30
    assert check.result.outcome == "weak_success"
    assert "C-7" in check.explain()
    again = roll(live, skill="Driving", kind="significant", stat="speed", dice=(2, 1))
    assert again.result.outcome == "failure"


def test_an_untrained_major_check_succeeds_only_on_a_match_c7() -> None:
    live = session()
    assert roll(live, skill="Driving", kind="major", stat="speed", dice=(2, 2)).result.outcome == ("success")
    assert roll(live, skill="Driving", kind="major", stat="speed", dice=(1, 9)).result.outcome == ("failure")


def test_a_missing_skill_without_a_stat_is_refused_with_the_reason_c7() -> None:
    live = session()
    before = live.state
    with pytest.raises(Refused, match="no skill 'Brain Surgery'") as refused:
        live.execute(SkillCheck(actor="mara", skill="Brain Surgery", kind="major"))
    assert "C-7" in refused.value.hint
    assert live.state == before


def test_a_stat_other_than_the_skills_own_is_refused_s2_3() -> None:
    with pytest.raises(Refused, match="tied to Mind"):
        session().execute(SkillCheck(actor="mara", skill="Notice", kind="major", stat="soul"))


def test_an_unknown_stat_or_actor_is_refused() -> None:
    live = session()
    with pytest.raises(InvalidInput, match="Invalid enum value 'luck'"):
        live.execute(SkillCheck(actor="mara", skill="Dancing", kind="major", stat="luck"))  # type: ignore[arg-type]
    with pytest.raises(Refused, match="no combatant"):
        live.execute(SkillCheck(actor="vic", skill="Notice", kind="major"))


def test_a_minor_check_at_15_or_more_draws_no_dice_c3() -> None:
    live = session()
    events = live.execute(SkillCheck(actor="mara", skill="Notice", kind="minor"))
    assert rolled(events).result.roll is None and rolled(events).result.outcome == "success"
    assert events[0].dice_used == ()  # type: ignore[attr-defined]


def test_the_check_becomes_the_actors_last_check_c10() -> None:
    live = session()
    check = roll(live, skill="Notice", kind="major", dice=(8, 1))
    mara = live.state.combatant("mara")
    assert mara is not None and mara.last_check == check.result
    assert load_state(live.store, "enc") == live.state
