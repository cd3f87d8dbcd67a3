"""Both grapplers roll every round (U-16, U-17 as corrected): scripted grapplers whose tactics
name no grapple rule still declare and roll their exchange, the presets' shot with advantage,
and — over sampled batch fights of the shipped grappling scenarios — every round of a grapple
holding a roll (or an allowed option) from each grappler who can act."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from engine.commands import ua3_combat as f
from engine.dice.source import SeededDice, derive_seed
from engine.events.base import EventBase
from engine.events.ua3 import GridironRolled, WoundsTaken
from engine.events.ua3 import combat as ev
from engine.reducers.fold import table_for
from engine.rules.ruleset import apply_one
from engine.rules.ua3.combat.situation import can_act, grapple_of
from engine.rules.ua3.table import Table
from engine.scenario.scenario import load_scenario
from engine.simulate.fight import prepare, run_fight
from engine.tactics.ua3 import PRESETS, Ua3Profile, Ua3TacticRule, act, declarations
from tests.ua3.fights import COP, PISTOL, Fight, join, person

ROOT = Path(__file__).resolve().parents[2]
GRAPPLING = [ROOT / "scenarios" / "ua3" / name for name in ("garage-grapple.toml", "back-alley-brawl.toml")]
#: tactics that name no grapple rule: they shoot, or only dodge
NO_GRAPPLE_RULE = Ua3Profile(rules=(Ua3TacticRule(do="attack"), Ua3TacticRule(do="dodge")))
GRABBER = person("Grabber", violence=5)  # Struggle 40
SHOOTER = person("Shooter", violence=3, identities=(COP,))  # Struggle 30, Cop 55 (firearms)


def grabbed_shooter() -> Fight:
    """Round 1: a grabs b — a pistol in hand, declared nothing — with a 10 (advantage A)."""
    fight = Fight(join("a", "x", GRABBER), join("b", "y", SHOOTER, PISTOL))
    fight.declare(("a", "grapple", ["b"]), ("b", "nothing"))
    fight.do(f.Grapple(actor="a", target="b", dice=(1, 0)))
    return fight


def test_a_defender_whose_tactics_name_no_grapple_rule_declares_its_grapple():
    """U-17: "an automated combatant whose tactics name no grapple rule still rolls its exchange"
    — its declaration is the grapple, not nothing, and so is the attacker's."""
    fight = grabbed_shooter()
    chosen = declarations(Table(fight.state), {"a": NO_GRAPPLE_RULE, "b": NO_GRAPPLE_RULE}, SeededDice(1))
    assert [(d.actor, d.action) for d in chosen.declarations] == [("a", "grapple"), ("b", "grapple")]


@pytest.mark.parametrize("preset", ["gunner", "marksman", "bystander"])
def test_a_scripted_defender_without_advantage_rolls_its_exchange(preset):
    """U-17: at advantage A the defender has no option: its move is the roll, whatever its preset."""
    fight = grabbed_shooter()
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0)))  # a fails: the token stays at advantage A
    command = act(Table(fight.state), "b", {"b": Ua3Profile(rules=PRESETS[preset])}, SeededDice(1))
    assert command == f.Grapple(actor="b", move="roll")


def defender_with_advantage() -> Fight:
    """Round 2: a fails (90), b crits (01) from advantage A to advantage B; round 3: a fails."""
    fight = grabbed_shooter()
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0)))
    fight.do(f.Grapple(actor="b", dice=(0, 1)))
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0)))
    return fight


