"""ua3 combat through a live session with table dice (RULES.md section U: U-2…U-13, U-22, U-25)."""

from __future__ import annotations

import pytest

from engine.commands import ua3_combat as f
from engine.commands.ua3 import Coerce, StressCheck
from engine.errors import Refused
from engine.events.ua3 import (
    PenaltyTaken,
    ReactionEnded,
    ReactionTaken,
    StatusChanged,
    StressChecked,
    WoundsTaken,
)
from engine.events.ua3 import combat as ev
from engine.rules.ua3.view import state_view
from engine.state.ua3.combat import NO_ARMOR, Armor
from engine.state.ua3.sheet import Identity
from tests.ua3.fights import AXE, COP, KNIFE, PISTOL, SMG, Fight, join, of_type, person

BRUISER = person("Bruiser", violence=5)  # Struggle 40 (U-18: 15 + 5 × 5)
HARD = person("Hard", violence=5)
SHOOTER = person("Shooter", violence=5, identities=[COP])


def wounds_to(events, who):
    return sum(e.amount for e in of_type(events, WoundsTaken) if e.actor == who)


def attack_roll(events):
    return of_type(events, ev.AttackRolled)[0]


# -- U-22 initiative by declared action -------------------------------------------------------


def test_the_round_goes_by_the_rating_each_declared_action_uses_highest_first():
    """U-22: Shooter's gun (Cop 55) before Bruiser's fists (Struggle 40)."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", SHOOTER, PISTOL))
    events = fight.declare(("a", "attack", ["b"]), ("b", "attack", ["a"]))
    order = of_type(events, ev.OrderSet)[0]
    assert order.order == ("b", "a") and order.ratings == (55, 40)
    assert fight.state.fight.phase == "acting"


def test_an_initiative_identity_replaces_the_rating_of_any_action():
    """U-22, U-19: an initiative identity's rating orders whatever the action."""
    quick = person("Quick", identities=[Identity(name="Sprinter", rating=90, initiative=True)])
    fight = Fight(join("a", "x", quick), join("b", "y", SHOOTER, PISTOL))
    events = fight.declare(("a", "dodge"), ("b", "attack", ["a"]))
    assert of_type(events, ev.OrderSet)[0].order == ("a", "b")


def test_an_initiative_identity_rates_readying_a_weapon_too():
    """U-22, U-19: readying rolls nothing, yet the initiative identity's 90 orders it."""
    quick = person("Quick", identities=[Identity(name="Sprinter", rating=90, initiative=True)])
    fight = Fight(join("a", "x", quick, KNIFE, in_hand="fists"), join("b", "y", SHOOTER, PISTOL))
    events = fight.declare(("a", "ready", [], "knife"), ("b", "attack", ["a"]))
    order = of_type(events, ev.OrderSet)[0]
    assert order.order == ("a", "b") and order.ratings == (90, 55)
    assert of_type(events, ev.ActionDeclared)[0].rated_by == "Sprinter"


def test_ties_are_broken_by_a_die_each():
    """U-22 (ties as I2-4): the higher die goes first."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD))
    events = fight.declare(("a", "attack", ["b"]), ("b", "attack", ["a"]), dice=(2, 8))
    assert of_type(events, ev.OrderSet)[0].order == ("b", "a")


def test_a_declared_action_can_be_replaced_only_by_doing_nothing():
    """U-22."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD))
    fight.declare(("a", "dodge"), ("b", "dodge"), dice=(9, 1))
    with pytest.raises(Refused, match="replaced only by doing nothing"):
        fight.do(f.Attack(actor="a", targets=("b",)))
    fight.do(f.DoNothing(actor="a"))
    assert fight.state.fight.turn == 1


