"""The figures a GM asks for (issue 11), checked against the fights' own events and the rules:
per side, someone dies / everyone down / permanent damage (C2-31, C2-32); per combatant, the
wounds-taken distribution and madness per meter (M2-4); refusals counted by fight and reason;
the players' side, its sentence, and `--keep-which` judged for it."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine.commands import MadnessCheck
from engine.dice.source import derive_seed
from engine.errors import Refused
from engine.events.combat import AttackResolved, WoundsInflicted
from engine.events.madness import NotchMarked
from engine.rules.ua2 import RULESET
from engine.scenario.scenario import load_scenario
from engine.simulate import fight as fight_module
from engine.simulate.batch import run_batch
from engine.simulate.fight import prepare, run_fight
from engine.simulate.outcome import DOWN
from engine.simulate.stats import median_of, percent, percentile_of, summary

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


def _report_and_runs(name: str, n: int, seed: int) -> tuple[dict, list]:  # type: ignore[type-arg]
    """The batch report (fast path, two workers) and the same fights fought with their logs."""
    loaded = load_scenario(SCENARIOS / f"{name}.toml")
    prep, tally, _ = run_batch(loaded, n, seed, workers=2)
    runs = [run_fight(prep, derive_seed(seed, i), keep_log=True) for i in range(n)]
    return summary(prep, tally, seed=seed), runs


def _blows_over_50(run: fight_module.FightRun) -> Counter[str]:
    """C2-32 read off the log: who took an injury of more than 50 in one blow."""
    hurt: Counter[str] = Counter()
    for e in run.events:
        if isinstance(e, AttackResolved) and e.hit is not None:
            target, amount = e.target, e.hit.amount
        elif isinstance(e, WoundsInflicted):
            target, amount = e.target, e.amount
        else:
            continue
        hurt[target] += amount > 50
    return hurt


def test_side_figures_are_the_share_of_fights_read_off_each_fights_log() -> None:
    """Someone dies (C2-31: at 0 or below), everyone down (dead, incapacitated or unconscious;
    fled and surrendered are not down) and permanent damage (C2-32: more than 50 in one blow)."""
    n = 120
    report, runs = _report_and_runs("gunfight", n, 17)
    sides = {c.side for c in runs[0].state.combatants}
    for side in sides:
        dies = down = permanent = 0
        for run in runs:
            ours = [c for c in run.state.combatants if c.side == side]
            dies += any(c.status == "dead" for c in ours)
            down += all(c.status in DOWN for c in ours)
            permanent += any(_blows_over_50(run)[c.id] for c in ours)
        figures = report["sides"][side]
        assert figures["someone_dies"]["rate"] == round(dies / n, 6)
        assert figures["all_down"]["rate"] == round(down / n, 6)
        assert figures["permanent_damage"]["rate"] == round(permanent / n, 6)
    assert any(report["sides"][s]["permanent_damage"]["rate"] > 0 for s in sides), "a .44 (cap 80) does it"


def test_a_side_out_of_the_fight_by_fleeing_is_counted_apart_from_down() -> None:
    """C2-33: fled is out of the fight but not down; a side whose members all fled or went down,
    one at least fleeing, is counted as `out_fled`, never as `all_down` (issue 31)."""
    n = 150
    report, runs = _report_and_runs("the-thing-in-the-cellar", n, 7)
    for side in {c.side for c in runs[0].state.combatants}:
        down = fled = 0
        for run in runs:
            statuses = [c.status for c in run.state.combatants if c.side == side]
            down += all(s in DOWN for s in statuses)
            fled += "fled" in statuses and all(s in DOWN or s == "fled" for s in statuses)
        figures = report["sides"][side]
        assert figures["all_down"]["rate"] == round(down / n, 6)
        assert figures["out_fled"]["rate"] == round(fled / n, 6)
    humans = report["sides"]["humans"]
    assert humans["out_fled"]["rate"] > 0.5 > humans["all_down"]["rate"], "Dana runs from the thing"
    assert "out of the fight with someone fled in" in report["headline"]


def test_wounds_taken_median_and_90th_percentile_are_those_of_the_fights() -> None:
    n = 101
    report, runs = _report_and_runs("knife-duel", n, 4)
    for cid, figures in report["combatants"].items():
        taken = sorted(
            sum(i.amount for i in next(c for c in run.state.combatants if c.id == cid).injuries if i.round > 0)
            for run in runs
        )  # injuries of round 0 are those a sheet brings (the duel has none taken before round 1)
        w = figures["wounds_taken"]
        assert w["median"] == taken[n // 2]
        assert w["p90"] == taken[-(-9 * n // 10) - 1]  # nearest rank: the ⌈0.9·n⌉-th smallest
        assert w["max"] == taken[-1]
        assert sum(w["distribution"].values()) == n
        assert figures["wounds_taken_mean"] == round(sum(taken) / n, 6)


def test_madness_per_meter_counts_the_notches_each_fight_marked() -> None:
    """M2-4: a failed check marks a failed notch; the cellar's trigger is an unnatural check."""
    n = 80
    report, runs = _report_and_runs("the-thing-in-the-cellar", n, 9)
    for cid, figures in report["combatants"].items():
        for meter, m in figures["meters"].items():
            marks = [
                Counter(e.kind for e in run.events if isinstance(e, NotchMarked) and (e.actor, e.meter) == (cid, meter))
                for run in runs
            ]
            assert m["failed_at_least_once"]["rate"] == round(sum(bool(k["failed"]) for k in marks) / n, 6)
            assert m["failed_notches_mean"] == round(sum(k["failed"] for k in marks) / n, 6)
            assert m["hardened_notches_mean"] == round(sum(k["hardened"] for k in marks) / n, 6)
    unnatural = report["combatants"]["Dana"]["meters"]["unnatural"]
    assert 0 < unnatural["failed_at_least_once"]["rate"] < 1


