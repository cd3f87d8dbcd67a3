"""`ua scenario check`: every sheet a scenario references checked as `ua character check` checks
it (errors fail, GM-allowed items warn), and a trial batch that warns about refused commands and
fights over at round 0."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from engine.cli.app import app
from engine.commands import BeginFight
from engine.errors import Refused
from engine.rules.ua2 import RULESET

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(SCENARIOS / "characters", tmp_path / "characters")
    return tmp_path


def _scenario(folder: Path, name: str, change: Any = None) -> Path:
    doc = tomllib.loads((SCENARIOS / f"{name}.toml").read_text())
    if change is not None:
        change(doc)
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


def _overspent_sheet(folder: Path) -> str:
    """Rosa's sheet with Body 80: 250 stat points for a seasoned's 240 (S2-2)."""
    sheet = folder / "characters" / "greedy.toml"
    text = (folder / "characters" / "knife-fighter.toml").read_text().replace("body = 70", "body = 80")
    sheet.write_text(text)
    return "characters/greedy.toml"


def test_a_sheet_that_breaks_the_creation_rules_fails_the_scenario_check_as_it_fails_character_check(
    folder: Path,
) -> None:
    sheet = _overspent_sheet(folder)
    path = _scenario(folder, "knife-vs-22", lambda d: d["combatants"][0].update(sheet=sheet))
    code, out, _ = run("scenario", "check", str(path))
    assert code == 1
    assert "not valid (1 errors)" in out
    over = "10 stat points over budget: stat points: 250 spent, 240 available for a seasoned (S2-2)"
    assert f"error: $.stats: {over}" in out
    report_code, report, _ = run("scenario", "check", str(path), "--json")
    alone_code, alone, _ = run("character", "check", str(folder / sheet), "--json")
    assert report_code == alone_code == 1
    checked = json.loads(report)
    assert checked["valid"] is False and checked["errors"] == 1
    rosa = checked["combatants"][0]["sheet"]
    assert (rosa["file"], rosa["tier"], rosa["tier_from"]) == (sheet, "seasoned", "sheet")
    assert rosa["findings"] == json.loads(alone)["findings"]


def test_an_inline_character_with_a_tier_is_checked_at_its_path_in_the_scenario(folder: Path) -> None:
    def overspend(doc: dict[str, Any]) -> None:
        otis = doc["combatants"][2]["character"]
        otis["tier"] = "beginner"  # Otis fits a seasoned, not a beginner

    path = _scenario(folder, "bar-brawl", overspend)
    code, out, _ = run("scenario", "check", str(path), "--json")
    assert code == 1
    otis = json.loads(out)["combatants"][2]["sheet"]
    errors = [f for f in otis["findings"] if f["severity"] == "error"]
    assert errors and all(f["path"].startswith("$.combatants[2].character.") for f in errors)
    assert otis["file"] is None and otis["where"] == "$.combatants[2].character"


def test_tier_checks_every_sheet_against_that_tier(folder: Path) -> None:
    path = _scenario(folder, "knife-vs-22")
    code, out, _ = run("scenario", "check", str(path), "--tier", "beginner", "--json")
    assert code == 1  # seasoned sheets overspend a beginner's budget
    sheets = [c["sheet"] for c in json.loads(out)["combatants"]]
    assert {(s["tier"], s["tier_from"]) for s in sheets} == {("beginner", "--tier")}


def test_a_sheet_without_a_tier_is_checked_as_the_smallest_tier_it_fits() -> None:
    code, out, _ = run("scenario", "check", str(SCENARIOS / "the-thing-in-the-cellar.toml"), "--json")
    assert code == 0
    thing = json.loads(out)["combatants"][2]["sheet"]
    assert (thing["tier"], thing["tier_from"], thing["errors"]) == ("beginner", "fits", 0)


def test_a_sheet_without_a_tier_that_fits_none_is_checked_as_an_experienced_and_fails(folder: Path) -> None:
    def monster(doc: dict[str, Any]) -> None:
        doc["combatants"][2]["character"]["stats"] = {"body": 99, "speed": 99, "mind": 99, "soul": 99}

    path = _scenario(folder, "the-thing-in-the-cellar", monster)
    code, out, _ = run("scenario", "check", str(path), "--json")
    assert code == 1
    thing = json.loads(out)["combatants"][2]["sheet"]
    assert (thing["tier"], thing["tier_from"], thing["errors"]) == ("experienced", "none fits", 1)
    error = next(f for f in thing["findings"] if f["severity"] == "error")
    assert error["path"] == "$.combatants[2].character.stats" and "396 spent, 260 available" in error["message"]
    code, text, _ = run("scenario", "check", str(path))
    assert "no tier, and fits none: as an experienced" in text


def test_set_applies_before_the_sheets_are_checked() -> None:
    code, out, _ = run(
        "scenario", "check", str(SCENARIOS / "knife-vs-22.toml"), "--set", "combatants.Rosa.stats.body=80"
    )
    assert code == 1 and "250 spent, 240 available" in out


# --- the trial batch ------------------------------------------------------------------------


def test_a_clean_scenario_says_its_trial_found_nothing() -> None:
    code, out, _ = run("scenario", "check", str(SCENARIOS / "knife-duel.toml"))
    assert code == 0 and "trial: 20 fights (seed 1): no refused commands, none at round 0" in out
    code, out, _ = run("scenario", "check", str(SCENARIOS / "knife-duel.toml"), "--json")
    trial = json.loads(out)["trial"]
    assert (trial["fights"], trial["refusals"]["fights"], trial["round_zero"], trial["warnings"]) == (20, 0, 0, [])


def test_refused_commands_and_fights_over_at_round_0_are_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for any defect that refuses the start of a fight: the trial finds it."""

    def refusing(sink, command, dice):  # type: ignore[no-untyped-def]
        raise Refused("a fight needs combatants able to act on at least two sides")

    monkeypatch.setitem(RULESET.handlers, BeginFight, refusing)  # type: ignore[arg-type]
    code, out, _ = run("scenario", "check", str(SCENARIOS / "knife-duel.toml"))
    assert code == 0  # a warning, not an error: the file is valid
    assert "warning: trial of 20 fights: 20 of 20 fights (100%) had refused commands" in out
    assert "'a fight needs combatants able to act on at least two sides' in 20 fights" in out
    assert "warning: trial of 20 fights: 20 of 20 fights (100%) ended at round 0" in out
    code, out, _ = run("scenario", "check", str(SCENARIOS / "knife-duel.toml"), "--json")
    trial = json.loads(out)["trial"]
    assert trial["round_zero"] == 20 and trial["refusals"]["reasons"][0]["fights"] == 20
    assert len(trial["warnings"]) == 2


def test_trial_0_runs_no_fights() -> None:
    code, out, _ = run("scenario", "check", str(SCENARIOS / "knife-duel.toml"), "--trial", "0", "--json")
    assert code == 0 and json.loads(out)["trial"] is None
