"""ua3 combat against RULES.md section U, case by case, with table dice: what a review found the
engine doing otherwise (U-25 shot at, U-13 armor, U-7 full auto's bonuses, U-10 witnesses, U-23
fleeing while held, U-9 aiming)."""

from __future__ import annotations

from engine.commands import ua3_combat as f
from engine.commands.ua3 import StressCheck
from engine.events.ua3 import GridironRolled, StressChecked, WoundsTaken
from engine.events.ua3 import combat as ev
from engine.state.ua3.combat import Armor
from tests.ua3.fights import COP, KNIFE, PISTOL, SMG, Fight, join, of_type, person

HARD = person("Hard", violence=5)  # violence 5: hardened past every check here but U-10's doing it
SOFT = person("Soft")  # violence 1: a shot-at check (rank 2) is rolled, with Fitness 60
SHOOTER = person("Shooter", violence=5, identities=[COP])
BRUISER = person("Bruiser", violence=5)


def checked(events, who):
    return [(c.rank, c.cause) for c in of_type(events, StressChecked) if c.actor == who]


def wounds_to(events, who):
    return sum(e.amount for e in of_type(events, WoundsTaken) if e.actor == who)


# -- U-25: shot at — not by a gun that jammed or turned on its own side ------------------------


def test_a_gun_that_jams_on_its_fumble_shoots_at_no_one():
    """U-25, U-5: a fumble (00) jams the pistol: Soft was not shot at, takes no check, and the
    first real shot at it still raises one."""
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", SOFT))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(0, 0, 9, 9)))
    assert fight.who("a").jammed and checked(events, "b") == [] and fight.who("b").triggered == ()
    fight.declare(("a", "clear_jam"), ("b", "nothing"))
    fight.do(f.ClearJam(actor="a"))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(9, 0, 1, 0)))  # 90 misses; 10 passes
    assert checked(events, "b") == [(2, "shot at (U-25)")]


def _full_auto(dice):
    fight = Fight(join("a", "x", SHOOTER, SMG), join("m", "x", HARD), join("b", "y", SOFT), join("c", "y", SOFT))
    fight.declare(("a", "full_auto", ["b", "c"]), ("m", "nothing"), ("b", "nothing"), ("c", "nothing"))
    return fight, fight.do(f.FullAuto(actor="a", targets=("b", "c"), dice=dice))


def test_a_full_auto_fumble_turned_on_the_shooters_side_shoots_at_neither_target():
    """U-25, U-7: 00; a rolls 3, m 5: a takes 3d10 (1 + 2 + 3); b and c were not shot at."""
    fight, events = _full_auto((0, 0, 3, 5, 1, 2, 3, 9, 9, 9, 9))
    assert wounds_to(events, "a") == 6
    assert checked(events, "b") == checked(events, "c") == []
    assert fight.who("b").triggered == fight.who("c").triggered == ()


def test_a_full_auto_jam_on_a_matched_failure_shoots_at_neither_target():
    """U-25, U-7: 77 > 65 jams the gun: no shot at b or c."""
    fight, events = _full_auto((7, 7, 9, 9, 9, 9))
    assert fight.who("a").jammed and checked(events, "b") == checked(events, "c") == []


def test_a_full_auto_miss_still_shoots_at_both_targets():
    """U-25, U-7: 90 > 65 misses, but both were shot at (10 and 10 pass Fitness 60)."""
    _fight, events = _full_auto((9, 0, 1, 0, 1, 0))
    assert checked(events, "b") == checked(events, "c") == [(2, "shot at (U-25)")]


def test_a_suppression_fumble_turned_on_the_shooters_side_shoots_at_no_one_in_the_group():
    """U-25, U-8: 00; a rolls 3, m 5: a takes 2d10 (1 + 2); b was not shot at."""
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("m", "x", HARD), join("b", "y", SOFT))
    fight.declare(("a", "suppress", ["b"]), ("m", "nothing"), ("b", "nothing"))
    events = fight.do(f.Suppress(actor="a", targets=("b",), dice=(0, 0, 3, 5, 1, 2, 9, 9)))
    assert wounds_to(events, "a") == 3 and checked(events, "b") == [] and fight.who("b").triggered == ()
    assert not of_type(events, ev.SuppressionLaid)


# -- U-13: bulletproof armor turns all gun wounds, suppressive fire's and friendly fire's too --


def _suppress_at_vest(dice):
    vest = Armor(bulletproof=True)
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", HARD, armor=vest))
    fight.declare(("a", "suppress", ["b"]), ("b", "nothing"))
    return fight.do(f.Suppress(actor="a", targets=("b",), dice=dice))


def test_bulletproof_armor_turns_a_suppression_crit_into_melee_wounds():
    """U-13, U-8: the crit's center-mass 3d10 (5 + 6 + 7 = 18) is gun damage: the vest makes it
    the roll's digit sum, 10 + 1 = 11."""
    events = _suppress_at_vest((0, 1, 5, 6, 7))
    assert wounds_to(events, "b") == 11 and "bulletproof" in of_type(events, ev.AttackRolled)[0].breakdown


