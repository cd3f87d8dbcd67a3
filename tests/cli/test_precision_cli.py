"""`--precision` and `--precision-of` on `ua simulate`, `ua compare` (and `--sweep`) and `ua
session fork`, through typer's runner: the same bytes on one and two workers, the stop said in one
line, `-n` the most, and bad values one line with a hint, exit code 2."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_fork_cli import duel  # noqa: F401 (a fixture)
from tests.cli.test_session_cli import Ua
from tests.cli.test_simulate_cli import one_line_error, run, scenario

KNIFE = scenario("knife-vs-22")
TOUGH = "tough:combatants.Rosa.stats.body=85"


def test_simulate_stops_at_a_checkpoint_with_the_same_bytes_on_one_and_two_workers() -> None:
    outputs = set()
    for workers in ("1", "2"):
        code, out, err = run("simulate", KNIFE, "--precision", "0.02", "--seed", "7", "-w", workers, "--json")
        assert code == 0, err
        outputs.add(out)
    assert len(outputs) == 1
    report = json.loads(outputs.pop())
    assert report["fights"] % 1_000 == 0 and report["requested"] == 1_000_000  # -n defaults high with --precision
    assert report["precision"]["reached"] and report["partial"] is False


def test_the_human_report_says_after_how_many_fights_it_stopped() -> None:
    code, out, _ = run("simulate", KNIFE, "--precision", "0.02", "--seed", "7", "-w", "1", "--json")
    fights = json.loads(out)["fights"]
    code, text, err = run("simulate", KNIFE, "--precision", "0.02", "--seed", "7", "-w", "1")
    assert code == 0, err
    assert f"stopped after {fights:,} fights: every figure asked about is within ±2.0 points" in text


def test_n_reached_first_says_the_precision_was_not_reached_and_the_interval_it_reached() -> None:
    code, text, err = run("simulate", KNIFE, "--precision", "0.01", "-n", "1500", "--seed", "7", "-w", "1")
    assert code == 0, err
    line = next(line for line in text.splitlines() if line.startswith("precision"))
    assert line.startswith("precision ±1.0 point not reached in 1,500 fights: win ±")
    assert ", dies ±" in line and line.endswith(" points")
    report = json.loads(run("simulate", KNIFE, "--precision", "0.01", "-n", "1500", "--seed", "7", "--json")[1])
    assert report["fights"] == 1_500 and report["precision"]["reached"] is False


def test_precision_of_chooses_the_figures() -> None:
    code, out, err = run(
        "simulate", KNIFE, "--precision", "0.03", "--precision-of", "down,draw", "--seed", "7", "-w", "1", "--json"
    )
    assert code == 0, err
    assert [f["figure"] for f in json.loads(out)["precision"]["figures"]] == ["down", "draw"]


def test_a_run_without_precision_has_no_precision_block() -> None:
    report = json.loads(run("simulate", KNIFE, "-n", "50", "--seed", "7", "--json")[1])
    assert "precision" not in report and report["fights"] == 50


@pytest.mark.parametrize(
    ("args", "where", "hint"),
    [
        (["--precision", "0"], "--precision", "0.01 stops at ±1 point"),
        (["--precision", "-0.01"], "--precision", "above 0 and below 0.5"),
        (["--precision", "0.5"], "--precision", "above 0 and below 0.5"),
        (["--precision", "0.01", "--precision-of", "win,fled"], "--precision-of", "one or more of: win"),
        (["--precision", "0.01", "--precision-of", ","], "--precision-of", "one or more of: win"),
        (["--precision-of", "win"], "--precision-of", "give --precision too"),
    ],
)
def test_bad_precisions_are_one_line_with_a_hint_exit_2(args: list[str], where: str, hint: str) -> None:
    from typer.testing import CliRunner

    from engine.cli.app import app

    line = one_line_error(["simulate", KNIFE, *args])
    assert line.startswith(f"error: {where}: ") and hint in line
    assert CliRunner().invoke(app, ["simulate", KNIFE, *args]).exit_code == 2


def test_compare_stops_on_the_paired_differences_alike_on_one_and_two_workers() -> None:
    outputs = set()
    for workers in ("1", "2"):
        args = ("compare", KNIFE, "--variant", TOUGH, "--precision", "0.02", "--seed", "4", "-w", workers, "--json")
        code, out, err = run(*args)
        assert code == 0, err
        outputs.add(out)
    assert len(outputs) == 1
    report = json.loads(outputs.pop())
    assert report["fights"] % 1_000 == 0 and report["partial"] is False
    figures = [(f["variant"], f["figure"]) for f in report["precision"]["figures"]]
    assert figures == [("tough", "win"), ("tough", "dies")]
    code, text, _ = run("compare", KNIFE, "--variant", TOUGH, "--precision", "0.02", "--seed", "4", "-w", "1")
    assert f"stopped after {report['fights']:,} fights: every figure asked about is within ±2.0 points" in text


def test_a_sweep_stops_on_every_value_s_difference() -> None:
    code, out, err = run(
        "compare", KNIFE, "--sweep", "combatants.Rosa.stats.body=40:60:20", "--precision", "0.03", "--seed", "2",
        "-w", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["fights"] % 1_000 == 0 and report["precision"]["reached"]
    assert {f["variant"] for f in report["precision"]["figures"]} == {"combatants.Rosa.stats.body=60"}


def test_compare_refuses_a_figure_it_has_no_paired_difference_for() -> None:
    line = one_line_error(["compare", KNIFE, "--variant", TOUGH, "--precision", "0.02", "--precision-of", "down"])
    assert line.startswith("error: --precision-of: --precision-of down: no such figure") and "dies" in line


def test_a_fork_stops_when_precise_enough(duel: Ua) -> None:  # noqa: F811
    report = duel.ok("session", "fork", "duel", "13", "--precision", "0.04", "--seed", "2")
    assert report["fights"] % 1_000 == 0 and report["precision"]["reached"] and report["from_event"] == 13
    assert report["requested"] == 1_000_000
    line = duel.fails("session", "fork", "duel", "13", "--precision", "0.7", code=2)
    assert "--precision 0.7 is out of range" in line


def test_bench_precision_sets_a_precise_batch_against_the_fixed_one() -> None:
    code, out, err = run("bench", scenario("one-shot-duel"), "--precision", "0.05", "-n", "3000", "-w", "1", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["precision"], report["fights"]) == (0.05, 3_000)
    (row,) = report["scenarios"]
    assert row["fights"] % 1_000 == 0 and row["fights"] < 3_000 and row["precision"]["reached"]
    fixed, estimate = row["fixed"]["win"], row["estimate"]["win"]
    assert row["within"] == all(
        row["estimate"][f]["ci95_low"] <= row["fixed"][f]["rate"] <= row["estimate"][f]["ci95_high"]
        for f in ("win", "dies")
    )
    plain = json.loads(run("simulate", scenario("one-shot-duel"), "-n", "3000", "--seed", "1", "--json")[1])
    assert fixed["rate"] == pytest.approx(plain["sides"][plain["players"]]["rate"], abs=1e-6)
    precise = run("simulate", scenario("one-shot-duel"), "--precision", "0.05", "--seed", "1", "--json")[1]
    assert estimate["rate"] == pytest.approx(json.loads(precise)["sides"][plain["players"]]["rate"], abs=1e-6)
    code, text, _ = run("bench", scenario("one-shot-duel"), "--precision", "0.05", "-n", "3000", "-w", "1")
    assert code == 0 and "one-shot-duel" in text and "saved" in text
    assert one_line_error(["bench", scenario("one-shot-duel"), "--precision", "0.5"]).startswith("error: --precision:")
