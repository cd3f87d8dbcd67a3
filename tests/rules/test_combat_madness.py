"""Madness in combat (M2-7, M2-8): the violence checks a fight raises and reactions in a fight."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands import MadnessCheck
from engine.commands.combat import Attack, BreakFree, Declaration, Declare, Dodge, DoNothing, EndFight, Squeeze
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.madness import MadnessCheckResolved, ReactionEnded, ReactionTaken
from engine.rules.ua2 import RULESET
from engine.settings import Settings
from engine.state.sheet import WoundPoints
from tests.fixtures import Table
from tests.rules.support import arena, fighter, of, one, text


def fight(bob_reaction: str | None = None, ann_weapon: str = "knife", cy_hardened: int = 10) -> Table:
    """M2-8 on. Ann (knife, .22) acts first; Bob (Mind 50) and Cy are the other side; Dan is
    Ann's ally. Only Bob and Ann have unhardened violence meters."""
    ann = fighter("Ann", init=40, fighting=60, firearms=60, weapons=["knife", ".22 pistol"])
    t = Table(settings=Settings())
    t.join("ann", "a", ann, in_hand=ann_weapon)
    t.join("bob", "b", fighter("Bob", init=20, fighting=60, dodge=60), reaction=bob_reaction)
    t.join("cy", "b", fighter("Cy", init=10, hardened=cy_hardened))
    t.join("dan", "a", fighter("Dan", init=5, hardened=10))
    t.begin()
    return t


def checks(events: list[ev.EventBase]) -> list[tuple[str, int, str]]:  # type: ignore[name-defined]
    return [(c.actor, c.rank, c.outcome) for c in of(events, MadnessCheckResolved)]


def test_the_first_weapon_attack_on_someone_raises_violence_1_once_a_fight_m2_8() -> None:
    t = fight()
    events = t.do(Attack(actor="ann", target="bob", dice=(9, 9, 2, 5)))  # a miss; Mind 25 holds
    assert checks(events) == [("bob", 1, "success")]
    assert "attacked with a weapon by ann for the first time (M2-8)" in text(events)
    for actor in ("bob", "cy", "dan"):
        t.do(DoNothing(actor=actor))
    assert not of(t.do(Attack(actor="ann", target="bob", dice=(9, 9))), MadnessCheckResolved)


def test_being_shot_at_raises_violence_2_and_fists_raise_nothing_m2_8() -> None:
    shot = fight(ann_weapon=".22 pistol")
    assert checks(shot.do(Attack(actor="ann", target="bob", dice=(9, 9, 2, 5)))) == [("bob", 2, "success")]
    punched = fight(ann_weapon="")
    assert not of(punched.do(Attack(actor="ann", target="bob", dice=(9, 9))), MadnessCheckResolved)


def test_a_jammed_shot_shoots_at_no_one_and_raises_no_shot_at_check_m2_8() -> None:
    """M2-8: a fumble (00) jams the gun (C2-11): no check for Bob, and he is not marked shot at,
    so his first shot is still to come."""
    t = fight(ann_weapon=".22 pistol")
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 0)))
    assert of(events, ev.WeaponJammed) and not of(events, MadnessCheckResolved)
    assert "shot_at" not in t.state.fighter("bob").triggered


def test_a_kill_raises_violence_3_for_the_killer_and_2_for_the_victim_s_allies_m2_8() -> None:
    t = fight(ann_weapon=".22 pistol", cy_hardened=0)
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 1, 2, 5, 2, 5)))  # a crit kills; two Mind rolls
    assert checks(events) == [("ann", 3, "success"), ("cy", 2, "success")]
    assert "saw bob killed by ann (M2-8)" in text(events)


def test_killing_a_helpless_target_raises_violence_7_m2_8() -> None:
    t = fight(ann_weapon=".22 pistol")
    t.do(Attack(actor="ann", target="bob", dice=(4, 5, 2, 5)))  # bob 50 → 20 … Mind 25 holds
    for actor in ("bob", "cy", "dan"):
        t.do(DoNothing(actor=actor))
    t.do(Attack(actor="ann", target="bob", dice=(1, 6)))  # 16: bob 20 → 4, incapacitated
    for actor in ("cy", "dan"):
        t.do(DoNothing(actor=actor))
    events = t.do(Attack(actor="ann", target="bob", dice=(0, 5, 2, 5)))
    assert t.status("bob") == "dead"
    assert ("ann", 7, "success") in checks(events) and "killed the helpless bob (M2-8)" in text(events)


