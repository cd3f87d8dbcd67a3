"""`ua compare` through typer's runner: files and --variant side by side on the same seeds,
sweeps, the output formats, and bad input as one line."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.cli.compare import parse_variant, split_changes

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
KNIFE = str(ROOT / "scenarios" / "knife-vs-22.toml")
FAST = ("-n", "300", "--seed", "4", "--workers", "1")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def ok_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def one_line_error(*args: str) -> str:
    code, out, err = run(*args)
    assert code not in (0, None), out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_two_files_are_compared_on_the_same_seeds_and_each_is_its_simulate_report(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "scenarios" / "characters", tmp_path / "characters")
    other = tmp_path / "cautious.toml"
    other.write_text(Path(KNIFE).read_text().replace('tactics = "aggressive"\ncherry', 'tactics = "cautious"\ncherry'))
    report = ok_json("compare", KNIFE, str(other), *FAST)
    assert [v["name"] for v in report["variants"]] == ["knife-vs-22", "cautious"]
    alone = ok_json("simulate", str(other), *FAST)
    assert report["variants"][1]["report"] == alone
    assert report["differences"][0]["against"] == "knife-vs-22"


def test_a_variant_is_the_first_file_with_its_changes() -> None:
    report = ok_json("compare", KNIFE, "--variant", "soft:combatants.Rosa.stats.body=50,settings.max_rounds=30", *FAST)
    soft = report["variants"][1]
    assert soft["name"] == "soft" and soft["changes"] == ["combatants.Rosa.stats.body=50", "settings.max_rounds=30"]
    alone = ok_json(
        "simulate", KNIFE, "--set", "combatants.Rosa.stats.body=50", "--set", "settings.max_rounds=30", *FAST
    )
    assert soft["report"] == alone


def test_the_text_report_has_the_sentence_and_both_tables() -> None:
    code, out, err = run("compare", KNIFE, "--variant", "cautious:combatants.Rosa.tactics=cautious", *FAST)
    assert code == 0, err
    assert "cautious against knife-vs-22: your side wins" in out
    assert "the players' side in each variant" in out and "difference from knife-vs-22" in out


def test_a_sweep_gives_one_variant_per_value_and_a_sentence_from_first_to_last() -> None:
    report = ok_json("compare", KNIFE, "--sweep", "combatants.Rosa.stats.body=40:70:10", *FAST)
    assert report["sweep"] == "combatants.Rosa.stats.body"
    assert [v["value"] for v in report["variants"]] == [40, 50, 60, 70]
    assert len(report["differences"]) == 3
    assert report["headlines"][0].startswith("As combatants.Rosa.stats.body goes from 40 to 70, your side wins")
    code, out, _ = run("compare", KNIFE, "--sweep", "combatants.Rosa.tactics=aggressive,cautious", *FAST)
    assert code == 0 and "cautious" in out


def test_csv_has_a_row_per_variant_figure_and_difference() -> None:
    code, out, err = run("compare", KNIFE, "--sweep", "combatants.Rosa.stats.body=50:70:20", *FAST, "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    wins = [r for r in rows if r["section"] == "variant" and r["metric"] == "win"]
    assert [r["name"] for r in wins] == ["combatants.Rosa.stats.body=50", "combatants.Rosa.stats.body=70"]
    diffs = {r["metric"]: r for r in rows if r["section"] == "difference"}
    assert set(diffs) == {"win", "win_separate_runs", "someone_dies", "someone_dies_separate_runs"}
    paired, separate = diffs["win"], diffs["win_separate_runs"]
    width = float(paired["ci95_high"]) - float(paired["ci95_low"])
    assert width < float(separate["ci95_high"]) - float(separate["ci95_low"])


def test_the_same_seed_gives_the_same_bytes_on_one_and_two_workers() -> None:
    args = ("compare", KNIFE, "--variant", "v:combatants.Rosa.tactics=cautious", "-n", "250", "--seed", "9", "--json")
    assert run(*args, "--workers", "1")[1] == run(*args, "--workers", "2")[1]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((KNIFE,), "a comparison needs two variants"),
        ((KNIFE, "--variant", "v:combatants.Nobody.tactics=cautious"), "nothing named 'Nobody'"),
        ((KNIFE, "--variant", "v:"), "changes nothing"),
        ((KNIFE, "--variant", "v:settings.max_rounds"), "error: --variant: "),
        ((KNIFE, "--variant", "a:settings.max_rounds=5", "--variant", "a:settings.max_rounds=6"), "named alike"),
        ((KNIFE, KNIFE, "--sweep", "settings.max_rounds=5:10:5"), "a sweep varies one scenario"),
        ((KNIFE, "--sweep", "settings.max_rounds=10:5:5"), "empty range"),
        ((KNIFE, "--sweep", "settings.max_rounds=0:10:5"), "$.settings.max_rounds"),
    ],
)
def test_bad_comparisons_are_one_line(args: tuple[str, ...], needle: str) -> None:
    assert needle in one_line_error("compare", *args, *FAST)


def test_changes_split_on_commas_outside_brackets_and_quotes() -> None:
    assert split_changes('a=1, b=[1, 2],c="x,y"') == ["a=1", "b=[1, 2]", 'c="x,y"']
    assert parse_variant("combatants.Rosa.tactics=cautious") == (
        "combatants.Rosa.tactics=cautious",
        ["combatants.Rosa.tactics=cautious"],
    )
    assert parse_variant("slow: settings.max_rounds=3") == ("slow", ["settings.max_rounds=3"])
