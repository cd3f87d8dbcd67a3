"""Scenario files: who fights whom, with what, under which settings and tactics.

Loading never runs code from the file; sheet paths resolve relative to the scenario and may not
leave its folder tree; every error names the file and the `$.path`. A loaded scenario can be
written out as one self-contained document (`scenario_document`: every sheet inline), which a
session stores in its own log so that a what-if fork never reads a file again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, cast

import msgspec

from engine.catalog import weapon_catalog
from engine.commands.base import CommandBase
from engine.commands.setup import AddCombatant, StartHelpless
from engine.rules.registry import RULESETS
from engine.scenario.files import FileError, convert_document, parse_document, read_limited
from engine.scenario.sheets import load_sheet, sheet_problems
from engine.settings import CherryName, Settings
from engine.state.sheet import MeterName, Sheet
from engine.state.weapons import Weapon
from engine.tactics.rules import PRESETS, TacticRule

SCHEMA_HINT = "see `ua scenario schema` for the fields a scenario takes"
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.'-]*$")]


class CombatantSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One combatant: a sheet (a path, or `character` inline), a side, a weapon in hand,
    position flags and tactics (a preset name or rules, first match wins)."""

    id: Id
    side: Id
    sheet: str | None = None
    character: Sheet | None = None
    in_hand: str = ""
    weapons: tuple[str, ...] | None = None
    ambusher: bool = False
    at_range: bool = False
    reaction: Literal["flee", "freeze", "frenzy"] | None = None
    tactics: str | tuple[TacticRule, ...] = "aggressive"
    cherry: CherryName | None = None
    #: a helpless start: a bound prisoner (restrained), a guard out cold (unconscious), one
    #: frozen with fear (C2-33, M2-7, M2-8)
    condition: Literal["restrained", "unconscious", "frozen"] | None = None


class Trigger(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A madness check beyond the M2-8 defaults, raised at the start of the fight for `who`
    (`all`, a side or a combatant id): e.g. unnatural 4 at the first sight of a monster."""

    meter: MeterName
    rank: Annotated[int, msgspec.Meta(ge=1, le=10)]
    who: str = "all"
    cause: str = ""
    source: str = ""


class Scenario(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    title: Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
    ruleset: Annotated[str, msgspec.Meta(min_length=1, max_length=20)] = "ua2"
    description: str = ""
    settings: Settings = Settings()
    weapons: tuple[Weapon, ...] = ()
    combatants: Annotated[tuple[CombatantSpec, ...], msgspec.Meta(min_length=2, max_length=64)]
    triggers: tuple[Trigger, ...] = ()
    #: The players' side, whom the report speaks to (default: the first side).
    players: str = ""


class Fighter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A combatant ready to fight: its resolved sheet, arsenal and tactic rules."""

    id: str
    side: str
    sheet: Sheet
    arsenal: tuple[Weapon, ...]
    in_hand: str
    ambusher: bool
    at_range: bool
    reaction: Literal["flee", "freeze", "frenzy"] | None
    rules: tuple[TacticRule, ...]
    cherry: CherryName | None
    condition: Literal["restrained", "unconscious", "frozen"] | None = None

    def enters(self) -> tuple[CommandBase, ...]:
        """The commands that bring this combatant in: it joins, then any helpless start."""
        if self.condition is None:
            return (self.joins(),)
        return self.joins(), StartHelpless(actor=self.id, condition=self.condition)

    def joins(self) -> AddCombatant:
        """The command that adds this combatant to an encounter."""
        return AddCombatant(
            id=self.id,
            side=self.side,
            sheet=self.sheet,
            weapons=self.arsenal,
            in_hand=self.in_hand,
            ambusher=self.ambusher,
            reaction=self.reaction,
        )


class LoadedScenario(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    path: str
    scenario: Scenario
    fighters: tuple[Fighter, ...]

    @property
    def settings(self) -> Settings:
        return self.scenario.settings

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.side for f in self.fighters))

    @property
    def players(self) -> str:
        """The players' side: the scenario's `players`, else the first side."""
        return self.scenario.players or self.sides[0]


def scenario_catalog(scenario: Scenario) -> dict[str, Weapon]:
    """The weapons a scenario's combatants may carry, by case-folded name: the seeds' catalog
    and the scenario's own."""
    return {**weapon_catalog(), **{w.name.casefold(): w for w in scenario.weapons}}


def is_ua3(document: Any) -> bool:
    """Whether a parsed scenario document is a ua3 scenario (`ruleset = "ua3"`): it has its own
    shape, read by `engine.scenario.ua3_scenario` (loaded only then: a ua2 session never does)."""
    return isinstance(document, dict) and document.get("ruleset") == "ua3"


