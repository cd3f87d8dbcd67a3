"""Law 1 for batches: the rules write facts to a sink, and the two sinks run the same rules. A
counting sink (a batch: facts applied to the working table and counted, no event built) and a
recording sink (a log: every event built and kept) give the same fight, and the log a recording
sink keeps folds to exactly the table the fight ended with — on every shipped scenario and on
random scenarios that reach every kind of rule: strikes, divided and special attacks, dodges,
focus, grips, every cherry, suppressive fire, madness and its reactions, the end of a fight."""

from __future__ import annotations

import copy
import shutil
import tomllib
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.commands.combat import CHERRIES
from engine.dice.source import derive_seed
from engine.reducers import fold
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import Fights, run_batch
from engine.simulate.fight import Prepared, prepare, run_fight
from engine.simulate.outcome import outcome_of
from engine.simulate.stats import summary
from engine.tactics.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
CHARACTERS = ROOT / "scenarios" / "characters"
SEEDS = tuple(derive_seed(3, i) for i in range(60))
WEAPONS = ("fists", "knife", ".22 pistol", ".44 revolver", "baseball bat", "machete", "chainsaw", "pillow", "shotgun")
SELECTORS = ("nearest", "weakest", "strongest", "random", "most_dangerous", "focusing_on_me")
VIOLENCE = (
    "violence_first_weapon_attack",
    "violence_first_shot_at",
    "violence_kill",
    "violence_ally_killed",
    "violence_kill_helpless",
)
FIGHTS_PER_EXAMPLE = 4


def _sheet_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((CHARACTERS / f"{name}.toml").read_text())
    return data


SHEETS = {p.stem: _sheet_data(p.stem) for p in sorted(CHARACTERS.glob("*.toml"))}


def _mismatches(prep: Prepared, seeds: tuple[int, ...]) -> list[str]:
    """For each seed: the counting, recording and logging fights give one outcome, and the log
    folds to the table the fight ended with (without the version: a log holds command records
    too). What differs, told for a failing assertion."""
    wrong = []
    for seed in seeds:
        counted = outcome_of(prep, run_fight(prep, seed))
        recorded = outcome_of(prep, run_fight(prep, seed, record=True))
        logged = run_fight(prep, seed, keep_log=True)
        logged_outcome = outcome_of(prep, logged)._replace(events=counted.events)
        if not counted == recorded == logged_outcome:
            wrong.append(f"seed {seed}: counted {counted}\nrecorded {recorded}\nlogged {logged_outcome}")
        folded = fold(logged.events)
        if folded != logged.state:
            wrong.append(f"seed {seed}: the kept log does not fold to the fight's table")
    return wrong


def _write(folder: Path, name: str, scenario: dict[str, Any]) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps(scenario))
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scenario folder with the shipped sheets under it (sheet paths may not leave it)."""
    root = tmp_path_factory.mktemp("sinks")
    shutil.copytree(CHARACTERS, root / "characters")
    return root


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_counting_and_recording_sinks_fight_the_same_fight_on_shipped_scenarios(path: Path) -> None:
    """Law 1: 60 fights of each shipped scenario, counted, recorded and logged, are one fight,
    and each log folds to its fight's table (C2-1 … C2-33, M2-8)."""
    assert _mismatches(prepare(load_scenario(path)), SEEDS) == []


def test_a_batch_with_openings_kept_is_the_batch_without(folder: Path) -> None:
    """Openings fought once per worker (a batch optimisation) change no fight: bar-brawl's rolled
    initiative (I2-1 … I2-4) and the cellar's madness triggers, fight by fight."""
    for name in ("bar-brawl", "the-thing-in-the-cellar", "ambush"):
        prep = prepare(load_scenario(ROOT / "scenarios" / f"{name}.toml"))
        fights = Fights(prep)
        for seed in SEEDS:
            assert fights.outcome(seed) == outcome_of(prep, run_fight(prep, seed)), f"{name} seed {seed}"
        assert fights.openings.kept > 0


