"""The batch report as a GM reads it (engine.cli.report): the sentence first, every rounds
bucket, ids never cut when piped, identical combatants treated differently explained, and the
new figures in the tables and the CSV."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from engine.cli.app import app
from engine.cli.report import HISTOGRAM_ROWS, histogram

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
FAST = ("-n", "400", "--seed", "6", "--workers", "1")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(SCENARIOS / "characters", tmp_path / "characters")
    return tmp_path


def _write(folder: Path, doc: dict[str, Any]) -> str:
    path = folder / "s.toml"
    path.write_text(tomli_w.dumps(doc))
    return str(path)


def _thug(id_: str, side: str = "thugs") -> dict[str, Any]:
    return {"id": id_, "side": side, "sheet": "characters/thug.toml", "in_hand": "baseball bat"}


ROSA = {"id": "Rosa", "side": "knife", "sheet": "characters/knife-fighter.toml", "in_hand": "knife"}


def test_the_text_report_opens_with_the_sentence_about_the_players_side() -> None:
    code, out, err = run("simulate", str(SCENARIOS / "bar-brawl.toml"), *FAST)
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("Bar brawl at the Blue Lantern — 400 fights, seed 6")
    assert second.startswith("Someone on your side (regulars) dies in ") and "everyone on it is down in" in second
    for heading in ("who wins", "someone dies", "all down", "permanent damage", "taken p50/p90", "madness", "endings"):
        assert heading in out


def test_a_side_that_flees_is_reported_fled_not_down_in_the_sentence_and_the_table() -> None:
    """Issue 31: in the bar brawl Dana always runs, so the regulars are never "all down" — the
    sentence and the sides table say how they did go out of the fight."""
    report = json.loads(ok("simulate", str(SCENARIOS / "bar-brawl.toml"), *FAST, "--json"))
    regulars = report["sides"]["regulars"]
    assert regulars["out_fled"]["rate"] > 0.9 and regulars["all_down"]["rate"] < 0.01
    lost = 1 - regulars["rate"] - report["draws"]["rate"]
    out = regulars["all_down"]["rate"] + regulars["out_fled"]["rate"] + regulars["out_other"]["rate"]
    assert out == pytest.approx(lost, abs=1e-5), "a side that loses is out of the fight one way"
    text = ok("simulate", str(SCENARIOS / "bar-brawl.toml"), *FAST)
    sentence = text.splitlines()[1]
    assert "out of the fight with someone fled in 9" in sentence
    assert "; it wins" in sentence and not re.search(r"everyone on it is down in [^;,]*; it wins", sentence)
    header = next(line for line in text.splitlines() if "someone dies" in line and "all down" in line)
    assert "fled" in header and "surrendered/other" in header


def test_a_side_that_never_flees_keeps_the_short_sentence() -> None:
    sentence = ok("simulate", str(SCENARIOS / "knife-vs-22.toml"), *FAST).splitlines()[1]
    assert re.search(r"everyone on it is down in [^;,]*; it wins", sentence) and "fled" not in sentence


def test_every_rounds_bucket_is_shown_empty_ones_too() -> None:
    out = ok("simulate", str(SCENARIOS / "knife-duel.toml"), *FAST, "--json")
    distribution = {int(k): v for k, v in json.loads(out)["rounds"]["distribution"].items()}
    text = ok("simulate", str(SCENARIOS / "knife-duel.toml"), *FAST)
    low, high = min(distribution), max(distribution)
    assert high - low + 1 <= HISTOGRAM_ROWS, "this batch needs no bins"
    rows = [line.split() for line in text.splitlines() if line.startswith("  ") and line.split()[0].isdigit()]
    assert [int(r[0]) for r in rows] == list(range(low, high + 1))
    assert [int(r[-1].replace(",", "")) for r in rows] == [distribution.get(r, 0) for r in range(low, high + 1)]


def test_many_rounds_are_binned_into_equal_buckets_that_keep_every_fight() -> None:
    distribution = {str(r): 1 for r in range(1, 101)} | {"7": 5}
    buckets = histogram(distribution)
    assert len(buckets) == HISTOGRAM_ROWS
    assert buckets[0] == ("1–5", 5) and buckets[1] == ("6–10", 9) and buckets[-1] == ("96–100", 5)
    assert sum(count for _, count in buckets) == sum(distribution.values())
    assert histogram({"3": 2, "5": 1}) == [("3", 2), ("4", 0), ("5", 1)]


def test_piped_tables_never_cut_an_id(folder: Path) -> None:
    long_id = "Bartholomew-the-Unreasonably-Long-Named"  # 39 characters
    assert len(long_id) <= 40
    path = _write(folder, {"title": "long", "combatants": [ROSA, _thug(long_id)]})
    code, out, err = run("simulate", path, *FAST)
    assert code == 0, err
    rows = [line for line in out.splitlines() if long_id in line]
    assert len(rows) >= 3, out  # the combatants table, an ending, the madness table
    assert "…" not in out


def test_identical_combatants_treated_differently_get_a_note_saying_why(folder: Path) -> None:
    path = _write(
        folder, {"title": "twins", "combatants": [{**ROSA, "tactics": "aggressive"}, _thug("Ed"), _thug("Al")]}
    )
    out = ok("simulate", path, "-n", "2000", "--seed", "1", "--workers", "1", "--json")
    notes = json.loads(out)["notes"]
    assert len(notes) == 1
    assert notes[0].startswith("Ed and Al are identical, yet Ed dies in")
    assert "break ties by scenario order" in notes[0]
    text = ok("simulate", path, "-n", "2000", "--seed", "1", "--workers", "1")
    assert "note: Ed and Al are identical" in text


def test_identical_combatants_picked_at_random_get_no_note(folder: Path) -> None:
    rosa = {**ROSA, "tactics": [{"do": "attack", "target": "random"}]}
    path = _write(folder, {"title": "twins", "combatants": [rosa, _thug("Ed"), _thug("Al")]})
    out = ok("simulate", path, "-n", "2000", "--seed", "1", "--workers", "1", "--json")
    assert json.loads(out)["notes"] == []


def test_csv_carries_the_new_figures() -> None:
    code, out, err = run("simulate", str(SCENARIOS / "the-thing-in-the-cellar.toml"), *FAST, "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    metrics = {(r["section"], r["name"], r["metric"]) for r in rows}
    for needed in (
        ("batch", "", "players"),
        ("side", "humans", "someone_dies"),
        ("side", "humans", "all_down"),
        ("side", "humans", "out_fled"),
        ("side", "humans", "out_other"),
        ("side", "humans", "permanent_damage"),
        ("combatant", "Dana", "wounds_taken_median"),
        ("combatant", "Dana", "wounds_taken_p90"),
        ("combatant", "Dana", "permanent_damage"),
        ("combatant", "Dana", "frozen_at_end"),
        ("combatant", "Dana", "unnatural_failed_at_least_once"),
        ("combatant", "Dana", "unnatural_notches_mean"),
        ("refusals", "", "fights"),
    ):
        assert needed in metrics, needed
    endings = [r for r in rows if r["section"] == "ending"]
    code, report, _ = run("simulate", str(SCENARIOS / "the-thing-in-the-cellar.toml"), *FAST, "--json")
    assert len(endings) == len(json.loads(report)["endings"])  # every ending, as in JSON


def test_json_has_every_ending_and_the_table_the_ten_most_common() -> None:
    out = ok("simulate", str(SCENARIOS / "bar-brawl.toml"), *FAST, "--json")
    report = json.loads(out)
    endings = report["endings"]
    assert len(endings) > 10 and sum(e["count"] for e in endings) == 400
    assert endings[0]["ending"] == report["most_common_ending"]["ending"]
    text = ok("simulate", str(SCENARIOS / "bar-brawl.toml"), *FAST)
    assert f"endings (the 10 most common; {len(endings) - 10} more in --json)" in text
