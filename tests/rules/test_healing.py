"""Healing (H2-1…H2-5): per injury, first aid for minor, medical care for major, never the last
point but with time; convalescence by care and the 60% line."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.combat import Attack, DoNothing, EndFight
from engine.commands.healing import Convalesce, FirstAid, MedicalCare
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.healing import Convalesced, InjuryTreated
from engine.state.sheet import WoundPoints
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, who

# Bob's maximum is 50, so 10% is 5: an injury of 5 is minor, of 6 major (H2-1).


def wounded(*blows: tuple[int, int], end: bool = True) -> Table:
    """Ann (a .44, First Aid 60, Medicine 60) shoots Bob once per blow (dice → exact damage),
    Cy stands by on Bob's side; then the GM ends the fight."""
    ann = fighter("Ann", init=40, firearms=99, first_aid=60, medicine=60, weapons=[".44 revolver"])
    t = arena(
        ("ann", "a", ann, ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20, body=50)),
        ("cy", "b", fighter("Cy", init=10)),
    )
    for n, dice in enumerate(blows):
        if n:
            t.do(DoNothing(actor="bob"))
            t.do(DoNothing(actor="cy"))
        t.do(Attack(actor="ann", target="bob", dice=dice))
    if end:
        t.do(EndFight(reason="it is over"))
    return t


def treated(events: list[ev.EventBase]) -> InjuryTreated:  # type: ignore[name-defined]
    return one(events, InjuryTreated)


# --- H2-1: minor or major --------------------------------------------------------------------------


def test_an_injury_of_exactly_10_percent_is_minor_h2_1() -> None:
    t = wounded((0, 5))
    assert who(t, "bob").injuries[0].amount == 5
    assert treated(t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(1, 2)))).healed == 3
    with pytest.raises(Refused, match="minor: first aid treats it"):
        wounded((0, 5)).do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(1, 2)))


def test_an_injury_over_10_percent_is_major_h2_1() -> None:
    t = wounded((0, 6))
    with pytest.raises(Refused, match="major: it needs medical care"):
        t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(1, 2)))
    assert treated(t.do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(1, 2)))).healed == 5


# --- H2-2: first aid ------------------------------------------------------------------------------


def test_first_aid_heals_the_digit_sum_h2_2() -> None:
    t = wounded((0, 5))
    done = treated(t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(1, 2))))
    assert (done.healed, done.rule, done.wounds_after) == (3, "H2-2", 48)
    assert "up to the digit sum 3" in done.explain() and "H2-2" in done.explain()
    assert t.wounds("bob") == 48


def test_first_aid_heals_at_most_the_amount_minus_1_h2_2_h2_4() -> None:
    t = wounded((0, 5))
    done = treated(t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(4, 5))))
    assert done.healed == 4 and "at most 4 (amount − 1, H2-4)" in done.explain()
    assert t.wounds("bob") == 49


def test_first_aid_is_once_per_injury_even_if_it_failed_h2_2() -> None:
    t = wounded((0, 5))
    failed = treated(t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(9, 5))))
    assert failed.healed == 0 and not failed.result.success
    with pytest.raises(Refused, match="once per injury"):
        t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(1, 2)))


def test_first_aid_without_the_skill_is_an_untrained_mind_roll_h2_2_c_7() -> None:
    t = wounded((0, 5))
    done = treated(t.do(FirstAid(healer="cy", patient="bob", injury=1, dice=(1, 2))))
    assert done.result.spec.untrained and done.result.outcome == "weak_success" and done.healed == 3


def test_first_aid_in_a_fight_is_the_healer_s_action_h2_2() -> None:
    t = wounded((0, 5), end=False)
    with pytest.raises(Refused, match="turn"):
        t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(1, 2)))
    events = t.do(FirstAid(healer="bob", patient="bob", injury=1, dice=(1, 2)))  # on his turn
    assert treated(events).healed == 3 and t.state.fight.current == "cy"


# --- H2-3: medical care ---------------------------------------------------------------------------


def test_medical_care_within_the_hour_heals_up_to_the_roll_h2_3() -> None:
    t = wounded((3, 0))
    done = treated(t.do(MedicalCare(healer="ann", patient="bob", injury=1, within_hour=True, dice=(1, 5))))
    assert (done.healed, done.rule) == (15, "H2-3") and "up to the roll 15, within the hour" in done.explain()


def test_medical_care_after_the_hour_heals_up_to_the_digit_sum_h2_3() -> None:
    t = wounded((3, 0))
    done = treated(t.do(MedicalCare(healer="ann", patient="bob", injury=1, within_hour=False, dice=(1, 5))))
    assert done.healed == 6 and "(after the hour)" in done.explain()


def test_medical_care_heals_at_most_the_amount_minus_1_h2_3_h2_4() -> None:
    t = wounded((0, 8))
    assert treated(t.do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(5, 5)))).healed == 7


def test_medical_care_needs_someone_medically_trained_h2_3() -> None:
    with pytest.raises(Refused, match="medically trained"):
        wounded((3, 0)).do(MedicalCare(healer="cy", patient="bob", injury=1, dice=(1, 5)))


