"""`ua simulate`, `ua fight` and `ua scenario` through typer's runner: determinism, replays,
output formats, kept logs, and malformed scenarios as one-line errors."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shutil
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.dice.source import TableDice, derive_seed, face
from engine.events import decode
from engine.events.commands import CommandRecorded
from engine.reducers import fold
from engine.rules.decide import decide
from engine.scenario.scenario import load_scenario
from engine.session import load_state
from engine.simulate.fight import prepare, run_fight
from engine.store import JsonlStore

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def scenario(name: str) -> str:
    return str(ROOT / "scenarios" / f"{name}.toml")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def ok_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def one_line_error(args: list[str]) -> str:
    """The command fails with exactly one line on stderr, `error: …`, and no traceback."""
    result = runner.invoke(app, args)
    assert result.exit_code not in (0, None), result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.stderr + result.stdout
    return lines[0]


# --- determinism --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bar-brawl", "the-thing-in-the-cellar"])
def test_same_seed_same_bytes_on_one_and_two_workers_and_across_runs(name: str) -> None:
    outputs = []
    for workers in ("1", "2", "1", "2"):
        code, out, err = run("simulate", scenario(name), "-n", "150", "--seed", "31", "--workers", workers, "--json")
        assert code == 0, err
        outputs.append(out)
    assert len(set(outputs)) == 1
    report = json.loads(outputs[0])
    assert report["fights"] == 150 and report["seed"] == 31 and report["refused_commands"] == 0
    code, other, _ = run("simulate", scenario(name), "-n", "150", "--seed", "32", "--workers", "1", "--json")
    assert code == 0 and other != outputs[0]


@pytest.mark.parametrize("name", ["knife-vs-22", "bar-brawl"])
def test_reference_gives_the_same_bytes_as_counting(name: str) -> None:
    """`--reference` fights every fight on the event-sourced engine; the report is the same."""
    args = ("simulate", scenario(name), "-n", "200", "--seed", "5", "--workers", "1", "--json")
    fast_code, fast, err = run(*args)
    assert fast_code == 0, err
    slow_code, slow, err = run(*args, "--reference")
    assert slow_code == 0, err
    assert fast == slow


def test_every_shipped_scenario_checks_and_simulates_from_the_cli() -> None:
    for path in SCENARIOS:
        code, out, err = run("scenario", "check", str(path))
        assert code == 0 and "valid" in out, err
        report = ok_json("simulate", str(path), "-n", "20", "--seed", "3", "--workers", "1")
        assert report["refused_commands"] == 0


def test_the_text_report_names_the_sides_and_the_seed() -> None:
    code, out, err = run("simulate", scenario("knife-vs-22"), "-n", "30", "--seed", "4", "--workers", "1")
    assert code == 0, err
    assert "seed 4" in out and "knife" in out and "gun" in out and "draw" in out


# --- ua fight replays fight i of the batch ------------------------------------------------------


def test_ua_fight_index_i_is_fight_i_of_ua_simulate() -> None:
    seed, n = 12, 8
    batch = ok_json("simulate", scenario("gunfight"), "-n", str(n), "--seed", str(seed), "--workers", "2")
    prep = prepare(load_scenario(scenario("gunfight")))
    wins: dict[str, int] = {}
    rounds: dict[str, int] = {}
    for i in range(n):
        one = ok_json("fight", scenario("gunfight"), "--seed", str(seed), "--index", str(i))
        assert one["fight_seed"] == derive_seed(seed, i)
        direct = run_fight(prep, derive_seed(seed, i))
        result = direct.state.fight.result
        assert one["winner"] == (result.winner if result else None)
        assert one["rounds"] == direct.state.fight.round
        key = one["winner"] or "draw"
        wins[key] = wins.get(key, 0) + 1
        rounds[str(one["rounds"])] = rounds.get(str(one["rounds"]), 0) + 1
    assert {s: v["wins"] for s, v in batch["sides"].items() if v["wins"]} == {
        k: v for k, v in wins.items() if k != "draw"
    }
    assert batch["draws"]["count"] == wins.get("draw", 0)
    assert batch["rounds"]["distribution"] == dict(sorted(rounds.items(), key=lambda kv: int(kv[0])))


@pytest.mark.parametrize("name", ["the-thing-in-the-cellar", "bar-brawl", "ambush"])
def test_fight_save_writes_a_log_that_folds_re_decides_and_keeps_the_dice_law(name: str, tmp_path: Path) -> None:
    seed, index = 77, 3
    file = tmp_path / "fight.jsonl"
    code, out, err = run("fight", scenario(name), "--seed", str(seed), "--index", str(index), "--save", str(file))
    assert code == 0, err
    assert str(file) in out
    with JsonlStore(file) as store:
        state = load_state(store, "fight")
        events = [decode(s.data, schema_version=s.schema_version) for s in store.read("fight")]
    kept = run_fight(prepare(load_scenario(scenario(name))), derive_seed(seed, index), keep_log=True)
    assert state == fold(events) == kept.state
    assert state.seed == derive_seed(seed, index)
    # the dice law: every die, in order, is face(fight seed, "dice", k)
    used = [d for e in events if isinstance(e, CommandRecorded) for d in e.dice_used]
    assert used == [face(derive_seed(seed, index), "dice", k) for k in range(len(used))]
    # every recorded command re-decides to exactly the events after it
    starts = [j for j, e in enumerate(events) if isinstance(e, CommandRecorded)]
    before = fold(events[: starts[0]])
    for n, j in enumerate(starts):
        record = events[j]
        assert isinstance(record, CommandRecorded)
        end = starts[n + 1] if n + 1 < len(starts) else len(events)
        again = decide(before, record.issued, TableDice(record.dice_used))
        assert [msgspec.structs.replace(e, command=record.id) for e in again] == events[j + 1 : end]
        before = fold(events[j:end], before)


def test_fight_narrates_in_sentences() -> None:
    code, out, err = run("fight", scenario("knife-duel"), "--seed", "5", "--index", "0")
    assert code == 0, err
    assert "Round 1" in out and ("attacks" in out) and "fight ends" in out


# --- output formats and kept logs ------------------------------------------------------------


def test_csv_parses_and_carries_the_win_rates() -> None:
    args = ("simulate", scenario("knife-vs-22"), "-n", "60", "--seed", "8", "--workers", "1")
    report = ok_json(*args)
    code, out, err = run(*args, "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and set(rows[0]) == {"section", "name", "metric", "value", "ci95_low", "ci95_high"}
    rates = {
        r["name"]: float(r["value"]) for r in rows if r["section"] == "side" and r["metric"] in ("win_rate", "rate")
    }
    assert rates == {**{s: v["rate"] for s, v in report["sides"].items()}, "draw": report["draws"]["rate"]}
    assert sum(rates.values()) == pytest.approx(1.0)
    for r in rows:
        if r["section"] == "side":
            assert float(r["ci95_low"]) <= float(r["value"]) <= float(r["ci95_high"])


@pytest.mark.parametrize("which", ["worst", "best", "random"])
def test_keep_writes_that_many_logs_that_reopen(which: str, tmp_path: Path) -> None:
    seed = 21
    report = ok_json(
        "simulate",
        scenario("knife-duel"),
        "-n",
        "40",
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--keep",
        "2",
        "--keep-which",
        which,
        "--keep-dir",
        str(tmp_path / "runs"),
    )
    files = sorted((tmp_path / "runs").glob("*.jsonl"))
    assert len(files) == 2 and len(report["kept"]) == 2
    assert sorted(Path(k["file"]) for k in report["kept"]) == files
    prep = prepare(load_scenario(scenario("knife-duel")))
    for kept in report["kept"]:
        assert 0 <= kept["fight"] < 40 and kept["seed"] == derive_seed(seed, kept["fight"])
        with JsonlStore(kept["file"]) as store:
            state = load_state(store, "fight")
        assert state == run_fight(prep, kept["seed"], keep_log=True).state
        assert state.fight.phase == "ended"


@pytest.mark.parametrize(("which", "winner"), [("worst", "gun"), ("best", "knife")])
def test_keep_worst_and_best_are_judged_for_the_first_side(which: str, winner: str, tmp_path: Path) -> None:
    report = ok_json(
        "simulate",
        scenario("knife-vs-22"),
        "-n",
        "60",
        "--seed",
        "2",
        "--workers",
        "1",
        "--keep",
        "3",
        "--keep-which",
        which,
        "--keep-dir",
        str(tmp_path),
    )
    assert len(report["kept"]) == 3
    for kept in report["kept"]:
        with JsonlStore(kept["file"]) as store:
            result = load_state(store, "fight").fight.result
        assert result is not None and result.winner == winner


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is not None, reason="matplotlib is installed")
def test_plot_without_matplotlib_is_one_clear_line(tmp_path: Path) -> None:
    line = one_line_error(
        [
            "simulate",
            scenario("knife-duel"),
            "-n",
            "10",
            "--seed",
            "1",
            "--workers",
            "1",
            "--plot",
            str(tmp_path / "p.png"),
        ]
    )
    assert "matplotlib" in line and "--plot" in line
    assert not (tmp_path / "p.png").exists()


def test_a_trillion_fights_is_a_clear_error_at_once() -> None:
    started = time.perf_counter()
    line = one_line_error(["simulate", scenario("knife-duel"), "-n", "1000000000000", "--seed", "1"])
    assert line.startswith("error: -n: ") and "out of range" in line and "100,000,000" in line
    assert time.perf_counter() - started < 5
    assert "out of range" in one_line_error(["simulate", scenario("knife-duel"), "-n", "0"])
    assert "out of range" in one_line_error(["simulate", scenario("knife-duel"), "-n", "5", "--workers", "0"])


def test_a_fight_nobody_ends_is_a_draw_at_the_round_limit_quickly(tmp_path: Path) -> None:
    text = Path(scenario("one-shot-duel")).read_text()
    text = text.replace('tactics = "aggressive"', 'tactics = [{ do = "nothing" }]')
    path = tmp_path / "stand-off.toml"
    path.write_text(text)
    started = time.perf_counter()
    report = ok_json("simulate", str(path), "-n", "4", "--seed", "1", "--workers", "1")
    assert time.perf_counter() - started < 10
    assert report["draws"]["count"] == 4 and report["rounds"]["min"] == report["rounds"]["max"] == 100
    assert report["refused_commands"] == 0


def test_scenario_schema_is_json_schema() -> None:
    code, out, _ = run("scenario", "schema")
    assert code == 0
    schema = json.loads(out)
    assert "$defs" in schema and "Scenario" in schema["$defs"]


# --- malformed scenarios --------------------------------------------------------------------

BASE = """title = "Base"
[[combatants]]
id = "A"
side = "a"
sheet = "characters/knife-fighter.toml"
in_hand = "knife"
[[combatants]]
id = "B"
side = "b"
sheet = "characters/gunman.toml"
"""


def _sheet_with_error(folder: Path) -> None:
    text = (ROOT / "scenarios" / "characters" / "gunman.toml").read_text().replace("rating = 60", 'rating = "sixty"')
    (folder / "characters" / "broken.toml").write_text(text)


MALFORMED: list[tuple[str, str, str, str]] = [
    # (case, file name, content, what the error line must contain)
    ("wrong type", "s.toml", BASE.replace('title = "Base"', "title = 5"), "$.title"),
    ("unknown field", "s.toml", BASE.replace('title = "Base"', 'title = "x"\ncolour = "red"'), "colour"),
    ("missing field", "s.toml", BASE.replace('title = "Base"\n', ""), "title"),
    (
        "unknown preset",
        "s.toml",
        BASE.replace('in_hand = "knife"', 'in_hand = "knife"\ntactics = "reckless"'),
        "$.combatants[0].tactics",
    ),
    (
        "unknown weapon",
        "s.toml",
        BASE.replace('in_hand = "knife"', 'in_hand = "knife"\nweapons = ["lightsaber"]'),
        "$.combatants[0].weapons[0]",
    ),
    ("duplicate id", "s.toml", BASE.replace('id = "B"', 'id = "a"'), "$.combatants[1].id"),
    ("a single side", "s.toml", BASE.replace('side = "b"', 'side = "a"'), "$.combatants"),
    (
        "in_hand not carried",
        "s.toml",
        BASE.replace('in_hand = "knife"', 'in_hand = "machete"'),
        "$.combatants[0].in_hand",
    ),
    ("sheet escaping", "s.toml", BASE.replace("characters/gunman.toml", "../../etc/passwd"), "$.combatants[1].sheet"),
    (
        "missing sheet",
        "s.toml",
        BASE.replace("characters/gunman.toml", "characters/nobody.toml"),
        "$.combatants[1].sheet",
    ),
    (
        "error in a sheet",
        "s.toml",
        BASE.replace("characters/gunman.toml", "characters/broken.toml"),
        "$.combatants[1].sheet",
    ),
    ("bad TOML", "s.toml", 'title = "x\n[[combatants]\n', "line 1"),
    ("bad YAML", "s.yaml", "title: [unclosed\ncombatants: {\n", "line"),
    ("bad JSON", "s.json", '{"title": "x",, }', "line 1"),
    ("max_rounds = 0", "s.toml", BASE + "[settings]\nmax_rounds = 0\n", "$.settings.max_rounds"),
    (
        "a violence rank past 10",
        "s.toml",
        BASE + "[settings]\nviolence_kill = 11\n",
        "$.settings.violence_kill",
    ),
]


@pytest.mark.parametrize(("case", "name", "content", "needle"), MALFORMED, ids=[m[0] for m in MALFORMED])
@pytest.mark.parametrize("command", ["scenario check", "simulate"])
def test_a_malformed_scenario_is_one_line_naming_the_file_and_the_path(
    tmp_path: Path, case: str, name: str, content: str, needle: str, command: str
) -> None:
    shutil.copytree(ROOT / "scenarios" / "characters", tmp_path / "characters")
    _sheet_with_error(tmp_path)
    path = tmp_path / name
    path.write_text(content)
    extra = ["-n", "5", "--seed", "1", "--workers", "1"] if command == "simulate" else []
    line = one_line_error([*command.split(), str(path), *extra])
    assert line.startswith(f"error: {path}: "), line
    assert needle in line, line


def test_a_ten_megabyte_scenario_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_text('title = "x"\n# ' + "a" * 10_000_000 + "\n")
    line = one_line_error(["scenario", "check", str(path)])
    assert line.startswith(f"error: {path}: ") and "limit" in line


def test_a_missing_scenario_file_is_one_line(tmp_path: Path) -> None:
    line = one_line_error(["simulate", str(tmp_path / "nope.toml"), "-n", "3"])
    assert "no such file" in line
