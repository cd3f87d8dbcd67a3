"""The gridiron (U-16) as a general conflict: sides, stakes, ratings, the start space,
compressed or open-ended, each roll an event, the token in the state; order as U-22."""

from __future__ import annotations

import pytest

from engine.commands.ua3 import EndConflict, GridironRoll, SideSpec, StartConflict
from engine.errors import Refused
from engine.events.ua3 import ConflictEnded, ConflictStarted, GridironRolled, PenaltyTaken, StatusChanged, WoundsTaken
from engine.state.ua3.sheet import Identity
from tests.ua3.support import Scene, of_type, sheet

MARGE = sheet("Marge", hardened={"isolation": 3})  # Pursuit 30 (U-18)
THUG = sheet("Thug", hardened={"isolation": 1})  # Pursuit 20


def chase(**kw: object) -> Scene:
    s = Scene(("Marge", "a", MARGE), ("Thug", "b", THUG))
    s.do(
        StartConflict(
            id="chase",
            about="down the alley",
            sides=(
                SideSpec(actor="Marge", roll="Pursuit", stake="gets away"),
                SideSpec(actor="Thug", roll="Pursuit", stake="catches her"),
            ),
            **kw,  # type: ignore[arg-type]
        )
    )
    return s


def roll(s: Scene, *dice: int, **kw: object) -> list[object]:
    return s.do(GridironRoll(conflict="chase", dice=dice, **kw))  # type: ignore[arg-type]


def token(s: Scene) -> str:
    c = s.state.conflict("chase")
    assert c is not None
    return c.token


def test_u16_a_conflict_starts_at_balance_and_u22_the_higher_rating_rolls_first() -> None:
    s = chase()
    (started,) = [e for _, e in s.live.records if isinstance(e, ConflictStarted)]
    assert started.first == "a" and started.start == "balance" and not started.compressed
    assert "the higher rating, 30 against 20; U-22" in started.explain()
    assert token(s) == "balance"
    with pytest.raises(Refused, match="it is side A's roll"):
        s.do(GridironRoll(conflict="chase", side="b"))


def test_u16_success_one_step_crit_two_failure_none_fumble_one_back() -> None:
    s = chase(start="advantage_b")
    moves = []
    for dice in ((2, 0), (5, 0), (9, 0), (0, 0), (0, 1)):
        (rolled,) = of_type(roll(s, *dice), GridironRolled)
        moves.append((rolled.side, rolled.result.outcome, rolled.steps, rolled.before, rolled.after))
    assert moves == [
        ("a", "success", 1, "advantage_b", "balance"),
        ("b", "failure", 0, "balance", "balance"),
        ("a", "failure", 0, "balance", "balance"),
        ("b", "fumble", -1, "balance", "advantage_a"),
        ("a", "crit", 2, "advantage_a", "end_zone_a"),
    ]
    ended = next(e for _, e in s.live.records if isinstance(e, ConflictEnded))
    assert ended.winner == "a" and ended.stake == "gets away" and ended.how == "end_zone"
    with pytest.raises(Refused, match="conflict chase is over"):
        roll(s, 1, 0)


def test_u16_a_matched_failure_costs_minus_10_on_the_next_roll_or_1d10_wounds() -> None:
    s = chase()
    events = roll(s, 4, 4)  # Marge 44: a matched failure against Pursuit 30
    (penalty,) = of_type(events, PenaltyTaken)
    assert penalty.actor == "Marge" and penalty.shift.amount == -10 and s.who("Marge").next_roll == (penalty.shift,)
    roll(s, 9, 0)  # the thug
    (rolled,) = of_type(roll(s, 2, 5), GridironRolled)  # 25 against 30 − 10 = 20: a failure
    assert rolled.result.target == 20 and rolled.result.outcome == "failure" and s.who("Marge").next_roll == ()
    s2 = chase()
    roll(s2, 9, 0)
    events = roll(s2, 3, 3, 7, matched_failure="wounds")  # the thug: 33 > 20, matched failure, 1d10 = 7
    (wounds,) = of_type(events, WoundsTaken)
    assert (wounds.actor, wounds.amount, wounds.before) == ("Thug", 7, 0) and s2.who("Thug").wounds == 7


def test_u16_a_compressed_conflict_ends_after_3_exchanges_each_won_by_the_half_the_token_is_in() -> None:
    s = chase(compressed=True)
    for dice in ((2, 0), (9, 0), (9, 0), (9, 0), (9, 0)):
        roll(s, *dice)
    assert token(s) == "advantage_a" and s.state.conflict("chase").result is None  # type: ignore[union-attr]
    events = roll(s, 9, 0)  # the thug's third roll ends it
    (ended,) = of_type(events, ConflictEnded)
    assert (ended.winner, ended.how, ended.stake) == ("a", "compressed", "gets away")
    assert "3 exchanges each" in ended.reason


