"""Fixes from a rules review, each a worked example with its rule id."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.combat import Attack, Declaration, Declare, Dodge, DoNothing, EndFight, Strike, SuppressiveFire
from engine.commands.healing import Convalesce, MedicalCare
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.healing import Convalesced, InjuryTreated
from engine.events.madness import PassionSpent
from engine.state.sheet import WoundPoints
from tests.rules.support import arena, fighter, of, one


def test_a_targets_focus_counts_once_when_divided_attacks_go_at_several_targets_c2_5_c2_8() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20)),
        ("cy", "b", fighter("Cy", init=10)),
    )
    t.do(Declare(declarations=(Declaration(id="bob", focus_target="ann", focus=30),)))
    strikes = (Strike(target="bob", share=20), Strike(target="bob", share=20), Strike(target="cy", share=20))
    attacks = of(t.do(Attack(actor="ann", strikes=strikes, dice=(9, 9, 9, 8, 9, 7))), ev.AttackResolved)
    assert [a.result.spec.target for a in attacks] == [50, 20, 20]  # +30 once, not on every part


def test_keeping_up_suppressive_fire_is_the_rounds_action_c2_18() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20, firearms=60, weapons=[".22 pistol"]), ".22 pistol"),
        ("cy", "a", fighter("Cy", init=10, fighting=60)),
    )
    t.do(DoNothing(actor="ann"))
    t.do(SuppressiveFire(actor="bob", shots=5, field=("ann", "cy"), dice=(5, 0)))
    t.do(DoNothing(actor="cy"))
    t.do(Declare(declarations=(Declaration(id="bob", continue_suppression=True),)))
    t.do(DoNothing(actor="ann"))
    with pytest.raises(Refused, match="suppressive fire"):
        t.do(Attack(actor="bob", target="ann", dice=(4, 5)))


def test_a_second_helping_from_the_first_part_survives_the_later_parts_c2_30() -> None:
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting")
    t = arena(("ann", "a", ann), ("bob", "b", fighter("Bob", init=20, body=90)))
    strikes = (Strike(target="bob", share=30), Strike(target="bob", share=30))
    t.do(Attack(actor="ann", strikes=strikes, cherry="second_helping", dice=(2, 2, 5, 5)))
    assert t.state.fight.current == "ann" and t.state.fighter("ann").extra_attack


def test_a_wounded_fighter_rolls_initiative_with_its_wound_shift_i2_1_c2_31() -> None:
    wen = msgspec.structs.replace(fighter("Wen", init=0), wounds=WoundPoints(current=15, maximum=50))
    t = arena(("wen", "a", wen), ("bob", "b", fighter("Bob", init=20)), begin=False)
    init = next(e for e in t.begin(("wen", "roll"), dice=(4, 0)) if isinstance(e, ev.InitiativeSet) and e.id == "wen")
    assert (init.value, init.shift, init.success) == (40, -20, False)  # 15/50 is at most 1/3: 40 against 50 − 20 = 30
    assert "Speed 50 -20 = 30" in init.explain()


def test_a_grip_ends_the_rest_of_a_divided_attack_c2_27() -> None:
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting")
    t = arena(("ann", "a", ann), ("bob", "b", fighter("Bob", init=20)), ("cy", "b", fighter("Cy", init=10)))
    strikes = (Strike(target="bob", share=30), Strike(target="cy", share=30))
    events = t.do(Attack(actor="ann", strikes=strikes, cherry="kung_fu_grip", dice=(2, 2, 1, 5)))
    assert [a.target for a in of(events, ev.AttackResolved)] == ["bob"]
    assert t.wounds("cy") == 50


def test_wounds_from_before_the_encounter_heal_with_time_h2_5() -> None:
    wen = msgspec.structs.replace(fighter("Wen", init=0), wounds=WoundPoints(current=40, maximum=50))
    t = arena(("wen", "a", wen), ("bob", "b", fighter("Bob", init=20)), begin=False)
    days = of(t.do(Convalesce(patient="wen", days=2, care="bed_rest")), Convalesced)
    assert [d.points for d in days] == [2, 2] and t.wounds("wen") == 44


def test_medical_care_is_a_major_check_so_it_never_heals_above_the_skill_h2_3() -> None:
    ann = fighter("Ann", init=40, fighting=60, weapons=["knife"], medicine=40, mind=60)
    t = arena(("ann", "a", ann, "knife"), ("bob", "b", fighter("Bob", init=20)))
    t.do(Attack(actor="ann", target="bob", dice=(5, 9)))  # 5+9+3 = 17, a major injury
    t.do(EndFight())
    treated = one(t.do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(5, 5))), InjuryTreated)
    assert (treated.result.outcome, treated.healed) == ("matched_failure", 0)  # 55 over Medicine 40


def test_a_full_dodge_stops_a_suppressive_fire_crit_c2_15_c2_18() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, dodge=80)),
        ("bob", "b", fighter("Bob", init=20, firearms=60, weapons=[".22 pistol"]), ".22 pistol"),
    )
    t.do(Dodge(actor="ann"))
    laid = one(t.do(SuppressiveFire(actor="bob", shots=5, field=("ann",), dice=(0, 1, 5, 0))), ev.SuppressiveFireLaid)
    assert laid.dodge is not None and laid.dodge.effect == "full" and not laid.hit
    assert t.status("ann") == "active"


def test_a_passion_rerolls_a_failed_attack_once_per_session_c_10() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40, fighting=60)), ("bob", "b", fighter("Bob", init=20)))
    events = t.do(Attack(actor="ann", target="bob", passion="rage", dice=(9, 4, 2, 5)))
    spent = one(events, PassionSpent)
    assert (spent.before.value, spent.after.value, spent.after.outcome) == (94, 25, "success")
    assert one(events, ev.AttackResolved).result.value == 25 and t.wounds("bob") == 50 - 7
    t.do(DoNothing(actor="bob"))
    with pytest.raises(Refused, match="already spent"):
        t.do(Attack(actor="ann", target="bob", passion="rage", dice=(9, 4)))


def test_a_passion_flip_turns_a_failed_72_into_27_c_10() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40, fighting=60)), ("bob", "b", fighter("Bob", init=20)))
    spent = one(t.do(Attack(actor="ann", target="bob", passion="fear", passion_mode="flip", dice=(7, 2))), PassionSpent)
    assert (spent.before.value, spent.after.value, spent.after.outcome) == (72, 27, "success")


def test_a_passion_is_not_spent_on_a_hit_c_10() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40, fighting=60)), ("bob", "b", fighter("Bob", init=20)))
    assert not of(t.do(Attack(actor="ann", target="bob", passion="rage", dice=(2, 5))), PassionSpent)
    assert t.state.combatant("ann").passions_spent == ()  # type: ignore[union-attr]
