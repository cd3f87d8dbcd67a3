"""ua3 scenario files (`ruleset = "ua3"`): who is at the table or in the fight, on which side,
with what weapons and armor, under which ua3 settings and tactics (the ua3 vocabulary,
`engine.tactics.ua3_rules`), how each answers coercion, and the stress checks raised before the
fight. A ua3 scenario is played at the table (`ua session new NAME --scenario FILE`) or fought
out (`ua simulate`, `ua fight`: the ua3 Script, `engine.tactics.ua3_script`).

As for ua2 scenarios, loading never runs code from the file, sheet paths resolve relative to the
scenario and may not leave its folder tree, and every error names the file and the `$.path`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from engine import ua3_catalog
from engine.commands.base import CommandBase
from engine.commands.ua3 import AddCharacter, Reaction, StartHelpless, StartingCondition
from engine.rules.ua3.sheet_check import sheet_problems
from engine.scenario.files import FileError, convert_document, parse_document, read_limited
from engine.scenario.ua3_sheets import first_problem, load_ua3_sheet, ruleset_of_document
from engine.state.ua3.combat import Armor, Ua3Weapon
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import GaugeName, Ua3Sheet
from engine.tactics.ua3_rules import PRESETS, Ua3TacticRule
from engine.ua3_catalog import ArmorPiece, worn

SCHEMA_HINT = (
    "a ua3 scenario takes title, ruleset, description, settings, weapons, armor, combatants, triggers, "
    "players; see scenarios/ua3/"
)
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.'-]*$")]


Coerced = Literal["auto", "acquiesce", "refuse"]


class Ua3CombatantSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One character: a ua3 sheet (a path, or `character` inline), a side, the reaction a
    failed stress check brings when the GM does not say (U-23), the weapons it carries and the
    one in hand, the armor it wears, its tactics (a preset name or rules, first match wins) and
    how it answers coercion (U-15)."""

    id: Id
    side: Id
    sheet: str | None = None
    character: Ua3Sheet | None = None
    weapons: tuple[str, ...] = ()
    in_hand: str = ""
    armor: tuple[str, ...] = ()
    reaction: Reaction | None = None
    tactics: str | tuple[Ua3TacticRule, ...] = "aggressive"
    coerced: Coerced = "auto"
    #: a helpless start: a bound prisoner (restrained), a guard out cold (unconscious), one
    #: frozen with fear (C2-33, U-10, U-22)
    condition: StartingCondition | None = None


