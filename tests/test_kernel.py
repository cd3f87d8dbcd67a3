"""The batch kernel's law: the fast path (`engine.simulate.kernel`) and the event-sourced reference
(`engine.simulate.fight.run_fight`) give the same `FightOutcome` — winner, rounds, event count,
refusals and, per combatant, status, frozen, wounds taken and dealt, notches — for every fight the
kernel takes; a fight it does not take (`Unsupported`) goes to the reference.

The kernel models strikes (C2-1 … C2-14), dodges (C2-15, C2-16), focus (C2-5), wounds and their
shifts (C2-31), the violence checks a fight raises (M2-8) and the end of the fight (C2-33); the
tests below hold it to the reference on the shipped scenarios, on random small scenarios
(Hypothesis), through whole batches, and on the fall-back path.
"""

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

from engine.dice.source import derive_seed
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import Fights, run_batch
from engine.simulate.fight import Prepared, prepare, run_fight
from engine.simulate.kernel import Kernel, Unsupported, compile_kernel
from engine.simulate.outcome import FightOutcome, outcome_of
from engine.simulate.stats import summary
from engine.tactics.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
CHARACTERS = ROOT / "scenarios" / "characters"
SEEDS = tuple(derive_seed(3, i) for i in range(150))
#: Shipped scenarios whose fights never leave the modelled rules (so every fight is compared).
NEVER_UNSUPPORTED = frozenset(
    {"knife-vs-22", "one-shot-duel", "knife-duel", "gunfight", "bar-brawl", "the-thing-in-the-cellar", "ambush"}
)
#: Shipped scenarios the kernel must take, so the law is not vacuous.
ELIGIBLE = NEVER_UNSUPPORTED

WEAPONS = ("fists", "knife", ".22 pistol", ".44 revolver", "baseball bat", "machete", "chainsaw", "pillow", "shotgun")
SELECTORS = ("nearest", "weakest", "strongest", "random", "most_dangerous", "focusing_on_me")
#: The cherries the kernel models (C2-23, C2-29, C2-30), then some it leaves to the reference.
DAMAGE_CHERRIES = ("more_hurt", "big_hurt", "new_damage", "knock_down")
OTHER_CHERRIES = ("blind", "dazed", "gimme", "kung_fu_grip", "turning_tide")
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


def _reference(prep: Prepared, seed: int) -> FightOutcome:
    return outcome_of(prep, run_fight(prep, seed))


def _taken(prep: Prepared, kernel: Kernel, seeds: tuple[int, ...]) -> list[tuple[int, FightOutcome, FightOutcome]]:
    """(seed, kernel outcome, reference outcome) for each fight of `seeds` the kernel takes."""
    pairs = []
    for seed in seeds:
        try:
            fast = kernel.fight(seed)
        except Unsupported:
            continue
        pairs.append((seed, fast, _reference(prep, seed)))
    return pairs


def _unequal(pairs: list[tuple[int, FightOutcome, FightOutcome]], where: str = "") -> list[str]:
    """The fights whose kernel outcome is not the reference's, told for a failing assertion."""
    return [
        f"kernel ≠ reference for seed {seed}{where}:\nkernel    {fast}\nreference {slow}"
        for seed, fast, slow in pairs
        if fast != slow
    ]


