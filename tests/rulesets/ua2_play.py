"""How a GM plays a ua2 encounter, as Hypothesis strategies: the commands that set one up from a
shipped scenario, commands a GM could give in a state (mostly legal), and mistakes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from engine.commands import (
    AddCombatant,
    Attack,
    BeginFight,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    EndFight,
    MadnessCheck,
    RollCheck,
    Ruling,
    StartEncounter,
)
from engine.commands.base import CommandBase
from engine.commands.combat import Declaration
from engine.dice.checks import CheckSpec, Shift
from engine.rules.ua2 import RULESET
from engine.scenario.scenario import LoadedScenario, load_scenario
from engine.state.encounter import Encounter
from engine.state.sheet import METERS
from tests.rulesets.rulings_play import ruled

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
LOADED: dict[str, LoadedScenario] = {
    name: load_scenario(SCENARIOS / name) for name in ("knife-vs-22.toml", "ambush.toml", "bar-brawl.toml")
}


def setup_commands(scenario: LoadedScenario, seed: int) -> list[CommandBase]:
    """What `ua session new NAME --scenario FILE --seed SEED` executes."""
    return [
        StartEncounter(title=scenario.scenario.title, seed=seed, settings=scenario.settings),
        *(f.joins() for f in scenario.fighters),
    ]


faces = st.integers(0, 9)
table_dice = st.one_of(
    st.just(()),  # seeded dice
    st.tuples(faces, faces),
    st.lists(faces, min_size=3, max_size=8).map(tuple),
)
shifts = st.lists(
    st.builds(Shift, st.sampled_from(["gm", "wounds", "cover"]), st.sampled_from([-30, -20, -10, 10, 20])),
    max_size=2,
).map(tuple)


def commands_for(
    state: Encounter, setup: list[CommandBase], *, fighting: bool = False
) -> st.SearchStrategy[CommandBase]:
    """A command a GM could give now: mostly legal ones, judged from the state (only turns in
    the fight if `fighting`)."""
    ids = [c.id for c in state.combatants]
    general: list[st.SearchStrategy[CommandBase]] = [
        st.builds(Ruling, note=st.sampled_from(["the lights go out", "a siren outside"])),
        st.builds(
            RollCheck, spec=st.builds(CheckSpec, kind=st.just("major"), rating=st.integers(0, 90)), dice=table_dice
        ),
    ]
    if ids:
        general.append(ruled(ids, METERS, ("unconscious", "frozen", "prone", "blind", "dazed")))
        general.append(
            st.builds(
                MadnessCheck,
                actor=st.sampled_from(ids),
                meter=st.sampled_from(METERS),
                rank=st.integers(1, 10) | st.integers(1, 3),
                source=st.sampled_from(["", "the thing in the cellar"]),
                dice=table_dice,
            )
        )
    missing = [
        c
        for c in setup
        if (isinstance(c, StartEncounter) and state.seed is None)
        or (isinstance(c, AddCombatant) and state.combatant(c.id) is None)
    ]
    if missing:
        return st.one_of(st.just(missing[0]), *general)
    fight = state.fight
    legal: list[st.SearchStrategy[CommandBase]] = []
    if fight.phase == "setup":
        legal.append(st.builds(BeginFight, dice=table_dice))
    elif fight.phase == "declare":
        active = [c.id for c in state.combatants if c.status == "active"]
        focus = st.sampled_from(active or ids).flatmap(
            lambda who: st.builds(
                Declaration,
                id=st.just(who),
                focus_target=st.sampled_from([i for i in ids if i != who] or ids),
                focus=st.sampled_from([10, 20]),
            )
        )
        declaration = focus | st.builds(Declaration, id=st.sampled_from(active or ids), continue_dodge=st.booleans())
        legal.append(
            st.builds(Declare, declarations=st.lists(declaration, max_size=2, unique_by=lambda d: d.id).map(tuple))
        )
    elif fight.phase in ("ambush", "acting") and RULESET.acting_now(state) is None:
        legal.append(st.just(Declare()))  # a madness check put the last fighter of the round out of action
    elif fight.phase in ("ambush", "acting"):
        actor = str(RULESET.acting_now(state))
        others = [i for i in ids if i != actor] or ids
        fighter = state.fighter(actor)
        weapons = [w.name for w in fighter.arsenal if w.name != fighter.in_hand] or ["fists"]
        attack = st.builds(Attack, actor=st.just(actor), target=st.sampled_from(others), shifts=shifts, dice=table_dice)
        legal += [
            attack,
            attack,
            attack,
            st.builds(Dodge, actor=st.just(actor), dice=table_dice),
            st.builds(Draw, actor=st.just(actor), weapon=st.sampled_from(weapons)),
            st.builds(DoNothing, actor=st.just(actor)),
        ]
    if not legal:
        return st.one_of(*general)
    if fighting:
        return st.one_of(*legal)
    return st.one_of(st.one_of(*legal), st.one_of(*legal), st.one_of(*legal), st.one_of(*general))


def wild_commands(state: Encounter) -> st.SearchStrategy[CommandBase]:
    """Commands a GM might type by mistake: anyone attacks anyone, unknown people, bad ranks."""
    ids = [c.id for c in state.combatants] or ["nobody"]
    return st.one_of(
        st.builds(Attack, actor=st.sampled_from([*ids, "Ghost"]), target=st.sampled_from(ids), dice=table_dice),
        st.builds(Dodge, actor=st.sampled_from([*ids, "Ghost"])),
        st.builds(MadnessCheck, actor=st.just("Ghost"), meter=st.sampled_from(METERS), rank=st.integers(1, 10)),
        st.builds(MadnessCheck, actor=st.sampled_from(ids), meter=st.just("self"), rank=st.sampled_from([0, 11])),
        st.builds(Draw, actor=st.sampled_from(ids), weapon=st.just("a rocket launcher")),
        st.just(EndFight(reason="the police arrive")),
    )
