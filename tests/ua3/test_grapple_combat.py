"""Grappling in a ua3 fight (U-17): the gridiron inside the round structure, with weapons."""

from __future__ import annotations

import pytest

from engine.commands import ua3_combat as f
from engine.commands.ua3 import EndConflict, GridironRoll
from engine.errors import Refused
from engine.events.ua3 import ConflictEnded, GridironRolled, StressChecked, WoundsTaken
from engine.events.ua3 import combat as ev
from tests.ua3.fights import KNIFE, Fight, join, of_type, person

GRABBER = person("Grabber", violence=5)  # Struggle 40
HELD = person("Held", violence=3)  # Struggle 30


def wounds_to(events, who):
    return sum(e.amount for e in of_type(events, WoundsTaken) if e.actor == who)


def grabbed(dice=(1, 0), *weapons, held_weapons=()):
    fight = Fight(join("a", "x", GRABBER, *weapons), join("b", "y", HELD, *held_weapons))
    fight.declare(("a", "grapple", ["b"]), ("b", "attack", ["a"]))
    return fight, fight.do(f.Grapple(actor="a", target="b", dice=dice))


def grapple_of(fight):
    return next(c for c in fight.state.conflicts if c.kind == "grapple")


def test_a_grab_starts_a_grapple_at_balance_the_grabber_side_a_and_is_its_first_roll():
    """U-17 (Decision: the grab is the attacker's first roll): 10 succeeds, one step to advantage A."""
    fight, events = grabbed()
    conflict = grapple_of(fight)
    assert conflict.sides[0].actor == "a" and conflict.start == "balance"
    assert of_type(events, GridironRolled)[0].after == "advantage_a"


def test_the_attacker_with_advantage_may_deal_1d10_instead_of_moving():
    """U-17: its roll for the exchange; a 6 → 6 wounds, the token stays."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", move="wounds", dice=(6,)))
    assert wounds_to(events, "b") == 6 and grapple_of(fight).token == "advantage_a"


def test_the_attacker_in_its_end_zone_restrains_the_defender_who_can_then_be_finished():
    """U-17, U-10."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", dice=(2, 0)))
    assert of_type(events, ConflictEnded)[0].winner == "a"
    assert fight.who("b").restrained_by == "a"


def test_the_defender_in_its_end_zone_breaks_free_with_a_punch():
    """U-17: from balance, a crit moves two steps: 01 → 1 + 10 = 11 wounds to the attacker."""
    fight, _ = grabbed(dice=(9, 0))
    events = fight.do(f.Grapple(actor="b", dice=(0, 1)))
    assert of_type(events, ConflictEnded)[0].winner == "b"
    assert wounds_to(events, "a") == 11


def test_the_defender_with_advantage_may_swap_roles_both_back_to_balance():
    """U-17."""
    fight, _ = grabbed(dice=(9, 0))
    fight.do(f.Grapple(actor="b", dice=(1, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0)))
    events = fight.do(f.Grapple(actor="b", move="swap"))
    assert of_type(events, ev.GrappleSwapped)
    conflict = grapple_of(fight)
    assert conflict.sides[0].actor == "b" and conflict.token == "balance"


def test_only_the_attacker_with_advantage_deals_wounds():
    """U-17."""
    fight, _ = grabbed(dice=(9, 0))
    with pytest.raises(Refused, match="advantage"):
        fight.do(f.Grapple(actor="b", move="wounds"))


def test_a_grappler_holding_an_edged_weapon_cuts_1d10_each_exchange():
    """U-17: the knife in hand: 1d10 (a 4) after its roll."""
    _fight, events = grabbed((1, 0, 4), KNIFE)
    assert wounds_to(events, "b") == 4