@pytest.mark.parametrize("name", ["knife-vs-22", "gunfight"])
def test_a_counting_batch_reports_exactly_what_a_recording_batch_does(name: str) -> None:
    """`run_batch(fast=True)` and `fast=False` give byte-identical reports and the same picks."""
    loaded = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    n, seed = 300, 41
    prep, fast, fast_picks = run_batch(loaded, n, seed, workers=1, keep=3, fast=True)
    _, slow, slow_picks = run_batch(loaded, n, seed, workers=1, keep=3, fast=False)
    assert msgspec.json.encode(summary(prep, fast, seed=seed)) == msgspec.json.encode(summary(prep, slow, seed=seed))
    assert fast == slow
    for which in ("best", "worst", "random"):
        assert fast_picks.indices(which) == slow_picks.indices(which)


# --- random small scenarios ------------------------------------------------------------------------

_FRACTIONS = st.one_of(st.sampled_from([0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1.0]), st.floats(0.0, 1.0))
_CONDITIONS: dict[str, st.SearchStrategy[Any]] = {
    "wounds_below": _FRACTIONS,
    "wounds_at_least": _FRACTIONS,
    "round_at_least": st.integers(0, 6),
    "round_at_most": st.integers(0, 6),
    "chance": _FRACTIONS,
    "enemies_at_least": st.integers(0, 3),
    "enemies_at_most": st.integers(0, 3),
    "armed": st.booleans(),
    "jammed": st.booleans(),
    "allies_down": st.booleans(),
    "dodged_last_round": st.booleans(),
    "reaction": st.sampled_from(["none", "freeze", "flee", "frenzy"]),
    "prone": st.booleans(),
    "at_range": st.booleans(),
    "held": st.booleans(),
    "holding": st.booleans(),
}


@st.composite
def _when(draw: st.DrawFn) -> dict[str, Any]:
    """Up to two conditions (tactics.choose.holds); `chance` draws from the AI stream."""
    keys = draw(st.lists(st.sampled_from(sorted(_CONDITIONS)), max_size=2, unique=True))
    return {key: draw(_CONDITIONS[key]) for key in keys}


@st.composite
def _rule(draw: st.DrawFn, carried: tuple[str, ...]) -> dict[str, Any]:
    do = draw(
        st.sampled_from(
            [
                *("attack",) * 4,
                *("dodge", "draw", "nothing", "clear_jam", "flee", "surrender", "stand_up"),
                *("suppress", "break_free", "squeeze"),
            ]
        )
    )
    rule: dict[str, Any] = {"do": do}
    when = draw(_when())
    if when:
        rule["when"] = when
    if do == "attack":
        rule["target"] = draw(st.sampled_from(SELECTORS))
        rule["focus"] = draw(st.sampled_from([0, 10, 20]))
        if draw(st.integers(0, 3)) == 0:
            rule["attacks"] = draw(st.sampled_from([2, 3]))  # C2-8
        elif draw(st.integers(0, 4)) == 0:
            rule["mode"] = draw(st.sampled_from(["disarm", "throw", "throw_person"]))  # C2-19 … C2-21
        if draw(st.integers(0, 4)) == 0:
            rule["weapon"] = draw(st.sampled_from(carried))
        cherry = draw(st.sampled_from([*CHERRIES, None]))
        if cherry is not None:
            rule["cherry"] = cherry
    elif do == "draw" and draw(st.booleans()):
        rule["weapon"] = draw(st.sampled_from(carried))
    elif do == "dodge":
        rule["keep_dodging"] = draw(st.booleans())
    elif do == "suppress":
        rule["shots"] = draw(st.sampled_from([4, 6, 10, 20]))  # C2-18
    return rule


