"""How a GM plays a ua3 encounter, as Hypothesis strategies: the commands that set one up from a
shipped scenario, commands a GM could give in a state (mostly legal), and mistakes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from engine.commands import Attack, RollCheck, Ruling, StartEncounter
from engine.commands import ua3 as cmd
from engine.commands.base import CommandBase
from engine.dice.checks import CheckSpec, Shift
from engine.rules.ua3.samples import samples
from engine.scenario.ua3_scenario import LoadedUa3Scenario, load_ua3_scenario
from engine.state.ua3.encounter import Ua3Encounter
from engine.state.ua3.sheet import ABILITIES, GAUGES
from tests.rulesets.rulings_play import ruled

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "ua3"
LOADED: dict[str, LoadedUa3Scenario] = {p.name: load_ua3_scenario(p) for p in sorted(SCENARIOS.glob("*.toml"))}


def setup_commands(scenario: LoadedUa3Scenario, seed: int) -> list[CommandBase]:
    """What `ua session new NAME --scenario FILE --seed SEED` executes."""
    return [
        StartEncounter(ruleset="ua3", title=scenario.scenario.title, seed=seed, settings=scenario.settings),
        *(f.joins() for f in scenario.fighters),
    ]


faces = st.integers(0, 9)
table_dice = st.one_of(
    st.just(()),  # seeded dice
    st.tuples(faces, faces),
    st.lists(faces, min_size=3, max_size=8).map(tuple),
)
shifts = st.lists(
    st.builds(Shift, st.sampled_from(["gm", "darkness", "help"]), st.sampled_from([-20, -10, 10, 20])), max_size=2
).map(tuple)
passions = st.sampled_from(["rage", "fear", "noble"])
passion_sets = st.lists(passions, max_size=2, unique=True).map(tuple)
reactions = st.sampled_from([None, "flee", "freeze", "frenzy"])


def _names(state: Ua3Encounter, who: str) -> list[str]:
    c = state.combatant(who)
    names = [a.title() for a in ABILITIES]
    if c is not None:
        names += [i.name for i in c.sheet.identities] + [r.person for r in c.sheet.relationships]
    return names


def _sides(state: Ua3Encounter, ids: list[str]) -> st.SearchStrategy[tuple[cmd.SideSpec, cmd.SideSpec]]:
    def side(who: str) -> st.SearchStrategy[cmd.SideSpec]:
        return st.builds(
            cmd.SideSpec, actor=st.just(who), roll=st.sampled_from(_names(state, who)), stake=st.just("wins")
        )

    crowd = st.builds(cmd.SideSpec, name=st.just("the crowd"), rating=st.integers(10, 70), stake=st.just("riot"))
    pair = st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True)
    return pair.flatmap(lambda p: st.tuples(side(p[0]), side(p[1]) | crowd))


def commands_for(state: Ua3Encounter, setup: list[CommandBase]) -> st.SearchStrategy[CommandBase]:
    """A command a GM could give now: mostly legal ones, judged from the state."""
    ids = [c.id for c in state.combatants]
    general: list[st.SearchStrategy[CommandBase]] = [
        st.builds(Ruling, note=st.sampled_from(["the lights go out", "a siren outside"])),
        st.builds(
            RollCheck, spec=st.builds(CheckSpec, kind=st.just("major"), rating=st.integers(0, 90)), dice=table_dice
        ),
    ]
    missing = [
        c
        for c in setup
        if (isinstance(c, StartEncounter) and state.version == 0)
        or (isinstance(c, cmd.AddCharacter) and state.combatant(c.id) is None)
    ]
    if missing:
        return st.one_of(st.just(missing[0]), *general)
    legal: list[st.SearchStrategy[CommandBase]] = []
    if ids:
        who = st.sampled_from(ids)
        legal.append(ruled(ids, GAUGES, ("unconscious", "frozen", "restrained"), falls=True))
        legal += [
            who.flatmap(
                lambda w: st.builds(
                    cmd.AbilityCheck,
                    actor=st.just(w),
                    name=st.sampled_from(_names(state, w)),
                    shifts=shifts,
                    dice=table_dice,
                )
            ),
            st.builds(
                cmd.StressCheck,
                actor=who,
                gauge=st.sampled_from(GAUGES),
                rank=st.integers(1, 10) | st.integers(1, 4),
                source=st.sampled_from(["", "the gunman"]),
                reaction=reactions,
                passion=st.none() | passions,
                dice=table_dice,
            ),
            st.builds(
                cmd.StressCheck,
                actor=who,
                sample=st.sampled_from([s.name for s in samples()]),
                dice=table_dice,
            ),
            st.builds(
                cmd.SpendPassion, actor=who, passion=passions, mode=st.sampled_from(["reroll", "flip"]), dice=table_dice
            ),
        ]
        if len(ids) >= 2:
            legal += [
                st.builds(
                    cmd.Coerce,
                    coercer=who,
                    target=who,
                    gauge=st.sampled_from(GAUGES),
                    threat=st.just("or else"),
                    coercer_passions=passion_sets,
                    target_passions=passion_sets,
                    answer=st.sampled_from([None, "acquiesce", "refuse"]),
                    dice=table_dice,
                ),
                st.builds(cmd.StartConflict, sides=_sides(state, ids), compressed=st.booleans(), dice=table_dice),
            ]
    if state.coercions:
        legal.append(
            st.builds(
                cmd.AnswerCoercion,
                target=st.sampled_from([c.target for c in state.coercions]),
                answer=st.sampled_from(["acquiesce", "refuse"]),
                dice=table_dice,
            )
        )
    live = [c.id for c in state.conflicts if not c.over]
    if live:
        roll = st.builds(
            cmd.GridironRoll,
            conflict=st.sampled_from(live),
            matched_failure=st.sampled_from([None, "penalty", "wounds"]),
            shifts=shifts,
            dice=table_dice,
        )
        legal += [roll, roll, roll, st.builds(cmd.EndConflict, conflict=st.sampled_from(live))]
    sources = sorted({c.reaction.source for c in state.combatants if c.reaction is not None})
    if sources:
        legal.append(st.builds(cmd.ThreatGone, source=st.sampled_from(sources)))
    if not legal:
        return st.one_of(*general)
    return st.one_of(st.one_of(*legal), st.one_of(*legal), st.one_of(*general))


def wild_commands(state: Ua3Encounter) -> st.SearchStrategy[CommandBase]:
    """Commands a GM might type by mistake: unknown people, bad ranks and gauges, a ua2 command,
    answers nobody waits for, rolls in no conflict."""
    ids = [c.id for c in state.combatants] or ["nobody"]
    return st.one_of(
        st.builds(cmd.StressCheck, actor=st.just("Ghost"), gauge=st.sampled_from(GAUGES), rank=st.integers(1, 10)),
        st.builds(cmd.StressCheck, actor=st.sampled_from(ids), gauge=st.just("self"), rank=st.sampled_from([0, 11])),
        st.builds(cmd.StressCheck, actor=st.sampled_from(ids), gauge=st.just("dread"), rank=st.just(3)),
        st.builds(cmd.StressCheck, actor=st.sampled_from(ids), sample=st.just("be eaten by a grue")),
        st.builds(cmd.AbilityCheck, actor=st.sampled_from(ids), name=st.just("Flying")),
        st.builds(cmd.AnswerCoercion, target=st.sampled_from(ids), answer=st.just("refuse")),
        st.builds(cmd.GridironRoll, conflict=st.just("nope")),
        st.builds(Attack, actor=st.sampled_from(ids), target=st.sampled_from(ids)),
        st.builds(cmd.ThreatGone, source=st.just("nothing at all")),
    )