def _write(folder: Path, name: str, scenario: dict[str, Any]) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps(scenario))
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scenario folder with the shipped sheets under it (sheet paths may not leave it)."""
    root = tmp_path_factory.mktemp("kernel")
    shutil.copytree(CHARACTERS, root / "characters")
    return root


# --- the shipped scenarios ----------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_kernel_and_the_reference_give_the_same_outcome_on_shipped_scenarios(path: Path) -> None:
    """For 150 seeds derive(3, i): each fight the kernel takes is the reference's fight, outcome
    for outcome (C2-1 … C2-16, C2-31, M2-8, C2-33); a scenario it does not compile goes wholly
    to the reference."""
    prep = prepare(load_scenario(path))
    kernel = compile_kernel(prep)
    if kernel is None:
        assert path.stem not in ELIGIBLE, f"{path.stem}: the kernel no longer takes it"
        fights = Fights(prep)
        for seed in SEEDS[:5]:
            assert fights.outcome(seed) == (_reference(prep, seed), False)
        return
    pairs = _taken(prep, kernel, SEEDS)
    assert _unequal(pairs, f" of {path.stem}") == []
    fought = len(pairs)
    assert fought > 0, f"{path.stem}: the kernel refused every fight"
    if path.stem in NEVER_UNSUPPORTED:
        assert fought == len(SEEDS), f"{path.stem}: the kernel refused {len(SEEDS) - fought} fights"


def test_the_kernel_takes_the_scenarios_whose_opening_draws_no_dice() -> None:
    taken = {p.stem for p in SCENARIOS if compile_kernel(prepare(load_scenario(p))) is not None}
    assert taken >= ELIGIBLE


def test_the_kernel_fights_a_two_on_one_with_focus_dodges_and_chance_rules(tmp_path: Path) -> None:
    """A fixed 2v1 that stays inside the kernel (violence checks off, M2-8): focus declared and
    kept (C2-4, C2-5), kept dodges (C2-15, C2-16), random targets and `chance` from the AI
    stream, a draw (C2-3), a knife that cuts on a miss (C2-14), wound shifts (C2-31) — every
    fight taken, and each the reference's."""
    scenario = {
        "title": "two on one",
        "settings": {"max_rounds": 20, **dict.fromkeys(VIOLENCE, 0)},
        "combatants": [
            {
                "id": "Rosa",
                "side": "a",
                "character": SHEETS["knife-fighter"],
                "weapons": ["knife"],
                "in_hand": "knife",
                "tactics": [
                    {"do": "dodge", "when": {"wounds_below": 0.5, "chance": 0.5}},
                    {"do": "attack", "target": "random", "focus": 10},
                ],
            },
            {
                "id": "Eddie",
                "side": "b",
                "character": SHEETS["thug"],
                "weapons": ["baseball bat"],
                "tactics": [
                    {"do": "draw", "when": {"armed": False}},
                    {"do": "attack", "target": "focusing_on_me", "focus": 20, "when": {"round_at_least": 2}},
                    {"do": "dodge"},
                ],
            },
            {
                "id": "Lee",
                "side": "b",
                "character": SHEETS["brawler"],
                "weapons": [],
                "tactics": [{"do": "nothing", "when": {"chance": 0.2}}, {"do": "attack", "target": "weakest"}],
            },
        ],
    }
    prep = prepare(load_scenario(_write(tmp_path, "two-on-one", scenario)))
    kernel = compile_kernel(prep)
    assert kernel is not None
    pairs = _taken(prep, kernel, SEEDS[:60])
    assert _unequal(pairs, " of two-on-one") == []
    assert len(pairs) == 60


def _plain(name: str, initiative: int, **extra: Any) -> dict[str, Any]:
    """An inline sheet (S2-*) with nothing but an Initiative skill (default initiative, I2-1)."""
    return {
        "name": name,
        "stats": {"body": 50, "speed": 50, "mind": 50, "soul": 50},
        "skills": [{"name": "Initiative", "stat": "speed", "rating": initiative}],
        "passions": [{"kind": k, "trigger": "t"} for k in ("rage", "fear", "noble")],
        **extra,
    }


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
            ["attack", "attack", "attack", "dodge", "draw", "nothing", "clear_jam", "flee", "surrender", "stand_up"]
        )
    )
    rule: dict[str, Any] = {"do": do}
    when = draw(_when())
    if when:
        rule["when"] = when
    if do == "attack":
        rule["target"] = draw(st.sampled_from(SELECTORS))
        rule["focus"] = draw(st.sampled_from([0, 10, 20]))
        if draw(st.integers(0, 4)) == 0:
            rule["weapon"] = draw(st.sampled_from(carried))
        cherry = draw(st.sampled_from([*DAMAGE_CHERRIES, *OTHER_CHERRIES, None]))
        if cherry is not None:
            rule["cherry"] = cherry
    elif do == "draw" and draw(st.booleans()):
        rule["weapon"] = draw(st.sampled_from(carried))
    elif do == "dodge":
        rule["keep_dodging"] = draw(st.booleans())
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
            current = draw(st.one_of(st.integers(11, 14), st.integers(11, max(11, body))))  # near the lines (C2-31)
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
    cherry = draw(st.sampled_from([*DAMAGE_CHERRIES, None]))
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
        "default_cherry": draw(st.sampled_from([*DAMAGE_CHERRIES, "knock_down"])),
        "default_reaction": draw(st.sampled_from(["freeze", "flee", "frenzy"])),
        **{name: draw(st.integers(0, 6)) for name in VIOLENCE},
    }
    if draw(st.booleans()):
        options["incapacitated_at"] = draw(st.sampled_from([1, 5, 10]))
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