def test_a_fight_ends_when_one_side_is_left_standing():
    """U-22: standing means not dead, unconscious, fled or surrendered."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD))
    fight.declare(("a", "attack", ["b"]), ("b", "flee"), dice=(9, 1))
    fight.do(f.Attack(actor="a", targets=("b",), dice=(9, 9)))
    events = fight.do(f.Flee(actor="b"))
    assert of_type(events, ev.FightEnded)[0].winner == "x"


# -- U-12 dodging ------------------------------------------------------------------------------


@pytest.mark.parametrize(("helplessness", "shift"), [(1, -10), (6, -20)])
def test_a_dodge_costs_each_attack_ten_or_twenty(helplessness, shift):
    """U-12: −10 if the dodger's Dodge is below the attacker's rating, −20 if equal or higher."""
    dodger = person("Dodger", violence=5, helplessness=helplessness)  # Dodge 20 or 45 against 40
    fight = Fight(join("a", "x", BRUISER), join("b", "y", dodger))
    fight.declare(("a", "attack", ["b"]), ("b", "dodge"), dice=(9, 1))
    if fight.state.fight.order[0] == "b":
        fight.do(f.Dodge(actor="b"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 3)))
    spec = attack_roll(events).result.spec
    assert [s.amount for s in spec.shifts] == [shift] and "U-12" in spec.shifts[0].source


def test_a_dodger_that_freezes_before_the_attack_no_longer_dodges():
    """U-12, U-23 (as M2-7: the frozen cannot dodge): b declared a dodge, then froze (99)."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", person("Soft")))
    fight.declare(("a", "attack", ["b"]), ("b", "dodge"))
    fight.do(StressCheck(actor="b", gauge="violence", rank=5, source="a", dice=(9, 9)))
    assert fight.who("b").reaction.kind == "freeze"  # type: ignore[union-attr]
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 3)))
    assert attack_roll(events).result.spec.shifts == ()


def test_a_combatant_in_a_frenzy_cannot_dodge_it_attacks_its_threat():
    """U-23 (as M2-7): a frenzy attacks its source every action."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", person("Soft")))
    fight.do(StressCheck(actor="b", gauge="violence", rank=5, source="a", reaction="frenzy", dice=(9, 9)))
    with pytest.raises(Refused, match="frenzy"):
        fight.declare(("a", "attack", ["b"]), ("b", "dodge"))
    fight.declare(("a", "attack", ["b"]), ("b", "attack", ["a"]))


# -- U-3 fists ---------------------------------------------------------------------------------


def _fists(dice, **kw):
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    return fight, fight.do(f.Attack(actor="a", targets=("b",), dice=dice, **kw))


def test_fists_deal_the_digit_sum():
    """U-3: 23 → 2 + 3 = 5 wounds."""
    _, events = _fists((2, 3))
    assert wounds_to(events, "b") == 5


def test_a_fumble_with_fists_hurts_the_attacker_up_to_five():
    """U-3 (Decision): 1d10 halved, rounded up: a 7 → 4 wounds."""
    _, events = _fists((0, 0, 7))
    assert wounds_to(events, "a") == 4 and wounds_to(events, "b") == 0


def test_a_matched_failure_with_fists_costs_ten_on_the_next_roll_or_gives_an_opening():
    """U-3: the attacker's choice; automated: −10 on its next roll."""
    fight, events = _fists((5, 5))
    assert of_type(events, PenaltyTaken)[0].shift.amount == -10
    assert fight.who("a").next_roll[0].amount == -10
    fight, events = _fists((5, 5), fists_miss="opening")
    assert fight.who("a").openings == ("b",)


def test_a_crit_with_fists_knocks_out_or_kills():
    """U-3: the attacker's choice; automated: unconscious."""
    fight, _ = _fists((0, 1))
    assert fight.who("b").status == "unconscious"
    fight, _ = _fists((0, 1), fists_crit="dead")
    assert fight.who("b").status == "dead"


@pytest.mark.parametrize(("weapons", "note"), [((), "crit: b is unconscious"), ((AXE,), "crit: the opponent dies")])
def test_a_crit_is_narrated_with_its_rule_once(weapons, note):
    """U-3, U-4: the event's sentence names the rule once, not "(U-3) (U-3)"."""
    fight = Fight(join("a", "x", BRUISER, *weapons), join("b", "y", HARD))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    text = attack_roll(fight.do(f.Attack(actor="a", targets=("b",), dice=(0, 1)))).explain()
    assert note in text and text.count("(U-3)") + text.count("(U-4)") == 1


def test_wounds_of_several_dice_say_how_many():
    """D-7, U-7: a full-auto fumble's 3d10 reads "3d10: 1+2+3", not "1d10"."""
    _fight, events = _burst((0, 0, 3, 5, 1, 2, 3))
    hurt = next(w for w in of_type(events, WoundsTaken) if w.actor == "a")
    assert "(3d10: 1+2+3)" in hurt.explain()


# -- U-4 melee weapons -------------------------------------------------------------------------


def _axe(dice, armor=NO_ARMOR):
    fight = Fight(join("a", "x", BRUISER, AXE), join("b", "y", HARD, armor=armor))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    return fight, fight.do(f.Attack(actor="a", targets=("b",), dice=dice))


def test_a_melee_weapon_adds_three_for_each_of_cleaves_big_heavy():
    """U-4: a cleaving, heavy axe: 2 + 3 + 6 = 11."""
    _, events = _axe((2, 3))
    assert wounds_to(events, "b") == 11


