"""Batch simulation: the exact answer of a known duel, replays of single fights, the dice law,
re-deciding recorded commands, worker-count independence, the round limit and the statistics."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w

from engine.commands.combat import Attack
from engine.dice.source import TableDice, derive_seed, face
from engine.events import decode
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.reducers import fold
from engine.rules.decide import decide
from engine.scenario.scenario import LoadedScenario, load_scenario
from engine.session import load_state
from engine.session.encoding import stored_log
from engine.simulate.batch import MAX_FIGHTS, MAX_WORKERS, check_size, default_workers, run_batch
from engine.simulate.fight import FightRun, Prepared, prepare, run_fight
from engine.simulate.outcome import outcome_of
from engine.simulate.stats import Tally, median_of, summary, wilson
from engine.state.encounter import Encounter
from engine.store import JsonlStore, write_log

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
ONE_SHOT = ROOT / "scenarios" / "one-shot-duel.toml"


def _prep(path: Path) -> Prepared:
    return prepare(load_scenario(path))


def _kept(path: Path, seed: int, count: int) -> list[FightRun]:
    prep = _prep(path)
    return [run_fight(prep, derive_seed(seed, i), keep_log=True) for i in range(count)]


def _without_version(state: Encounter) -> Encounter:
    return msgspec.structs.replace(state, version=0)


# --- the exact answer -------------------------------------------------------------------------


def _duel_terms(loaded: LoadedScenario) -> tuple[Fraction, Fraction, int, bool]:
    """(Ace's hit chance, Bart's hit chance, round limit, Ace acts first), read from the file and
    checked to be what makes the duel a simple Markov chain."""
    ace, bart = loaded.fighters
    settings = loaded.settings
    assert (ace.side, bart.side) == ("ace", "bart")
    for name in (
        "violence_first_weapon_attack",
        "violence_first_shot_at",
        "violence_kill",
        "violence_ally_killed",
        "violence_kill_helpless",
    ):
        assert getattr(settings, name) == 0, f"M2-8 {name} must be off for the exact answer"
    chances = []
    for f in (ace, bart):
        gun = next(w for w in f.arsenal if w.name == f.in_hand)
        assert gun.kind == "firearm" and gun.skill == "Firearms"
        # any hit drops the target: the smallest damage (1, D-6) leaves ≤ 5 wound points (C2-31)
        assert f.sheet.wounds is not None and f.sheet.wounds.current - 1 <= settings.incapacitated_at
        assert not f.sheet.is_obsession("Firearms"), "no flip-flop (C-9): Firearms is not the obsession"
        assert f.rules[0].do == "clear_jam" and f.rules[0].when.jammed, "a jammed shooter clears it first"
        assert f.rules[-1].do == "attack" and f.rules[-1].focus == 0 and all(r.do != "dodge" for r in f.rules)
        rating = f.sheet.rating("Firearms")
        assert 1 <= rating < 100
        chances.append(Fraction(rating, 100))  # values 1…rating succeed (01 a crit); 100 is a fumble
    ace_init, bart_init = (f.sheet.rating("Initiative") for f in (ace, bart))
    return chances[0], chances[1], settings.max_rounds, ace_init > bart_init


def exact_first_side_wins(p_first: Fraction, p_second: Fraction, rounds: int) -> Fraction:
    """P(the first shooter wins) by rounds: each turn a jammed shooter clears the jam (C2-3);
    else a hit ends the fight, a fumble (00, 1%) jams the gun (C2-11), anything else misses.
    After `rounds` rounds the fight is a draw (C2-33)."""
    fumble = Fraction(1, 100)
    # distribution over (first jammed, second jammed) at the start of a round, fight still on
    alive = {(False, False): Fraction(1)}
    won = Fraction(0)
    for _ in range(rounds):
        after_first: dict[tuple[bool, bool], Fraction] = {}
        for (jam_a, jam_b), p in alive.items():
            if jam_a:
                after_first[(False, jam_b)] = after_first.get((False, jam_b), Fraction(0)) + p
                continue
            won += p * p_first
            after_first[(True, jam_b)] = after_first.get((True, jam_b), Fraction(0)) + p * fumble
            miss = p * (1 - p_first - fumble)
            after_first[(False, jam_b)] = after_first.get((False, jam_b), Fraction(0)) + miss
        alive = {}
        for (jam_a, jam_b), p in after_first.items():
            if jam_b:
                alive[(jam_a, False)] = alive.get((jam_a, False), Fraction(0)) + p
                continue
            alive[(jam_a, True)] = alive.get((jam_a, True), Fraction(0)) + p * fumble
            miss = p * (1 - p_second - fumble)
            alive[(jam_a, False)] = alive.get((jam_a, False), Fraction(0)) + miss
    return won


def test_the_chain_without_jams_is_the_geometric_series() -> None:
    """A check of the chain itself: with no fumbles it would be p / (1 − (1 − p)(1 − q))."""
    p, q = Fraction(40, 100), Fraction(55, 100)
    with_jams = exact_first_side_wins(p, q, 400)
    assert abs(float(with_jams) - float(p / (1 - (1 - p) * (1 - q)))) < 0.002
    assert exact_first_side_wins(p, q, 1) == p


def test_one_shot_duel_win_rate_matches_the_exact_markov_chain() -> None:
    loaded = load_scenario(ONE_SHOT)
    p_ace, p_bart, rounds, ace_first = _duel_terms(loaded)
    assert (p_ace, p_bart, ace_first) == (Fraction(40, 100), Fraction(55, 100), True)
    exact = exact_first_side_wins(p_ace, p_bart, rounds)
    assert abs(float(exact) - 0.547579) < 1e-6  # (the round limit changes nothing at this precision)
    n = 20_000
    _, tally, _ = run_batch(loaded, n, 20240611, workers=default_workers())
    assert tally.fights == n and tally.refusals == 0
    wins = tally.wins.get("ace", 0)
    low, high = wilson(wins, n)
    assert low <= float(exact) <= high, f"ace wins {wins}/{n}; 95% CI [{low:.4f}, {high:.4f}]; exact {float(exact):.6f}"
    # every fight ends with one shooter down, never a draw
    assert tally.wins.get("ace", 0) + tally.wins.get("bart", 0) == n


# --- replays of single fights -----------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_batch_fight_i_is_run_fight_with_the_derived_seed(path: Path) -> None:
    """The batch's tally is exactly the tally of run_fight(derive(seed, i)) for i = 0…n−1."""
    loaded = load_scenario(path)
    seed, n = 99, 12
    prep, tally, _ = run_batch(loaded, n, seed, workers=1)
    by_hand = Tally()
    for i in range(n):
        by_hand.add(outcome_of(prep, run_fight(prep, derive_seed(seed, i))))
    assert tally == by_hand


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_kept_log_folds_to_the_fight_it_records(path: Path, tmp_path: Path) -> None:
    prep = _prep(path)
    for i in range(3):
        fight_seed = derive_seed(5, i)
        kept = run_fight(prep, fight_seed, keep_log=True)
        plain = run_fight(prep, fight_seed)
        assert fold(kept.events) == kept.state
        # recording the commands changes nothing but the log's length
        assert _without_version(kept.state) == _without_version(plain.state)
        file = tmp_path / f"{path.stem}-{i}.jsonl"
        write_log(file, stored_log("fight", kept.events, seed=fight_seed))
        with JsonlStore(file) as store:
            assert load_state(store, "fight") == kept.state
            decoded = [decode(s.data, schema_version=s.schema_version) for s in store.read("fight")]
        assert decoded == kept.events


