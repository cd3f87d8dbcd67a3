"""Initiative (I2-1…I2-6): roll, default or ambush; the order, ties, re-setting it, knock downs."""

from __future__ import annotations

import pytest

from engine.commands.combat import Attack, DoNothing
from engine.errors import Refused
from engine.events import combat as ev
from tests.fixtures import Table
from tests.rules.support import QUIET, arena, fighter, of, one, text, where


def _untrained(name: str, speed: int = 50) -> object:
    """A sheet with no Initiative skill (so an automated choice rolls)."""
    from tests.fixtures import sheet

    return sheet(name, speed=speed, skills=[("Fighting", "body", 50)])


def _table(*entries: tuple[str, str, object], ambushers: tuple[str, ...] = ()) -> Table:
    t = Table(settings=QUIET)
    for id_, side, s in entries:
        t.join(id_, side, s, ambusher=id_ in ambushers)  # type: ignore[arg-type]
    return t


# --- I2-1: roll, default, ambush ----------------------------------------------------------------


def test_rolling_initiative_is_a_check_against_speed_i2_1() -> None:
    t = _table(("ann", "a", _untrained("Ann", speed=40)), ("bob", "b", _untrained("Bob", speed=60)))
    events = t.begin(("ann", "roll"), ("bob", "roll"), dice=(3, 9, 6, 5))
    ann, bob = of(events, ev.InitiativeSet)
    assert (ann.value, ann.success, ann.speed) == (39, True, 40)
    assert (bob.value, bob.success) == (65, False)
    assert "against Speed 40" in ann.explain() and "I2-2" in ann.explain()


def test_default_initiative_is_the_initiative_skill_and_counts_as_a_success_i2_1() -> None:
    t = _table(("ann", "a", fighter("Ann", init=34)), ("bob", "b", fighter("Bob", init=20)))
    events = t.begin()
    ann = one([e for e in events if isinstance(e, ev.InitiativeSet) and e.id == "ann"], ev.InitiativeSet)
    assert (ann.method, ann.value, ann.success, ann.roll) == ("default", 34, True, None)
    assert t.state.fight.order == ("ann", "bob")


def test_default_initiative_without_the_skill_is_half_speed_i2_1_s2_4() -> None:
    t = _table(("ann", "a", _untrained("Ann", speed=61)), ("bob", "b", fighter("Bob", init=10)))
    events = t.begin(("ann", "default"))
    ann = of(events, ev.InitiativeSet)[0]
    assert (ann.value, ann.success) == (30, True)


def test_only_an_ambusher_may_take_ambush_initiative_i2_1_i2_3() -> None:
    t = _table(("ann", "a", fighter("Ann")), ("bob", "b", fighter("Bob")))
    before = t.state
    with pytest.raises(Refused, match="not ambushing"):
        t.begin(("ann", "ambush"))
    assert t.state == before


# --- I2-2: the order ---------------------------------------------------------------------------


def test_successes_act_before_failures_and_higher_first_within_each_i2_2() -> None:
    t = _table(
        ("lo_ok", "a", _untrained("LoOk", speed=50)),
        ("hi_fail", "a", _untrained("HiFail", speed=50)),
        ("hi_ok", "b", _untrained("HiOk", speed=50)),
        ("lo_fail", "b", _untrained("LoFail", speed=50)),
    )
    t.begin(dice=(1, 2, 9, 0, 4, 8, 6, 1))  # 12 ok, 90 fail, 48 ok, 61 fail
    assert t.state.fight.order == ("hi_ok", "lo_ok", "hi_fail", "lo_fail")


def test_crits_fumbles_and_matches_mean_nothing_for_initiative_i2_2() -> None:
    t = _table(
        ("crit", "a", _untrained("Crit", speed=50)),
        ("match", "a", _untrained("Match", speed=50)),
        ("fumble", "b", _untrained("Fumble", speed=50)),
        ("fail", "b", _untrained("Fail", speed=50)),
    )
    events = t.begin(dice=(0, 1, 4, 4, 0, 0, 9, 9))  # 01 ok, 44 ok, 100 fail, 99 fail
    fumble = one([e for e in events if isinstance(e, ev.InitiativeSet) and e.id == "fumble"], ev.InitiativeSet)
    assert (fumble.value, fumble.success) == (100, False)  # a fumble is a failure of value 100
    assert t.state.fight.order == ("match", "crit", "fumble", "fail")


