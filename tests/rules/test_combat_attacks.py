"""Attacks and damage (C2-1, C2-2, C2-6, C2-7, C2-9…C2-14, C2-19…C2-21), and illegal attacks."""

from __future__ import annotations

import pytest

from engine.commands.base import CommandBase
from engine.commands.combat import Attack, Declaration, Declare, DoNothing, Draw
from engine.dice.checks import Shift
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, text, where, who

FIGHTER = {"fighting": 60, "firearms": 60, "athletics": 40}


def duel(weapon: str = "", target_weapon: str = "", **attacker: object) -> Table:
    """Ann (faster, `weapon` in hand) against Bob (`target_weapon` in hand)."""
    kw = {**FIGHTER, **attacker}
    ann = fighter("Ann", init=40, weapons=[weapon] if weapon else [], **kw)  # type: ignore[arg-type]
    bob = fighter("Bob", init=20, fighting=50, weapons=[target_weapon] if target_weapon else [])
    return arena(("ann", "a", ann, weapon), ("bob", "b", bob, target_weapon))


def hit_on(events: list[ev.EventBase]) -> ev.Hit:  # type: ignore[name-defined]
    hit = one(events, ev.AttackResolved).hit
    assert hit is not None
    return hit


def assert_refused(t: Table, command: CommandBase, match: str) -> None:
    """The command is refused with a reason; nothing is recorded and the state is unchanged."""
    before, logged = t.state, len(list(t.store.read("fight")))
    with pytest.raises(Refused, match=match):
        t.do(command)
    assert t.state == before and len(list(t.store.read("fight"))) == logged


# --- C2-1: the skill that fits the weapon ---------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "mode", "skill"),
    [
        ("", "strike", "Fighting"),
        ("machete", "strike", "Fighting"),
        (".22 pistol", "strike", "Firearms"),
        ("rock", "throw", "General Athletics"),
    ],
)
def test_an_attack_is_a_major_check_with_the_skill_that_fits_the_weapon_c2_1(
    weapon: str, mode: str, skill: str
) -> None:
    t = duel(weapon)
    result = one(t.do(Attack(actor="ann", target="bob", mode=mode, dice=(9, 5))), ev.AttackResolved).result  # type: ignore[arg-type]
    assert (result.spec.kind, result.spec.label) == ("major", skill)


def test_an_untrained_gun_hits_only_on_a_match_at_or_under_speed_c2_1_c_7() -> None:
    t = duel(".22 pistol", firearms=0, speed=50)
    plain = one(t.do(Attack(actor="ann", target="bob", dice=(2, 3))), ev.AttackResolved)
    assert plain.result.spec.untrained and plain.result.outcome == "failure"
    t.do(DoNothing(actor="bob"))
    matched = one(t.do(Attack(actor="ann", target="bob", dice=(3, 3))), ev.AttackResolved)
    assert matched.result.outcome == "success" and hit_on([matched]).amount == 30  # 33 capped at 30


# --- C2-2: shifts ----------------------------------------------------------------------------------


def test_circumstance_wound_and_status_shifts_are_named_on_the_attack_c2_2() -> None:
    t = duel(fighting=60)
    t.do(Attack(actor="ann", target="bob", dice=(9, 0)))
    t.do(Attack(actor="bob", target="ann", dice=(0, 9)))  # 09 → 10+9 = 19 wounds: Ann 50 → 31, −10
    t.do(Declare())
    # a blind condition as a cherry would leave it (C2-24) is tested with the cherries; here the
    # circumstance shift from the command and the wound shift from the fight:
    events = t.do(Attack(actor="ann", target="bob", shifts=(Shift("dark alley", -10),), dice=(9, 5)))
    spec = one(events, ev.AttackResolved).result.spec
    assert [(s.source, s.amount) for s in spec.shifts] == [("dark alley", -10), ("wounds (C2-31)", -10)]
    assert spec.target == 40
    assert "dark alley -10, wounds (C2-31) -10 = 40" in text(events)