def test_a_cleaving_weapon_deals_one_wound_on_a_miss():
    """U-4."""
    _, events = _axe((7, 2))
    assert wounds_to(events, "b") == 1


def test_a_fumble_with_a_melee_weapon_deals_the_attacker_twenty():
    """U-4."""
    _, events = _axe((0, 0))
    assert wounds_to(events, "a") == 20


def test_a_matched_failure_with_a_melee_weapon_disarms_the_attacker():
    """U-4."""
    fight, events = _axe((6, 6))
    assert of_type(events, ev.WeaponDropped)[0].actor == "a" and fight.who("a").in_hand == "fists"


def test_a_matched_success_with_a_melee_weapon_deals_the_roll_and_thick_armor_stops_it():
    """U-4: 33 is a matched success with the axe (+6, cleaves and heavy): wounds = the roll, 33,
    no bonus; U-13: thick jackets keep it to normal damage, 3 + 3 + 6 = 12."""
    _, events = _axe((3, 3))
    assert wounds_to(events, "b") == 33
    assert attack_roll(events).breakdown == "matched success: the roll 33 (U-4: no weapon bonus)"
    _, events = _axe((3, 3), armor=Armor(thick=True))
    assert wounds_to(events, "b") == 12


def test_a_crit_with_a_melee_weapon_kills():
    """U-4."""
    fight, _ = _axe((0, 1))
    assert fight.who("b").status == "dead"


@pytest.mark.parametrize(("weapons", "crit"), [((AXE,), "unconscious"), ((), "dead")])
def test_a_crit_that_kills_kills_an_unconscious_opponent(weapons, crit):
    """U-4 (a melee crit), U-3 (a fist's crit, the attacker choosing death): the opponent dies,
    knocked out or not; killing raises U-25's violence 3 for the attacker."""
    fight = Fight(join("a", "x", BRUISER, *weapons), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b"]))
    fight.do(f.Attack(actor="a", targets=("b",), weapon="fists", dice=(0, 1)))  # b unconscious
    assert fight.who("b").status == "unconscious"
    fight.declare(("a", "attack", ["b"]))
    events = fight.do(f.Attack(actor="a", targets=("b",), fists_crit=crit, dice=(0, 1)))  # type: ignore[arg-type]
    assert fight.who("b").status == "dead"
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("a", 3)]


# -- U-5 guns, U-13 armor ----------------------------------------------------------------------


def _shot(dice, armor=NO_ARMOR, called="", target=HARD, limb="drop"):
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", target, KNIFE, armor=armor))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    return fight, fight.do(f.Attack(actor="a", targets=("b",), called=called, limb=limb, dice=dice))  # type: ignore[arg-type]


def test_a_gun_needs_a_firearms_identity():
    """U-5, U-19: without one a gun only lays suppressive fire (U-8)."""
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", HARD))
    with pytest.raises(Refused, match="firearms"):
        fight.declare(("a", "attack", ["b"]), ("b", "dodge"))
    fight.declare(("a", "suppress", ["b"]), ("b", "dodge"), dice=(9, 1))


def test_a_gun_deals_the_roll_up_to_its_cap_and_a_crit_the_cap():
    """U-5: 45 with a cap of 30 → 30; 25 → 25; a crit → 30."""
    assert wounds_to(_shot((4, 5))[1], "b") == 30
    assert wounds_to(_shot((2, 5))[1], "b") == 25
    assert wounds_to(_shot((0, 1))[1], "b") == 30


def test_a_fumble_jams_the_gun_and_an_action_clears_it():
    """U-5."""
    fight, _events = _shot((0, 0))
    assert fight.who("a").jammed
    fight.declare(("a", "clear_jam"), ("b", "nothing"))
    fight.do(f.ClearJam(actor="a"))
    assert not fight.who("a").jammed


def test_a_jammed_shot_raises_no_shot_at_check_and_the_next_shot_is_the_first():
    """U-25 (a jammed shot counts for nothing, as M2-8): Soft (violence 1) is not shot at by the
    fumble (00); the next shot, a miss (90), is its first: the Violence 2 check (Fitness 60, 25)."""
    fight, events = _shot((0, 0), target=person("Soft"))
    assert of_type(events, ev.WeaponJammed) and not of_type(events, StressChecked)
    assert "shot_at" not in fight.who("b").triggered
    fight.declare(("a", "clear_jam"), ("b", "nothing"))
    fight.do(f.ClearJam(actor="a"))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(9, 0, 2, 5)))
    check = of_type(events, StressChecked)[0]
    assert (check.actor, check.rank, check.cause) == ("b", 2, "shot at (U-25)")