@settings(max_examples=60)
@given(scenario=_scenarios(), base=st.integers(0, 2**32))
def test_the_kernel_and_the_reference_agree_on_random_scenarios(
    folder: Path, scenario: dict[str, Any], base: int
) -> None:
    """Random 1v1 … 3v2 scenarios: shipped sheets, catalog weapons, presets and custom rules
    (conditions, selectors, focus C2-5, dodges C2-15/C2-16, draws C2-3), cherries (C2-22),
    round limits (C2-33), wound lines (C2-31), violence ranks and notches (M2-2 … M2-8),
    triggers before the fight. Each fight the kernel takes, of four seeds derive(base, i),
    equals the reference."""
    path = _write(folder, "random", scenario)
    prep = prepare(load_scenario(path))
    kernel = compile_kernel(prep)
    if kernel is None:
        event("not compiled")
        return
    seeds = tuple(derive_seed(base, i) for i in range(FIGHTS_PER_EXAMPLE))
    pairs = _taken(prep, kernel, seeds)
    assert _unequal(pairs, f" of this scenario:\n{path.read_text()}") == []
    event(f"kernel fought {len(pairs)}/{FIGHTS_PER_EXAMPLE}")


# --- batches and the fall-back --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["knife-vs-22", "gunfight"])
def test_a_fast_batch_reports_exactly_what_the_reference_batch_does(name: str) -> None:
    """`run_batch(fast=True)` and `fast=False` give byte-identical reports, the same picks and the
    same tally but for `fast_path`: how many fights the kernel took."""
    loaded = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    n, seed = 300, 41
    prep, fast, fast_picks = run_batch(loaded, n, seed, workers=1, keep=3, fast=True)
    _, slow, slow_picks = run_batch(loaded, n, seed, workers=1, keep=3, fast=False)
    assert msgspec.json.encode(summary(prep, fast, seed=seed)) == msgspec.json.encode(summary(prep, slow, seed=seed))
    assert msgspec.structs.replace(fast, fast_path=0) == slow
    for which in ("best", "worst", "random"):
        assert fast_picks.indices(which) == slow_picks.indices(which)
    assert slow.fast_path == 0
    assert fast.fast_path > 0
    if name in NEVER_UNSUPPORTED:
        assert fast.fast_path == n


def test_a_fight_the_kernel_does_not_take_is_fought_on_the_reference(folder: Path) -> None:
    """The knife duel with every fighter taking the Kung Fu Grip cherry (C2-22, C2-27): the
    kernel does not model grips, so a fight with an obsession matched success is fought again on
    the event-sourced engine and its outcome is the reference's; the fights it does take are its own."""
    scenario = tomllib.loads((ROOT / "scenarios" / "knife-duel.toml").read_text())
    for spec in scenario["combatants"]:
        spec["cherry"] = "kung_fu_grip"
    prep = prepare(load_scenario(_write(folder, "gripping-duel", scenario)))
    kernel = compile_kernel(prep)
    assert kernel is not None
    refused = taken = None
    for seed in SEEDS:
        try:
            kernel.fight(seed)
        except Unsupported:
            refused = refused if refused is not None else seed
        else:
            taken = taken if taken is not None else seed
        if refused is not None and taken is not None:
            break
    assert refused is not None, "the kernel took every fight: pick a rule it does not model"
    assert taken is not None
    fights = Fights(prep)
    assert fights.outcome(refused) == (_reference(prep, refused), False)
    assert fights.outcome(taken) == (_reference(prep, taken), True)
    reference_only = Fights(prep, fast=False)
    assert reference_only.kernel is None
    assert reference_only.outcome(taken) == (_reference(prep, taken), False)