def test_a_grappler_does_nothing_but_grapple():
    """U-17: in a grapple, its action each round is its grapple — an attack is refused."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    with pytest.raises(Refused, match="U-17"):
        fight.declare(("a", "attack", ["b"]), ("b", "grapple"))


@pytest.mark.parametrize("who", ["a", "b"])
def test_neither_grappler_may_declare_nothing_and_skip_its_roll(who):
    """U-17: "neither may declare 'nothing' and so skip its roll" — the attacker or the defender;
    nothing is declared (the refusal records nothing)."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    before = fight.state.version
    with pytest.raises(Refused, match=r"U-17.*not nothing") as refused:
        fight.declare(*((x, "nothing" if x == who else "grapple") for x in ("a", "b")))
    assert "declare grapple" in (refused.value.hint or "")
    assert fight.state.version == before and fight.state.fight.phase == "declare"


def test_a_grappler_the_round_closes_on_undeclared_declares_its_grapple():
    """U-17, U-22: the GM closes the round with only a's grapple declared: b's action is its
    grapple all the same, rated by its Struggle 30, and b is in the order after a's 40."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    events = fight.declare(("a", "grapple"))
    declared = {e.actor: (e.action, e.rating) for e in of_type(events, ev.ActionDeclared)}
    assert declared == {"a": ("grapple", 40), "b": ("grapple", 30)}
    assert of_type(events, ev.ActionDeclared)[1].explain() == (
        "b declares grapple: its exchange this round (Struggle 30) (U-17, U-22)."
    )
    assert fight.state.fight.order == ("a", "b")


def test_a_grappler_declaring_its_grapple_again_is_taken_as_made():
    """U-17, U-22: a grappler's one action is its grapple; declared again (the GM at the table, after
    its tactics declared it), it stands as made and nothing new is recorded."""
    fight, _ = grabbed()
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="grapple"),)))
    again = fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="grapple", targets=("a",)),)))
    assert not of_type(again, ev.ActionDeclared) and fight.who("b").declared is not None
    with pytest.raises(Refused, match="already declared"):
        fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="dodge"),)))


def test_a_grappler_may_not_do_nothing_on_its_turn():
    """U-17: its turn is its exchange roll, not "nothing instead" (U-22's escape)."""
    fight, _ = grabbed()
    with pytest.raises(Refused, match="U-17") as refused:
        fight.do(f.DoNothing(actor="b"))
    assert "its turn is its ua3_grapple" in (refused.value.hint or "")
    events = fight.do(f.Grapple(actor="b", dice=(9, 0)))
    assert of_type(events, GridironRolled)[0].actor == "b"


def test_a_grapple_declared_at_someone_else_is_refused():
    """U-17: a grappler grapples its own opponent."""
    fight = Fight(join("a", "x", GRABBER), join("b", "y", HELD), join("c", "y", HELD))
    fight.declare(("a", "grapple", ["b"]), ("b", "attack", ["a"]), ("c", "nothing"))
    fight.do(f.Grapple(actor="a", target="b", dice=(9, 0)))
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    with pytest.raises(Refused, match="grappling a, not c"):
        fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="grapple", targets=("c",)),)))


