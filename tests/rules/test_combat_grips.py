"""The Kung Fu Grip (C2-27): a hold instead of damage, its turns, breaking free, releasing."""

from __future__ import annotations

import pytest

from engine.commands.combat import (
    Attack,
    BreakFree,
    Declaration,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    Flee,
    Squeeze,
    SuppressiveFire,
)
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, text, where


def gripped(weapon: str = "", bob_weapon: str = "") -> Table:
    """Ann (Fighting 60, obsession) holds Bob (Fighting 50) after round 1's first action; Cy is
    on Ann's side and acts last."""
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting", weapons=[weapon] if weapon else [])
    bob = fighter("Bob", init=20, fighting=50, dodge=50, firearms=50, weapons=[bob_weapon] if bob_weapon else [])
    t = arena(
        ("ann", "a", ann, weapon),
        ("bob", "b", bob, bob_weapon),
        ("cy", "a", fighter("Cy", init=10, fighting=40)),
    )
    events = t.do(Attack(actor="ann", target="bob", cherry="kung_fu_grip", dice=(2, 2)))
    assert one(events, ev.AttackResolved).hit is None  # instead of damage
    assert one(events, ev.GripTaken).explain() == (
        "ann holds bob in a Kung Fu Grip: no attacks or dodges for bob (C2-27)."
    )
    return t


def test_a_grip_does_no_damage_and_holds_the_target_c2_27() -> None:
    t = gripped()
    assert t.wounds("bob") == 50
    assert (where(t, "ann").holding, where(t, "bob").held_by) == ("bob", "ann")


def test_the_held_cannot_attack_dodge_draw_shoot_or_flee_c2_27() -> None:
    t = gripped(bob_weapon=".22 pistol")
    for command, reason in (
        (Attack(actor="bob", target="ann", dice=(1, 1)), "held by ann"),
        (Dodge(actor="bob"), "cannot dodge"),
        (Draw(actor="bob", weapon="fists"), "in a grip"),
        (SuppressiveFire(actor="bob", shots=5, field=("ann",)), "in a grip"),
        (Flee(actor="bob"), "held"),
    ):
        with pytest.raises(Refused, match=reason):
            t.do(command)


def test_breaking_free_needs_a_hand_to_hand_roll_of_at_least_the_holder_s_skill_c2_27() -> None:
    t = gripped()
    low = one(t.do(BreakFree(actor="bob", dice=(4, 5))), ev.AttackResolved)  # 45 < 60
    assert low.result.outcome == "failure" and "minimum 60" in low.explain() and where(t, "bob").held_by == "ann"
    t.do(DoNothing(actor="cy"))
    t.do(Squeeze(actor="ann"))
    events = t.do(BreakFree(actor="bob", dice=(0, 1)))  # a crit meets every minimum (C-8)
    assert "broke free" in one(events, ev.GripReleased).explain() and not where(t, "bob").held_by


def test_others_attack_the_held_at_plus_10_but_not_the_holder_c2_27() -> None:
    t = gripped()
    t.do(DoNothing(actor="bob"))
    spec = one(t.do(Attack(actor="cy", target="bob", dice=(9, 5))), ev.AttackResolved).result.spec
    assert spec.target == 50 and ("bob is held (C2-27)", 10) in [(s.source, s.amount) for s in spec.shifts]


def test_the_holder_deals_5_a_round_and_8_with_a_readied_weapon_c2_27() -> None:
    bare = gripped()
    bare.do(DoNothing(actor="bob"))
    bare.do(DoNothing(actor="cy"))
    hurt = one(bare.do(Squeeze(actor="ann")), ev.WoundsInflicted)
    assert (hurt.target, hurt.amount, hurt.rule) == ("bob", 5, "C2-27")
    armed = gripped("knife")
    armed.do(DoNothing(actor="bob"))
    armed.do(DoNothing(actor="cy"))
    assert one(armed.do(Squeeze(actor="ann")), ev.WoundsInflicted).amount == 8


def test_the_holder_can_make_no_other_attack_and_cannot_dodge_c2_27() -> None:
    t = gripped()
    t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="cy"))
    with pytest.raises(Refused, match="no other attack"):
        t.do(Attack(actor="ann", target="bob", dice=(1, 1)))
    with pytest.raises(Refused, match="cannot dodge"):
        t.do(Dodge(actor="ann"))


def test_the_holder_may_roll_for_a_gimme_instead_of_the_damage_c2_27_c2_26() -> None:
    t = gripped(bob_weapon="knife")
    t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="cy"))
    events = t.do(Squeeze(actor="ann", gimme=True, dice=(3, 5)))
    assert not of(events, ev.WoundsInflicted)
    lost = one(events, ev.WeaponLost)
    assert (lost.weapon, lost.taken_by) == ("knife", "ann") and "C2-27" in lost.explain()


def test_the_holder_may_release_at_round_start_c2_27() -> None:
    t = gripped()
    t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="cy"))
    events = t.do(Declare(declarations=(Declaration(id="ann", release_hold=True),)))
    assert "releases the grip (C2-27)" in text(events)
    assert not where(t, "ann").holding and not where(t, "bob").held_by


def test_a_grip_ends_when_the_holder_drops_c2_27_c2_31() -> None:
    t = gripped()
    t.do(DoNothing(actor="bob"))
    t.do(Attack(actor="cy", target="ann", dice=(0, 1)))  # friendly fire: a crit kills the holder
    assert t.status("ann") == "dead" and not where(t, "bob").held_by


def test_a_held_fighter_cannot_declare_a_continued_dodge_c2_27_c2_16() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40)),
        ("bob", "b", fighter("Bob", init=30, dodge=50)),
        ("cy", "a", fighter("Cy", init=10, fighting=60, obsession="Fighting")),
    )
    t.do(DoNothing(actor="ann"))
    t.do(Dodge(actor="bob"))
    events = t.do(Attack(actor="cy", target="bob", cherry="kung_fu_grip", dice=(2, 2, 9, 9)))  # the dodge fails
    assert one(events, ev.GripTaken).target == "bob"
    with pytest.raises(Refused, match="cannot dodge now"):
        t.do(Declare(declarations=(Declaration(id="bob", continue_dodge=True),)))