# --- I2-3: ambush ------------------------------------------------------------------------------


def test_ambushers_act_once_before_round_1_then_use_speed_as_a_success_i2_3() -> None:
    t = _table(
        ("ann", "a", fighter("Ann", init=10, speed=62)),
        ("cy", "a", fighter("Cy", init=10, speed=45)),
        ("bob", "b", fighter("Bob", init=60)),
        ambushers=("ann", "cy"),
    )
    events = t.begin()
    assert one(events, ev.AmbushStarted).order == ("ann", "cy")
    assert t.state.fight.phase == "ambush" and t.state.fight.current == "ann"
    assert "I2-3" in text(events)
    with pytest.raises(Refused, match="ann's turn"):
        t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="ann"))
    assert t.state.fight.current == "cy"
    after = t.do(DoNothing(actor="cy"))
    started = one(after, ev.RoundStarted)
    assert started.round == 1
    # round 1: Speed 62 and 45 count as successes, Bob's default 60 sits between them
    assert started.order == ("ann", "bob", "cy")
    assert where(t, "ann").initiative.value == 62  # type: ignore[union-attr]


def test_a_victim_knocked_down_in_the_ambush_does_not_join_the_ambush_i2_3_i2_6() -> None:
    t = _table(
        ("ann", "a", fighter("Ann", speed=60, obsession="Fighting", fighting=60)),
        ("cy", "a", fighter("Cy", speed=40)),
        ("bob", "b", fighter("Bob", init=50)),
        ambushers=("ann", "cy"),
    )
    t.begin()
    t.do(Attack(actor="ann", target="bob", cherry="knock_down", dice=(3, 3)))
    assert t.state.fight.order == ("ann", "cy") and t.state.fight.current == "cy"
    started = one(t.do(DoNothing(actor="cy")), ev.RoundStarted)
    assert started.order == ("ann", "cy", "bob")  # Bob fell: last from round 1


# --- I2-4: ties --------------------------------------------------------------------------------


def test_a_tie_is_broken_by_a_die_and_the_loser_drops_one_below_the_winner_i2_4() -> None:
    t = _table(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=40)))
    events = t.begin(dice=(3, 8))
    tie = one(events, ev.TieBroken)
    assert (tie.ids, tie.faces, tie.winner) == (("ann", "bob"), (3, 8), "bob")
    assert "bob goes first" in tie.explain() and "I2-4" in tie.explain()
    order = one(events, ev.OrderSet)
    assert order.order == ("bob", "ann") and order.ranks == (40, 39)


def test_tied_dice_roll_again_and_only_the_lowest_drop_i2_4() -> None:
    t = _table(
        ("ann", "a", fighter("Ann", init=40)),
        ("bob", "b", fighter("Bob", init=40)),
        ("cy", "b", fighter("Cy", init=40)),
    )
    # ann 7, bob 7, cy 2: cy drops to 39; ann and bob roll again: bob's 0 (10) beats ann's 5,
    # ann drops to 39 and ties with cy: they roll off, cy 8 beats ann 3, ann drops to 38.
    events = t.begin(dice=(7, 7, 2, 5, 0, 3, 8))
    first, second, third = of(events, ev.TieBroken)
    assert first.winner == "" and "roll again, the rest one point below" in first.explain()
    assert (second.ids, second.winner) == (("ann", "bob"), "bob")
    assert (third.ids, third.value, third.winner) == (("ann", "cy"), 39, "cy")
    assert t.state.fight.order == ("bob", "cy", "ann")
    assert one(events, ev.OrderSet).ranks == (40, 39, 38)


def test_a_loser_dropping_onto_another_fighter_rolls_off_with_it_i2_4() -> None:
    t = _table(
        ("ann", "a", fighter("Ann", init=40)),
        ("bob", "b", fighter("Bob", init=40)),
        ("cy", "b", fighter("Cy", init=39)),
    )
    events = t.begin(dice=(9, 1, 4, 6))  # ann beats bob; bob (39) and cy (39) tie: cy wins 6 to 4
    assert len(of(events, ev.TieBroken)) == 2
    assert t.state.fight.order == ("ann", "cy", "bob")