def test_bulletproof_armor_turns_gun_wounds_into_melee_wounds():
    """U-13: 45 → 4 + 5 = 9."""
    assert wounds_to(_shot((4, 5), armor=Armor(bulletproof=True))[1], "b") == 9


def test_bulletproof_armor_never_adds_wounds():
    """U-13 (Decision: armor never adds wounds): 05 deals 5, not the digit sum 10 + 5 = 15
    (D-5 counts the 0 as 10, and so does the narration)."""
    _fight, events = _shot((0, 5), armor=Armor(bulletproof=True))
    assert wounds_to(events, "b") == 5 and "10+5" in attack_roll(events).breakdown


def test_a_helmet_turns_one_gun_wound_then_is_spent():
    """U-13."""
    fight, events = _shot((4, 5), armor=Armor(helmet=True))
    assert wounds_to(events, "b") == 9 and fight.who("b").helmet_spent
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    assert wounds_to(fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 5))), "b") == 25


# -- U-6 two targets ---------------------------------------------------------------------------


def test_two_targets_without_full_auto_halve_the_target_one_roll_each():
    """U-6: Struggle 40 → 20 for each; 15 hits, 35 misses."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b", "c"]))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(1, 5, 3, 5)))
    rolls = of_type(events, ev.AttackRolled)
    assert [r.result.target for r in rolls] == [20, 20]
    assert [r.result.outcome for r in rolls] == ["success", "failure"]


def test_a_two_target_attack_stops_when_its_first_roll_jams_the_gun():
    """U-6, U-5: the first roll fumbles (00): the gun jams, and no second shot goes off."""
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b", "c"]))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(0, 0, 2, 0)))
    assert [r.targets for r in of_type(events, ev.AttackRolled)] == [("b",)]
    assert fight.who("a").jammed and wounds_to(events, "c") == 0


def test_a_two_target_attack_stops_when_its_first_roll_loses_the_weapon():
    """U-6, U-4: a matched failure (55) disarms: the second blow is not struck with the dropped axe."""
    fight = Fight(join("a", "x", BRUISER, AXE), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b", "c"]))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(5, 5, 1, 2)))
    assert [r.targets for r in of_type(events, ev.AttackRolled)] == [("b",)]
    assert fight.who("a").in_hand == "fists" and wounds_to(events, "c") == 0


def test_two_targets_both_take_the_same_halved_target_with_a_penalty_carried_in():
    """U-6, U-3: −10 carried from a fist's matched failure: half of 40 − 10 is 15, for both rolls."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b"]))
    fight.do(f.Attack(actor="a", targets=("b",), dice=(5, 5)))
    fight.declare(("a", "attack", ["b", "c"]))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(9, 8, 9, 7)))
    assert [r.result.target for r in of_type(events, ev.AttackRolled)] == [15, 15]
    assert fight.who("a").next_roll == ()


def test_a_penalty_the_first_of_two_rolls_brings_falls_on_the_second():
    """U-6, U-3 (Decision): the first roll's matched failure (33 > 20) costs −10 on the next roll, the second."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b", "c"]))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(3, 3, 9, 7)))
    assert [r.result.target for r in of_type(events, ev.AttackRolled)] == [20, 10]
    assert fight.who("a").next_roll == ()


# -- U-7 full auto -----------------------------------------------------------------------------


def _burst(dice, burst="three_round", armor=NO_ARMOR):
    fight = Fight(
        join("a", "x", SHOOTER, SMG), join("m", "x", HARD), join("b", "y", HARD), join("c", "y", HARD, armor=armor)
    )
    fight.declare(("a", "full_auto", ["b", "c"]))
    return fight, fight.do(f.FullAuto(actor="a", targets=("b", "c"), burst=burst, dice=dice))  # type: ignore[arg-type]


def test_full_auto_is_one_roll_without_cap_divided_between_the_targets():
    """U-7: Cop 55 +10 (three-round burst) = 65; 62 → 31 and 31 (no cap of 40 on the sum)."""
    _fight, events = _burst((6, 2))
    roll = attack_roll(events)
    assert roll.result.target == 65 and roll.wounds == (31, 31)


def test_emptying_the_clip_adds_twenty_to_hit_and_ten_wounds():
    """U-7: 75 to hit; 40 + 10 = 50, 25 each."""
    _, events = _burst((4, 0), burst="clip")
    roll = attack_roll(events)
    assert roll.result.target == 75 and roll.wounds == (25, 25)


def test_a_full_auto_matched_success_deals_the_cap_unless_the_roll_is_higher():
    """U-7: 33 → the cap 40, 20 each."""
    _, events = _burst((3, 3))
    assert attack_roll(events).wounds == (20, 20)


def test_a_full_auto_matched_success_adds_the_bursts_wounds_to_the_cap():
    """U-7: emptying the clip, 33 is a matched success: the cap 40 (higher than 33) + 10 = 50, 25 each."""
    _, events = _burst((3, 3), burst="clip")
    assert attack_roll(events).wounds == (25, 25)


def test_bulletproof_armor_keeps_a_full_auto_share_if_it_is_fewer_than_the_digit_sum():
    """U-7, U-13 (Decision): 10 divided 5/5; c's vest would make its 5 the digit sum 1 + 10 = 11: it stays 5."""
    _fight, events = _burst((1, 0), armor=Armor(bulletproof=True))
    assert attack_roll(events).wounds == (5, 5) and wounds_to(events, "c") == 5


