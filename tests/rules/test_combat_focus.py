"""Declarations and focus shifts (C2-4, C2-5)."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, Declaration, Declare, DoNothing, Strike
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, text, where


def three() -> Table:
    """Order ann (a), bob (b), cy (a)."""
    return arena(
        ("ann", "a", fighter("Ann", init=40, fighting=40, athletics=40, weapons=["rock"]), "rock"),
        ("bob", "b", fighter("Bob", init=20, fighting=40)),
        ("cy", "a", fighter("Cy", init=10, fighting=40)),
    )


def test_declarations_come_before_anyone_acts_slowest_first_c2_4() -> None:
    t = three()
    events = t.do(
        Declare(
            declarations=(
                Declaration(id="ann", focus_target="bob", focus=10),
                Declaration(id="cy", focus_target="bob", focus=20),
            )
        )
    )
    assert [d.id for d in of(events, ev.Declared)] == ["cy", "ann"]
    assert one(events, ev.TurnStarted).id == "ann"


def test_declarations_are_closed_once_someone_acts_c2_4() -> None:
    t = three()
    t.do(DoNothing(actor="ann"))
    with pytest.raises(Refused, match="start of a round"):
        t.do(Declare(declarations=(Declaration(id="bob", focus_target="ann", focus=10),)))


def test_a_focus_shift_adds_to_attacks_on_its_target_c2_5() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=20),)))
    spec = one(t.do(Attack(actor="ann", target="bob", weapon="fists", dice=(9, 5))), ev.AttackResolved).result.spec
    assert spec.target == 60 and ("focus on bob (C2-5)", 20) in [(s.source, s.amount) for s in spec.shifts]


def test_a_focus_shift_is_given_back_to_everyone_attacking_the_focuser_c2_5() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=20),)))
    t.do(DoNothing(actor="ann"))
    events = t.do(Attack(actor="bob", target="ann", dice=(5, 6)))
    spec = one(events, ev.AttackResolved).result.spec
    assert spec.target == 60 and "ann is focusing (C2-5) +20" in text(events)


def test_a_focus_shift_lasts_one_round_c2_5() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=30),)))
    for actor in ("ann", "bob", "cy"):
        t.do(DoNothing(actor=actor))
    spec = one(t.do(Attack(actor="ann", target="bob", weapon="fists", dice=(9, 5))), ev.AttackResolved).result.spec
    assert spec.target == 40


def test_a_focus_shift_does_not_help_attacks_on_several_targets_c2_5() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="bob", focus_target="ann", focus=20),)))
    t.do(DoNothing(actor="ann"))
    strikes = (Strike(target="ann", share=20), Strike(target="cy", share=20))
    events = t.do(Attack(actor="bob", strikes=strikes, dice=(9, 9, 9, 8)))
    first, second = of(events, ev.AttackResolved)
    assert first.result.spec.target == 20 and second.result.spec.target == 20


def test_a_focus_shift_is_added_before_dividing_several_attacks_on_one_target_c2_5_c2_8() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40, fighting=15)), ("bob", "b", fighter("Bob", init=20)))
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=30),)))
    strikes = (Strike(target="bob", share=20), Strike(target="bob", share=20), Strike(target="bob", share=5))
    events = t.do(Attack(actor="ann", strikes=strikes, dice=(9, 9, 9, 8, 9, 7)))
    assert [a.result.spec.target for a in of(events, ev.AttackResolved)] == [20, 20, 5]
    t2 = arena(("ann", "a", fighter("Ann", init=40, fighting=15)), ("bob", "b", fighter("Bob", init=20)))
    t2.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=30),)))
    with pytest.raises(Refused, match="cannot divide a target of 45"):
        t2.do(Attack(actor="ann", strikes=(Strike(target="bob", share=30), Strike(target="bob", share=30))))


def test_a_focus_shift_helps_a_throw_at_its_target_c2_5_c2_20() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=10),)))
    spec = one(t.do(Attack(actor="ann", target="bob", mode="throw", dice=(9, 5))), ev.AttackResolved).result.spec
    assert spec.label == "General Athletics" and spec.target == 50


def test_a_focus_shift_names_someone_else_and_an_amount_c2_5() -> None:
    t = three()
    with pytest.raises(Refused, match="someone else"):
        t.do(Declare(declarations=(Declaration(id="ann", focus_target="ann", focus=10),)))
    with pytest.raises(Refused, match=r"\+10, \+20 or \+30"):
        t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob"),)))
    with pytest.raises(Refused, match="declares twice"):
        t.do(Declare(declarations=(Declaration(id="ann"), Declaration(id="ann"))))


# --- declarations one combatant at a time (issue 12) ------------------------------------------


def test_open_declarations_leave_the_round_open_for_the_others_c2_4() -> None:
    t = three()
    events = t.do(Declare(declarations=(Declaration(id="cy", focus_target="bob", focus=10),), open=True))
    assert not of(events, ev.TurnStarted) and t.state.fight.phase == "declare"
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=20),), open=True))
    first = t.do(Attack(actor="ann", target="bob", dice=(9, 9)))  # the round's first action closes them
    assert of(first, ev.TurnStarted)[0].id == "ann"
    assert "focus on bob (C2-5)" in text(first)


def test_a_declaration_replaces_the_same_fighters_earlier_one_this_round_c2_4_c2_5() -> None:
    t = three()
    t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=10),), open=True))
    again = t.do(Declare(declarations=(Declaration(id="ann", focus_target="bob", focus=30),), open=True))
    assert one(again, ev.Declared).replaces is True and "declares instead" in text(again)
    assert where(t, "ann").focus is not None and where(t, "ann").focus.amount == 30  # type: ignore[union-attr]
    nothing = t.do(Declare(declarations=(Declaration(id="ann"),), open=True))  # takes the focus back
    assert one(nothing, ev.Declared).replaces is True and where(t, "ann").focus is None


def test_no_declaration_once_the_round_has_begun_says_why_c2_4() -> None:
    t = three()
    t.do(DoNothing(actor="ann"))
    with pytest.raises(Refused, match=r"C2-4") as refused:
        t.do(Declare(declarations=(Declaration(id="cy", focus_target="bob", focus=10),), open=True))
    assert "next round" in refused.value.hint


def test_a_combatant_joining_mid_fight_takes_initiative_at_the_next_round_i2_5() -> None:
    from engine.commands import AddCombatant

    t = three()
    joined = t.do(AddCombatant(id="dee", side="b", sheet=fighter("Dee", init=35, fighting=40)))
    assert one(joined, ev.DidNothing).reinitiative == "default"  # no turn this round
    assert "dee" not in t.state.fight.order
    t.do(DoNothing(actor="ann"))
    t.do(DoNothing(actor="bob"))
    round_2 = t.do(DoNothing(actor="cy"))
    assert one(round_2, ev.InitiativeSet).id == "dee"  # default initiative 35 (I2-1, I2-5)
    assert t.state.fight.order == ("ann", "dee", "bob", "cy")