# --- I2-5: the order stays; re-established after a round of nothing --------------------------


def test_the_order_stays_for_the_whole_fight_i2_5() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=20)))
    for round_ in (2, 3, 4):
        t.do(DoNothing(actor="ann"))
        started = one(t.do(DoNothing(actor="bob")), ev.RoundStarted)
        assert (started.round, started.order) == (round_, ("ann", "bob"))


def test_doing_nothing_for_a_round_re_establishes_initiative_next_round_i2_5() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=20, speed=70)))
    t.do(DoNothing(actor="ann"))
    said = t.do(DoNothing(actor="bob", reinitiative="roll", dice=(6, 5)))
    assert "re-sets initiative (roll) next round (I2-5)" in text(said)
    again = one(said, ev.InitiativeSet)
    assert (again.id, again.method, again.value, again.success) == ("bob", "roll", 65, True)
    assert one(said, ev.RoundStarted).order == ("bob", "ann")
    assert where(t, "bob").reinitiative is None


def test_re_establishing_initiative_by_default_uses_the_skill_i2_5() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=45)), begin=False)
    t.begin(("bob", "roll"), dice=(9, 9))  # 99: a failure, Bob acts last
    assert t.state.fight.order == ("ann", "bob")
    t.do(DoNothing(actor="ann"))
    said = t.do(DoNothing(actor="bob", reinitiative="default"))
    again = one(said, ev.InitiativeSet)
    assert (again.method, again.value, again.success) == ("default", 45, True)
    assert t.state.fight.order == ("bob", "ann")


def test_re_establishing_initiative_needs_a_round_of_nothing_else_i2_5() -> None:
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60, obsession="Fighting")),
        ("bob", "b", fighter("Bob", init=20)),
    )
    t.do(Attack(actor="ann", target="bob", cherry="second_helping", dice=(2, 2)))
    with pytest.raises(Refused, match="I2-5"):
        t.do(DoNothing(actor="ann", reinitiative="roll"))
    t.do(DoNothing(actor="ann"))  # waives the Second Helping
    assert t.state.fight.current == "bob"


def test_ambush_initiative_cannot_be_taken_again_mid_fight_i2_5_i2_3() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=20)))
    with pytest.raises(Refused, match="I2-3"):
        t.do(DoNothing(actor="ann", reinitiative="ambush"))


# --- I2-6: knocked down to the end of the order ------------------------------------------------


def _four() -> Table:
    return arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60, obsession="Fighting")),
        ("bob", "a", fighter("Bob", init=30, fighting=60, obsession="Fighting")),
        ("cy", "b", fighter("Cy", init=20)),
        ("dee", "b", fighter("Dee", init=10)),
    )


def test_knock_down_sends_the_target_to_the_end_of_the_order_and_it_still_acts_i2_6() -> None:
    t = _four()
    events = t.do(Attack(actor="ann", target="cy", cherry="knock_down", dice=(2, 2)))
    assert "I2-6" in one(events, ev.KnockedDown).explain()
    assert t.state.fight.order == ("ann", "bob", "dee", "cy")
    assert t.state.fight.current == "bob"
    t.do(DoNothing(actor="bob"))
    t.do(DoNothing(actor="dee"))
    assert t.state.fight.current == "cy"  # it had not acted: it acts last this round
    assert one(t.do(DoNothing(actor="cy")), ev.RoundStarted).order == ("ann", "bob", "dee", "cy")


def test_knocking_down_someone_who_already_acted_skips_no_one_and_gives_it_no_second_turn_i2_6() -> None:
    t = _four()
    t.do(DoNothing(actor="ann"))
    t.do(Attack(actor="bob", target="ann", cherry="knock_down", dice=(2, 2)))  # friendly fire
    assert t.state.fight.order == ("bob", "cy", "dee", "ann")
    assert t.state.fight.current == "cy"  # not skipped
    t.do(DoNothing(actor="cy"))
    started = one(t.do(DoNothing(actor="dee")), ev.RoundStarted)  # ann does not act again
    assert started.round == 2 and started.order == ("bob", "cy", "dee", "ann")
