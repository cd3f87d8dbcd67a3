"""Coercion (U-15): the coercer's roll with the gauge's coercing rating (or a `coerces`
identity, or a relationship with the target), the target's choice, the rank with passions."""

from __future__ import annotations

import pytest

from engine.commands.ua3 import AnswerCoercion, Coerce
from engine.errors import Refused
from engine.events.ua3 import CoercionAnswered, CoercionRolled, FailedNotchMarked, StressChecked
from engine.rules.ua3.coercion import rank_of
from engine.state.ua3.sheet import Identity, Relationship
from tests.ua3.support import Scene, of_type, sheet

AGNES = sheet(
    "Mother Agnes",
    hardened={"unnatural": 5},  # Secrecy 15 + 25 = 40 (U-18)
    identities=[Identity(name="Prophet", rating=65, coerces=("unnatural", "self"), obsession=True)],
)


def scene() -> Scene:
    return Scene(("Agnes", "cult", AGNES), ("Vic", "town", sheet("Vic")), ("Ann", "town", sheet("Ann")))


@pytest.mark.parametrize(
    ("outcome", "coercer", "target", "rank"),
    [
        ("success", 0, 0, 1),
        ("matched_success", 0, 0, 2),
        ("crit", 0, 0, 2),
        ("success", 1, 2, 4),
        ("matched_success", 3, 3, 8),
        ("crit", 3, 3, 8),
        ("failure", 3, 3, 0),
        ("matched_failure", 1, 0, 0),
        ("fumble", 0, 0, 0),
    ],
)
def test_u15_the_rank_is_1_or_2_plus_one_for_each_passion_in_play(
    outcome: str, coercer: int, target: int, rank: int
) -> None:
    assert rank_of(outcome, coercer, target) == rank


def test_u15_each_gauge_is_coerced_with_its_ability() -> None:
    s = scene()
    expected = {"violence": "Struggle", "helplessness": "Connect", "isolation": "Status", "self": "Prophet"}
    for gauge, label in expected.items():
        (rolled,) = s.do(Coerce(coercer="Vic" if gauge != "self" else "Agnes", target="Ann", gauge=gauge, dice=(9, 8)))
        assert isinstance(rolled, CoercionRolled) and rolled.result.spec.label == label
    (rolled,) = s.do(Coerce(coercer="Vic", target="Ann", gauge="unnatural", dice=(9, 8)))
    assert rolled.result.spec.label == "Secrecy"  # type: ignore[attr-defined]


def test_u15_a_coerces_identity_rolls_when_it_is_the_best_and_flips_as_the_obsession() -> None:
    s = scene()
    (rolled,) = s.do(
        Coerce(coercer="Agnes", target="Vic", gauge="unnatural", threat="the Hollow sees you", dice=(7, 2))
    )
    assert rolled.result.spec.label == "Prophet" and rolled.result.spec.flip  # type: ignore[attr-defined]
    assert rolled.result.value == 27 and rolled.rank == 1  # type: ignore[attr-defined]  # 72 flipped (C-9)


def test_u15_a_relationship_with_the_target_may_be_rolled() -> None:
    vic = sheet("Vic", relationships=[Relationship(person="Ann", rating=80, gauge="favorite")])
    s = Scene(("Vic", "a", vic), ("Ann", "b", sheet("Ann")))
    (rolled,) = s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", dice=(7, 5)))
    assert rolled.result.spec.label == "relationship with Ann" and rolled.rank == 1  # type: ignore[attr-defined]


def test_u15_a_failure_leaves_the_target_unconvinced_and_no_choice() -> None:
    s = scene()
    (rolled,) = s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", answer="refuse", dice=(9, 0)))
    assert rolled.rank == 0 and "unconvinced" in rolled.explain()  # type: ignore[attr-defined]
    assert s.state.coercions == ()
    with pytest.raises(Refused, match="no coercion waits"):
        s.do(AnswerCoercion(target="Ann", answer="refuse"))


def test_u15_the_convinced_target_acquiesces_and_keeps_its_gauge_intact() -> None:
    s = scene()
    s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", dice=(0, 5)))
    assert [(c.coercer, c.target, c.rank) for c in s.state.coercions] == [("Vic", "Ann", 1)]
    (answered,) = s.do(AnswerCoercion(target="Ann", answer="acquiesce"))
    assert isinstance(answered, CoercionAnswered) and s.state.coercions == ()
    assert s.who("Ann").gauges == sheet("Ann").gauges


def test_u15_the_target_refuses_and_takes_the_stress_check_of_the_computed_rank() -> None:
    s = scene()
    events = s.do(
        Coerce(
            coercer="Vic",
            target="Ann",
            gauge="violence",
            coercer_passions=("rage",),
            target_passions=("noble", "fear"),
            answer="refuse",
            dice=(1, 1, 9, 9),
        )
    )
    rolled, answered, checked, *_ = events
    assert rolled.rank == 5  # type: ignore[attr-defined]  # matched success 2, +1 Vic's rage, +2 Ann's passions
    assert isinstance(answered, CoercionAnswered) and answered.answer == "refuse"
    assert isinstance(checked, StressChecked) and (checked.gauge, checked.rank) == ("violence", 5)
    assert checked.result is not None and checked.result.spec.label == "Fitness" and checked.outcome == "failure"
    assert of_type(events, FailedNotchMarked)[0].cause == "refused Vic's coercion"


def test_u15_passions_in_play_must_be_the_characters_own() -> None:
    s = Scene(("Vic", "a", sheet("Vic", passions=())), ("Ann", "b", sheet("Ann")))
    with pytest.raises(Refused, match="Vic has no rage passion"):
        s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", coercer_passions=("rage",)))
    with pytest.raises(Refused, match="named twice"):
        s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", target_passions=("rage", "rage")))


def test_u15_a_target_answers_one_coercion_at_a_time() -> None:
    s = scene()
    s.do(Coerce(coercer="Vic", target="Ann", gauge="violence", dice=(0, 5)))
    with pytest.raises(Refused, match="has yet to answer Vic's violence threat"):
        s.do(Coerce(coercer="Agnes", target="Ann", gauge="self"))
    with pytest.raises(Refused, match="cannot coerce itself"):
        s.do(Coerce(coercer="Vic", target="Vic", gauge="self"))
