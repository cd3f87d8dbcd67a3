"""Each edition's words in what a batch shows (issue 27): a ua3 report, its plot's titles and the
viewer's charts say shock gauges, hardened/failed notches and the wound threshold — never
madness nor C2-32's permanent damage — while ua2's keep theirs. The words are the ruleset's
(`Ruleset.words`); the JSON keys stay the same in both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.cli.plots import report_titles
from engine.rules.registry import find_ruleset

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
UA3 = str(ROOT / "scenarios" / "ua3" / "cellar-execution.toml")  # stress checks: notches gained
UA2 = str(ROOT / "scenarios" / "the-thing-in-the-cellar.toml")  # madness checks: notches gained
FAST = ("-n", "60", "--seed", "2", "--workers", "1")
NOT_UA3 = ("madness", "permanent damage", "perm", "c2-32", "meter")


def _report(scenario: str, *extra: str) -> Any:
    result = runner.invoke(app, ["simulate", scenario, *FAST, *extra])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout) if "--json" in extra else result.stdout


def test_a_ua3_report_says_shock_gauges_and_the_wound_threshold_never_madness() -> None:
    text = _report(UA3).lower()
    assert "shock gauges (per gauge" in text and "+hardened" in text and "+failed" in text
    assert "wound threshold" in text
    assert not [word for word in NOT_UA3 if word in text]


def test_a_ua2_report_keeps_madness_meters_and_permanent_damage() -> None:
    text = _report(UA2)
    assert "madness (per meter" in text and "permanent damage" in text and "perm: permanent damage, C2-32" in text
    assert "shock gauge" not in text and "wound threshold" not in text


def test_the_json_keys_are_the_same_in_both_editions_and_name_the_ruleset() -> None:
    ua3, ua2 = _report(UA3, "--json"), _report(UA2, "--json")
    assert (ua3["ruleset"], ua2["ruleset"]) == ("ua3", "ua2")
    assert ua3.keys() == ua2.keys()
    assert next(iter(ua3["combatants"].values())).keys() == next(iter(ua2["combatants"].values())).keys()
    assert next(iter(ua3["sides"].values())).keys() == next(iter(ua2["sides"].values())).keys()


def test_the_plots_titles_are_the_editions() -> None:
    ua3 = " ".join(report_titles(_report(UA3, "--json")).values()).lower()
    assert "shock gauges" in ua3 and "per gauge" in ua3 and "wound threshold" in ua3
    assert not [word for word in NOT_UA3 if word in ua3]
    ua2 = " ".join(report_titles(_report(UA2, "--json")).values())
    assert "madness" in ua2 and "per meter" in ua2


@pytest.mark.parametrize("name", ["ua2", "ua3"])
def test_every_ruleset_names_its_figures(name: str) -> None:
    words = find_ruleset(name).words
    assert words.mind and words.meter and words.down and words.wounds and words.wounds_taken
    assert bool(words.permanent_damage) == (name == "ua2")  # C2-32 is the second edition's


def test_the_viewers_pages_take_the_words_from_the_server() -> None:
    static = ROOT / "engine" / "service" / "static"
    text = " ".join(p.read_text(encoding="utf-8").lower() for p in static.iterdir() if p.suffix in (".js", ".html"))
    assert not [w for w in ("madness", "permanent damage", "shock gauges", "wound points") if w in text]