def test_wounds_a_sheet_brings_to_the_fight_are_not_counted_as_taken_in_it(tmp_path: Path) -> None:
    """The detective starts at 60 of 65 (an injury from before): a fight where nobody touches
    him counts 0 taken, on the fast path and the reference alike."""
    shutil.copytree(SCENARIOS / "characters", tmp_path / "characters")
    cop = tmp_path / "characters" / "cop.toml"
    cop.write_text(cop.read_text().replace("current = 65", "current = 60"))
    path = tmp_path / "ambush.toml"
    path.write_text((SCENARIOS / "ambush.toml").read_text())
    loaded = load_scenario(path)
    prep = prepare(loaded)
    sam = next(c for c in prep.state.combatants if c.id == "Sam")
    assert len(sam.injuries) == 1 and sam.wounds == 60
    _, fast, _ = run_batch(loaded, 200, 2, workers=1)
    _, slow, _ = run_batch(loaded, 200, 2, workers=1, fast=False)
    runs = [run_fight(prep, derive_seed(2, i)) for i in range(200)]
    untouched = sum(len(next(c for c in r.state.combatants if c.id == "Sam").injuries) == 1 for r in runs)
    assert fast.combatants["Sam"].wounds.get(0, 0) == slow.combatants["Sam"].wounds.get(0, 0) == untouched > 0
    assert fast.combatants["Sam"].wounds_taken == slow.combatants["Sam"].wounds_taken


def test_percentiles_of_a_histogram() -> None:
    assert percentile_of({}, 0.9) == 0
    assert percentile_of({5: 1}, 0.9) == 5
    assert percentile_of({0: 9, 30: 1}, 0.9) == 0  # 9 of 10 at or below 0
    assert percentile_of({0: 8, 30: 2}, 0.9) == 30
    assert percentile_of({1: 1, 2: 1, 3: 1, 4: 1}, 0.5) == 2
    assert median_of({0: 8, 30: 2}) == 0


def test_percent_keeps_small_rates_readable() -> None:
    rates = (0.0, 0.004, 0.31, 0.905, 0.999, 1.0)
    assert [percent(x) for x in rates] == ["0%", "0.4%", "31%", "90.5%", "99.9%", "100%"]


# --- refusals ------------------------------------------------------------------------------


def refuse_madness_checks(monkeypatch: pytest.MonkeyPatch, message: str) -> None:
    """Make the rules refuse every scenario madness trigger on Dana (a stand-in for any defect
    that makes a scripted command illegal; the fight goes on without it)."""
    handlers = RULESET.handlers
    real = handlers[MadnessCheck]

    def deciding(sink, command, dice):  # type: ignore[no-untyped-def]
        if command.actor == "Dana":
            raise Refused(message)
        real(sink, command, dice)

    monkeypatch.setitem(handlers, MadnessCheck, deciding)  # type: ignore[arg-type]