def test_a_full_auto_crit_deals_a_hundred_to_one_target():
    """U-7."""
    fight, events = _burst((0, 1))
    assert attack_roll(events).wounds == (100, 0) and fight.who("b").status == "dead"


def test_a_full_auto_matched_failure_jams():
    """U-7: 77 > 65."""
    fight, _ = _burst((7, 7))
    assert fight.who("a").jammed


def test_a_full_auto_fumble_hits_the_lowest_die_on_the_attackers_side():
    """U-7: the attacker rolls 3, its ally 5: the attacker takes 3d10 (1 + 2 + 3)."""
    _fight, events = _burst((0, 0, 3, 5, 1, 2, 3))
    assert wounds_to(events, "a") == 6 and wounds_to(events, "m") == 0


# -- U-8 suppression ---------------------------------------------------------------------------


def test_suppressive_fire_makes_a_combatant_pass_a_violence_check_to_act():
    """U-8 (rank 2, the lower bound of 2–4, U-23): Soft (violence 1) fails Fitness 60 with 90:
    its action is lost."""
    soft = person("Soft")
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", soft), shot_at_rank=0)  # U-25 off
    fight.declare(("a", "suppress", ["b"]), ("b", "attack", ["a"]))
    events = fight.do(f.Suppress(actor="a", targets=("b",), dice=(6, 2)))
    assert of_type(events, ev.SuppressionLaid)[0].until == 2
    assert fight.who("b").suppressed_until == 2
    events = fight.do(f.Attack(actor="b", targets=("a",), dice=(9, 0)))
    check = of_type(events, StressChecked)[0]
    assert (check.gauge, check.rank, check.outcome) == ("violence", 2, "failure")
    assert not of_type(events, ev.AttackRolled)


@pytest.mark.parametrize("action", ["aim", "suppress"])
def test_a_suppressed_combatant_checks_before_aiming_or_suppressing_back(action):
    """U-8 (Decision: any attack, aim, suppressive fire, grab or finishing while suppressed): 90
    fails the Violence 2 check, and the aim or the fire is lost."""
    guns = (PISTOL,) if action == "suppress" else ()  # no firearms identity: it aims its fists
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", person("Soft"), *guns), shot_at_rank=0)
    fight.declare(("a", "suppress", ["b"]), ("b", action, ["a"]))
    fight.do(f.Suppress(actor="a", targets=("b",), dice=(6, 2)))
    command = (
        f.Aim(actor="b", target="a", dice=(9, 0))
        if action == "aim"
        else f.Suppress(actor="b", targets=("a",), dice=(9, 0))
    )
    events = fight.do(command)
    assert of_type(events, StressChecked)[0].outcome == "failure"
    assert not of_type(events, ev.Aimed) and not of_type(events, ev.AttackRolled)


