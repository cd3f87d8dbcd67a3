"""The registry of rulesets: one explicit list; an encounter or a scenario naming a ruleset it
lacks is refused with the list of those there are (DESIGN: rulesets are plug-ins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.commands import StartEncounter
from engine.dice.source import SeededDice
from engine.errors import Refused
from engine.rules.decide import decide
from engine.rules.registry import RULESETS, available, command_types, event_types, find_ruleset
from engine.scenario.files import FileError
from engine.scenario.scenario import load_scenario
from engine.state.encounter import Encounter

ROOT = Path(__file__).resolve().parents[1]


def test_the_registry_names_each_ruleset_once_by_its_own_name() -> None:
    assert available() == tuple(RULESETS) and "ua2" in available()
    for name, ruleset in RULESETS.items():
        assert ruleset.name == name and find_ruleset(name) is ruleset


def test_the_plug_ins_name_every_event_and_command_type_each_once_in_the_registrys_order() -> None:
    from engine.commands import COMMAND_TYPES
    from engine.events import EVENT_TYPES

    assert event_types() == EVENT_TYPES and command_types() == COMMAND_TYPES
    for name in available():
        assert len(set(event_types(name))) == len(event_types(name))
        assert len(set(command_types(name))) == len(command_types(name))


def test_an_encounter_of_an_unknown_ruleset_is_refused_with_the_list() -> None:
    with pytest.raises(Refused) as refused:
        decide(Encounter(), StartEncounter(ruleset="ua9"), SeededDice(0))
    assert "unknown ruleset 'ua9'" in refused.value.message
    assert "ua2" in refused.value.hint


def test_an_encounter_is_decided_by_the_rules_it_names() -> None:
    (started,) = decide(Encounter(), StartEncounter(ruleset="ua2", title="t"), SeededDice(0))
    assert started.ruleset == "ua2"  # type: ignore[attr-defined]


def test_a_scenario_of_an_unknown_ruleset_is_refused_at_its_path(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "knife-vs-22.toml").read_text()
    path = tmp_path / "odd.toml"
    (tmp_path / "characters").mkdir()
    for sheet in (ROOT / "scenarios" / "characters").glob("*.toml"):
        (tmp_path / "characters" / sheet.name).write_text(sheet.read_text())
    path.write_text(text.replace('ruleset = "ua2"', 'ruleset = "ua9"'))
    assert 'ruleset = "ua9"' in path.read_text()
    with pytest.raises(FileError) as error:
        load_scenario(path)
    assert "unknown ruleset 'ua9'" in str(error.value) and "$.ruleset" in str(error.value)
    assert "available: ua2" in str(error.value)