def test_medical_care_waits_for_the_end_of_the_fight_h2_3() -> None:
    with pytest.raises(Refused, match="fight is over"):
        wounded((3, 0), end=False).do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(1, 5)))


def test_a_failed_medical_roll_heals_nothing_h2_3() -> None:
    assert treated(wounded((3, 0)).do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(9, 5)))).healed == 0


# --- H2-4: the last point heals with time ---------------------------------------------------------


def test_the_last_point_of_each_injury_heals_only_with_time_h2_4() -> None:
    t = wounded((0, 5), (0, 4))
    t.do(FirstAid(healer="ann", patient="bob", injury=1, dice=(4, 5)))
    t.do(FirstAid(healer="ann", patient="bob", injury=2, dice=(4, 5)))
    assert t.wounds("bob") == 50 - 2
    assert [i.open for i in who(t, "bob").injuries] == [1, 1]
    days = of(t.do(Convalesce(patient="bob", days=1, care="bed_rest")), Convalesced)
    assert days[0].healed == ((1, 1), (2, 1)) and t.wounds("bob") == 50


def test_healing_is_per_injury_h2_4_c2_32() -> None:
    t = wounded((0, 5), (3, 0))
    with pytest.raises(Refused, match="no injury #3"):
        t.do(FirstAid(healer="ann", patient="bob", injury=3, dice=(1, 2)))
    t.do(MedicalCare(healer="ann", patient="bob", injury=2, dice=(2, 0)))
    injuries = who(t, "bob").injuries
    assert [(i.amount, i.healed, i.first_aid_tried, i.medical_tried) for i in injuries] == [
        (5, 0, False, False),
        (30, 20, False, True),
    ]


# --- H2-5: convalescence --------------------------------------------------------------------------


def patient(current: int) -> Table:
    """Bob at `current` of 50 after one injury (a shot of 50 − current, never 1), the fight over."""
    return wounded((((50 - current) // 10) % 10, (50 - current) % 10))


@pytest.mark.parametrize(
    ("current", "care", "per_day"),
    [
        (29, "doctor", 2),  # below 60%: under a doctor's care, 2 a day
        (29, "bed_rest", 0),  # below 60%: only a doctor's care heals
        (30, "bed_rest", 2),  # at 60%: bed rest 2
        (30, "easy", 1),  # taking it easy 1
        (30, "pushing", 0),  # pushing oneself 0
        (30, "doctor", 2),
    ],
)
def test_convalescence_by_care_and_the_60_percent_line_h2_5(current: int, care: str, per_day: int) -> None:
    t = patient(current)
    assert t.wounds("bob") == current
    day = one(t.do(Convalesce(patient="bob", days=1, care=care)), Convalesced)  # type: ignore[arg-type]
    assert day.points == per_day and t.wounds("bob") == current + per_day
    assert "H2-5" in day.explain()


def test_convalescence_crosses_the_line_day_by_day_h2_5() -> None:
    t = patient(27)
    days = of(t.do(Convalesce(patient="bob", days=3, care="easy")), Convalesced)
    assert [d.points for d in days] == [0, 0, 0]
    doc = of(t.do(Convalesce(patient="bob", days=3, care="doctor")), Convalesced)
    assert [d.points for d in doc] == [2, 2, 2] and t.wounds("bob") == 33
    easy = of(t.do(Convalesce(patient="bob", days=2, care="easy")), Convalesced)
    assert [d.points for d in easy] == [1, 1]


def test_convalescence_never_heals_past_the_maximum_h2_5() -> None:
    t = patient(47)
    days = of(t.do(Convalesce(patient="bob", days=3, care="bed_rest")), Convalesced)
    assert [d.points for d in days] == [2, 1, 0] and t.wounds("bob") == 50


def test_convalescence_is_for_after_the_fight_h2_5() -> None:
    with pytest.raises(Refused, match="after the fight"):
        wounded((3, 0), end=False).do(Convalesce(patient="bob"))


def test_an_incapacitated_patient_healed_above_5_is_able_again_c2_31_h2_3() -> None:
    t = wounded((4, 5))
    assert t.status("bob") == "incapacitated"
    events = t.do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(0, 9)))
    assert one(events, ev.StatusChanged).status == "active" and t.wounds("bob") == 14


def test_the_dead_are_not_healed_h2_3() -> None:
    dead = wounded((5, 0))
    assert dead.status("bob") == "dead"
    with pytest.raises(Refused, match="dead"):
        dead.do(MedicalCare(healer="ann", patient="bob", injury=1, dice=(1, 2)))


def test_wound_points_never_exceed_the_maximum_h2_5() -> None:
    hurt = msgspec.structs.replace(fighter("Bob", init=20), wounds=WoundPoints(current=40, maximum=50))
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", hurt), begin=False)
    t.do(Convalesce(patient="bob", days=10, care="bed_rest"))
    assert t.wounds("bob") <= 50