def test_refusals_are_counted_by_fight_with_their_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_madness_checks(monkeypatch, "Dana cannot be checked (a test)")
    loaded = load_scenario(SCENARIOS / "the-thing-in-the-cellar.toml")
    prep, tally, _ = run_batch(loaded, 30, 5, workers=1)
    report = summary(prep, tally, seed=5)
    refused = report["refusals"]
    assert (refused["fights"], refused["commands"], refused["rate"]) == (30, 30, 1.0)
    assert refused["reasons"] == [{"reason": "Dana cannot be checked (a test)", "fights": 30, **_rate_of(30, 30)}]
    assert report["refused_commands"] == 30
    assert report["warnings"][0].startswith("30 of 30 fights (100%) had refused commands")
    assert "Dana cannot be checked (a test)" in report["warnings"][0]
    # the reference engine reports exactly the same
    _, slow, _ = run_batch(loaded, 30, 5, workers=1, fast=False)
    assert summary(prep, slow, seed=5) == report


def _rate_of(count: int, n: int) -> dict[str, float]:
    from engine.simulate.stats import rate

    return rate(count, n)


def test_a_batch_without_refusals_says_so_and_warns_of_nothing() -> None:
    loaded = load_scenario(SCENARIOS / "knife-vs-22.toml")
    report = summary(*run_batch(loaded, 50, 1, workers=1)[:2], seed=1)
    assert report["refusals"]["fights"] == 0 and report["refusals"]["reasons"] == []
    assert report["warnings"] == []


# --- the players' side ---------------------------------------------------------------------


def _with_players(tmp_path: Path, name: str, players: str) -> Path:
    text = (SCENARIOS / f"{name}.toml").read_text()
    title_line = next(line for line in text.splitlines() if line.startswith("title"))
    path = SCENARIOS / f"{name}.toml"
    out = tmp_path / path.name
    (tmp_path / "characters").mkdir(exist_ok=True)
    for sheet in (SCENARIOS / "characters").glob("*.toml"):
        (tmp_path / "characters" / sheet.name).write_text(sheet.read_text())
    out.write_text(text.replace(title_line, f'{title_line}\nplayers = "{players}"', 1))
    return out


def test_the_players_side_defaults_to_the_first_and_may_be_named(tmp_path: Path) -> None:
    assert load_scenario(SCENARIOS / "knife-vs-22.toml").players == "knife"
    loaded = load_scenario(_with_players(tmp_path, "knife-vs-22", "gun"))
    assert loaded.players == "gun"
    report = summary(*run_batch(loaded, 200, 3, workers=1)[:2], seed=3)
    gun = report["sides"]["gun"]
    assert report["players"] == "gun"
    assert report["headline"] == (
        f"Someone on your side (gun) dies in {_interval(gun['someone_dies'])} of fights; "
        f"everyone on it is down in {_interval(gun['all_down'])}; it wins {_interval(gun)}."
    )


def _interval(r: dict[str, float]) -> str:
    places = 0 if 0.095 <= r["rate"] < 0.905 else 1  # the bounds as precise as the rate
    return f"{percent(r['rate'])} [{100 * r['ci95_low']:.{places}f}–{100 * r['ci95_high']:.{places}f}%]"


def test_players_naming_no_side_is_an_error_at_its_path(tmp_path: Path) -> None:
    from engine.scenario.files import FileError

    with pytest.raises(FileError) as info:
        load_scenario(_with_players(tmp_path, "knife-vs-22", "elves"))
    assert info.value.json_path == "$.players" and "elves" in info.value.reason and "knife, gun" in info.value.hint


@pytest.mark.parametrize(("which", "outcome"), [("worst", -1), ("best", 1)])
def test_keep_which_is_judged_for_the_players_side(tmp_path: Path, which: str, outcome: int) -> None:
    loaded = load_scenario(_with_players(tmp_path, "knife-vs-22", "gun"))
    prep, _, picks = run_batch(loaded, 60, 2, workers=2, keep=3)
    for i in picks.indices(which):  # type: ignore[arg-type]
        result = run_fight(prep, derive_seed(2, i)).state.fight.result
        assert result is not None
        assert (1 if result.winner == "gun" else -1) == outcome