def test_a_batch_whose_kernel_refuses_some_fights_reports_the_reference_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fall-back, whatever the kernel models: a kernel that refuses every other fight leaves
    the batch report unchanged, and the tally counts the fights it took."""
    loaded = load_scenario(ROOT / "scenarios" / "knife-vs-22.toml")
    fight = Kernel.fight

    def refusing(kernel: Kernel, seed: int) -> FightOutcome:
        if seed % 2:
            raise Unsupported("refused by the test")
        return fight(kernel, seed)

    n, seed = 120, 7
    prep, slow, _ = run_batch(loaded, n, seed, workers=1, fast=False)
    monkeypatch.setattr(Kernel, "fight", refusing)
    _, fast, _ = run_batch(loaded, n, seed, workers=1, fast=True)
    odd = sum(derive_seed(seed, i) % 2 for i in range(n))
    assert 0 < odd < n
    assert fast.fast_path == n - odd
    assert msgspec.structs.replace(fast, fast_path=0) == slow
    assert msgspec.json.encode(summary(prep, fast, seed=seed)) == msgspec.json.encode(summary(prep, slow, seed=seed))


@pytest.mark.parametrize("name", ["the-thing-in-the-cellar", "bar-brawl", "ambush"])
def test_openings_found_by_their_faces_are_the_openings_the_engine_fights(name: str) -> None:
    """An opening that draws dice (scenario madness checks M2-8, initiative rolls and ties I2-1 …
    I2-4, an ambush I2-3) is a function of the faces it reads: the kernel keeps each distinct one
    and finds it again by the fight's faces; what it finds is what the engine fights for that seed."""
    prep = prepare(load_scenario(ROOT / "scenarios" / f"{name}.toml"))
    kernel = compile_kernel(prep)
    assert kernel is not None and kernel.fixed is None
    for seed in SEEDS:
        kernel.opening(seed)
    assert kernel.kept > 0
    if name == "the-thing-in-the-cellar":
        assert kernel.kept <= 100  # its opening reads two faces (a Mind roll): at most 100 openings
    for seed in (*SEEDS, *(derive_seed(4, i) for i in range(50))):
        assert kernel.opening(seed) == kernel.opening_of(run_fight(prep, seed, opening_only=True))


def test_a_fighter_frozen_before_the_fight_and_knocked_down_goes_to_the_engine(folder: Path) -> None:
    """Froz fails a scenario madness check before initiative (M2-4, M2-7: frozen, so no place in
    the order, I2-1) and is still a target; a Knock Down (C2-29) would put it in the order, which
    the kernel leaves to the engine: the batch runs, and every fight equals the reference."""
    brawler = {**SHEETS["brawler"]}
    scenario = {
        "title": "frozen at start",
        "triggers": [{"meter": "violence", "rank": 9, "who": "Froz", "source": "the horror"}],
        "settings": {"max_rounds": 10},
        "combatants": [
            {"id": "Tom", "side": "a", "character": brawler, "cherry": "knock_down", "tactics": [{"do": "attack"}]},
            {"id": "Froz", "side": "b", "character": _plain("Froz", 20), "reaction": "freeze", "tactics": "aggressive"},
            {"id": "Oth", "side": "b", "character": _plain("Oth", 10), "tactics": "aggressive"},
        ],
    }
    scenario["combatants"][1]["character"]["stats"]["mind"] = 1
    prep = prepare(load_scenario(_write(folder, "frozen-at-start", scenario)))
    kernel = compile_kernel(prep)
    assert kernel is not None
    fights = Fights(prep)
    taken = 0
    for seed in SEEDS[:40]:
        outcome, fast = fights.outcome(seed)
        assert outcome == _reference(prep, seed)
        taken += fast
    assert 0 < taken < 40  # the kernel takes the fights without that knock-down