def _dice_in(events: list[EventBase]) -> list[int]:
    out: list[int] = []
    for e in events:
        if isinstance(e, CommandRecorded):
            assert e.seeded_from == len(out), "each command's dice start where the last one's ended"
            assert e.seeded_count == len(e.dice_used) and e.table_dice == 0
            out.extend(e.dice_used)
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_dice_law_a_kept_log_uses_exactly_the_seeded_faces_in_order(path: Path) -> None:
    """D-8: every die of fight k is face(seed, "dice", k), k = 0, 1, 2, …; tactics draw none."""
    for run in _kept(path, 11, 4):
        used = _dice_in(run.events)
        assert used, "a fight rolls dice"
        assert used == [face(run.seed, "dice", k) for k in range(len(used))]


def _redecide_all(events: list[EventBase]) -> int:
    """Re-decide every recorded command on the state before it with its recorded dice; the
    events must be exactly those that followed it. Returns how many commands were checked."""
    checked = 0
    starts = [j for j, e in enumerate(events) if isinstance(e, CommandRecorded)]
    state = fold(events[: starts[0]])
    for n, j in enumerate(starts):
        record = events[j]
        assert isinstance(record, CommandRecorded)
        end = starts[n + 1] if n + 1 < len(starts) else len(events)
        dice = TableDice(record.dice_used)
        again = decide(state, record.issued, dice)
        assert dice.remaining == 0, f"command {record.id} used fewer dice on re-deciding"
        assert [msgspec.structs.replace(e, command=record.id) for e in again] == events[j + 1 : end]
        state = fold(events[j:end], state)
        checked += 1
    return checked


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_recorded_command_re_decides_to_the_events_that_followed_it(path: Path) -> None:
    for run in _kept(path, 23, 3):
        assert _redecide_all(run.events) >= 2


