"""Wounds (C2-31, C2-32): shifts at 2/3 and 1/3, incapacitated at 5, dead at 0, injuries,
permanent damage over 50."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.combat import Attack, DoNothing
from engine.events import combat as ev
from engine.rules.ua2.combat.situation import wound_shift
from engine.settings import Settings
from engine.state.sheet import WoundPoints
from tests.fixtures import Table
from tests.rules.support import QUIET, arena, fighter, of, one, who


def gunfight(body: int = 60) -> Table:
    """Ann shoots (a .44, Firearms 90) at Bob (Body `body`); Cy stands by on Bob's side."""
    ann = fighter("Ann", init=40, firearms=90, weapons=[".44 revolver"])
    return arena(
        ("ann", "a", ann, ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20, body=body, fighting=60)),
        ("cy", "b", fighter("Cy", init=10)),
    )


def shoot(t: Table, value: int) -> list[ev.EventBase]:  # type: ignore[name-defined]
    events = t.do(Attack(actor="ann", target="bob", dice=(value // 10, value % 10)))
    return events


@pytest.mark.parametrize(
    ("current", "shift"),
    [(60, 0), (41, 0), (40, -10), (21, -10), (20, -20), (1, -20)],
)
def test_wound_shifts_at_two_thirds_and_one_third_of_the_maximum_c2_31(current: int, shift: int) -> None:
    assert wound_shift(current, 60, Settings()) == shift


def test_wound_shift_thresholds_are_a_setting_c2_31() -> None:
    quarters = Settings(wound_shift_thresholds=((0.75, -10), (0.25, -20)))
    assert [wound_shift(w, 60, quarters) for w in (46, 45, 16, 15)] == [0, -10, -10, -20]


def test_a_hit_reports_the_new_wound_shift_and_later_rolls_take_it_c2_31() -> None:
    t = gunfight()
    hit = one(shoot(t, 20), ev.AttackResolved).hit
    assert hit is not None and (hit.wounds_before, hit.wounds_after, hit.shift_after) == (60, 40, -10)
    spec = one(t.do(Attack(actor="bob", target="ann", dice=(9, 5))), ev.AttackResolved).result.spec
    assert spec.target == 50 and ("wounds (C2-31)", -10) in [(s.source, s.amount) for s in spec.shifts]


def test_incapacitated_at_5_not_at_6_c2_31() -> None:
    six = gunfight(body=50)
    shoot(six, 44)
    assert six.wounds("bob") == 6 and six.status("bob") == "active"
    five = gunfight(body=50)
    changed = one(shoot(five, 45), ev.StatusChanged)
    assert (changed.status, changed.rule) == ("incapacitated", "C2-31")
    assert "5 wound points" in changed.explain()


def test_dead_at_0_incapacitated_at_1_c2_31() -> None:
    one_left = gunfight(body=50)
    shoot(one_left, 49)
    assert one_left.status("bob") == "incapacitated"
    zero = gunfight(body=50)
    shoot(zero, 50)
    assert zero.wounds("bob") == 0 and zero.status("bob") == "dead"


def test_an_incapacitated_fighter_hurt_to_0_dies_c2_31() -> None:
    t = gunfight(body=50)
    shoot(t, 45)
    t.do(DoNothing(actor="cy"))
    events = shoot(t, 5)
    assert one(events, ev.StatusChanged).status == "dead"


def test_an_unconscious_fighter_killed_by_wounds_dies_c2_31_c2_10() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60)),
        ("bob", "b", fighter("Bob", init=20, body=12)),
        ("cy", "b", fighter("Cy", init=10)),
    )
    t.do(Attack(actor="ann", target="bob", crit="knock_out", dice=(0, 1)))
    t.do(DoNothing(actor="cy"))
    t.do(Attack(actor="ann", target="bob", dice=(5, 7)))
    assert t.status("bob") == "dead"


def test_a_fighter_who_joins_at_5_or_less_is_out_from_the_start_c2_31() -> None:
    hurt = msgspec.structs.replace(fighter("Bob", init=20), wounds=WoundPoints(current=4, maximum=50))
    t = arena(
        ("ann", "a", fighter("Ann", init=40)),
        ("bob", "b", hurt),
        ("cy", "b", fighter("Cy", init=10)),
        begin=False,
    )
    events = t.begin()
    assert one(events, ev.StatusChanged).status == "incapacitated"
    assert "bob" not in t.state.fight.order or t.status("bob") == "incapacitated"


def test_every_separate_source_of_damage_is_its_own_injury_c2_32() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60, weapons=["machete"]), "machete"),
        ("bob", "b", fighter("Bob", init=20)),
        ("cy", "b", fighter("Cy", init=10)),
    )
    t.do(Attack(actor="ann", target="bob", dice=(4, 7)))
    t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="cy"))
    t.do(Attack(actor="ann", target="bob", dice=(8, 1)))  # a miss: the machete still cuts (C2-14)
    injuries = who(t, "bob").injuries
    assert [(i.id, i.amount) for i in injuries] == [(1, 17), (2, 1)]
    assert t.wounds("bob") == 50 - 18


def test_more_than_50_in_one_blow_is_permanent_damage_c2_32() -> None:
    t = gunfight(body=99)
    events = shoot(t, 58)
    damage = one(events, ev.PermanentDamage)
    assert (damage.id, damage.amount) == ("bob", 58) and "C2-32" in damage.explain()
    assert who(t, "bob").injuries[0].permanent


def test_exactly_50_in_one_blow_is_not_permanent_damage_c2_32() -> None:
    t = gunfight(body=99)
    assert not of(shoot(t, 50), ev.PermanentDamage)


def test_wounds_settings_are_used_for_the_lines_c2_31() -> None:
    lines = msgspec.structs.replace(QUIET, incapacitated_at=10, dead_at=-5)
    ann = fighter("Ann", init=40, firearms=90, weapons=[".44 revolver"])
    t = arena(
        ("ann", "a", ann, ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20, body=50)),
        ("cy", "b", fighter("Cy", init=10)),
        settings=lines,
    )
    shoot(t, 40)
    assert t.status("bob") == "incapacitated"