@st.composite
def _combatant(draw: st.DrawFn, id_: str, side: str, name: str) -> dict[str, Any]:
    """The sheet `name` from scenarios/characters (by path, or inline with starting wounds and
    violence notches), up to two catalog weapons, a preset or a few custom rules, a cherry, a
    default reaction to a failed madness check (M2-4)."""
    arsenal = draw(st.lists(st.sampled_from(WEAPONS), max_size=2, unique=True))
    spec: dict[str, Any] = {"id": id_, "side": side, "weapons": arsenal}
    if draw(st.booleans()):
        spec["sheet"] = f"characters/{name}.toml"
    else:
        sheet = copy.deepcopy(SHEETS[name])
        body = sheet["stats"]["body"]
        if draw(st.booleans()):
            # near the lines (C2-31), but able to act: above the highest incapacitated_at drawn
            current = draw(st.one_of(st.integers(11, 16), st.integers(11, body)))
            sheet["wounds"] = {"current": min(current, body), "maximum": body}
        hardened = draw(st.sampled_from([0, 0, 1, 3, 9, 10]))
        failed = draw(st.sampled_from([0, 0, 1, 4, 5]))  # 4: the next failure marks a neurosis (M2-5)
        sheet["meters"] = {"violence": {"hardened": hardened, "failed": failed, "neurosis": failed == 5}}
        spec["character"] = sheet
    in_hand = draw(st.sampled_from(["", *arsenal]))
    if in_hand:
        spec["in_hand"] = in_hand
    carried = ("fists", *(w for w in arsenal if w != "fists"))
    if draw(st.booleans()):
        spec["tactics"] = draw(st.sampled_from(sorted(PRESETS)))
    else:
        spec["tactics"] = draw(st.lists(_rule(carried), min_size=1, max_size=4))
    cherry = draw(st.sampled_from([*CHERRIES, None]))
    if cherry is not None:
        spec["cherry"] = cherry
    reaction = draw(st.sampled_from([None, None, "freeze", "flee", "frenzy"]))
    if reaction is not None:
        spec["reaction"] = reaction
    if draw(st.integers(0, 3)) == 0:
        spec["at_range"] = True
    if side == "a" and draw(st.integers(0, 3)) == 0:
        spec["ambusher"] = True  # I2-3: side a jumps side b
    return spec


@st.composite
def _scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """1v1 up to 3v2 (distinct sheets, so that fewer initiatives tie and draw dice, I2-4), with a
    round limit (C2-33), a default cherry (C2-22), violence ranks (M2-8), a default reaction
    (M2-4), sometimes other wound lines (C2-31) and madness triggers before the fight (M2-8)."""
    sizes = draw(st.tuples(st.integers(1, 3), st.integers(1, 2)))
    names = iter(draw(st.permutations(sorted(SHEETS))))
    combatants = [
        draw(_combatant(f"{side}{i}", side, next(names)))
        for side, size in zip(("a", "b"), sizes, strict=True)
        for i in range(size)
    ]
    options: dict[str, Any] = {
        "max_rounds": draw(st.integers(1, 30)),
        "default_cherry": draw(st.sampled_from(CHERRIES)),
        "default_reaction": draw(st.sampled_from(["freeze", "flee", "frenzy"])),
        **{name: draw(st.integers(0, 6)) for name in VIOLENCE},
    }
    if draw(st.booleans()):
        options["incapacitated_at"] = draw(st.sampled_from([5, 10]))  # always above dead_at
        options["dead_at"] = draw(st.sampled_from([0, -10]))
    scenario = {"title": "random", "settings": options, "combatants": combatants}
    triggers = draw(st.lists(_trigger([c["id"] for c in combatants]), max_size=2))
    if triggers:
        scenario["triggers"] = triggers
    return scenario


@st.composite
def _trigger(draw: st.DrawFn, ids: list[str]) -> dict[str, Any]:
    """A scenario madness check before the fight (M2-8) for all, a side or one combatant, whose
    reaction lasts until its source — a combatant, named in any case, or a thing — is gone (M2-4)."""
    source = draw(st.sampled_from(["the horror", *ids, *(i.upper() for i in ids)]))
    return {
        "meter": draw(st.sampled_from(["violence", "unnatural", "helplessness"])),
        "rank": draw(st.integers(1, 10)),
        "who": draw(st.sampled_from(["all", "a", "b", *ids])),
        "source": source,
    }



@settings(max_examples=80)
@given(scenario=_scenarios(), base=st.integers(0, 2**32))
def test_counting_and_recording_sinks_agree_on_random_scenarios(
    folder: Path, scenario: dict[str, Any], base: int
) -> None:
    """Random 1v1 … 3v2 scenarios: shipped sheets, catalog weapons, presets and custom rules
    (conditions, selectors, focus C2-5, several attacks C2-8, disarms and throws C2-19 … C2-21,
    dodges C2-15/C2-16, draws C2-3, suppressive fire C2-18, grips C2-27), every cherry (C2-22 …
    C2-30), round limits (C2-33), wound lines (C2-31), violence ranks and notches (M2-2 … M2-8),
    triggers before the fight. Four fights each, counted, recorded and logged: one fight."""
    path = _write(folder, "random", scenario)
    prep = prepare(load_scenario(path))
    assert _mismatches(prep, tuple(derive_seed(base, i) for i in range(FIGHTS_PER_EXAMPLE))) == []
    event(f"{len(prep.scenario.fighters)} combatants")