@pytest.mark.parametrize("action", ["attack", "suppress", "finish"])
def test_a_rating_raised_by_the_suppressed_check_is_the_one_the_same_action_rolls(action):
    """U-18 ("recomputed at once"), U-8: Soft (violence 1, Struggle 20) passes the Violence 2
    check with 25 (Fitness 60): a hardened notch, Struggle 20 → 25 at once, and the attack, the
    suppressive fire (no firearms identity: Struggle, U-8) or the bare-handed finish it then
    makes rolls Struggle 25 (a bare-handed finish: the frozen c, U-10)."""
    guns = (PISTOL,) if action == "suppress" else ()
    people = [join("a", "x", BRUISER, PISTOL), join("b", "y", person("Soft"), *guns)]
    if action == "finish":
        people.append(join("c", "x", person("Frozen")))
    fight = Fight(*people, shot_at_rank=0, witness_finish_rank=0, finish_rank=0)  # only U-8's check
    if action == "finish":  # c freezes (99): helpless, it can be finished (U-10)
        fight.do(StressCheck(actor="c", gauge="violence", rank=5, source="b", dice=(9, 9)))
    fight.declare(("a", "suppress", ["b"]), ("b", action, ["c" if action == "finish" else "a"]))
    fight.do(f.Suppress(actor="a", targets=("b",), dice=(6, 2)))
    dice = (2, 5, 9, 0)  # the check, then the action's roll
    command = {
        "attack": f.Attack(actor="b", targets=("a",), dice=dice),
        "suppress": f.Suppress(actor="b", targets=("a",), dice=dice),
        "finish": f.Finish(actor="b", target="c", dice=dice),
    }[action]
    events = fight.do(command)
    check = of_type(events, StressChecked)[0]
    assert (check.outcome, fight.who("b").gauges.violence.hardened) == ("success", 2)
    assert "Struggle 20 → 25 at once" in "\n".join(e.explain() for e in events)
    assert attack_roll(events).result.spec.rating == 25


def test_a_kill_check_passed_between_two_rolls_raises_the_second_rolls_rating():
    """U-18 ("recomputed at once"), U-6, U-25: Soft (Struggle 20) splits its axe attack on b and c:
    half of 20 = 10 for the first, a crit (01) that kills b; the kill check (Violence 3, Fitness
    60) passes with 25, Struggle 20 → 25, and the second roll is half of 25, 12."""
    fight = Fight(
        join("a", "x", person("Soft"), AXE), join("b", "y", HARD), join("c", "y", HARD), attacked_with_weapon_rank=0
    )
    fight.declare(("a", "attack", ["b", "c"]), ("b", "nothing"), ("c", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b", "c"), dice=(0, 1, 2, 5, 9, 0)))
    first, second = (e.result.spec for e in of_type(events, ev.AttackRolled))
    assert fight.who("b").status == "dead" and fight.who("a").gauges.violence.hardened == 2
    assert [s.source for s in first.shifts] == ["two targets: half of 20, rounded down (U-6)"]
    assert second.rating + sum(s.amount for s in second.shifts) == 12


def test_a_reaction_to_suppression_lasts_for_the_suppression_not_the_suppressor():
    """U-8, U-23 (Decision): Soft fails the suppressed check (90) in round 2 and freezes; the
    suppression ends with round 2, and so does the freeze, though its suppressor still stands."""
    soft = person("Soft")
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", soft), shot_at_rank=0)  # U-25 off
    fight.declare(("a", "suppress", ["b"]), ("b", "dodge"))
    fight.do(f.Suppress(actor="a", targets=("b",), dice=(6, 2)))
    fight.do(f.Dodge(actor="b"))
    fight.declare(("a", "nothing"), ("b", "attack", ["a"]))
    events = fight.do(f.Attack(actor="b", targets=("a",), dice=(9, 0)))
    taken = of_type(events, ReactionTaken)[0]
    assert (taken.reaction, taken.source) == ("freeze", "a's suppressive fire")
    assert of_type(events, ReactionEnded)[0].actor == "b" and fight.who("b").reaction is None
    fight.declare(("a", "nothing"), ("b", "attack", ["a"]))
    assert fight.state.fight.order == ("b",)


def test_a_suppression_matched_success_wounds_a_random_opponent():
    """U-8: a die picks among the group; it takes 1d10."""
    fight = Fight(join("a", "x", BRUISER, PISTOL), join("b", "y", HARD), join("c", "y", HARD))
    fight.declare(("a", "suppress", ["b", "c"]))
    events = fight.do(f.Suppress(actor="a", targets=("b", "c"), dice=(2, 2, 2, 7)))
    assert wounds_to(events, "c") == 7 and of_type(events, ev.SuppressionLaid)


# -- U-9 tactical options ----------------------------------------------------------------------


def test_aiming_adds_ten_a_round_to_the_next_attack_on_that_target():
    """U-9."""
    fight = Fight(join("a", "x", SHOOTER, PISTOL), join("b", "y", HARD))
    fight.declare(("a", "aim", ["b"]), ("b", "dodge"))
    fight.do(f.Aim(actor="a", target="b"))
    fight.do(f.Dodge(actor="b"))
    fight.declare(("a", "aim", ["b"]), ("b", "nothing"))
    fight.do(f.Aim(actor="a", target="b"))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(7, 4)))
    assert attack_roll(events).result.target == 75 and fight.who("a").aim is None