def test_bulletproof_armor_turns_a_suppression_matched_success_into_melee_wounds():
    """U-13, U-8: 22 is a matched success: b (picked by a die, 3) takes 1d10 = 7, turned by the
    vest into the digit sum 2 + 2 = 4."""
    assert wounds_to(_suppress_at_vest((2, 2, 3, 7)), "b") == 4


def test_bulletproof_armor_turns_the_wounds_of_a_full_auto_fumble_on_the_shooters_side():
    """U-13, U-7: 00 turns the burst on a's own side; a (alone, its die 3) takes 3d10 = 27, gun
    wounds its vest makes the fumble's digit sum, 10 + 10 = 20."""
    vest = Armor(bulletproof=True)
    fight = Fight(join("a", "x", SHOOTER, SMG, armor=vest), join("b", "y", HARD))
    fight.declare(("a", "full_auto", ["b"]), ("b", "nothing"))
    events = fight.do(f.FullAuto(actor="a", targets=("b",), dice=(0, 0, 3, 9, 9, 9)))
    assert wounds_to(events, "a") == 20


def _head_shot(armor):
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", HARD, armor=armor))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    return fight, fight.do(f.Attack(actor="a", targets=("b",), called="head", dice=(1, 2)))


def test_a_vest_does_not_turn_a_head_shot():
    """U-13, U-9 (Decision: bulletproof armor is a vest): 12 against Cop 55 − 30 hits the head:
    12 gun wounds, not the digit sum 3, and b is knocked out."""
    fight, events = _head_shot(Armor(bulletproof=True))
    assert wounds_to(events, "b") == 12 and fight.who("b").status == "unconscious"


def test_a_helmet_under_a_vest_turns_the_head_shot_and_is_spent():
    """U-13, U-9: the helmet, not the vest, takes the head shot: the digit sum 1 + 2 = 3, the
    helmet spent, b still conscious (the existing U-13 Decision)."""
    fight, events = _head_shot(Armor(bulletproof=True, helmet=True))
    b = fight.who("b")
    assert wounds_to(events, "b") == 3 and b.helmet_spent and b.status == "active"


# -- U-7: full auto takes the aim at, and the opening given by, its second target --------------


def _full_auto_at_b_and_c(first_round, dice):
    fight = Fight(join("a", "x", SHOOTER, SMG), join("b", "y", HARD), join("c", "y", HARD))
    first_round(fight)
    fight.declare(("a", "full_auto", ["b", "c"]), ("b", "nothing"), ("c", "nothing"))
    return fight, fight.do(f.FullAuto(actor="a", targets=("b", "c"), dice=dice))


def test_an_aim_at_the_second_full_auto_target_counts():
    """U-7, U-9: a aimed a round at c; full auto at b and c spends the aim, so it counts: Cop 55
    + 10 (three-round burst) + 10 (aimed) = 75, and 70 hits."""

    def aim_at_c(fight):
        fight.declare(("a", "aim", ["c"]), ("b", "nothing"), ("c", "nothing"))
        fight.do(f.Aim(actor="a", target="c"))

    fight, events = _full_auto_at_b_and_c(aim_at_c, (7, 0))
    roll = of_type(events, ev.AttackRolled)[0]
    assert roll.result.target == 75 and roll.result.outcome == "success" and fight.who("a").aim is None


def test_an_opening_the_second_full_auto_target_gave_counts():
    """U-7, U-3: c's fists matched-failed on a (55 > Struggle 40), giving a an opening; full auto
    at b and c spends it, so it counts: 55 + 10 + 10 = 75."""

    def c_gives_an_opening(fight):
        fight.declare(("a", "nothing"), ("b", "nothing"), ("c", "attack", ["a"]))
        fight.do(f.Attack(actor="c", targets=("a",), fists_miss="opening", dice=(5, 5)))

    fight, events = _full_auto_at_b_and_c(c_gives_an_opening, (7, 0))
    assert of_type(events, ev.AttackRolled)[0].result.target == 75 and fight.who("c").openings == ()


# -- U-10: a surrendered combatant, conscious, sees a finishing --------------------------------


def test_a_surrendered_combatant_is_a_witness_of_a_finishing():
    """U-10: seeing it is Violence 3 for every conscious combatant on either side — s has
    surrendered but is conscious, and takes it along with w (k's own is Violence 7)."""
    fight = Fight(
        join("k", "x", person("Killer"), KNIFE),
        join("w", "x", SOFT),
        join("v", "y", SOFT),
        join("s", "y", SOFT),
    )
    fight.do(StressCheck(actor="v", gauge="violence", rank=5, source="k", dice=(9, 9)))  # 99: v freezes
    fight.declare(("k", "nothing"), ("w", "nothing"), ("s", "surrender"))
    fight.do(f.Surrender(actor="s"))
    assert fight.who("s").status == "surrendered"
    fight.declare(("k", "finish", ["v"]), ("w", "nothing"))
    events = fight.do(f.Finish(actor="k", target="v", dice=(9, 0, 1, 0, 1, 0)))
    assert {(c.actor, c.rank) for c in of_type(events, StressChecked)} == {("k", 7), ("w", 3), ("s", 3)}


