"""Suppressive fire (C2-18): more than 3 shots, a hit only on a crit, a shift on the field of fire."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, Declaration, Declare, DoNothing, SuppressiveFire
from engine.errors import InvalidInput, Refused
from engine.events import combat as ev
from engine.settings import Settings, SuppressionStep
from tests.fixtures import Table
from tests.rules.support import QUIET, arena, fighter, of, one, text, where


def field(settings: Settings = QUIET, dee_gun: bool = False) -> Table:
    """Order ann (a), bob (b, a 9mm), cy (a), dee (b)."""
    gun = ["9mm pistol"]
    return arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=30, firearms=50, weapons=gun), "9mm pistol"),
        ("cy", "a", fighter("Cy", init=20, fighting=60)),
        (
            "dee",
            "b",
            fighter("Dee", init=10, firearms=50, weapons=gun if dee_gun else []),
            "9mm pistol" if dee_gun else "",
        ),
        settings=settings,
    )


def attack_target(t: Table, actor: str, target: str) -> int:
    return one(t.do(Attack(actor=actor, target=target, dice=(9, 5))), ev.AttackResolved).result.spec.target


@pytest.mark.parametrize(("shots", "shift"), [(4, -10), (9, -10), (10, -20), (19, -20), (20, -30), (60, -30)])
def test_the_shift_comes_from_the_settings_table_by_shots_in_the_air_c2_18(shots: int, shift: int) -> None:
    t = field()
    t.do(DoNothing(actor="ann"))
    laid = one(
        t.do(SuppressiveFire(actor="bob", shots=shots, field=("ann", "cy"), dice=(5, 5))), ev.SuppressiveFireLaid
    )
    assert laid.shift == shift and "C2-18" in laid.explain()
    assert attack_target(t, "cy", "dee") == 60 + shift


def test_a_table_may_set_its_own_suppression_shifts_c2_18() -> None:
    own = Settings(
        violence_first_weapon_attack=0,
        violence_first_shot_at=0,
        violence_kill=0,
        violence_ally_killed=0,
        violence_kill_helpless=0,
        suppression_shift=(SuppressionStep(4, -5), SuppressionStep(8, -25)),
    )
    t = field(own)
    t.do(DoNothing(actor="ann"))
    assert (
        one(t.do(SuppressiveFire(actor="bob", shots=8, field=("cy",), dice=(5, 5))), ev.SuppressiveFireLaid).shift
        == -25
    )


def test_suppression_starts_on_the_shooter_s_turn_and_spares_those_outside_the_field_c2_18() -> None:
    t = field()
    t.do(Attack(actor="ann", target="dee", dice=(9, 5)))  # before the fire: no shift
    t.do(SuppressiveFire(actor="bob", shots=6, field=("cy",), dice=(5, 5)))
    spec = one(t.do(Attack(actor="cy", target="dee", dice=(9, 5))), ev.AttackResolved).result.spec
    assert ("suppressed, 6 shots (C2-18)", -10) in [(s.source, s.amount) for s in spec.shifts]
    assert "ann" not in t.state.fight.suppression.field


def test_shots_of_all_suppressors_add_up_c2_18() -> None:
    t = field(dee_gun=True)
    t.do(DoNothing(actor="ann"))
    t.do(SuppressiveFire(actor="bob", shots=6, field=("ann",), dice=(5, 5)))
    t.do(DoNothing(actor="cy"))
    laid = one(t.do(SuppressiveFire(actor="dee", shots=6, field=("cy",), dice=(5, 5))), ev.SuppressiveFireLaid)
    assert (laid.total_shots, laid.shift) == (12, -20) and "12 in the air" in laid.explain()


def test_suppressive_fire_hits_only_on_a_crit_c2_18_c2_10() -> None:
    miss = field()
    miss.do(DoNothing(actor="ann"))
    events = miss.do(SuppressiveFire(actor="bob", shots=6, field=("ann", "cy"), dice=(2, 0)))
    assert one(events, ev.SuppressiveFireLaid).hit == "" and miss.wounds("ann") == 50
    hit = field()
    hit.do(DoNothing(actor="ann"))
    laid = one(hit.do(SuppressiveFire(actor="bob", shots=6, field=("ann", "cy"), dice=(0, 1))), ev.SuppressiveFireLaid)
    assert laid.hit == "ann" and hit.status("ann") == "dead"


def test_continued_suppression_applies_from_the_start_of_the_next_round_c2_18_c2_4() -> None:
    t = field()
    t.do(DoNothing(actor="ann"))
    t.do(SuppressiveFire(actor="bob", shots=6, field=("ann", "cy"), dice=(5, 5)))
    t.do(DoNothing(actor="cy"))
    t.do(DoNothing(actor="dee"))
    declared = t.do(Declare(declarations=(Declaration(id="bob", continue_suppression=True),)))
    assert "keeps up suppressive fire, 6 shots (C2-18)" in text(declared)
    assert attack_target(t, "ann", "dee") == 50  # ann acts before bob, and is suppressed now
    laid = one(t.do(SuppressiveFire(actor="bob", shots=6, field=("ann", "cy"), dice=(5, 5))), ev.SuppressiveFireLaid)
    assert laid.continued and laid.total_shots == 6


def test_only_last_round_s_suppressor_can_continue_c2_18() -> None:
    t = field()
    with pytest.raises(Refused, match="C2-18"):
        t.do(Declare(declarations=(Declaration(id="bob", continue_suppression=True),)))
    t.do(DoNothing(actor="ann"))
    t.do(SuppressiveFire(actor="bob", shots=6, field=("ann",), dice=(5, 5)))
    for actor in ("cy", "dee", "ann", "bob", "cy", "dee"):  # round 2: bob does not fire
        t.do(DoNothing(actor=actor))
    assert where(t, "bob").suppressed_last_round == 0
    with pytest.raises(Refused, match="last round"):
        t.do(Declare(declarations=(Declaration(id="bob", continue_suppression=True),)))


def test_a_suppressive_fumble_jams_the_gun_c2_18_c2_11() -> None:
    t = field()
    t.do(DoNothing(actor="ann"))
    assert of(t.do(SuppressiveFire(actor="bob", shots=6, field=("ann",), dice=(0, 0))), ev.WeaponJammed)


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (SuppressiveFire(actor="bob", shots=6, field=()), "field of fire"),
        (SuppressiveFire(actor="bob", shots=6, field=("bob",)), "own field"),
        (SuppressiveFire(actor="bob", shots=6, field=("zed",)), "no combatant"),
    ],
)
def test_illegal_suppressive_fire_is_refused_c2_18(command: SuppressiveFire, reason: str) -> None:
    t = field()
    t.do(DoNothing(actor="ann"))
    with pytest.raises(Refused, match=reason):
        t.do(command)


def test_three_shots_are_not_suppressive_fire_c2_18() -> None:
    t = field()
    t.do(DoNothing(actor="ann"))
    with pytest.raises(InvalidInput, match=">= 4") as caught:
        t.do(SuppressiveFire(actor="bob", shots=3, field=("ann",)))
    assert caught.value.where == "$.shots"


def test_suppressive_fire_needs_a_gun_in_hand_c2_18() -> None:
    t = field()
    with pytest.raises(Refused, match="gun in hand"):
        t.do(SuppressiveFire(actor="ann", shots=6, field=("bob",)))
