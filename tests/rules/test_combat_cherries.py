"""Cherries (C2-22…C2-26, C2-28…C2-30): an obsession hand-to-hand skill's matched successes."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, Dodge, DoNothing, StandUp, Strike
from engine.errors import Refused
from engine.events import combat as ev
from engine.session.live import ExtraFaces
from engine.settings import Settings
from tests.fixtures import Table
from tests.rules.support import QUIET, arena, fighter, of, one, text, where


def brawl(weapon: str = "", bob_weapon: str = "", bob_obsessed: bool = False, settings: Settings = QUIET) -> Table:
    """Ann (Fighting 60, her obsession) acts first; then Bob and Cy (side b)."""
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting", athletics=60, weapons=[weapon] if weapon else [])
    bob = fighter(
        "Bob",
        init=20,
        fighting=60,
        obsession="Fighting" if bob_obsessed else "",
        weapons=[bob_weapon] if bob_weapon else [],
    )
    return arena(
        ("ann", "a", ann, weapon),
        ("bob", "b", bob, bob_weapon),
        ("cy", "b", fighter("Cy", init=10)),
        settings=settings,
    )


def damage(events: list[ev.EventBase]) -> int:  # type: ignore[name-defined]
    hit = one(events, ev.AttackResolved).hit
    return 0 if hit is None else hit.amount


# --- C2-22: who gets cherries ---------------------------------------------------------------------


def test_an_obsession_hand_to_hand_matched_success_grants_a_cherry_c2_22() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", cherry="dazed", dice=(2, 2)))
    taken = one(events, ev.CherryTaken)
    assert (taken.attacker, taken.target, taken.cherry) == ("ann", "bob", "dazed")
    assert "Dazed cherry" in taken.explain() and "C2-25" in taken.explain()


def test_no_cherry_without_the_obsession_c2_22() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40, fighting=60)), ("bob", "b", fighter("Bob", init=20)))
    assert not of(t.do(Attack(actor="ann", target="bob", cherry="dazed", dice=(2, 2))), ev.CherryTaken)


def test_no_cherry_for_a_throw_with_an_obsession_general_athletics_c2_22_c2_20() -> None:
    ann = fighter("Ann", init=40, athletics=60, obsession="General Athletics", weapons=["rock"])
    t = arena(("ann", "a", ann, "rock"), ("bob", "b", fighter("Bob", init=20)))
    assert not of(t.do(Attack(actor="ann", target="bob", mode="throw", cherry="dazed", dice=(2, 2))), ev.CherryTaken)


def test_an_automated_attacker_takes_the_default_cherry_more_hurt_c2_22() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", dice=(2, 2, 7)))
    assert one(events, ev.CherryTaken).cherry == "more_hurt"
    assert damage(events) == 4 + 7


def test_a_cherry_comes_on_top_of_the_matched_success_effect_c2_22_c2_12() -> None:
    t = brawl("machete")
    events = t.do(Attack(actor="ann", target="bob", cherry="more_hurt", dice=(3, 3, 0)))
    assert damage(events) == 33 + 6 + 10
    assert "More Hurt 1d10 +10 = 49" in text(events)


# --- C2-23…C2-26 ----------------------------------------------------------------------------------


def test_big_hurt_does_firearm_style_damage_with_fists_or_a_plus_3_weapon_c2_23() -> None:
    assert damage(brawl().do(Attack(actor="ann", target="bob", cherry="big_hurt", dice=(3, 3)))) == 33
    assert damage(brawl("rock").do(Attack(actor="ann", target="bob", cherry="big_hurt", dice=(3, 3)))) == 36


def test_blind_does_no_damage_and_gives_minus_30_for_four_rounds_c2_24() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", cherry="blind", dice=(2, 2)))
    assert damage(events) == 0 and t.wounds("bob") == 50
    applied = one(events, ev.ConditionApplied)
    assert (applied.condition.name, applied.condition.shift, applied.condition.until_round) == ("blind", -30, 5)
    assert "−30 on everything through round 5 (C2-24)" in applied.explain()
    spec = one(t.do(Attack(actor="bob", target="ann", dice=(9, 5))), ev.AttackResolved).result.spec
    assert ("blind", -30) in [(s.source, s.amount) for s in spec.shifts] and spec.target == 30
    for _ in range(4):  # through round 5 …
        t.do(DoNothing(actor="cy"))
        t.do(DoNothing(actor="ann"))
        last = one(t.do(Attack(actor="bob", target="ann", dice=(9, 5))), ev.AttackResolved).result.spec
    assert t.state.fight.round == 5 and last.target == 30
    t.do(DoNothing(actor="cy"))
    t.do(DoNothing(actor="ann"))
    assert one(t.do(Attack(actor="bob", target="ann", dice=(9, 5))), ev.AttackResolved).result.spec.target == 60


def test_dazed_does_normal_damage_and_gives_minus_10_c2_25() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", cherry="dazed", dice=(2, 2)))
    assert damage(events) == 4
    assert one(events, ev.ConditionApplied).condition.shift == -10
    assert one(t.do(Attack(actor="bob", target="ann", dice=(9, 5))), ev.AttackResolved).result.spec.target == 50


def test_gimme_does_normal_damage_and_takes_the_weapon_without_disarm_damage_c2_26() -> None:
    t = brawl(bob_weapon="knife")
    events = t.do(Attack(actor="ann", target="bob", cherry="gimme", dice=(2, 2)))
    assert damage(events) == 4
    lost = one(events, ev.WeaponLost)
    assert (lost.id, lost.weapon, lost.taken_by, lost.rule) == ("bob", "knife", "ann", "C2-26")
    assert not of(events, ev.WoundsInflicted) and where(t, "ann").in_hand == "knife"


# --- C2-28: Monkey Dodge --------------------------------------------------------------------------


def test_monkey_dodge_redirects_the_next_attack_on_the_attacker_to_another_combatant_c2_28() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", cherry="monkey_dodge", monkey_redirect="cy", dice=(2, 2)))
    assert damage(events) == 4
    after = t.do(Attack(actor="bob", target="ann", dice=(1, 2)))
    assert one(after, ev.MonkeyDodged).redirected_to == "cy"
    assert one(after, ev.AttackResolved).target == "cy" and t.wounds("cy") == 47 and t.wounds("ann") == 50


def test_monkey_dodge_may_send_the_attack_into_the_wall_c2_28() -> None:
    t = brawl()
    t.do(Attack(actor="ann", target="bob", cherry="monkey_dodge", dice=(2, 2)))
    after = t.do(Attack(actor="bob", target="ann", dice=(1, 2)))
    assert "nothing (the floor, the wall)" in one(after, ev.MonkeyDodged).explain()
    assert not of(after, ev.AttackResolved) and t.state.fight.current == "cy"
    t.do(DoNothing(actor="cy"))
    t.do(DoNothing(actor="ann"))
    assert one(t.do(Attack(actor="bob", target="ann", dice=(1, 2))), ev.AttackResolved).target == "ann"  # spent


def test_monkey_dodge_cannot_redirect_onto_the_cherry_taker_itself_c2_28() -> None:
    with pytest.raises(Refused, match="C2-28"):
        brawl().do(Attack(actor="ann", target="bob", cherry="monkey_dodge", monkey_redirect="ann", dice=(2, 2)))


# --- C2-29: Knock Down ----------------------------------------------------------------------------


def test_knock_down_does_damage_and_the_target_must_spend_an_action_standing_c2_29() -> None:
    t = brawl()
    events = t.do(Attack(actor="ann", target="bob", cherry="knock_down", dice=(2, 2)))
    assert damage(events) == 4 and where(t, "bob").prone
    assert t.state.fight.order == ("ann", "cy", "bob")
    t.do(DoNothing(actor="cy"))
    stood = t.do(StandUp(actor="bob"))
    assert "stands up (C2-3)" in text(stood) and not where(t, "bob").prone
    t.do(DoNothing(actor="ann"))
    t.do(DoNothing(actor="cy"))
    with pytest.raises(Refused, match="not down"):
        t.do(StandUp(actor="bob"))


# --- C2-30 ----------------------------------------------------------------------------------------


def test_more_hurt_adds_a_die_c2_30() -> None:
    assert damage(brawl().do(Attack(actor="ann", target="bob", cherry="more_hurt", dice=(4, 4, 3)))) == 8 + 3


def test_new_damage_rolls_two_dice_for_a_new_digit_sum_c2_30() -> None:
    events = brawl().do(Attack(actor="ann", target="bob", cherry="new_damage", dice=(1, 1, 4, 7)))
    assert damage(events) == 11 and "New Damage rolled 4,7" in text(events)


def test_new_damage_with_a_plus_6_weapon_stays_firearm_style_c2_30() -> None:
    assert damage(brawl("machete").do(Attack(actor="ann", target="bob", cherry="new_damage", dice=(1, 1, 4, 7)))) == 53


def test_second_helping_is_one_more_attack_at_once_at_full_skill_c2_30() -> None:
    t = brawl()
    t.do(Attack(actor="ann", target="bob", cherry="second_helping", dice=(2, 2)))
    assert t.state.fight.current == "ann" and where(t, "ann").extra_attack
    with pytest.raises(Refused, match="Second Helping"):
        t.do(Dodge(actor="ann"))
    with pytest.raises(Refused, match="one more attack"):
        t.do(Attack(actor="ann", strikes=(Strike(target="bob"), Strike(target="cy")), dice=(5, 5, 5, 5)))
    again = one(t.do(Attack(actor="ann", target="cy", dice=(5, 9))), ev.AttackResolved)
    assert again.result.spec.target == 60 and t.state.fight.current == "bob"


def test_a_second_helping_may_be_waived_by_doing_nothing_c2_30() -> None:
    t = brawl()
    t.do(Attack(actor="ann", target="bob", cherry="second_helping", dice=(2, 2)))
    t.do(DoNothing(actor="ann"))
    assert t.state.fight.current == "bob" and not where(t, "ann").extra_attack


def test_a_second_helping_passes_if_the_attacker_freezes_on_its_kill_c2_30_m2_7() -> None:
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting", weapons=["machete"], mind=30)
    t = arena(
        ("ann", "a", ann, "machete"),
        ("bob", "b", fighter("Bob", init=20, body=20, hardened=10)),
        ("cy", "b", fighter("Cy", init=10, hardened=10)),
        ("dan", "a", fighter("Dan", init=5, hardened=10)),
        settings=Settings(),
    )
    # 44 + 6 kills Bob; Ann's violence 3 check (Mind 30): 9,5 fails → she freezes (the default)
    events = t.do(Attack(actor="ann", target="bob", cherry="second_helping", dice=(4, 4, 9, 5)))
    assert t.status("bob") == "dead" and t.state.combatant("ann").reaction.kind == "freeze"  # type: ignore[union-attr]
    assert of(events, ev.TurnStarted)[-1].id == "cy"  # the turn passes: no deadlock


def test_turning_tide_takes_the_benefit_of_matches_from_the_target_for_the_rest_of_the_fight_c2_30() -> None:
    t = brawl(bob_weapon="machete", bob_obsessed=True)
    t.do(Attack(actor="ann", target="bob", cherry="turning_tide", dice=(2, 2)))
    assert where(t, "bob").no_match_benefits
    events = t.do(Attack(actor="bob", target="ann", cherry="dazed", dice=(3, 3)))
    assert not of(events, ev.CherryTaken)
    assert damage(events) == 6 + 6  # digit sum + 6, not 33 + 6
    assert "Turning Tide: no benefit from the match (C2-30)" in text(events)


# --- C2-28: Monkey Dodge ------------------------------------------------------------------------


def test_a_monkey_dodge_to_nothing_spends_the_next_attack_on_the_dodger_reading_no_dice_c2_28() -> None:
    """C2-28 (automated: to nothing): Ann's 22 deals normal damage and takes Monkey Dodge; Bob's
    next attack on her is spent — no roll, no damage: dice given for it are more than it reads
    (T-4), and without them it draws none."""
    t = brawl()
    t.do(Attack(actor="ann", target="bob", cherry="monkey_dodge", dice=(2, 2)))
    assert t.state.fighter("ann").monkey_dodge
    unhurt = t.wounds("ann")
    with pytest.raises(ExtraFaces, match="reads 0 dice"):
        t.live.execute(Attack(actor="bob", target="ann", dice=(3, 4)), exact=True)
    before = t.live.dice_position
    events = t.do(Attack(actor="bob", target="ann"))
    assert t.live.dice_position == before
    dodged = one(events, ev.MonkeyDodged)
    assert (dodged.protected, dodged.attacker, dodged.redirected_to) == ("ann", "bob", "")
    assert not of(events, ev.AttackResolved) and t.wounds("ann") == unhurt
    assert not t.state.fighter("ann").monkey_dodge


def test_a_monkey_dodge_redirected_to_a_combatant_is_rolled_against_that_one_c2_28() -> None:
    """C2-28 (the owner's choice, T-1): Ann sends Bob's next attack to Cy; it is rolled at Cy."""
    t = brawl()
    t.do(Attack(actor="ann", target="bob", cherry="monkey_dodge", monkey_redirect="cy", dice=(2, 2)))
    unhurt = t.wounds("ann")
    events = t.do(Attack(actor="bob", target="ann", dice=(3, 4, 5, 5)))
    assert one(events, ev.MonkeyDodged).redirected_to == "cy"
    assert one(events, ev.AttackResolved).target == "cy" and t.wounds("ann") == unhurt