# -- U-23, U-17: one held in a grapple flees once it is free, not at once ----------------------


def test_a_held_grappler_that_fails_with_flee_struggles_free_then_flees():
    """U-23, U-17 (Decision): a grabs b (90 misses: balance) and cuts it with the knife (1d10 = 5);
    b, attacked with a weapon (U-25, violence 1 over its 0 hardened), fails with 99 and would flee
    — but it is held: it stays in the grapple. Next round both roll (U-17): a's 90 fails and its
    knife cuts again (1d10 = 3); b's crit (01) is two steps to its end zone, it breaks free with
    a punch (10 + 1) and flees then."""
    fight = Fight(join("a", "x", BRUISER, KNIFE), join("b", "y", person("Runner", violence=0), reaction="flee"))
    fight.declare(("a", "grapple", ["b"]), ("b", "nothing"))
    events = fight.do(f.Grapple(actor="a", target="b", dice=(9, 0, 5, 9, 9)))
    b = fight.who("b")
    assert checked(events, "b") == [(1, "attacked with a weapon (U-25)")]
    assert b.status == "active" and b.reaction is not None and b.reaction.kind == "flee"
    assert fight.state.conflicts[0].result is None
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0, 3)))
    events = fight.do(f.Grapple(actor="b", dice=(0, 1)))
    assert wounds_to(events, "a") == 11 and fight.who("b").status == "fled"


# -- U-9: an aim is the rounds spent aiming in a row, taken by the next action ----------------


def test_an_aim_is_lost_to_another_action_and_two_rounds_apart_count_as_one():
    """U-9 (Decision): a aims at b, dodges a round (the aim is lost), aims again: one round,
    +10 — Cop 55 + 10 = 65, not the +20 of two rounds spent aiming."""
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", HARD))
    fight.declare(("a", "aim", ["b"]), ("b", "nothing"))
    fight.do(f.Aim(actor="a", target="b"))
    fight.declare(("a", "dodge"), ("b", "nothing"))
    assert fight.who("a").aim is None
    fight.do(f.Dodge(actor="a"))
    fight.declare(("a", "aim", ["b"]), ("b", "nothing"))
    events = fight.do(f.Aim(actor="a", target="b"))
    assert of_type(events, ev.Aimed)[0].rounds == 1
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(7, 0)))
    assert of_type(events, ev.AttackRolled)[0].result.target == 65


def test_an_aim_is_lost_to_an_attack_on_someone_else():
    """U-9 (Decision): aiming at b, then shooting at c, drops the aim at b."""
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "aim", ["b"]), ("b", "nothing"), ("c", "nothing"))
    fight.do(f.Aim(actor="a", target="b"))
    fight.declare(("a", "attack", ["c"]), ("b", "nothing"), ("c", "nothing"))
    assert fight.who("a").aim is None


# -- U-17: an exchange spent dealing wounds is the grappler's exchange ------------------------


def test_a_grapplers_exchange_spent_dealing_wounds_counts_as_its_exchange():
    """U-17 (Decision: dealing the 1d10 is the attacker's roll for the exchange): a grabs (10,
    exchange 1), deals 1d10 with advantage (exchange 2), and its next roll is exchange 3."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", person("Held", violence=3)))
    fight.declare(("a", "grapple", ["b"]), ("b", "nothing"))
    fight.do(f.Grapple(actor="a", target="b", dice=(1, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", move="wounds", dice=(6,)))
    assert [e.exchange for e in of_type(events, ev.GrappleTurn)] == [2]
    fight.do(f.Grapple(actor="b", dice=(9, 0)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    events = fight.do(f.Grapple(actor="a", dice=(9, 0)))
    assert [(e.actor, e.exchange) for e in of_type(events, GridironRolled)] == [("a", 3)]


def test_a_restrained_one_that_fails_with_flee_flees_when_it_is_released():
    """U-23, U-17 (Decision): b, restrained by a (10, then 20: a's end zone), is shot at by c (90
    misses; U-25 violence 2, failed with 99) and would flee — it cannot while restrained; when a
    surrenders the restraint is released and b flees at once."""
    runner = person("Runner")
    fight = Fight(join("a", "x", BRUISER), join("c", "x", SHOOTER, PISTOL), join("b", "y", runner, reaction="flee"))
    fight.declare(("a", "grapple", ["b"]), ("c", "nothing"), ("b", "nothing"))
    fight.do(f.Grapple(actor="a", target="b", dice=(1, 0)))
    fight.declare(("a", "grapple"), ("c", "nothing"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(2, 0)))
    assert fight.who("b").restrained_by == "a"
    fight.declare(("a", "surrender"), ("c", "attack", ["b"]))
    events = fight.do(f.Attack(actor="c", targets=("b",), dice=(9, 0, 9, 9)))
    b = fight.who("b")
    assert checked(events, "b") == [(2, "shot at (U-25)")]
    assert b.status == "active" and b.reaction is not None and b.reaction.kind == "flee"
    fight.do(f.Surrender(actor="a"))
    assert fight.who("b").status == "fled" and fight.who("b").restrained_by == ""