# --- C2-6: called shots --------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "outcome"), [((2, 5), "failure"), ((3, 5), "success"), ((0, 1), "crit")])
def test_a_called_shot_needs_the_minimum_roll_and_a_crit_meets_it_c2_6_c_8(dice: tuple[int, int], outcome: str) -> None:
    t = duel(".44 revolver")
    events = t.do(Attack(actor="ann", target="bob", minimum=30, called="leg", dice=dice))
    resolved = one(events, ev.AttackResolved)
    assert resolved.result.outcome == outcome
    assert "minimum 30" in resolved.explain()


# --- C2-7: hand-to-hand damage ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "dice", "amount"),
    [
        ("", (4, 7), 11),  # D-5: 47 → 11
        ("", (0, 7), 17),  # D-5: 07 → 17 (0 counts as 10)
        ("rock", (4, 7), 14),  # heavy +3
        ("steel chair", (4, 7), 17),  # big, heavy +6
        ("machete", (4, 7), 17),  # heavy, penetrating +6
        ("chainsaw", (4, 7), 20),  # big, heavy, penetrating +9
    ],
)
def test_hand_to_hand_damage_is_the_digit_sum_plus_the_weapon_bonus_c2_7_d_5(
    weapon: str, dice: tuple[int, int], amount: int
) -> None:
    t = duel(weapon)
    events = t.do(Attack(actor="ann", target="bob", dice=dice))
    assert hit_on(events).amount == amount
    assert t.wounds("bob") == 50 - amount


def test_a_chainsaw_adds_9_c2_7() -> None:
    t = duel("chainsaw")
    hit = hit_on(t.do(Attack(actor="ann", target="bob", dice=(1, 2))))
    assert hit.amount == 3 + 9
    assert hit.breakdown == "damage 12 → 1+2 = 3 + 9 (big, heavy, penetrating) = 12"


def test_the_machete_example_explains_itself_c2_5_c2_7_c2_31() -> None:
    mara = fighter("Mara", init=40, fighting=45, weapons=["machete"])
    vic = fighter("Vic", init=20)
    t = arena(("Mara", "a", mara, "machete"), ("Vic", "b", vic))
    t.do(Declare(declarations=(Declaration(id="Mara", focus_target="Vic", focus=10),)))
    events = t.do(Attack(actor="Mara", target="Vic", dice=(4, 7)))
    line = one(events, ev.AttackResolved).explain()
    assert line.startswith("Round 1 — Mara attacks Vic with a machete (Fighting 45, focus on Vic (C2-5) +10 = 55)")
    assert "rolled 4,7 = 47, success" in line
    assert "damage 47 → 4+7 = 11 + 6 (heavy, penetrating) = 17 (C2-7)" in line
    assert "Vic 50 → 33 wound points, now −10 on all rolls (C2-31)" in line
    assert t.wounds("Vic") == 33


# --- C2-9: firearm damage --------------------------------------------------------------------------


def test_a_44_at_58_does_58_c2_9() -> None:
    t = duel(".44 revolver")
    hit = hit_on(t.do(Attack(actor="ann", target="bob", dice=(5, 8))))
    assert (hit.amount, hit.rule) == (58, "C2-9")


def test_a_22_at_58_does_30_c2_9() -> None:
    t = duel(".22 pistol")
    hit = hit_on(t.do(Attack(actor="ann", target="bob", dice=(5, 8))))
    assert hit.amount == 30
    assert "capped at 30" in hit.breakdown


# --- C2-10: crits ----------------------------------------------------------------------------------


def test_a_hand_to_hand_crit_kills_by_default_and_the_target_loses_its_action_c2_10() -> None:
    t = duel()
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 1)))
    changed = one(events, ev.StatusChanged)
    assert (changed.id, changed.status, changed.rule) == ("bob", "dead", "C2-10")
    assert of(events, ev.FightEnded)  # bob never acts
    assert one(events, ev.AttackResolved).hit is None


def test_a_hand_to_hand_crit_may_knock_out_instead_c2_10() -> None:
    t = duel()
    events = t.do(Attack(actor="ann", target="bob", crit="knock_out", dice=(0, 1)))
    assert one(events, ev.StatusChanged).status == "unconscious"
    assert t.status("bob") == "unconscious"


def test_a_nonlethal_weapon_crit_only_knocks_out_c2_10() -> None:
    t = duel("pillow")
    t.do(Attack(actor="ann", target="bob", crit="kill", dice=(0, 1)))
    assert t.status("bob") == "unconscious"


