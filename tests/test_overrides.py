"""`--set PATH=VALUE` (engine.simulate.overrides): paths into the scenario document, values as
TOML, and a changed scenario checked exactly as the same change written into the file is."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w

from engine.errors import InvalidInput
from engine.scenario.files import FileError
from engine.scenario.scenario import load_scenario
from engine.scenario.sheets import load_sheet
from engine.simulate.overrides import load_with_overrides, parse_value, split_path, sweep_values

ROOT = Path(__file__).resolve().parents[1]
KNIFE = ROOT / "scenarios" / "knife-vs-22.toml"
BRAWL = ROOT / "scenarios" / "bar-brawl.toml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "scenarios" / "characters", tmp_path / "characters")
    return tmp_path


def _document(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text())


def _written(folder: Path, doc: dict[str, Any], name: str = "s.toml") -> Path:
    path = folder / name
    path.write_text(tomli_w.dumps(doc))
    return path


def test_settings_and_combatant_fields_change_for_the_run() -> None:
    loaded = load_with_overrides(KNIFE, ["settings.max_rounds=7", "combatants.Rosa.tactics=cautious"])
    assert loaded.settings.max_rounds == 7
    assert loaded.fighters[0].rules == load_with_overrides(KNIFE, ["combatants.0.tactics=cautious"]).fighters[0].rules
    assert loaded.fighters[0].rules != load_scenario(KNIFE).fighters[0].rules
    assert load_scenario(KNIFE).settings.max_rounds == 100  # the file is not touched


def test_combatants_are_found_by_id_ignoring_case_or_by_index() -> None:
    by_id = load_with_overrides(KNIFE, ["combatants.vic.in_hand=fists"])
    by_index = load_with_overrides(KNIFE, ["combatants.1.in_hand=fists"])
    assert by_id == by_index and by_id.fighters[1].in_hand == "fists"


def test_a_sheet_field_of_a_sheet_given_by_path_changes_that_sheet_only() -> None:
    loaded = load_with_overrides(KNIFE, ["combatants.Rosa.stats.body=40"])
    original = load_sheet(ROOT / "scenarios" / "characters" / "knife-fighter.toml")
    changed = loaded.fighters[0].sheet
    assert changed.stats.body == 40
    assert changed == msgspec.structs.replace(original, stats=msgspec.structs.replace(original.stats, body=40))
    assert loaded.fighters[1] == load_scenario(KNIFE).fighters[1]


def test_a_skill_is_found_by_name_and_an_inline_character_changes_in_place() -> None:
    loaded = load_with_overrides(KNIFE, ["combatants.Rosa.skills.fighting.rating=50"])
    assert loaded.fighters[0].sheet.rating("Fighting") == 50
    otis = load_with_overrides(BRAWL, ["combatants.Otis.character.stats.body=45"]).fighters[2]
    assert otis.id == "Otis" and otis.sheet.stats.body == 45


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("60", 60),
        ("-10", -10),
        ("0.5", 0.5),
        ("true", True),
        ('"two words"', "two words"),
        ("cautious", "cautious"),
        ("[1, 2]", [1, 2]),
        ('{ do = "dodge" }', {"do": "dodge"}),
        ('[{"do": "flee"}]', [{"do": "flee"}]),
        ("2001-01-01", "2001-01-01"),
        ("", ""),
    ],
)
def test_values_are_toml_then_json_then_text(raw: str, value: Any) -> None:
    assert parse_value(raw) == value


def test_a_key_with_a_dot_is_quoted() -> None:
    assert split_path('weapons.".22 pistol".cap') == ("weapons", ".22 pistol", "cap")
    with pytest.raises(InvalidInput):
        split_path('weapons.".22 pistol.cap')
    with pytest.raises(InvalidInput):
        split_path("settings..max_rounds")


def test_a_list_of_rules_can_be_set_whole() -> None:
    loaded = load_with_overrides(KNIFE, ['combatants.Vic.tactics=[{ do = "flee" }]'])
    assert [r.do for r in loaded.fighters[1].rules] == ["flee"]


# --- checked exactly as the file ------------------------------------------------------------

BAD: list[tuple[str, list[str], Any]] = [
    # (--set, the same change made to the document by hand)
    ("combatants.Rosa.tactics=reckless", ["combatants", 0, "tactics"], "reckless"),
    ("settings.max_rounds=0", ["settings", "max_rounds"], 0),
    ("settings.max_rounds=ten", ["settings", "max_rounds"], "ten"),
    ("settings.colour=red", ["settings", "colour"], "red"),
    ("combatants.Vic.in_hand=machete", ["combatants", 1, "in_hand"], "machete"),
    ("combatants.Vic.side=knife", ["combatants", 1, "side"], "knife"),
    ("combatants.Rosa.cherry=sprinkles", ["combatants", 0, "cherry"], "sprinkles"),
    ("players=elves", ["players"], "elves"),
]


def _set_in(doc: dict[str, Any], keys: list[Any], value: Any) -> None:
    node: Any = doc
    for key in keys[:-1]:
        node = node[key] if isinstance(key, int) else node.setdefault(key, {})
    node[keys[-1]] = value


@pytest.mark.parametrize(("text", "keys", "value"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_override_is_the_error_the_same_file_gives(folder: Path, text: str, keys: list[Any], value: Any) -> None:
    doc = _document(KNIFE)
    source = _written(folder, doc, "s.toml")
    _set_in(doc, keys, value)
    edited = _written(folder, doc, "s.toml.edited.toml")
    with pytest.raises(FileError) as by_file:
        load_scenario(edited)
    with pytest.raises(FileError) as by_set:
        load_with_overrides(source, [text])
    assert (by_set.value.reason, by_set.value.json_path) == (by_file.value.reason, by_file.value.json_path)
    assert by_set.value.file == str(source)
    assert f"set by --set {text}" in by_set.value.hint


def test_a_sheet_made_invalid_by_an_override_names_its_inline_path() -> None:
    with pytest.raises(FileError) as info:
        load_with_overrides(KNIFE, ["combatants.Rosa.stats.body=400"])
    assert info.value.json_path == "$.combatants[0].character.stats.body"
    assert "set by --set combatants.Rosa.stats.body=400" in info.value.hint


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("combatants.Bob.tactics=cautious", "nothing named 'Bob' in $.combatants"),
        ("combatants.5.tactics=cautious", "$.combatants has 2 entries, no [5]"),
        ("title.x=1", "$.title is a value"),
        ("settings.max_rounds", "has no PATH=VALUE"),
        ("=3", "has no PATH=VALUE"),
    ],
)
def test_a_path_that_leads_nowhere_is_one_error_naming_it(text: str, needle: str) -> None:
    with pytest.raises(InvalidInput) as info:
        load_with_overrides(KNIFE, [text])
    assert needle in info.value.message and info.value.where == "--set"


def test_a_sheet_path_may_not_leave_the_folder_when_inlined(folder: Path) -> None:
    doc = _document(KNIFE)
    doc["combatants"][0]["sheet"] = "../outside.toml"
    path = _written(folder, doc)
    with pytest.raises(FileError) as info:
        load_with_overrides(path, ["combatants.Rosa.stats.body=40"])
    assert info.value.json_path == "$.combatants[0].sheet" and "leaves the scenario's folder" in info.value.reason


# --- sweeps ---------------------------------------------------------------------------------


def test_a_sweep_is_a_range_with_its_end_or_a_list() -> None:
    assert sweep_values("combatants.Rosa.stats.body=40:70:10") == (
        ("combatants", "Rosa", "stats", "body"),
        [40, 50, 60, 70],
    )
    assert sweep_values("settings.x=0.1:0.3:0.1")[1] == [0.1, 0.2, 0.3]
    assert sweep_values("combatants.Rosa.tactics=aggressive,cautious")[1] == ["aggressive", "cautious"]


@pytest.mark.parametrize("text", ["a.b=70:40:10", "a.b=1:2:0", "a.b=1:1000:1", "a.b=", "a.b=x:y:z", "=1:2:1"])
def test_a_bad_sweep_is_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        sweep_values(text)
    assert info.value.where == "--sweep"