def test_u16_a_compressed_conflict_at_balance_is_won_by_neither() -> None:
    s = chase(compressed=True, exchanges=1)
    roll(s, 9, 0)
    (ended,) = of_type(roll(s, 9, 0), ConflictEnded)
    assert ended.winner is None and "neither side winning" in ended.explain()


def test_u16_a_side_may_be_a_name_and_a_fixed_rating_and_its_penalty_is_its_own() -> None:
    s = Scene(("Marge", "a", MARGE))
    s.do(
        StartConflict(
            sides=(
                SideSpec(actor="Marge", roll="Connect", stake="calm them"),
                SideSpec(name="the mob", rating=70, stake="riot"),
            )
        )
    )
    conflict = s.state.conflicts[0]
    assert conflict.id == "1" and conflict.first == "b"  # 70 against Connect 60
    (penalty,) = of_type(s.do(GridironRoll(dice=(8, 8))), PenaltyTaken)
    assert penalty.side == "b" and s.state.conflicts[0].sides[1].next_roll == (penalty.shift,)
    s.do(GridironRoll(dice=(1, 2)))  # Marge's roll, then the mob's
    with pytest.raises(Refused, match="no character and takes no wounds"):
        s.do(GridironRoll(matched_failure="wounds"))


def test_u22_tied_ratings_are_broken_by_a_die_each_as_i2_4() -> None:
    s = Scene(("A", "a", sheet("A")), ("B", "b", sheet("B")))
    spec = (SideSpec(actor="A", roll="Struggle", stake="x"), SideSpec(actor="B", roll="Struggle", stake="y"))
    events = s.do(StartConflict(sides=spec, dice=(4, 4, 3, 8)))
    (started,) = of_type(events, ConflictStarted)
    assert started.faces == (4, 4, 3, 8) and started.first == "b" and "I2-4" in started.explain()


def test_u16_an_end_zone_start_and_a_side_without_a_stake_are_refused() -> None:
    s = Scene(("A", "a", sheet("A")), ("B", "b", sheet("B")))
    sides = (SideSpec(actor="A", roll="Struggle", stake="x"), SideSpec(actor="B", roll="Struggle", stake="y"))
    with pytest.raises(Refused, match="cannot start in an end zone"):
        s.do(StartConflict(sides=sides, start="end_zone_a"))
    with pytest.raises(Refused, match="side B needs a stake"):
        s.do(StartConflict(sides=(sides[0], SideSpec(actor="B", roll="Struggle", stake=" "))))
    with pytest.raises(Refused, match="no ability, identity or relationship 'Flying'"):
        s.do(StartConflict(sides=(sides[0], SideSpec(actor="B", roll="Flying", stake="y"))))


def test_u16_the_rating_is_read_at_each_roll_from_the_gauges_now() -> None:
    fighter = sheet("Tommy", identities=[Identity(name="Brawler", rating=55, substitutes=("Struggle",))])
    s = Scene(("Tommy", "a", fighter), ("B", "b", sheet("B", hardened={"violence": 9})))
    s.do(
        StartConflict(
            sides=(SideSpec(actor="Tommy", roll="Struggle", stake="x"), SideSpec(actor="B", roll="Struggle", stake="y"))
        )
    )
    assert s.state.conflicts[0].first == "b"  # Struggle 60 against Brawler 55
    (rolled,) = of_type(s.do(GridironRoll(dice=(9, 0))), GridironRolled)
    assert rolled.result.spec.label == "Struggle" and rolled.result.target == 60
    (rolled,) = of_type(s.do(GridironRoll(dice=(9, 0))), GridironRolled)
    assert rolled.result.spec.label == "Brawler"  # U-19: the best that stands in for Struggle


def test_u2_wounds_from_the_gridiron_can_knock_a_character_out() -> None:
    s = Scene(("A", "a", sheet("A", wounds=40)), ("B", "b", sheet("B")))
    s.do(
        StartConflict(
            sides=(SideSpec(actor="A", roll="Lie", stake="x"), SideSpec(actor="B", roll="Struggle", stake="y")),
            first="a",
        )
    )
    events = s.do(GridironRoll(matched_failure="wounds", dice=(3, 3, 6)))  # 33 > Lie 20: matched failure, 6 wounds
    assert [type(e) for e in events] == [GridironRolled, WoundsTaken, StatusChanged]
    assert s.who("A").wounds == 46 and s.who("A").status == "unconscious"  # 46 ≥ 45 = 90% of 50
    s.do(GridironRoll(dice=(9, 0)))  # B's roll, then A's
    with pytest.raises(Refused, match="A is unconscious"):
        s.do(GridironRoll())


def test_u16_the_gm_ends_a_conflict_naming_the_winner_or_none() -> None:
    s = chase()
    (ended,) = s.do(EndConflict(conflict="chase", winner="b", reason="the police arrive"))
    assert isinstance(ended, ConflictEnded) and (ended.winner, ended.how, ended.stake) == ("b", "gm", "catches her")
    assert s.state.conflict("chase").result.reason == "the police arrive"  # type: ignore[union-attr]