def test_a_firearm_crit_kills_c2_10() -> None:
    t = duel(".22 pistol")
    events = t.do(Attack(actor="ann", target="bob", crit="knock_out", dice=(0, 1)))
    assert t.status("bob") == "dead"
    assert "a crit with a gun kills" in text(events)


# --- C2-11: fumbles --------------------------------------------------------------------------------


def test_fumble_with_a_plus_6_weapon_hurts_the_attacker_26_c2_11() -> None:
    t = duel("machete")
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 0)))
    hurt = one(events, ev.WoundsInflicted)
    assert (hurt.target, hurt.amount, hurt.rule) == ("ann", 26, "C2-11")
    assert t.wounds("ann") == 24 and t.wounds("bob") == 50


def test_a_fumble_with_fists_hurts_the_attacker_20_c2_11() -> None:
    t = duel()
    assert one(t.do(Attack(actor="ann", target="bob", dice=(0, 0))), ev.WoundsInflicted).amount == 20


def test_a_fumble_with_a_gun_jams_it_c2_11() -> None:
    t = duel(".44 revolver")
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 0)))
    assert one(events, ev.WeaponJammed).weapon == ".44 revolver"
    assert not of(events, ev.WoundsInflicted)
    assert where(t, "ann").jammed == (".44 revolver",)


# --- C2-12: matched successes ----------------------------------------------------------------------


def test_a_matched_success_with_a_plus_6_weapon_does_the_roll_plus_the_bonus_c2_12() -> None:
    t = duel("machete")
    hit = hit_on(t.do(Attack(actor="ann", target="bob", dice=(3, 3))))
    assert (hit.amount, hit.rule) == (33 + 6, "C2-12")


def test_a_matched_success_with_a_plus_3_weapon_or_none_is_plain_damage_c2_12() -> None:
    knife = duel("knife")
    assert hit_on(knife.do(Attack(actor="ann", target="bob", dice=(3, 3)))).amount == 6 + 3
    fists = duel()
    assert hit_on(fists.do(Attack(actor="ann", target="bob", dice=(3, 3)))).amount == 6


def test_a_matched_success_with_a_gun_is_plain_damage_c2_12() -> None:
    t = duel(".22 pistol")
    assert hit_on(t.do(Attack(actor="ann", target="bob", dice=(5, 5)))).amount == 30


# --- C2-13: matched failures -----------------------------------------------------------------------


def test_a_matched_failure_with_a_weapon_hurts_the_attacker_by_its_bonus_c2_13() -> None:
    t = duel("steel chair")
    hurt = one(t.do(Attack(actor="ann", target="bob", dice=(7, 7))), ev.WoundsInflicted)
    assert (hurt.target, hurt.amount, hurt.rule) == ("ann", 6, "C2-13")


def test_a_matched_failure_unarmed_or_with_a_gun_does_nothing_c2_13() -> None:
    for weapon in ("", ".44 revolver"):
        t = duel(weapon)
        events = t.do(Attack(actor="ann", target="bob", dice=(7, 7)))
        assert one(events, ev.AttackResolved).result.outcome == "matched_failure"
        assert not of(events, ev.WoundsInflicted)


# --- C2-14: knives cut -----------------------------------------------------------------------------


def test_knives_cut_a_failed_knife_attack_still_does_1_c2_14() -> None:
    t = duel("knife")
    cut = one(t.do(Attack(actor="ann", target="bob", dice=(8, 5))), ev.WoundsInflicted)
    assert (cut.target, cut.amount, cut.rule) == ("bob", 1, "C2-14")
    assert t.wounds("bob") == 49


def test_a_machete_matched_failure_hurts_the_attacker_and_still_cuts_c2_13_c2_14() -> None:
    t = duel("machete")
    hurt = of(t.do(Attack(actor="ann", target="bob", dice=(7, 7))), ev.WoundsInflicted)
    assert [(w.target, w.amount, w.rule) for w in hurt] == [("ann", 6, "C2-13"), ("bob", 1, "C2-14")]


def test_a_knife_fumble_or_throw_does_not_cut_c2_14() -> None:
    fumble = duel("knife")
    hurt = of(fumble.do(Attack(actor="ann", target="bob", dice=(0, 0))), ev.WoundsInflicted)
    assert [(w.target, w.amount) for w in hurt] == [("ann", 23)]
    thrown = duel("knife")
    assert not of(thrown.do(Attack(actor="ann", target="bob", mode="throw", dice=(8, 5))), ev.WoundsInflicted)