def character(name: str, skill: str, rating: int, weapon: str, *, body: int = 50) -> dict[str, Any]:
    """An inline sheet (S2-*) with one attack skill and one weapon."""
    return {
        "name": name,
        "weapons": [weapon],
        "stats": {"body": body, "speed": 50, "mind": 50, "soul": 50},
        "skills": [{"name": skill, "stat": "speed" if skill == "Firearms" else "body", "rating": rating}],
        "passions": [{"kind": k, "trigger": "t"} for k in ("rage", "fear", "noble")],
    }


def write_scenario(folder: Path, name: str, combatants: list[dict[str, Any]], **top: Any) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps({"title": name, **top, "combatants": combatants}))
    return path


def test_the_dice_law_holds_with_random_targets_and_chance_rules(tmp_path: Path) -> None:
    """Tactics choosing at random (targets, `chance`) use the AI stream, never the dice."""
    path = write_scenario(
        tmp_path,
        "random",
        [
            {
                "id": "Ace",
                "side": "a",
                "in_hand": "knife",
                "character": character("Ace", "Fighting", 50, "knife", body=90),
                "tactics": [{"do": "attack", "target": "random"}],
            },
            {
                "id": "Bo",
                "side": "b",
                "in_hand": "knife",
                "character": character("Bo", "Fighting", 40, "knife"),
                "tactics": [{"do": "attack", "target": "random", "when": {"chance": 0.5}}, {"do": "dodge"}],
            },
            {
                "id": "Cy",
                "side": "b",
                "character": character("Cy", "Fighting", 30, "fists"),
                "tactics": [{"do": "nothing", "when": {"chance": 0.3}}, {"do": "attack", "target": "random"}],
            },
        ],
        settings={"max_rounds": 30},
    )
    runs = _kept(path, 3, 30)
    for run in runs:
        used = _dice_in(run.events)
        assert used == [face(run.seed, "dice", k) for k in range(len(used))]
        _redecide_all(run.events)
    issued = [e.issued for run in runs for e in run.events if isinstance(e, CommandRecorded)]
    ace_targets = {c.target for c in issued if isinstance(c, Attack) and c.actor == "Ace"}
    assert ace_targets == {"Bo", "Cy"}, "random targets pick both enemies over 30 fights"
    bo = {type(c).__name__ for c in issued if getattr(c, "actor", "") == "Bo"}
    assert {"Attack", "Dodge"} <= bo, "a 50% chance rule both holds and fails"