def test_throwing_a_person_takes_twenty_deals_a_punch_and_costs_its_next_action():
    """U-9: Struggle 40 − 20; 15 → 6 wounds; next round it loses its action."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", person("Soft")))
    fight.declare(("a", "attack", ["b"]), ("b", "attack", ["a"]))
    events = fight.do(f.Attack(actor="a", targets=("b",), mode="throw_person", dice=(1, 5)))
    assert attack_roll(events).result.target == 20 and wounds_to(events, "b") == 6
    lost = of_type(events, ev.TurnEnded)[-1]
    assert lost.actor == "b" and lost.lost and not fight.who("b").loses_action
    assert fight.state.fight.round == 2


def test_throwing_a_person_with_a_weapon_in_hand_deals_punch_wounds():
    """U-9: 11 against Struggle 40 − 20 is a matched success, but a throw deals a punch: 1 + 1 = 2,
    not the axe's roll + 6; and it is no attack with a weapon (U-25)."""
    fight = Fight(join("a", "x", BRUISER, AXE), join("b", "y", HARD))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), mode="throw_person", dice=(1, 1)))
    assert wounds_to(events, "b") == 2 and attack_roll(events).kind == "unarmed"
    assert not of_type(events, StressChecked) and fight.who("b").triggered == ()


def test_a_limb_shot_ignores_armor_and_drops_what_the_opponent_holds():
    """U-9: −20; U-13 armor ignored."""
    fight, events = _shot((2, 5), armor=Armor(bulletproof=True), called="limb")
    assert attack_roll(events).result.target == 35
    assert wounds_to(events, "b") == 25 and fight.who("b").in_hand == "fists"


def test_a_limb_shot_may_halve_movement_instead_the_shooters_choice():
    """U-9: the opponent drops what it holds *or* its movement is halved (the shooter's choice,
    T-1): halved, b keeps its knife, and the halving is a condition the GM reads."""
    fight, events = _shot((2, 5), called="limb", limb="halve_movement")
    assert wounds_to(events, "b") == 25
    b = fight.who("b")
    assert b.in_hand == "knife" and b.movement_halved and not of_type(events, ev.WeaponDropped)
    (halved,) = of_type(events, ev.MovementHalved)
    assert halved.explain() == "a's limb shot halves b's movement (U-9: the shooter's choice)."
    assert "movement halved by a limb shot (U-9)" in str(state_view(fight.state).sections)


def test_a_limb_shot_that_misses_halves_nothing_and_halving_needs_a_limb_shot():
    """U-9: only a limb shot that hits has an effect; halving movement without one is refused."""
    fight, _events = _shot((9, 0), called="limb", limb="halve_movement")
    assert not fight.who("b").movement_halved and fight.who("b").in_hand == "knife"
    with pytest.raises(Refused, match="what a limb shot may do"):
        _shot((2, 5), limb="halve_movement")


def test_a_head_shot_takes_thirty_and_knocks_out():
    """U-9."""
    fight, events = _shot((1, 2), called="head")
    assert attack_roll(events).result.target == 25 and fight.who("b").status == "unconscious"


# -- U-10 finishing ----------------------------------------------------------------------------


def _helpless_fight(killer_weapons=(KNIFE,)):
    soft = person("Soft")
    fight = Fight(join("k", "x", person("Killer"), *killer_weapons), join("w", "x", soft), join("v", "y", soft))
    fight.do(StressCheck(actor="v", gauge="violence", rank=5, source="k", dice=(9, 9)))  # 99: v freezes
    assert fight.who("v").reaction.kind == "freeze"  # type: ignore[union-attr]
    fight.declare(("k", "finish", ["v"]), ("w", "nothing"))
    return fight


def test_finishing_with_a_weapon_kills_automatically_and_raises_the_stress_checks():
    """U-10: Violence 7 for the killer, Violence 3 for every conscious witness."""
    fight = _helpless_fight()
    events = fight.do(f.Finish(actor="k", target="v", dice=(9, 0, 1, 0)))
    assert fight.who("v").status == "dead"
    checks = {(c.actor, c.rank) for c in of_type(events, StressChecked)}
    assert checks == {("k", 7), ("w", 3)}


def test_finishing_bare_handed_is_a_struggle_roll_whose_matched_failure_only_seems_to_kill():
    """U-10: Struggle 20: 66 is a matched failure — v is left unconscious, believed dead."""
    fight = _helpless_fight(killer_weapons=())
    fight.do(f.Finish(actor="k", target="v", dice=(6, 6, 9, 0, 9, 0)))
    v = fight.who("v")
    assert v.status == "unconscious" and v.believed_dead_by == "x"


