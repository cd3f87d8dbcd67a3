"""Scenario files: every shipped one loads and fights cleanly; the loader's checks name the file
and the `$.path` of what is wrong."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
import yaml

from engine.scenario.files import FileError
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import run_batch
from engine.simulate.stats import summary

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
SHIPPED = {"knife-vs-22", "knife-duel", "bar-brawl", "gunfight", "ambush", "the-thing-in-the-cellar", "one-shot-duel"}


def character(name: str = "Someone", **changes: Any) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "name": name,
        "stats": {"body": 50, "speed": 50, "mind": 50, "soul": 50},
        "skills": [{"name": "Fighting", "stat": "body", "rating": 40}],
        "passions": [{"kind": k, "trigger": "t"} for k in ("rage", "fear", "noble")],
    }
    return {**sheet, **changes}


def two_sides(**first: Any) -> dict[str, Any]:
    return {
        "title": "test",
        "combatants": [
            {"id": "A", "side": "a", "character": character("A"), **first},
            {"id": "B", "side": "b", "character": character("B")},
        ],
    }


def write(folder: Path, doc: dict[str, Any], name: str = "s.toml") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomli_w.dumps(doc))
    return path


def load_error(path: Path) -> FileError:
    with pytest.raises(FileError) as info:
        load_scenario(path)
    return info.value


def test_every_scenario_named_in_the_brief_is_shipped() -> None:
    assert {p.stem for p in SCENARIOS} >= SHIPPED


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_loads(path: Path) -> None:
    loaded = load_scenario(path)
    assert len(loaded.sides) >= 2
    for f in loaded.fighters:
        assert f.rules, f.id
        assert f.in_hand == "fists" or f.in_hand in {w.name for w in f.arsenal}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_simulates_with_no_refused_command(path: Path) -> None:
    loaded = load_scenario(path)
    prep, tally, _ = run_batch(loaded, 40, 2024, workers=1)
    report = summary(prep, tally, seed=2024)
    assert report["refused_commands"] == 0
    assert report["fights"] == 40
    assert sum(s["wins"] for s in report["sides"].values()) + report["draws"]["count"] == 40
    assert report["rounds"]["max"] <= loaded.settings.max_rounds
    assert report["events"] > 40


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_scenario_reads_the_same_as_yaml_or_json(tmp_path: Path, fmt: str) -> None:
    source = ROOT / "scenarios" / "bar-brawl.toml"
    doc = tomllib.loads(source.read_text())
    (tmp_path / "characters").mkdir()
    for sheet in (ROOT / "scenarios" / "characters").glob("*.toml"):
        (tmp_path / "characters" / sheet.name).write_bytes(sheet.read_bytes())
    other = tmp_path / f"bar-brawl.{fmt}"
    other.write_text(yaml.safe_dump(doc) if fmt == "yaml" else json.dumps(doc))
    a, b = load_scenario(source), load_scenario(other)
    assert (a.scenario, a.fighters) == (b.scenario, b.fighters)


def test_sheets_may_live_in_a_sub_folder(tmp_path: Path) -> None:
    (tmp_path / "people").mkdir()
    (tmp_path / "people" / "a.toml").write_text(tomli_w.dumps(character("From a file")))
    doc = two_sides()
    del doc["combatants"][0]["character"]
    doc["combatants"][0]["sheet"] = "people/a.toml"
    loaded = load_scenario(write(tmp_path, doc))
    assert loaded.fighters[0].sheet.name == "From a file"


@pytest.mark.parametrize("sheet", ["../a.toml", "/etc/passwd", "people/../../a.toml"])
def test_a_sheet_path_may_not_leave_the_scenario_folder(tmp_path: Path, sheet: str) -> None:
    (tmp_path / "a.toml").write_text(tomli_w.dumps(character()))
    doc = two_sides()
    del doc["combatants"][0]["character"]
    doc["combatants"][0]["sheet"] = sheet
    err = load_error(write(tmp_path / "inner", doc))
    assert err.json_path == "$.combatants[0].sheet" and "leaves the scenario's folder" in err.reason


def test_a_symlink_out_of_the_folder_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(tomli_w.dumps(character()))
    (tmp_path / "inner").mkdir()
    os.symlink(tmp_path / "a.toml", tmp_path / "inner" / "link.toml")
    doc = two_sides()
    del doc["combatants"][0]["character"]
    doc["combatants"][0]["sheet"] = "link.toml"
    assert load_error(write(tmp_path / "inner", doc)).json_path == "$.combatants[0].sheet"


def test_an_error_inside_a_sheet_names_both_places(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(tomli_w.dumps(character(stats={"body": "fifty"})))
    doc = two_sides()
    del doc["combatants"][0]["character"]
    doc["combatants"][0]["sheet"] = "bad.toml"
    err = load_error(write(tmp_path, doc))
    assert err.file.endswith("s.toml") and err.json_path == "$.combatants[0].sheet"
    assert "bad.toml" in err.reason and "$.stats" in err.reason
    assert str(err).count(" at $") == 1  # the sheet's own path is in parentheses, not a second "at"


@pytest.mark.parametrize(
    ("first", "path", "words"),
    [
        ({"character": character(obsession="Cards")}, "$.combatants[0].character.obsession", "obsession"),
        ({"character": character(passions=[])}, "$.combatants[0].character.passions", "passions"),
        ({"sheet": "x.toml"}, "$.combatants[0]", "either"),
        ({"tactics": []}, "$.combatants[0].tactics", "at least one rule"),
        ({"tactics": "sneaky"}, "$.combatants[0].tactics", "no tactics preset"),
        ({"weapons": ["bazooka"]}, "$.combatants[0].weapons[0]", "no weapon named"),
        ({"in_hand": "knife"}, "$.combatants[0].in_hand", "does not carry"),
        ({"tactics": [{"do": "attack", "weapon": "machete"}]}, "$.combatants[0].tactics[0].weapon", "does not carry"),
        (
            {"tactics": [{"do": "attack", "when": {"holding_weapon": "sword"}}]},
            "$.combatants[0].tactics[0].when.holding_weapon",
            "does not carry",
        ),
        (
            {"weapons": ["knife"], "tactics": [{"do": "attack", "mode": "disarm", "attacks": 2}]},
            "$.combatants[0].tactics[0].attacks",
            "single attack",
        ),
    ],
)
def test_combatant_problems_name_their_path(tmp_path: Path, first: dict[str, Any], path: str, words: str) -> None:
    err = load_error(write(tmp_path, two_sides(**first)))
    assert err.json_path == path, str(err)
    assert words in err.reason


def test_a_rule_may_name_a_carried_weapon_in_any_case(tmp_path: Path) -> None:
    doc = two_sides(weapons=["knife"], tactics=[{"do": "attack", "weapon": "Knife"}, {"do": "nothing"}])
    assert load_scenario(write(tmp_path, doc)).fighters[0].rules[0].weapon == "Knife"


def test_scenario_level_problems_name_their_path(tmp_path: Path) -> None:
    doc = two_sides()
    doc["triggers"] = [{"meter": "unnatural", "rank": 3, "who": "nobody"}]
    assert load_error(write(tmp_path, doc)).json_path == "$.triggers[0].who"
    doc = two_sides()
    doc["weapons"] = [{"name": "ray gun", "kind": "firearm", "cap": 50, "skill": "Firearms"}]
    assert load_error(write(tmp_path, doc)).json_path == "$.weapons[0].house"
    doc["weapons"][0]["house"] = True
    doc["combatants"][0]["weapons"] = ["ray gun"]
    doc["combatants"][0]["in_hand"] = "Ray Gun"
    assert load_scenario(write(tmp_path, doc)).fighters[0].in_hand == "ray gun"
    for rounds in (0, 10_001):
        doc = two_sides()
        doc["settings"] = {"max_rounds": rounds}
        assert load_error(write(tmp_path, doc)).json_path == "$.settings.max_rounds"
    doc = two_sides()
    doc["combatants"][1]["side"] = "a"
    assert load_error(write(tmp_path, doc)).json_path == "$.combatants"
    doc = two_sides()
    doc["combatants"][1]["id"] = "a"
    assert load_error(write(tmp_path, doc)).json_path == "$.combatants[1].id"
