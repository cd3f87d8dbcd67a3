"""Weapons a ua3 scenario defines for its table (U-4, U-5): refused with the `$.path` when the
rules could not use them."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import Refused
from engine.scenario.files import FileError
from engine.scenario.ua3_scenario import load_ua3_scenario
from engine.state.ua3.combat import Ua3Weapon
from tests.ua3.fights import Fight, join, person

SCENARIO = """
title = "House guns"
ruleset = "ua3"

[[weapons]]
name = "zip gun"
kind = "firearm"
house = true
{cap}
[[combatants]]
id = "Ace"
side = "ace"
weapons = ["zip gun"]
[combatants.character]
name = "Ace"

[[combatants]]
id = "Bart"
side = "bart"
[combatants.character]
name = "Bart"
"""


def _file(tmp_path: Path, cap: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(SCENARIO.format(cap=cap), encoding="utf-8")
    return path


def test_a_house_gun_must_give_its_damage_cap(tmp_path: Path):
    """U-5: a gun's wounds are the roll up to its cap, a crit the cap: a gun without one is refused."""
    with pytest.raises(FileError) as refused:
        load_ua3_scenario(_file(tmp_path, ""))
    assert refused.value.json_path == "$.weapons[0].cap" and "cap" in refused.value.reason


def test_a_house_gun_with_a_cap_loads(tmp_path: Path):
    """U-5."""
    loaded = load_ua3_scenario(_file(tmp_path, "cap = 15\n"))
    assert loaded.fighters[0].arsenal[0].cap == 15


def test_a_character_joining_with_a_gun_without_a_cap_is_refused():
    """U-5: the command a session or the service sends is held to the same."""
    with pytest.raises(Refused, match="cap"):
        Fight(join("a", "x", person("Ace"), Ua3Weapon(name="zip gun", kind="firearm", house=True)))
