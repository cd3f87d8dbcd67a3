"""Several attacks or shots in a round (C2-8, C2-17): the target divided, three at most."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, Declaration, Declare, Strike
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, where


def brawl(skill: int = 55, weapon: str = "") -> Table:
    """Order ann (a), bob (b), cy (b)."""
    ann = fighter("Ann", init=40, fighting=skill, firearms=skill, weapons=[weapon] if weapon else [])
    return arena(
        ("ann", "a", ann, weapon),
        ("bob", "b", fighter("Bob", init=20)),
        ("cy", "b", fighter("Cy", init=10)),
    )


def test_two_attacks_divide_the_target_as_the_attacker_chooses_each_its_own_check_c2_8() -> None:
    t = brawl(55)
    strikes = (Strike(target="bob", share=30), Strike(target="bob", share=25))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(2, 5, 2, 6)))
    first, second = of(events, ev.AttackResolved)
    assert (first.result.spec.target, first.result.outcome) == (30, "success")
    assert (second.result.spec.target, second.result.outcome) == (25, "failure")
    assert "(attack 1 of 2, C2-8)" in first.explain() and "30 of 55 (C2-8) -25" in first.explain()
    assert t.wounds("bob") == 50 - 7
    assert where(t, "ann").attacks_this_round == 2


def test_a_54_and_a_1_is_a_legal_division_c2_8() -> None:
    t = brawl(55)
    strikes = (Strike(target="bob", share=54), Strike(target="cy", share=1))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(9,) * 4))
    assert [a.result.spec.target for a in of(events, ev.AttackResolved)] == [54, 1]


def test_unnamed_shares_split_the_target_evenly_c2_8() -> None:
    t = brawl(55)
    strikes = (Strike(target="bob"), Strike(target="cy"), Strike(target="bob"))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(9,) * 6))
    assert [a.result.spec.target for a in of(events, ev.AttackResolved)] == [19, 18, 18]


def test_shares_over_the_target_are_refused_c2_8() -> None:
    t = brawl(55)
    with pytest.raises(Refused, match="cannot divide a target of 55 into 30, 26"):
        t.do(Attack(actor="ann", strikes=(Strike(target="bob", share=30), Strike(target="cy", share=26))))


def test_a_share_under_1_is_refused_c2_8() -> None:
    t = brawl(2)
    with pytest.raises(Refused, match="each part at least 1"):
        t.do(Attack(actor="ann", strikes=(Strike(target="bob"), Strike(target="bob"), Strike(target="cy"))))


def test_a_fourth_attack_in_a_round_is_refused_c2_8() -> None:
    t = brawl(55)
    before = t.state
    with pytest.raises(Refused, match="at most 3 attacks a round"):
        t.do(Attack(actor="ann", strikes=tuple(Strike(target="bob", share=10) for _ in range(4))))
    assert t.state == before


def test_three_shots_divide_the_firearms_target_c2_17() -> None:
    t = brawl(60, ".22 pistol")
    strikes = tuple(Strike(target=x) for x in ("bob", "cy", "bob"))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(1, 5, 9, 9, 1, 8)))
    shots = of(events, ev.AttackResolved)
    assert [s.result.spec.target for s in shots] == [20, 20, 20]
    assert [s.hit.amount if s.hit else 0 for s in shots] == [15, 0, 18]
    assert t.wounds("bob") == 50 - 33


def test_a_later_part_at_a_target_already_dead_is_not_rolled_c2_8() -> None:
    t = brawl(60, ".44 revolver")
    strikes = (Strike(target="bob", share=40), Strike(target="bob", share=20))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(0, 1, 1, 1)))
    assert len(of(events, ev.AttackResolved)) == 1 and t.status("bob") == "dead"


def test_a_focusing_target_s_shift_is_added_before_dividing_attacks_on_it_c2_5_c2_8() -> None:
    t = brawl(40)
    t.do(Declare(declarations=(Declaration(id="cy", focus_target="ann", focus=20),)))
    strikes = (Strike(target="cy", share=30), Strike(target="cy", share=30))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(9,) * 4))
    assert [a.result.spec.target for a in of(events, ev.AttackResolved)] == [30, 30]  # 40 + 20 = 60 divided
    assert "30 of 60 (C2-8)" in of(events, ev.AttackResolved)[0].explain()


def test_with_several_targets_each_part_gets_its_own_target_s_shift_c2_5_c2_8() -> None:
    t = brawl(40)
    t.do(Declare(declarations=(Declaration(id="cy", focus_target="ann", focus=20),)))
    strikes = (Strike(target="bob", share=20), Strike(target="cy", share=20))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(9,) * 4))
    assert [a.result.spec.target for a in of(events, ev.AttackResolved)] == [20, 40]
    assert one([a for a in of(events, ev.AttackResolved) if a.target == "cy"], ev.AttackResolved).part == 2
