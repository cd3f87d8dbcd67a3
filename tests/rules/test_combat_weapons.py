"""Weapons in hand (C2-3): drawing, jams and clearing them, standing up — each an action."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.combat import Attack, ClearJam, DoNothing, Draw, SuppressiveFire
from engine.dice.source import TableDice
from engine.errors import Refused
from engine.events import combat as ev
from engine.rules.decide import decide
from tests.fixtures import Table
from tests.rules.support import arena, fighter, one, text, where


def armed(in_hand: str = "") -> Table:
    ann = fighter("Ann", init=40, fighting=60, firearms=60, obsession="Fighting", weapons=[".44 revolver", "knife"])
    return arena(("ann", "a", ann, in_hand), ("bob", "b", fighter("Bob", init=20)))


def test_drawing_a_weapon_is_the_action_and_it_is_usable_from_next_round_c2_3() -> None:
    t = armed()
    events = t.do(Draw(actor="ann", weapon=".44 revolver"))
    assert "usable from next round (C2-3)" in one(events, ev.WeaponDrawn).explain()
    assert where(t, "ann").in_hand == ".44 revolver" and t.state.fight.current == "bob"
    t.do(DoNothing(actor="bob"))
    assert one(t.do(Attack(actor="ann", target="bob", dice=(2, 5))), ev.AttackResolved).hit.amount == 25  # type: ignore[union-attr]


def test_a_weapon_drawn_this_round_cannot_be_used_this_round_c2_3() -> None:
    t = armed()
    t.do(Attack(actor="ann", target="bob", cherry="second_helping", dice=(2, 2)))  # ann may attack again now
    ann = msgspec.structs.replace(where(t, "ann"), in_hand=".44 revolver", drawn_round=t.state.fight.round)
    state = t.state.replace_fighter(ann)  # as if she had drawn it this round
    with pytest.raises(Refused, match="drawn this round"):
        decide(state, Attack(actor="ann", target="bob"), TableDice((2, 5)))
    no_helping = state.replace_fighter(msgspec.structs.replace(ann, extra_attack=False))
    with pytest.raises(Refused, match="drawn this round"):
        decide(no_helping, SuppressiveFire(actor="ann", shots=5, field=("bob",)), TableDice((2, 5)))
    # fists are always at hand
    assert decide(state, Attack(actor="ann", target="bob", weapon="fists"), TableDice((9, 9)))


def test_drawing_what_is_in_hand_or_not_carried_is_refused_c2_3() -> None:
    t = armed("knife")
    with pytest.raises(Refused, match="already in hand"):
        t.do(Draw(actor="ann", weapon="knife"))
    with pytest.raises(Refused, match="does not carry"):
        t.do(Draw(actor="ann", weapon="chainsaw"))


def test_a_jammed_gun_is_cleared_with_an_action_c2_3_c2_11() -> None:
    t = armed(".44 revolver")
    t.do(Attack(actor="ann", target="bob", dice=(0, 0)))
    t.do(DoNothing(actor="bob"))
    with pytest.raises(Refused, match="jammed"):
        t.do(Attack(actor="ann", target="bob", dice=(2, 5)))
    cleared = t.do(ClearJam(actor="ann"))
    assert "clears the jammed .44 revolver (C2-3)" in text(cleared) and t.state.fight.current == "bob"
    t.do(DoNothing(actor="bob"))
    assert one(t.do(Attack(actor="ann", target="bob", dice=(2, 5))), ev.AttackResolved).hit is not None


def test_clearing_a_gun_that_is_not_jammed_is_refused_c2_3() -> None:
    with pytest.raises(Refused, match="not jammed"):
        armed(".44 revolver").do(ClearJam(actor="ann"))


def test_a_thrown_weapon_is_gone_from_the_hand_c2_20() -> None:
    t = armed("knife")
    t.do(Attack(actor="ann", target="bob", mode="throw", dice=(9, 9)))
    assert where(t, "ann").in_hand == "fists" and where(t, "ann").weapon("knife") is None
    t.do(DoNothing(actor="bob"))
    with pytest.raises(Refused, match="does not carry a knife"):
        t.do(Attack(actor="ann", target="bob", weapon="knife", dice=(2, 5)))