def load_scenario(path: str | Path, document: Any = None) -> LoadedScenario:
    """Read and check a scenario file and the sheets it names. With `document` (the file's
    parsed values, changed by `--set`), that is checked instead, as the file would be."""
    path = Path(path)
    name = str(path)
    if document is None:
        document = parse_document(read_limited(path), name=name)
    if is_ua3(document):
        from engine.scenario.ua3_scenario import load_ua3_document

        return cast(LoadedScenario, load_ua3_document(document, name, path.resolve().parent))
    scenario = convert_document(document, name=name, type_=Scenario, hint=SCHEMA_HINT)
    return resolve_scenario(scenario, name, root=path.resolve().parent)


def scenario_document(loaded: LoadedScenario) -> dict[str, Any]:
    """The scenario as one self-contained document: every sheet inline, nothing left to read."""
    if not isinstance(loaded, LoadedScenario):
        from engine.scenario.ua3_scenario import ua3_scenario_document

        return ua3_scenario_document(loaded)
    inline = tuple(
        msgspec.structs.replace(spec, sheet=None, character=fighter.sheet)
        for spec, fighter in zip(loaded.scenario.combatants, loaded.fighters, strict=True)
    )
    document: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(msgspec.structs.replace(loaded.scenario, combatants=inline))
    )  # plain JSON values (lists, not tuples): what the log will read back
    return document


def scenario_from_document(document: Any, *, where: str) -> LoadedScenario:
    """A scenario from a document (`scenario_document`'s, as a session stores it), checked as a
    file would be; it may not name a sheet file: `where` names where it came from."""
    if is_ua3(document):
        from engine.scenario.ua3_scenario import load_ua3_document

        return cast(LoadedScenario, load_ua3_document(document, where, None))
    scenario = convert_document(document, name=where, type_=Scenario, hint=SCHEMA_HINT)
    return resolve_scenario(scenario, where, root=None)


def resolve_scenario(scenario: Scenario, name: str, *, root: Path | None) -> LoadedScenario:
    """Check a scenario and resolve its combatants; sheet paths resolve under `root` (None: only
    inline sheets). `name` is the file (or place) errors name."""
    if scenario.ruleset not in RULESETS:
        raise FileError(
            name,
            f"unknown ruleset {scenario.ruleset!r}",
            json_path="$.ruleset",
            hint=f"available: {', '.join(RULESETS)}",
        )
    catalog = dict(weapon_catalog())
    for i, w in enumerate(scenario.weapons):
        _check_weapon(name, w, f"$.weapons[{i}]")
        catalog[w.name.casefold()] = w
    seen: set[str] = set()
    fighters = []
    for i, spec in enumerate(scenario.combatants):
        where = f"$.combatants[{i}]"
        if spec.id.casefold() in seen:
            raise FileError(name, f"combatant id {spec.id!r} is used twice", json_path=f"{where}.id")
        seen.add(spec.id.casefold())
        sheet = _sheet_of(name, root, spec, where)
        _check_able_to_act(name, scenario.settings, spec, sheet, where)
        arsenal = _arsenal(name, catalog, spec, sheet, where)
        in_hand = spec.in_hand or "fists"
        known = {"fists": "fists", **{w.name.casefold(): w.name for w in arsenal}}
        if in_hand.casefold() not in known:
            raise FileError(
                name,
                f"{spec.id} does not carry a {in_hand}",
                json_path=f"{where}.in_hand",
                hint=f"carried: {', '.join(known.values())}",
            )
        fighters.append(
            Fighter(
                id=spec.id,
                side=spec.side,
                sheet=sheet,
                arsenal=arsenal,
                in_hand=known[in_hand.casefold()],
                ambusher=spec.ambusher,
                at_range=spec.at_range,
                reaction=spec.reaction,
                rules=_rules(name, spec, where, known),
                cherry=spec.cherry,
                condition=spec.condition,
            )
        )
    if len({f.side for f in fighters}) < 2:
        raise FileError(
            name,
            "a fight needs at least two sides",
            json_path="$.combatants",
            hint="give the combatants different `side` values",
        )
    ids = {f.id for f in fighters}
    sides = {f.side for f in fighters}
    if scenario.players and scenario.players not in sides:
        raise FileError(
            name,
            f"players: no side {scenario.players!r}",
            json_path="$.players",
            hint=f"sides: {', '.join(dict.fromkeys(f.side for f in fighters))}",
        )
    for i, t in enumerate(scenario.triggers):
        if t.who != "all" and t.who not in ids and t.who not in sides:
            raise FileError(name, f"trigger for {t.who!r}: no such side or combatant", json_path=f"$.triggers[{i}].who")
    return LoadedScenario(path=name, scenario=scenario, fighters=tuple(fighters))


def _check_weapon(name: str, weapon: Weapon, where: str) -> None:
    """A scenario's own weapon is marked `house`; a catalog weapon is named, or copied unchanged."""
    if weapon.house:
        return
    seeds = weapon_catalog().get(weapon.name.casefold())
    if seeds is None:
        raise FileError(
            name,
            f"weapon {weapon.name!r} is not from the seeds",
            json_path=f"{where}.house",
            hint="mark a table's own weapon with house = true",
        )
    if weapon != seeds:
        raise FileError(
            name,
            f"weapon {weapon.name!r} redefines the catalog's {seeds.name}",
            json_path=f"{where}.house",
            hint="mark the table's own numbers with house = true, or name the catalog weapon as it is",
        )