def test_a_failed_bare_handed_finish_deals_the_roll_in_wounds():
    """U-10: 45 > 20 → 45 wounds (no stress check: it was not done)."""
    fight = _helpless_fight(killer_weapons=())
    events = fight.do(f.Finish(actor="k", target="v", dice=(4, 5)))
    assert wounds_to(events, "v") == 45 and not of_type(events, StressChecked)


def test_a_failed_bare_handed_finish_that_kills_raises_the_checks_of_a_finish():
    """U-10: 90 > 20 → 90 wounds kill v: Violence 7 for the killer, 3 for the witness (and, as
    for a finish, not U-25's kill check, Decision)."""
    fight = _helpless_fight(killer_weapons=())
    events = fight.do(f.Finish(actor="k", target="v", dice=(9, 0, 1, 0, 1, 0)))
    assert fight.who("v").status == "dead"
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("k", 7), ("w", 3)]


# -- U-11 disarming ----------------------------------------------------------------------------


def _disarm(dice):
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD, KNIFE))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    return fight, fight.do(f.Attack(actor="a", targets=("b",), mode="disarm", dice=dice))


def test_a_disarm_gets_rid_of_the_weapon_and_an_edged_one_cuts():
    """U-11: success — gone, 1 wound from the knife."""
    fight, events = _disarm((2, 3))
    assert fight.who("b").in_hand == "fists" and wounds_to(events, "a") == 1 and fight.who("a").in_hand == "fists"


def test_a_matched_success_disarm_holds_the_weapon_and_a_crit_punches_too():
    """U-11."""
    fight, events = _disarm((3, 3))
    assert fight.who("a").in_hand == "knife" and wounds_to(events, "a") == 0
    fight, events = _disarm((0, 1))
    assert fight.who("a").in_hand == "knife" and wounds_to(events, "b") == 11


def test_a_disarm_with_a_weapon_in_hand_is_done_with_the_hands():
    """U-11: a disarm is no attack with the axe held (U-25: no "attacked with a weapon")."""
    fight = Fight(join("a", "x", BRUISER, AXE), join("b", "y", HARD, KNIFE))
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), mode="disarm", dice=(2, 3)))
    assert attack_roll(events).kind == "unarmed" and fight.who("b").in_hand == "fists"
    assert fight.who("b").triggered == () and fight.who("a").in_hand == "axe"


# -- U-2 wound levels, U-25 combat stress checks -----------------------------------------------


def test_wounds_count_up_to_an_identitys_threshold():
    """U-2, U-19: threshold 80: 72 (90%) unconscious."""
    tough = person("Tough", violence=5, identities=[Identity(name="Marine", rating=80, wound_threshold=True)])
    fight, events = _shot((2, 5), target=tough)  # 25
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 5)))  # 50
    fight.declare(("a", "attack", ["b"]), ("b", "nothing"))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 5)))  # 75 ≥ 72, 90% of 80
    assert fight.who("b").wounds == 75 and fight.who("b").status == "unconscious"
    assert of_type(events, StatusChanged)[0].rule == "U-2"


def test_being_shot_at_and_killing_raise_violence_two_and_three_once_each():
    """U-25: shot at (violence 2) the first time only; a kill (violence 3)."""
    soft = person("Soft")
    fight = Fight(join("a", "x", person("Green", identities=[COP]), PISTOL), join("b", "y", soft), join("c", "y", HARD))
    fight.declare(("a", "attack", ["b"]))
    events = fight.do(f.Attack(actor="a", targets=("b",), dice=(2, 5, 1, 0)))
    assert [(c.actor, c.rank) for c in of_type(events, StressChecked)] == [("b", 2)]
    assert fight.who("b").triggered == ("shot_at",)


def test_a_coercion_in_a_fight_waits_for_the_coercers_declared_turn():
    """U-15 in a fight, U-22: while declarations are open no one coerces out of turn."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD))
    fight.do(f.BeginFight())
    with pytest.raises(Refused, match="declared action"):
        fight.do(Coerce(coercer="a", target="b", gauge="violence", dice=(1, 0)))
    assert not fight.state.coercions


def test_declarations_may_come_in_parts_and_close_once_everyone_able_has_declared():
    """U-22: the NPCs declare first, the players after; the order comes once all have."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", SHOOTER, PISTOL))
    fight.do(f.BeginFight())
    fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="attack", targets=("a",)),)))
    assert fight.state.fight.phase == "declare"
    with pytest.raises(Refused, match="already declared"):
        fight.do(f.Declare(declarations=(f.Declaration(actor="b", action="dodge"),)))
    events = fight.do(f.Declare(declarations=(f.Declaration(actor="a", action="dodge"),)))
    assert of_type(events, ev.OrderSet)[0].order == ("b", "a")