def test_a_blade_in_a_grapplers_hand_cuts_each_round_until_it_is_disarmed():
    """U-17: b holds a knife: its 90 fails and the knife cuts 1d10 (4); a's 10 takes the token to
    advantage A, then a disarms b; on b's next turn (90 again) there is no cut."""
    fight, _ = grabbed((9, 0), held_weapons=(KNIFE,))
    events = fight.do(f.Grapple(actor="b", dice=(9, 0, 4)))
    assert wounds_to(events, "a") == 4
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(1, 0)))
    fight.do(f.Grapple(actor="b", dice=(9, 0, 4)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", move="disarm"))
    assert fight.who("b").in_hand == "fists"
    events = fight.do(f.Grapple(actor="b", dice=(9, 0)))
    assert wounds_to(events, "a") == 0


def test_a_grapple_is_rolled_on_the_grapplers_turns_not_as_a_general_conflict():
    """U-17, U-22 (Decision: grapplers roll on their turns): the gridiron's own roll refuses a
    grapple, and points to ua3_grapple."""
    fight, _ = grabbed(dice=(9, 0))
    conflict = grapple_of(fight).id
    with pytest.raises(Refused, match="grapple") as refused:
        fight.do(GridironRoll(conflict=conflict, dice=(0, 1)))
    assert "ua3_grapple" in (refused.value.hint or "")
    assert grapple_of(fight).result is None


def test_the_gm_ends_a_grapple_and_both_grapplers_go_free_with_no_end_zone_effect():
    """U-16, U-17: the GM's end of a grapple (the police pull them apart) records the GM's
    winner; nobody is restrained or punched, and neither is grappling any more."""
    fight, _ = grabbed(dice=(9, 0))
    conflict = grapple_of(fight).id
    events = fight.do(EndConflict(conflict=conflict, winner="b", reason="pulled apart"))
    assert [type(e).__name__ for e in events] == ["ConflictEnded"]
    (ended,) = events
    assert (ended.winner, ended.how, ended.reason) == ("b", "gm", "pulled apart")
    state = fight.state
    assert all(c.result is not None for c in state.conflicts if c.id == conflict)
    assert not fight.who("b").restrained_by and wounds_to(events, "a") == 0


def test_wounds_dealt_in_a_grapple_that_kill_raise_the_killers_kill_check():
    """U-17, U-25: the attacker's 1d10 with advantage (a 6) kills b at 44 of 50: violence 3 for a."""
    fight = Fight(join("a", "x", GRABBER), join("b", "y", person("Held", violence=3, wounds=44)))
    fight.declare(("a", "grapple", ["b"]), ("b", "attack", ["a"]))
    fight.do(f.Grapple(actor="a", target="b", dice=(1, 0)))
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", move="wounds", dice=(6,)))
    assert fight.who("b").status == "dead"
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("a", 3)]


def test_breaking_free_with_a_punch_that_kills_raises_the_defenders_kill_check():
    """U-17, U-25: b's crit (01) frees it with 1 + 10 = 11 wounds, killing a at 44: violence 3 for b."""
    fight = Fight(join("a", "x", person("Grabber", violence=5, wounds=44)), join("b", "y", HELD))
    fight.declare(("a", "grapple", ["b"]), ("b", "attack", ["a"]))
    fight.do(f.Grapple(actor="a", target="b", dice=(9, 0)))
    events = fight.do(f.Grapple(actor="b", dice=(0, 1)))
    assert fight.who("a").status == "dead"
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("b", 3)]


def test_a_grapplers_blade_is_an_attack_with_a_weapon_once_a_fight():
    """U-17, U-25: the knife's first cut raises "attacked with a weapon" (violence 1), the next none."""
    fight, events = grabbed((1, 0, 4), KNIFE)
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("b", 1)]
    assert fight.who("b").triggered == ("weapon",)
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", dice=(9, 0, 3)))
    assert wounds_to(events, "b") == 3 and not of_type(events, StressChecked)


def test_a_defender_the_attackers_fumble_frees_still_breaks_free_with_a_punch():
    """U-17, U-16: at advantage B, the attacker's fumble (00) moves the token one step back, into
    B's end zone: b breaks free and punches, two dice (3 and 5) = 8 wounds to a."""
    fight, _ = grabbed(dice=(9, 0))
    fight.do(f.Grapple(actor="b", dice=(1, 0)))  # advantage B
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", dice=(0, 0, 3, 5)))
    assert of_type(events, ConflictEnded)[0].winner == "b"
    assert wounds_to(events, "a") == 8


@pytest.mark.parametrize(("choice", "wounds", "penalty"), [(None, 0, -10), ("wounds", 7, 0)])
def test_a_matched_failure_in_a_grapple_costs_1d10_wounds_or_ten_on_the_next_roll(choice, wounds, penalty):
    """U-16, U-17: the roller's choice (automated: the −10); 66 against Struggle 30, then a 7."""
    fight, _ = grabbed()
    events = fight.do(f.Grapple(actor="b", matched_failure=choice, dice=(6, 6, 7)))
    assert wounds_to(events, "b") == wounds
    assert sum(s.amount for s in fight.who("b").next_roll) == penalty