def test_a_failed_check_freezes_by_default_and_the_frozen_take_no_actions_m2_7() -> None:
    t = fight()
    events = t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))
    taken = one(events, ReactionTaken)
    assert (taken.actor, taken.reaction, taken.chosen_by, taken.source) == ("bob", "freeze", "setting", "ann")
    skipped = one(events, ev.TurnSkipped)
    assert skipped.id == "bob" and "M2-7" in skipped.reason
    with pytest.raises(Refused, match="frozen"):
        t.do(Dodge(actor="bob"))


def test_the_frozen_cannot_dodge_m2_7() -> None:
    t = fight()
    t.do(DoNothing(actor="ann"))
    t.do(Dodge(actor="bob"))
    t.do(DoNothing(actor="cy"))
    t.do(DoNothing(actor="dan"))
    t.do(Declare(declarations=(Declaration(id="bob", continue_dodge=True),)))
    # ann's knife: 45 hits, bob's dodge 99 fails (half damage), his Mind 95 fails: he freezes …
    events = t.do(Attack(actor="ann", target="bob", dice=(4, 5, 9, 9, 9, 5)))
    assert one(events, ev.AttackResolved).dodge is not None and one(events, ReactionTaken).reaction == "freeze"
    t.do(DoNothing(actor="cy"))
    hit = one(t.do(Attack(actor="dan", target="bob", dice=(4, 5))), ev.AttackResolved)
    assert hit.dodge is None and hit.hit is not None  # … and, though dodging all round, dodges no more


def test_a_fleeing_reaction_leaves_the_fight_as_fled_m2_7() -> None:
    t = fight(bob_reaction="flee")
    events = t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))
    changed = one(events, ev.StatusChanged)
    assert (changed.id, changed.status, changed.rule) == ("bob", "fled", "M2-7")
    assert one(events, ReactionTaken).chosen_by == "combatant_default"


def test_a_frenzy_attacks_only_the_source_and_cannot_dodge_m2_7() -> None:
    t = fight(bob_reaction="frenzy")
    t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))
    with pytest.raises(Refused, match="frenzy"):
        t.do(Attack(actor="bob", target="dan", dice=(9, 9)))
    with pytest.raises(Refused, match="frenzy"):
        t.do(Dodge(actor="bob"))
    assert one(t.do(Attack(actor="bob", target="ann", dice=(9, 9))), ev.AttackResolved).target == "ann"


def test_a_frenzy_may_not_do_nothing_while_it_can_attack_its_source_m2_7() -> None:
    t = fight(bob_reaction="frenzy")
    t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))  # Bob fails violence 1: frenzy at Ann
    with pytest.raises(Refused, match=r"frenzy and attacks ann every action.*\(M2-7\)") as refused:
        t.do(DoNothing(actor="bob"))
    assert "ua session calm" in refused.value.hint
    t.do(MadnessCheck(actor="cy", meter="violence", rank=1))  # outside the turn flow: Bob's turn stays
    assert t.state.fight.current == "bob"


def test_a_frenzied_npc_with_no_rule_that_applies_attacks_its_source_m2_7() -> None:
    from engine.tactics.choose import Profile, choose_command
    from engine.tactics.rules import TacticRule

    t = fight(bob_reaction="frenzy")
    t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))
    table = RULESET.thaw(t.state)
    cowardly = {fid: Profile(rules=(TacticRule(do="flee"),)) for fid in ("ann", "bob", "cy", "dan")}
    chosen = choose_command(table, "bob", cowardly, None)  # type: ignore[arg-type]
    assert isinstance(chosen, Attack) and chosen.target == "ann"  # fleeing is not what a frenzy does


def test_a_reaction_ends_when_its_source_leaves_the_fight_m2_4_m2_7() -> None:
    t = fight()
    t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))  # bob freezes until ann is gone
    t.do(DoNothing(actor="cy"))
    events = t.do(Attack(actor="dan", target="ann", dice=(0, 1)))  # friendly fire kills ann
    ended = one(events, ReactionEnded)
    assert (ended.actor, ended.source) == ("bob", "ann")
    assert t.state.combatant("bob").reaction is None  # type: ignore[union-attr]