@pytest.mark.parametrize(("preset", "move"), [("gunner", "shoot"), ("marksman", "shoot"), ("bystander", "roll")])
def test_with_advantage_the_shooting_presets_shoot_and_tactics_without_a_grapple_rule_roll(preset, move):
    """U-17, U-5: a gun holder with advantage may shoot instead of moving — the gunner and
    marksman presets do; by default (no grapple rule naming a move) the defender rolls on."""
    fight = defender_with_advantage()
    assert next(c for c in fight.state.conflicts if c.kind == "grapple").token == "advantage_b"
    command = act(Table(fight.state), "b", {"b": Ua3Profile(rules=PRESETS[preset])}, SeededDice(1))
    assert command == f.Grapple(actor="b", move=move)
    events = fight.do(msgspec.structs.replace(command, dice=(2, 5)))
    if move == "shoot":  # 25 against Cop 55: the pistol's 25 wounds (U-5)
        assert [e.amount for e in events if isinstance(e, WoundsTaken) and e.actor == "a"] == [25]
    else:
        assert [e.actor for e in events if isinstance(e, GridironRolled)] == ["b"]


def test_a_shooting_preset_without_a_firearms_identity_rolls_instead():
    """U-5, U-17: a gun in hand without a `firearms` identity cannot shoot: the preset rolls."""
    fight = Fight(join("a", "x", GRABBER), join("b", "y", person("Clerk", violence=3), PISTOL))
    fight.declare(("a", "grapple", ["b"]), ("b", "dodge"))
    fight.do(f.Grapple(actor="a", target="b", dice=(9, 0)))
    fight.do(f.Grapple(actor="b", dice=(1, 0)))  # advantage B
    fight.declare(("a", "grapple"), ("b", "grapple"))
    fight.do(f.Grapple(actor="a", dice=(9, 0)))
    command = act(Table(fight.state), "b", {"b": Ua3Profile(rules=PRESETS["gunner"])}, SeededDice(1))
    assert command == f.Grapple(actor="b", move="roll")


# -- the batch property ------------------------------------------------------------------------


def grapple_rounds_kept(events: list[EventBase]) -> tuple[int, int]:
    """Walk a fight's log on a working table; at every round's order and every turn, each
    grappler in a running grapple who can act is in the order and its turn holds its exchange
    roll or an allowed option (U-17). Returns (rounds with a grapple, grappler turns seen)."""
    ruleset, table = table_for(None, events[0])
    appliers = ruleset.appliers
    turn_of: tuple[str, bool] | None = None  # whose turn is running, and whether it must grapple
    grappled_in_turn = False
    rounds = turns = 0
    for position, event in enumerate(events, start=1):
        if isinstance(event, ev.OrderSet):
            bound = [r.id for r in table.rows if grapple_of(table, r.id) is not None and can_act(r)]
            assert set(bound) <= set(event.order), (position, bound, event.order)
            rounds += bool(bound)
        if isinstance(event, (GridironRolled, ev.GrappleTurn)) and turn_of is not None and event.actor == turn_of[0]:
            grappled_in_turn = True
        if isinstance(event, ev.TurnEnded) and turn_of is not None and event.actor == turn_of[0]:
            if turn_of[1] and not event.why:
                assert grappled_in_turn, (position, event.actor)
                turns += 1
            turn_of = None
        apply_one(appliers, table, event, where=position)
        if table.phase == "acting" and turn_of is None and table.turn < len(table.order):
            row = table.by_id[table.order[table.turn]]
            turn_of = (row.id, grapple_of(table, row.id) is not None and can_act(row))
            grappled_in_turn = False
    return rounds, turns


@pytest.mark.parametrize("path", GRAPPLING, ids=lambda p: p.stem)
def test_in_every_round_of_a_grapple_each_grappler_who_can_act_rolls_or_takes_an_option(path):
    """U-16, U-17: 40 fights of each shipped grappling scenario (seed 1): no grappler sits a
    round out — and the fights do grapple (the property is not empty), refusing nothing."""
    prep = prepare(load_scenario(path))
    rounds = turns = 0
    for i in range(40):
        run = run_fight(prep, derive_seed(1, i), keep_log=True)
        assert run.refusals == 0, run.refusal_reasons
        r, t = grapple_rounds_kept(run.events)
        rounds, turns = rounds + r, turns + t
    assert rounds >= 40 and turns >= rounds