# --- C2-19: disarm ---------------------------------------------------------------------------------


def test_a_disarm_takes_the_weapon_with_no_damage_c2_19() -> None:
    t = duel(target_weapon="baseball bat")
    events = t.do(Attack(actor="ann", target="bob", mode="disarm", dice=(4, 5)))
    lost = one(events, ev.WeaponLost)
    assert (lost.id, lost.weapon, lost.taken_by, lost.rule) == ("bob", "baseball bat", "ann", "C2-19")
    assert one(events, ev.AttackResolved).hit is None and t.wounds("bob") == 50
    assert where(t, "ann").in_hand == "baseball bat" and where(t, "bob").in_hand == "fists"


def test_a_disarm_may_drop_the_weapon_on_the_floor_c2_19() -> None:
    t = duel(target_weapon="baseball bat")
    lost = one(t.do(Attack(actor="ann", target="bob", mode="disarm", take_weapon=False, dice=(4, 5))), ev.WeaponLost)
    assert lost.taken_by == "" and "on the floor" in lost.explain()


def test_a_disarm_needs_a_minimum_roll_of_30_c2_19() -> None:
    t = duel(target_weapon="baseball bat")
    events = t.do(Attack(actor="ann", target="bob", mode="disarm", dice=(2, 5)))
    assert one(events, ev.AttackResolved).result.outcome == "failure" and not of(events, ev.WeaponLost)


def test_disarming_a_blade_costs_3_wounds_from_a_blade_unless_matched_or_crit_c2_19() -> None:
    plain = duel(target_weapon="knife")
    hurt = one(plain.do(Attack(actor="ann", target="bob", mode="disarm", dice=(4, 5))), ev.WoundsInflicted)
    assert (hurt.target, hurt.amount, hurt.rule) == ("ann", 3, "C2-19")
    for dice in ((4, 4), (0, 1)):
        clean = duel(target_weapon="knife")
        events = clean.do(Attack(actor="ann", target="bob", mode="disarm", dice=dice))
        assert of(events, ev.WeaponLost) and not of(events, ev.WoundsInflicted)
        assert clean.status("bob") == "active"  # a crit on a disarm disarms, it does not kill


def test_a_disarm_needs_a_weapon_to_take_c2_19() -> None:
    assert_refused(duel(), Attack(actor="ann", target="bob", mode="disarm", dice=(4, 5)), "no weapon to take")


# --- C2-20: throwing objects -----------------------------------------------------------------------


def test_a_thrown_object_uses_general_athletics_and_does_the_digit_sum_without_bonus_c2_20() -> None:
    t = duel("steel chair")
    events = t.do(Attack(actor="ann", target="bob", mode="throw", dice=(2, 5)))
    resolved = one(events, ev.AttackResolved)
    assert resolved.result.spec.label == "General Athletics"
    assert hit_on(events).amount == 7 and hit_on(events).rule == "C2-20"
    lost = one(events, ev.WeaponLost)
    assert (lost.id, lost.weapon, lost.rule) == ("ann", "steel chair", "C2-20")


def test_a_thrown_object_that_is_not_big_heavy_or_penetrating_does_no_damage_c2_20() -> None:
    t = duel("pillow")
    events = t.do(Attack(actor="ann", target="bob", mode="throw", dice=(2, 5)))
    assert one(events, ev.AttackResolved).result.success and one(events, ev.AttackResolved).hit is None


def test_a_thrown_plus_6_object_keeps_the_matched_success_effect_without_the_bonus_c2_20_c2_12() -> None:
    t = duel("steel chair")
    assert hit_on(t.do(Attack(actor="ann", target="bob", mode="throw", dice=(3, 3)))).amount == 33


def test_an_obsession_hand_to_hand_skill_throws_c2_20() -> None:
    t = duel("rock", obsession="Fighting", athletics=10)
    events = t.do(Attack(actor="ann", target="bob", mode="throw", dice=(4, 5)))
    assert one(events, ev.AttackResolved).result.spec.label == "Fighting"