# --- workers, seeds and limits ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["bar-brawl", "the-thing-in-the-cellar"])
def test_a_batch_is_the_same_on_one_and_two_workers(name: str) -> None:
    loaded = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    _, one, picks_one = run_batch(loaded, 230, 77, workers=1, keep=3)
    _, two, picks_two = run_batch(loaded, 230, 77, workers=2, keep=3)
    assert one == two
    for which in ("best", "worst", "random"):
        assert picks_one.indices(which) == picks_two.indices(which)


def test_different_seeds_give_different_batches() -> None:
    loaded = load_scenario(ROOT / "scenarios" / "knife-duel.toml")
    _, a, _ = run_batch(loaded, 60, 1, workers=1)
    _, b, _ = run_batch(loaded, 60, 2, workers=1)
    assert a != b


def test_batch_sizes_out_of_range_are_clear_errors() -> None:
    from engine.errors import InvalidInput

    for n, workers in ((0, 1), (MAX_FIGHTS + 1, 1), (10**12, 1), (10, 0), (10, 10_000)):
        with pytest.raises(InvalidInput):
            check_size(n, workers)
    check_size(MAX_FIGHTS, 1)


def test_the_default_worker_count_is_a_valid_one() -> None:
    assert 1 <= default_workers() <= MAX_WORKERS
    check_size(10, default_workers())


def test_a_small_batch_on_many_workers_is_the_same_batch() -> None:
    loaded = load_scenario(ROOT / "scenarios" / "knife-vs-22.toml")
    assert run_batch(loaded, 7, 3, workers=8)[1] == run_batch(loaded, 7, 3, workers=1)[1]


def test_a_fight_where_nobody_acts_ends_at_the_round_limit_as_a_draw(tmp_path: Path) -> None:
    text = ONE_SHOT.read_text().replace('tactics = "aggressive"', 'tactics = [{ do = "nothing" }]')
    path = tmp_path / "stand-off.toml"
    path.write_text(text)
    loaded = load_scenario(path)
    assert all(f.rules[0].do == "nothing" for f in loaded.fighters)
    started = time.perf_counter()
    run = run_fight(prepare(loaded), derive_seed(1, 0))
    assert time.perf_counter() - started < 5
    result = run.state.fight.result
    assert result is not None and result.winner is None
    assert run.state.fight.round == loaded.settings.max_rounds == 100
    assert run.refusals == 0
    report = summary(*run_batch(loaded, 3, 1, workers=1)[:2], seed=1)
    assert report["draws"]["count"] == 3 and report["rounds"]["min"] == 100


# --- statistics -------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(100, 100)
    assert high == 1.0 and low == pytest.approx(0.9630, abs=1e-4)
    # never or always seen: the bound is exactly 0 or 1, not a rounding speck beside it
    assert [wilson(0, n)[0] for n in (1_000, 7_000)] == [0.0, 0.0] and wilson(1_000, 1_000)[1] == 1.0


def test_median_of_a_histogram() -> None:
    assert median_of({}) == 0.0
    assert median_of({3: 1}) == 3
    assert median_of({1: 1, 2: 1}) == 1.5
    assert median_of({1: 5, 9: 1}) == 1
    assert median_of({1: 2, 4: 2}) == 2.5


def test_tallies_merge_to_the_tally_of_the_whole() -> None:
    prep = _prep(ROOT / "scenarios" / "ambush.toml")
    runs = [outcome_of(prep, run_fight(prep, derive_seed(8, i))) for i in range(20)]
    whole, left, right = Tally(), Tally(), Tally()
    for i, run in enumerate(runs):
        whole.add(run)
        (left if i % 3 else right).add(run)
    right.merge(left)
    assert summary(prep, right, seed=8) == summary(prep, whole, seed=8)
    report = summary(prep, whole, seed=8)
    assert sum(s["wins"] for s in report["sides"].values()) + report["draws"]["count"] == 20
    assert sum(report["rounds"]["distribution"].values()) == 20