def test_reactions_kept_until_the_fight_is_gone_end_with_it_m2_4_c2_33() -> None:
    t = fight(ann_weapon=".22 pistol")
    events = t.do(Attack(actor="ann", target="cy", dice=(0, 1, 9, 5, 2, 5)))  # ann kills cy and freezes
    assert one(events, ReactionTaken).source == "the fight"
    ended = t.do(EndFight())
    assert one(ended, ReactionEnded).actor == "ann" and t.state.combatant("ann").reaction is None  # type: ignore[union-attr]


def test_a_gm_madness_check_that_freezes_the_fighter_whose_turn_it_is_passes_its_turn_m2_7() -> None:
    t = fight()
    t.do(DoNothing(actor="ann"))
    t.do(MadnessCheck(actor="bob", meter="unnatural", rank=4, source="the thing", reaction="freeze", dice=(9, 9)))
    assert t.state.fight.current == "bob"  # the check was no action of the fight's …
    assert RULESET.acting_now(t.state) == "cy"  # … but the next action is cy's
    with pytest.raises(Refused, match="frozen"):
        t.do(DoNothing(actor="bob"))
    events = t.do(DoNothing(actor="cy"))
    assert one(events, ev.TurnSkipped).id == "bob" and t.state.fight.current == "dan"


def test_a_gm_madness_check_that_leaves_one_side_ends_the_fight_at_the_gm_s_word_m2_7_c2_33() -> None:
    t = arena(("ann", "a", fighter("Ann", init=40)), ("bob", "b", fighter("Bob", init=20)), settings=Settings())
    t.do(MadnessCheck(actor="bob", meter="unnatural", rank=4, source="the thing", reaction="flee", dice=(9, 9)))
    with pytest.raises(Refused, match="record it with EndFight"):
        t.do(DoNothing(actor="ann"))
    assert one(t.do(EndFight(winner="a")), ev.FightEnded).winner == "a"


def test_a_kill_in_a_grip_is_a_kill_of_the_helpless_m2_8_c2_27() -> None:
    ann = fighter("Ann", init=40, fighting=60, obsession="Fighting", weapons=["knife"])
    bob = msgspec.structs.replace(fighter("Bob", init=20, hardened=10), wounds=WoundPoints(current=8, maximum=50))
    t = Table(settings=Settings())
    t.join("ann", "a", ann, in_hand="knife")
    t.join("bob", "b", bob)
    t.join("cy", "b", fighter("Cy", init=10, hardened=10))
    t.begin()
    t.do(Attack(actor="ann", target="bob", cherry="kung_fu_grip", dice=(2, 2)))
    t.do(BreakFree(actor="bob", dice=(9, 9)))
    t.do(DoNothing(actor="cy"))
    events = t.do(Squeeze(actor="ann", dice=(2, 5)))  # 8 with a readied knife: 8 → 0
    assert t.status("bob") == "dead"
    assert ("ann", 7, "success") in checks(events) and "killed the helpless bob (M2-8)" in text(events)


def test_a_monkey_dodged_attack_raises_the_new_target_s_first_weapon_check_m2_8_c2_28() -> None:
    t = Table(settings=Settings())
    t.join("ann", "a", fighter("Ann", init=40, fighting=60, obsession="Fighting"))
    t.join("bob", "b", fighter("Bob", init=20, weapons=["knife"]), in_hand="knife")
    t.join("cy", "b", fighter("Cy", init=10))
    t.join("dan", "a", fighter("Dan", init=5, hardened=10))
    t.begin()
    t.do(DoNothing(actor="ann"))
    assert checks(t.do(Attack(actor="bob", target="ann", dice=(8, 5, 2, 5)))) == [("ann", 1, "success")]
    t.do(DoNothing(actor="cy"))
    t.do(DoNothing(actor="dan"))
    t.do(Attack(actor="ann", target="bob", cherry="monkey_dodge", monkey_redirect="cy", dice=(2, 2)))
    events = t.do(Attack(actor="bob", target="ann", dice=(8, 5, 2, 5)))  # at cy now: a miss that cuts
    assert one(events, ev.AttackResolved).target == "cy"
    assert checks(events) == [("cy", 1, "success")]
