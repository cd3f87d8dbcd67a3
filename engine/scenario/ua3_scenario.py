"""ua3 scenario files (`ruleset = "ua3"`): who is at the table, on which side, under which ua3
settings. A ua3 scenario is played at the table (`ua session new NAME --scenario FILE`); it is
not fought in batches until ua3 combat exists.

As for ua2 scenarios, loading never runs code from the file, sheet paths resolve relative to the
scenario and may not leave its folder tree, and every error names the file and the `$.path`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import msgspec

from engine.commands.ua3 import AddCharacter, Reaction
from engine.rules.ua3.sheet_check import sheet_problems
from engine.scenario.files import FileError, convert_document, parse_document, read_limited
from engine.scenario.ua3_sheets import first_problem, load_ua3_sheet, ruleset_of_document
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import Ua3Sheet

SCHEMA_HINT = "a ua3 scenario takes title, ruleset, description, settings, combatants, players"
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.'-]*$")]


class Ua3CombatantSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One character: a ua3 sheet (a path, or `character` inline), a side, and the reaction a
    failed stress check brings when the GM does not say (U-23)."""

    id: Id
    side: Id
    sheet: str | None = None
    character: Ua3Sheet | None = None
    reaction: Reaction | None = None


class Ua3Scenario(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    title: Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
    ruleset: str = "ua3"
    description: str = ""
    settings: Ua3Settings = Ua3Settings()
    combatants: Annotated[tuple[Ua3CombatantSpec, ...], msgspec.Meta(min_length=1, max_length=64)]
    #: The players' side (default: the first side).
    players: str = ""


class Ua3Fighter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A character ready to join: its resolved sheet."""

    id: str
    side: str
    sheet: Ua3Sheet
    reaction: Reaction | None = None

    def joins(self) -> AddCharacter:
        return AddCharacter(id=self.id, side=self.side, sheet=self.sheet, reaction=self.reaction)


class LoadedUa3Scenario(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    path: str
    scenario: Ua3Scenario
    fighters: tuple[Ua3Fighter, ...]

    @property
    def settings(self) -> Ua3Settings:
        return self.scenario.settings

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.side for f in self.fighters))

    @property
    def players(self) -> str:
        return self.scenario.players or self.sides[0]


def scenario_ruleset(path: str | Path) -> str:
    """The ruleset a scenario file names (`ruleset`, "ua2" when absent)."""
    path = Path(path)
    document = parse_document(read_limited(path), name=str(path))
    if not isinstance(document, dict):
        return "ua2"
    value = document.get("ruleset", "ua2")
    return value if isinstance(value, str) else "ua2"


def load_ua3_scenario(path: str | Path) -> LoadedUa3Scenario:
    """Read and check a ua3 scenario and the sheets it names; `FileError` on any problem."""
    path = Path(path)
    name = str(path)
    document = parse_document(read_limited(path), name=name)
    scenario = convert_document(document, name=name, type_=Ua3Scenario, hint=SCHEMA_HINT)
    if scenario.ruleset != "ua3":
        raise FileError(name, f"not a ua3 scenario (ruleset {scenario.ruleset!r})", json_path="$.ruleset")
    return resolve_ua3_scenario(scenario, name, root=path.resolve().parent)


def resolve_ua3_scenario(scenario: Ua3Scenario, name: str, *, root: Path | None) -> LoadedUa3Scenario:
    seen: set[str] = set()
    fighters = []
    for i, spec in enumerate(scenario.combatants):
        where = f"$.combatants[{i}]"
        if spec.id.casefold() in seen:
            raise FileError(name, f"combatant id {spec.id!r} is used twice", json_path=f"{where}.id")
        seen.add(spec.id.casefold())
        fighters.append(
            Ua3Fighter(id=spec.id, side=spec.side, sheet=_sheet_of(name, root, spec, where), reaction=spec.reaction)
        )
    sides = {f.side for f in fighters}
    if scenario.players and scenario.players not in sides:
        raise FileError(
            name,
            f"players: no side {scenario.players!r}",
            json_path="$.players",
            hint=f"sides: {', '.join(dict.fromkeys(f.side for f in fighters))}",
        )
    return LoadedUa3Scenario(path=name, scenario=scenario, fighters=tuple(fighters))


def _sheet_of(name: str, root: Path | None, spec: Ua3CombatantSpec, where: str) -> Ua3Sheet:
    if (spec.sheet is None) == (spec.character is None):
        raise FileError(name, f"{spec.id}: give either `sheet` (a file) or `character` (inline)", json_path=where)
    if spec.character is not None:
        problems = sheet_problems(spec.character)
        if problems:
            first = first_problem(name, problems)
            raise FileError(
                name,
                first.reason,
                json_path=f"{where}.character{problems[0].path[1:]}",
                hint=first.hint,
            )
        return spec.character
    if root is None:
        raise FileError(name, f"{spec.id}: a stored scenario names no sheet file", json_path=f"{where}.sheet")
    target = (root / spec.sheet).resolve() if spec.sheet else root
    if not target.is_relative_to(root):
        raise FileError(
            name,
            f"sheet path {spec.sheet!r} leaves the scenario's folder",
            json_path=f"{where}.sheet",
            hint="sheets live beside the scenario or below it",
        )
    document = parse_document(read_limited(target), name=str(target))
    if ruleset_of_document(document, str(target)) != "ua3":
        raise FileError(
            name,
            f'{spec.id}: {spec.sheet} is not a ua3 sheet (add ruleset = "ua3" to it)',
            json_path=f"{where}.sheet",
        )
    return load_ua3_sheet(target, document)


def ua3_scenario_document(loaded: LoadedUa3Scenario) -> dict[str, Any]:
    """The scenario as one self-contained document: every sheet inline."""
    inline = tuple(
        msgspec.structs.replace(spec, sheet=None, character=fighter.sheet)
        for spec, fighter in zip(loaded.scenario.combatants, loaded.fighters, strict=True)
    )
    document: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(msgspec.structs.replace(loaded.scenario, combatants=inline))
    )
    return document