class Ua3Trigger(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A stress check raised before the fight for `who` (`all`, a side or a combatant id): a
    gauge and rank, or a sample check by its text (U-23, U-25)."""

    gauge: GaugeName | None = None
    rank: Annotated[int, msgspec.Meta(ge=1, le=10)] | None = None
    sample: str = ""
    who: str = "all"
    source: str = ""


class Ua3Scenario(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    title: Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
    ruleset: str = "ua3"
    description: str = ""
    settings: Ua3Settings = Ua3Settings()
    #: The table's own weapons and armor (beside the catalog's, `engine/data/ua3_catalog.toml`).
    weapons: tuple[Ua3Weapon, ...] = ()
    armor: tuple[ArmorPiece, ...] = ()
    combatants: Annotated[tuple[Ua3CombatantSpec, ...], msgspec.Meta(min_length=1, max_length=64)]
    triggers: tuple[Ua3Trigger, ...] = ()
    #: The players' side (default: the first side).
    players: str = ""


class Ua3Fighter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A character ready to join or fight: its resolved sheet, arsenal, armor and tactics."""

    id: str
    side: str
    sheet: Ua3Sheet
    reaction: Reaction | None = None
    arsenal: tuple[Ua3Weapon, ...] = ()
    in_hand: str = "fists"
    armor: Armor = Armor()
    rules: tuple[Ua3TacticRule, ...] = ()
    coerced: Coerced = "auto"
    condition: StartingCondition | None = None

    def enters(self) -> tuple[CommandBase, ...]:
        """The commands that bring this character in: it joins, then any helpless start."""
        if self.condition is None:
            return (self.joins(),)
        return self.joins(), StartHelpless(actor=self.id, condition=self.condition)

    def joins(self) -> AddCharacter:
        """The command that adds this character to an encounter."""
        return AddCharacter(
            id=self.id,
            side=self.side,
            sheet=self.sheet,
            reaction=self.reaction,
            weapons=self.arsenal,
            in_hand=self.in_hand,
            armor=self.armor,
        )


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
    return load_ua3_document(document, name, path.resolve().parent)


def load_ua3_document(document: Any, name: str, root: Path | None) -> LoadedUa3Scenario:
    """A ua3 scenario from its parsed values (a file's, changed by `--set`, or a stored
    session's); sheet paths resolve under `root` (None: only inline sheets)."""
    scenario = convert_document(document, name=name, type_=Ua3Scenario, hint=SCHEMA_HINT)
    if scenario.ruleset != "ua3":
        raise FileError(name, f"not a ua3 scenario (ruleset {scenario.ruleset!r})", json_path="$.ruleset")
    return resolve_ua3_scenario(scenario, name, root=root)


def _catalog(scenario: Ua3Scenario, name: str) -> dict[str, Ua3Weapon]:
    """The weapons the combatants may carry by case-folded name: the catalog's and the
    scenario's own (a weapon not the catalog's must say `house = true`)."""
    catalog = dict(ua3_catalog.weapons())
    for i, w in enumerate(scenario.weapons):
        seeds = catalog.get(w.name.casefold())
        if not w.house and (seeds is None or seeds != w):
            raise FileError(
                name,
                f"weapon {w.name!r} is not the catalog's",
                json_path=f"$.weapons[{i}].house",
                hint="mark a table's own weapon with house = true, or name the catalog weapon as it is",
            )
        if w.kind == "firearm" and w.cap is None:
            raise FileError(
                name,
                f"gun {w.name!r} has no damage cap",
                json_path=f"$.weapons[{i}].cap",
                hint="U-5: a gun deals the roll up to its cap, a crit the cap; give it one (the catalog's run 30–90)",
            )
        catalog[w.name.casefold()] = w
    return catalog


def resolve_ua3_scenario(scenario: Ua3Scenario, name: str, *, root: Path | None) -> LoadedUa3Scenario:
    catalog = _catalog(scenario, name)
    armory = {**ua3_catalog.armor(), **{a.name.casefold(): a for a in scenario.armor}}
    seen: set[str] = set()
    fighters = []
    for i, spec in enumerate(scenario.combatants):
        where = f"$.combatants[{i}]"
        if spec.id.casefold() in seen:
            raise FileError(name, f"combatant id {spec.id!r} is used twice", json_path=f"{where}.id")
        seen.add(spec.id.casefold())
        sheet = _sheet_of(name, root, spec, where, scenario.settings.wound_threshold)
        arsenal = _arsenal(name, catalog, spec, where)
        known = {"fists": "fists", **{w.name.casefold(): w.name for w in arsenal}}
        in_hand = known.get((spec.in_hand or "fists").casefold())
        if in_hand is None:
            raise FileError(
                name,
                f"{spec.id} does not carry a {spec.in_hand}",
                json_path=f"{where}.in_hand",
                hint=f"carried: {', '.join(known.values())}",
            )
        fighters.append(
            Ua3Fighter(
                id=spec.id,
                side=spec.side,
                sheet=sheet,
                reaction=spec.reaction,
                arsenal=arsenal,
                in_hand=in_hand,
                armor=worn(_pieces(name, armory, spec, where)),
                rules=_rules(name, spec, known, where),
                coerced=spec.coerced,
                condition=spec.condition,
            )
        )
    sides = {f.side for f in fighters}  # one side is a scene at the table; a fight needs two (U-22)
    if scenario.players and scenario.players not in sides:
        raise FileError(
            name,
            f"players: no side {scenario.players!r}",
            json_path="$.players",
            hint=f"sides: {', '.join(dict.fromkeys(f.side for f in fighters))}",
        )
    ids = {f.id for f in fighters}
    for i, t in enumerate(scenario.triggers):
        if t.who != "all" and t.who not in ids and t.who not in sides:
            raise FileError(name, f"trigger for {t.who!r}: no such side or combatant", json_path=f"$.triggers[{i}].who")
        if (t.gauge is None or t.rank is None) and not t.sample:
            raise FileError(name, "a trigger names a gauge and rank, or a sample", json_path=f"$.triggers[{i}]")
    return LoadedUa3Scenario(path=name, scenario=scenario, fighters=tuple(fighters))


def _arsenal(name: str, catalog: dict[str, Ua3Weapon], spec: Ua3CombatantSpec, where: str) -> tuple[Ua3Weapon, ...]:
    arsenal = []
    for j, weapon in enumerate(spec.weapons):
        found = catalog.get(weapon.casefold())
        if found is None:
            raise FileError(
                name,
                f"no weapon named {weapon!r}",
                json_path=f"{where}.weapons[{j}]",
                hint="a ua3 catalog weapon, or one defined under [[weapons]]",
            )
        if found.name != "fists":
            arsenal.append(found)
    return tuple(arsenal)


def _pieces(name: str, armory: dict[str, ArmorPiece], spec: Ua3CombatantSpec, where: str) -> list[ArmorPiece]:
    pieces = []
    for j, piece in enumerate(spec.armor):
        found = armory.get(piece.casefold())
        if found is None:
            raise FileError(
                name,
                f"no armor named {piece!r}",
                json_path=f"{where}.armor[{j}]",
                hint=f"armor: {', '.join(a.name for a in armory.values())}",
            )
        pieces.append(found)
    return pieces


def _rules(name: str, spec: Ua3CombatantSpec, known: dict[str, str], where: str) -> tuple[Ua3TacticRule, ...]:
    if isinstance(spec.tactics, str):
        rules = PRESETS.get(spec.tactics)
        if rules is None:
            raise FileError(
                name,
                f"no ua3 tactics preset {spec.tactics!r}",
                json_path=f"{where}.tactics",
                hint=f"presets: {', '.join(PRESETS)}; or give a list of rules",
            )
        return rules
    if not spec.tactics:
        raise FileError(name, "tactics need at least one rule", json_path=f"{where}.tactics")
    for j, rule in enumerate(spec.tactics):
        if rule.weapon and rule.weapon.casefold() not in known:
            raise FileError(name, f"{spec.id} does not carry a {rule.weapon}", json_path=f"{where}.tactics[{j}].weapon")
    return spec.tactics


def _sheet_of(name: str, root: Path | None, spec: Ua3CombatantSpec, where: str, threshold: int) -> Ua3Sheet:
    """The combatant's sheet, checked against the scenario's wound threshold (U-2, U-19)."""
    if (spec.sheet is None) == (spec.character is None):
        raise FileError(name, f"{spec.id}: give either `sheet` (a file) or `character` (inline)", json_path=where)
    if spec.character is not None:
        problems = sheet_problems(spec.character, default_threshold=threshold)
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
    return load_ua3_sheet(target, document, wound_threshold=threshold)


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