def test_a_thrown_fumble_hurts_the_thrower_20_without_the_bonus_c2_20_c2_11() -> None:
    t = duel("steel chair")
    assert one(t.do(Attack(actor="ann", target="bob", mode="throw", dice=(0, 0))), ev.WoundsInflicted).amount == 20


def test_only_a_throwable_weapon_can_be_thrown_c2_20() -> None:
    assert_refused(
        duel("machete"), Attack(actor="ann", target="bob", mode="throw", dice=(4, 5)), "not something to throw"
    )


# --- C2-21: throwing a person ----------------------------------------------------------------------


def test_throwing_a_person_does_normal_damage_and_knocks_it_down_c2_21_c2_29() -> None:
    t = duel()
    events = t.do(Attack(actor="ann", target="bob", mode="throw_person", dice=(4, 5)))
    assert hit_on(events).amount == 9
    assert one(events, ev.KnockedDown).id == "bob" and where(t, "bob").prone
    assert "C2-21" in one(events, ev.AttackResolved).explain()


def test_throwing_a_person_needs_a_minimum_roll_of_30_c2_21() -> None:
    t = duel()
    events = t.do(Attack(actor="ann", target="bob", mode="throw_person", dice=(2, 9)))
    assert one(events, ev.AttackResolved).result.outcome == "failure" and not of(events, ev.KnockedDown)


# --- illegal attacks: a reason, no event -----------------------------------------------------------


def test_attacking_out_of_turn_is_refused() -> None:
    assert_refused(duel(), Attack(actor="bob", target="ann", dice=(4, 5)), "ann's turn")


def test_an_incapacitated_attacker_is_refused_c2_31() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, firearms=60, weapons=[".44 revolver"]), ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20)),
        ("cy", "b", fighter("Cy", init=10)),
    )
    t.do(Attack(actor="ann", target="bob", dice=(4, 5)))  # 45: Bob 50 → 5, incapacitated
    assert t.status("bob") == "incapacitated" and t.state.fight.current == "cy"
    assert_refused(t, Attack(actor="bob", target="ann", dice=(4, 5)), "bob is incapacitated and cannot act")


def test_a_jammed_gun_cannot_attack_c2_11_c2_3() -> None:
    t = duel(".44 revolver")
    t.do(Attack(actor="ann", target="bob", dice=(0, 0)))
    t.do(DoNothing(actor="bob"))
    assert_refused(t, Attack(actor="ann", target="bob", dice=(4, 5)), "jammed")


def test_a_weapon_not_in_hand_cannot_attack_c2_3() -> None:
    t = duel(firearms=60)
    t2 = arena(
        ("ann", "a", fighter("Ann", init=40, firearms=60, weapons=[".22 pistol"])),
        ("bob", "b", fighter("Bob", init=20)),
    )
    assert_refused(t2, Attack(actor="ann", target="bob", weapon=".22 pistol", dice=(4, 5)), "not in ann's hand")
    assert_refused(t, Attack(actor="ann", target="bob", weapon="chainsaw", dice=(4, 5)), "does not carry")


def test_a_weapon_drawn_this_round_is_not_usable_until_next_round_c2_3() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, firearms=60, weapons=[".22 pistol"])),
        ("bob", "b", fighter("Bob", init=20)),
    )
    t.do(Draw(actor="ann", weapon=".22 pistol"))
    assert where(t, "ann").in_hand == ".22 pistol"
    t.do(DoNothing(actor="bob"))
    # a new round: usable now
    assert one(t.do(Attack(actor="ann", target="bob", dice=(4, 5))), ev.AttackResolved).weapon == ".22 pistol"


def test_attacking_the_dead_or_oneself_is_refused() -> None:
    t = duel()
    assert_refused(t, Attack(actor="ann", target="ann", dice=(4, 5)), "cannot attack itself")
    assert_refused(t, Attack(actor="ann", target="nobody", dice=(4, 5)), "no combatant")


def test_every_attack_event_explains_itself_with_a_rule_id() -> None:
    t = duel("machete")
    for e in t.do(Attack(actor="ann", target="bob", dice=(4, 7))):
        assert "C2-" in e.explain() or "I2-" in e.explain(), e.explain()
    assert who(t, "bob").injuries[0].amount == 17
