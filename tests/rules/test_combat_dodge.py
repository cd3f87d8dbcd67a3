"""Dodging (C2-15, C2-16): full, half (rounded up) or no dodge; only later attackers; crits."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, Declaration, Declare, Dodge, DoNothing
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, text, where


def dodging_bob(dodge: int = 60, cy_fighting: int = 60) -> Table:
    """Order ann, bob, cy; ann does nothing, bob dodges; cy (ann's side) is to attack bob."""
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20, dodge=dodge)),
        ("cy", "a", fighter("Cy", init=10, fighting=cy_fighting)),
    )
    t.do(DoNothing(actor="ann"))
    t.do(Dodge(actor="bob"))
    return t


def test_a_dodge_over_the_attack_roll_and_within_the_dodge_target_avoids_all_damage_c2_15() -> None:
    t = dodging_bob()
    events = t.do(Attack(actor="cy", target="bob", dice=(3, 5, 5, 0)))  # attack 35, dodge 50
    resolved = one(events, ev.AttackResolved)
    assert resolved.dodge is not None and resolved.dodge.effect == "full"
    assert resolved.hit is None and t.wounds("bob") == 50
    assert "bob dodges (Dodge 60): rolled 5,0 = 50, success → no damage (C2-15)" in resolved.explain()


def test_a_failed_dodge_against_an_attack_under_the_dodge_skill_halves_damage_rounded_up_c2_15() -> None:
    t = dodging_bob()
    events = t.do(Attack(actor="cy", target="bob", dice=(3, 4, 2, 0)))  # attack 34 → 7; dodge 20 ≤ 34
    resolved = one(events, ev.AttackResolved)
    assert resolved.dodge is not None and resolved.dodge.effect == "half"
    assert resolved.hit is not None and resolved.hit.amount == 4  # 7 / 2 rounded up
    assert "halved by the dodge (rounded up) = 4" in resolved.explain()


def test_a_failed_dodge_against_an_attack_at_or_over_the_dodge_skill_is_no_help_c2_15() -> None:
    t = dodging_bob(dodge=50)
    events = t.do(Attack(actor="cy", target="bob", dice=(5, 4, 7, 0)))  # attack 54 ≥ 50; dodge 70
    resolved = one(events, ev.AttackResolved)
    assert resolved.dodge is not None and resolved.dodge.effect == "none"
    assert resolved.hit is not None and resolved.hit.amount == 9


def test_a_failed_attack_draws_no_dodge_roll_c2_15() -> None:
    t = dodging_bob()
    events = t.do(Attack(actor="cy", target="bob", dice=(9, 5)))
    assert one(events, ev.AttackResolved).dodge is None and t.wounds("bob") == 50


def test_a_dodge_does_not_cover_attackers_who_acted_earlier_in_the_round_c2_15() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20, dodge=60)),
    )
    t.do(DoNothing(actor="ann"))
    t.do(Dodge(actor="bob"))
    # round 2: bob's dodge ended with round 1, and ann acts before bob
    events = t.do(Attack(actor="ann", target="bob", dice=(3, 5)))
    assert one(events, ev.AttackResolved).dodge is None and t.wounds("bob") == 42


def test_a_crit_is_stopped_only_by_a_full_dodge_c2_15_c2_10() -> None:
    full = dodging_bob()
    full.do(Attack(actor="cy", target="bob", dice=(0, 1, 5, 0)))  # dodge 50 > 1 and ≤ 60
    assert full.status("bob") == "active"
    partial = dodging_bob()
    events = partial.do(Attack(actor="cy", target="bob", dice=(0, 1, 8, 0)))  # dodge 80 fails
    assert one(events, ev.AttackResolved).dodge.effect == "half"  # type: ignore[union-attr]
    assert partial.status("bob") == "dead"  # a partial dodge leaves the crit whole


def test_a_crit_dodge_is_a_full_dodge_c2_15_c_6() -> None:
    t = dodging_bob()
    resolved = one(t.do(Attack(actor="cy", target="bob", dice=(4, 4, 0, 1))), ev.AttackResolved)
    assert resolved.dodge is not None and resolved.dodge.effect == "full" and resolved.hit is None


def test_an_obsession_dodger_flips_for_the_higher_value_c2_15_c_11() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20, dodge=60, obsession="Dodge")),
        ("cy", "a", fighter("Cy", init=10, fighting=60)),
    )
    t.do(DoNothing(actor="ann"))
    t.do(Dodge(actor="bob"))
    # attack 35; the dodge dice 2,5 read 25 fail to beat it, flipped 52 beat it
    resolved = one(t.do(Attack(actor="cy", target="bob", dice=(3, 5, 2, 5))), ev.AttackResolved)
    assert resolved.dodge is not None and resolved.dodge.result.value == 52 and resolved.dodge.effect == "full"


# --- C2-16: continued dodging --------------------------------------------------------------------


def test_a_continued_dodge_covers_faster_attackers_and_is_the_whole_round_c2_16() -> None:
    t = dodging_bob()
    t.do(DoNothing(actor="cy"))
    declared = t.do(Declare(declarations=(Declaration(id="bob", continue_dodge=True),)))
    assert "keeps dodging, against every attack this round (C2-16)" in text(declared)
    events = t.do(Attack(actor="ann", target="bob", dice=(3, 5, 5, 0)))  # ann acts before bob
    assert one(events, ev.AttackResolved).dodge.effect == "full"  # type: ignore[union-attr]
    skipped = one(events, ev.TurnSkipped)  # no other action while dodging
    assert (skipped.id, skipped.reason) == ("bob", "dodging all round (C2-16)")
    assert t.state.fight.current == "cy"


def test_only_someone_who_dodged_last_round_can_continue_dodging_c2_16() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=20, dodge=60)))
    with pytest.raises(Refused, match="C2-16"):
        t.do(Declare(declarations=(Declaration(id="bob", continue_dodge=True),)))


def test_dodging_is_the_whole_action_c2_15() -> None:
    t = dodging_bob()
    assert where(t, "bob").dodging and t.state.fight.current == "cy"
    assert of(t.do(DoNothing(actor="cy")), ev.RoundStarted)
    assert not where(t, "bob").dodging  # until the end of the round