def _check_able_to_act(name: str, settings: Settings, spec: CombatantSpec, sheet: Sheet, where: str) -> None:
    """C2-31: every combatant starts able to act: above `incapacitated_at`, which must itself be
    below the combatant's maximum wound points."""
    line = settings.incapacitated_at
    if line >= sheet.max_wounds:
        raise FileError(
            name,
            f"incapacitated_at {line} is not below {spec.id}'s {sheet.max_wounds} wound points ({where}): "
            "every combatant would start incapacitated (C2-31)",
            json_path="$.settings.incapacitated_at",
            hint="set it below the fewest wound points of any combatant",
        )
    if sheet.current_wounds <= line:
        path = f"{where}.character.wounds.current" if spec.character is not None else f"{where}.sheet"
        raise FileError(
            name,
            f"{spec.id} starts with {sheet.current_wounds} wound points, at or below incapacitated_at {line}: "
            "unable to act (C2-31)",
            json_path=path,
            hint="give the combatant more wound points, or leave them out",
        )


def _sheet_of(name: str, root: Path | None, spec: CombatantSpec, where: str) -> Sheet:
    if (spec.sheet is None) == (spec.character is None):
        raise FileError(name, "give either `sheet` (a path) or `character` (inline)", json_path=where)
    if spec.character is not None:
        problems = sheet_problems(spec.character)
        if problems:
            p = problems[0]
            raise FileError(name, p.message, json_path=f"{where}.character{p.path[1:]}")
        return spec.character
    assert spec.sheet is not None
    if root is None:
        raise FileError(
            name,
            f"sheet path {spec.sheet!r} where only an inline character may stand",
            json_path=f"{where}.sheet",
            hint="a stored scenario carries every sheet inline",
        )
    target = sheet_file(name, root, spec.sheet, f"{where}.sheet")
    try:
        return load_sheet(target)
    except FileError as exc:
        inside = f" (at the sheet's {exc.json_path})" if exc.json_path else ""
        raise FileError(
            name, f"sheet {spec.sheet}: {exc.reason}{inside}", json_path=f"{where}.sheet", hint=exc.hint
        ) from None


def sheet_file(name: str, root: Path, sheet: str, where: str) -> Path:
    """Where a sheet path of the scenario `name` points; it may not leave the folder `root`."""
    target = (root / sheet).resolve()
    if not target.is_relative_to(root):
        raise FileError(
            name,
            f"sheet path {sheet!r} leaves the scenario's folder",
            json_path=where,
            hint="keep sheets in the scenario's folder or below it",
        )
    return target


def _arsenal(
    name: str, catalog: dict[str, Weapon], spec: CombatantSpec, sheet: Sheet, where: str
) -> tuple[Weapon, ...]:
    names = spec.weapons if spec.weapons is not None else sheet.weapons
    arsenal = []
    for j, weapon in enumerate(names):
        found = catalog.get(weapon.casefold())
        if found is None:
            path = f"{where}.weapons[{j}]" if spec.weapons is not None else f"{where}.sheet"
            raise FileError(
                name,
                f"no weapon named {weapon!r}",
                json_path=path,
                hint="use a catalog weapon or define it under [[weapons]]",
            )
        if found.name != "fists":
            arsenal.append(found)
    return tuple(arsenal)


def _rules(name: str, spec: CombatantSpec, where: str, carried: dict[str, str]) -> tuple[TacticRule, ...]:
    """The preset or the custom rules; a custom rule may name only weapons the combatant carries
    (`carried`: lower-case name → name), and only plain strikes come several at a time (C2-8)."""
    if isinstance(spec.tactics, str):
        preset = PRESETS.get(spec.tactics)
        if preset is None:
            raise FileError(
                name,
                f"no tactics preset {spec.tactics!r}",
                json_path=f"{where}.tactics",
                hint=f"presets: {', '.join(PRESETS)}; or give a list of rules",
            )
        return preset
    if not spec.tactics:
        raise FileError(name, "tactics need at least one rule", json_path=f"{where}.tactics")
    hint = f"carried: {', '.join(carried.values())}"
    for j, rule in enumerate(spec.tactics):
        at = f"{where}.tactics[{j}]"
        if rule.weapon and rule.weapon.casefold() not in carried:
            raise FileError(name, f"{spec.id} does not carry a {rule.weapon}", json_path=f"{at}.weapon", hint=hint)
        held = rule.when.holding_weapon
        if held and held.casefold() not in carried:
            raise FileError(
                name, f"{spec.id} does not carry a {held}", json_path=f"{at}.when.holding_weapon", hint=hint
            )
        if rule.attacks > 1 and rule.mode != "strike":
            raise FileError(
                name,
                f"a {rule.mode.replace('_', ' ')} is a single attack",
                json_path=f"{at}.attacks",
                hint="several attacks a round are strikes (C2-8)",
            )
    return spec.tactics
