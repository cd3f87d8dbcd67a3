"""Passions (C-10): reroll or flip-flop the most recent failed check, once per session each."""

from __future__ import annotations

import pytest

from engine.commands import (
    AddCombatant,
    MadnessCheck,
    SkillCheck,
    SpendPassion,
    StartEncounter,
)
from engine.errors import Refused
from engine.events import PassionSpent
from engine.events.base import EventBase
from engine.session import LiveEncounter, load_state
from engine.settings import Settings
from engine.state.encounter import Combatant
from engine.state.sheet import Passion, Sheet, Skill, Stats
from engine.store import MemoryStore

MARA = Sheet(
    name="Mara",
    stats=Stats(body=50, speed=50, mind=60, soul=40),
    skills=(
        Skill(name="Notice", stat="mind", rating=45),
        Skill(name="Firearms", stat="speed", rating=40),
    ),
    obsession="Firearms",
    passions=(
        Passion(kind="rage", trigger="someone hurts a child"),
        Passion(kind="fear", trigger="being buried alive"),
    ),
)


def session(config: Settings | None = None) -> LiveEncounter:
    live = LiveEncounter(MemoryStore(), "enc")
    live.execute(StartEncounter(seed=11, settings=config or Settings()))
    live.execute(AddCombatant(id="mara", side="a", sheet=MARA))
    return live


def mara(live: LiveEncounter) -> Combatant:
    found = live.state.combatant("mara")
    assert found is not None
    return found


def notice(live: LiveEncounter, dice: tuple[int, ...], kind: str = "major") -> None:
    live.execute(SkillCheck(actor="mara", skill="Notice", kind=kind, dice=dice))  # type: ignore[arg-type]


def spend(live: LiveEncounter, **fields: object) -> PassionSpent:
    fields = {"passion": "rage", "mode": "reroll", **fields}
    events: list[EventBase] = live.execute(SpendPassion(actor="mara", **fields))  # type: ignore[arg-type]
    (spent,) = [e for e in events if isinstance(e, PassionSpent)]
    return spent


def test_a_reroll_draws_fresh_dice_and_resolves_the_same_spec_c10() -> None:
    live = session()
    notice(live, (8, 8))  # 88 over Notice 45: matched failure
    spent = spend(live, dice=(3, 0))
    assert spent.before.outcome == "matched_failure"
    assert spent.after.spec == spent.before.spec
    assert (spent.after.value, spent.after.outcome) == (30, "success")
    assert mara(live).last_check == spent.after
    assert mara(live).passions_spent == ("rage",)
    assert load_state(live.store, "enc") == live.state


def test_a_flip_reads_the_same_dice_the_other_way_and_draws_none_c10_d4() -> None:
    live = session()
    notice(live, (7, 2))  # 72: failure
    events = live.execute(SpendPassion(actor="mara", passion="fear", mode="flip"))
    assert events[0].dice_used == ()  # type: ignore[attr-defined]
    spent = events[1]
    assert isinstance(spent, PassionSpent)
    assert spent.after.roll is not None
    assert (spent.after.roll.tens, spent.after.roll.ones, spent.after.roll.flipped) == (7, 2, True)
    assert (spent.after.value, spent.after.outcome) == (27, "success")


def test_flipping_equal_dice_is_refused_and_the_passion_kept_c10_d4() -> None:
    live = session()
    notice(live, (6, 6))
    with pytest.raises(Refused, match="same value"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="flip"))
    assert mara(live).passions_spent == ()


def test_the_trigger_text_comes_from_the_sheet_and_is_explained_c10() -> None:
    live = session()
    notice(live, (9, 1))
    spent = spend(live, dice=(1, 0))
    assert spent.trigger == "someone hurts a child"
    text = spent.explain()
    assert "someone hurts a child" in text and "C-10" in text and "91" in text


def test_each_passion_once_per_session_c10() -> None:
    live = session()
    notice(live, (9, 1))
    spend(live, dice=(9, 2))  # still a failure
    with pytest.raises(Refused, match="already spent") as refused:
        live.execute(SpendPassion(actor="mara", passion="rage", mode="reroll"))
    assert "passion_uses_per_session" in refused.value.hint
    assert spend(live, passion="fear", dice=(1, 1)).after.outcome == "matched_success"


def test_the_uses_per_session_are_a_setting_c10() -> None:
    live = session(Settings(passion_uses_per_session=2))
    for _ in range(2):
        notice(live, (9, 1))
        spend(live, dice=(9, 3))
    notice(live, (9, 1))
    with pytest.raises(Refused, match="already spent"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="reroll"))


@pytest.mark.parametrize(("dice", "kind", "word"), [((3, 0), "major", "success"), ((5, 2), "significant", "weak")])
def test_only_a_failed_roll_can_be_changed_c10(dice: tuple[int, int], kind: str, word: str) -> None:
    live = session()
    notice(live, dice, kind)
    with pytest.raises(Refused, match=f"was a {word}"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="reroll"))


def test_no_roll_no_passion_c10() -> None:
    live = session()
    with pytest.raises(Refused, match="no rolled check"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="reroll"))
    notice(live, (), "minor")  # Notice 45 on a minor check: success with no roll (C-3)
    with pytest.raises(Refused, match="no rolled check"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="flip"))


def test_a_passion_the_sheet_lacks_is_refused_c10() -> None:
    live = session()
    notice(live, (9, 1))
    with pytest.raises(Refused, match="no noble passion"):
        live.execute(SpendPassion(actor="mara", passion="noble", mode="reroll"))


def test_a_reroll_of_an_obsession_check_may_state_its_orientation_c9_c11() -> None:
    live = session()
    live.execute(SkillCheck(actor="mara", skill="Firearms", kind="major", dice=(9, 8)))
    spent = spend(live, dice=(7, 2), flipped=True)
    assert (spent.after.value, spent.after.outcome) == (27, "success")


def test_a_reroll_of_another_check_may_not_state_an_orientation_c9() -> None:
    live = session()
    notice(live, (9, 1))
    with pytest.raises(Refused, match="may not be flip-flopped"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="reroll", flipped=True))
    with pytest.raises(Refused, match="give no orientation"):
        live.execute(SpendPassion(actor="mara", passion="rage", mode="flip", flipped=True))


def test_a_madness_roll_is_not_changed_by_a_passion_m2_4_c10() -> None:
    """Decision: a madness check's notches are marked at once, so its Mind roll is no longer
    the actor's last check."""
    live = session()
    live.execute(MadnessCheck(actor="mara", meter="violence", rank=1, dice=(9, 1)))
    assert mara(live).last_check is None
    with pytest.raises(Refused, match="no rolled check"):
        live.execute(SpendPassion(actor="mara", passion="fear", mode="reroll"))


def test_a_fear_passion_rerolls_a_failed_madness_roll_c_10_m2_4() -> None:
    from engine.commands import MadnessCheck
    from engine.events.madness import MadnessCheckResolved

    live = session()
    events = live.execute(MadnessCheck(actor="mara", meter="violence", rank=3, passion="fear", dice=(9, 1, 2, 0)))
    spent = next(e for e in events if isinstance(e, PassionSpent))
    assert (spent.before.value, spent.after.value) == (91, 20)
    assert next(e for e in events if isinstance(e, MadnessCheckResolved)).outcome == "success"
    assert mara(live).meters.violence.hardened == 1 and mara(live).passions_spent == ("fear",)
