"""How a GM plays a ua3 fight, as Hypothesis strategies: the round's declarations and the
declared action of whoever acts (from the tactics presets, with table dice or seeded ones),
GM commands in between, and mistakes (out-of-turn actions, undeclared ones, unknown people)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.commands import ua3_combat as f
from engine.commands.base import CommandBase
from engine.dice.source import SeededDice
from engine.rules.ua3.table import Table
from engine.state.ua3.encounter import Ua3Encounter
from engine.tactics.ua3 import PRESETS, Ua3Profile
from engine.tactics.ua3_script import SCRIPT
from tests.rulesets.ua3_play import commands_for as ua3_commands
from tests.rulesets.ua3_play import table_dice, wild_commands

PROFILES = {name: Ua3Profile(rules=rules) for name, rules in PRESETS.items()}


def scripted(state: Ua3Encounter, preset: str, seed: int) -> CommandBase:
    """What the script does now with every combatant on `preset`."""
    table = Table(state)
    profiles = {r.id: PROFILES[preset] for r in table.rows}
    return SCRIPT.next_command(table, profiles, SeededDice(seed))


def fight_commands(state: Ua3Encounter, setup: list[CommandBase]) -> st.SearchStrategy[CommandBase]:
    phase = state.fight.phase
    if phase == "setup" and len(state.combatants) == len(setup) - 1:
        return st.one_of(st.just(f.BeginFight()), ua3_commands(state, setup))
    if phase in ("declare", "acting"):
        move = st.builds(
            lambda preset, seed, dice: _with_dice(scripted(state, preset, seed), dice),
            st.sampled_from(sorted(PRESETS)),
            st.integers(0, 2**16),
            table_dice,
        )
        actor = (
            state.fight.order[state.fight.turn]
            if phase == "acting" and state.fight.turn < len(state.fight.order)
            else ""
        )
        extra: list[st.SearchStrategy[CommandBase]] = [move, move, move, move]
        if actor:
            extra.append(st.just(f.DoNothing(actor=actor)))
        extra.append(st.just(f.EndFight(reason="the police arrive")))
        return st.one_of(st.one_of(*extra), ua3_commands(state, setup))
    return ua3_commands(state, setup)


def _with_dice(command: CommandBase, dice: tuple[int, ...]) -> CommandBase:
    import msgspec

    return msgspec.structs.replace(command, dice=dice)


def fight_mistakes(state: Ua3Encounter) -> st.SearchStrategy[CommandBase]:
    ids = [c.id for c in state.combatants] or ["nobody"]
    who = st.sampled_from(ids)
    return st.one_of(
        wild_commands(state),
        st.builds(f.Attack, actor=who, targets=st.tuples(who)),
        st.builds(f.Attack, actor=who, targets=st.tuples(who, who), mode=st.sampled_from(["disarm", "throw"])),
        st.builds(f.FullAuto, actor=who, targets=st.tuples(who)),
        st.builds(f.Grapple, actor=who, move=st.sampled_from(["wounds", "swap", "shoot", "disarm"])),
        st.builds(f.Finish, actor=who, target=who),
        st.builds(
            f.Declare,
            declarations=st.tuples(
                st.builds(
                    f.Declaration, actor=who, action=st.sampled_from(["finish", "full_auto", "clear_jam", "grapple"])
                )
            ),
        ),
        st.builds(f.Ready, actor=who, weapon=st.just("bazooka")),
        st.just(f.BeginFight()),
    )
