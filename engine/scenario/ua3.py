"""ua3 scenario files (`ruleset = "ua3"`): who fights whom with what weapons and armor, under
which settings and tactics (the ua3 vocabulary, `engine.tactics.ua3`), and the stress checks
raised before the fight. Loaded and checked like ua2's: errors name the file and the `$.path`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from engine import ua3_catalog
from engine.commands.ua3 import AddCharacter
from engine.rules.ua3.sheet_check import sheet_problems
from engine.scenario.files import FileError, convert_document, load_document
from engine.state.ua3.combat import Armor, Ua3Weapon
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import GaugeName, Ua3Sheet
from engine.tactics.ua3_rules import PRESETS, Ua3TacticRule
from engine.ua3_catalog import ArmorPiece, worn

SCHEMA_HINT = "see `ua scenario schema` and scenarios/ua3/ for the fields a ua3 scenario takes"
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.'-]*$")]
Reaction = Literal["flee", "freeze", "frenzy"]


class Ua3CombatantSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One ua3 combatant: a sheet (a path, or `character` inline), a side, the weapons it
    carries and the one in hand, the armor it wears, its reaction to a failed stress check,
    its tactics (a preset name or rules, first match wins) and how it answers coercion."""

    id: Id
    side: Id
    sheet: str | None = None
    character: Ua3Sheet | None = None
    weapons: tuple[str, ...] = ()
    in_hand: str = ""
    armor: tuple[str, ...] = ()
    reaction: Reaction | None = None
    tactics: str | tuple[Ua3TacticRule, ...] = "aggressive"
    coerced: Literal["auto", "acquiesce", "refuse"] = "auto"


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
    ruleset: Literal["ua3"] = "ua3"
    description: str = ""
    settings: Ua3Settings = Ua3Settings()
    weapons: tuple[Ua3Weapon, ...] = ()
    armor: tuple[ArmorPiece, ...] = ()
    combatants: Annotated[tuple[Ua3CombatantSpec, ...], msgspec.Meta(min_length=1, max_length=64)]
    triggers: tuple[Ua3Trigger, ...] = ()
    #: The players' side, whom the report speaks to (default: the first side).
    players: str = ""


class Ua3Fighter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A ua3 combatant ready to fight: its sheet, arsenal, armor and tactics."""

    id: str
    side: str
    sheet: Ua3Sheet
    arsenal: tuple[Ua3Weapon, ...]
    in_hand: str
    armor: Armor
    reaction: Reaction | None
    rules: tuple[Ua3TacticRule, ...]
    coerced: Literal["auto", "acquiesce", "refuse"] = "auto"

    def joins(self) -> AddCharacter:
        """The command that adds this combatant to an encounter."""
        return AddCharacter(
            id=self.id,
            side=self.side,
            sheet=self.sheet,
            reaction=self.reaction,
            weapons=self.arsenal,
            in_hand=self.in_hand,
            armor=self.armor,
        )


class Ua3LoadedScenario(msgspec.Struct, frozen=True, gc=False, kw_only=True):
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


def is_ua3(document: Any) -> bool:
    return isinstance(document, dict) and document.get("ruleset") == "ua3"


def load_ua3(document: Any, name: str, root: Path | None) -> Ua3LoadedScenario:
    scenario = convert_document(document, name=name, type_=Ua3Scenario, hint=SCHEMA_HINT)
    return resolve_ua3(scenario, name, root=root)


def ua3_document(loaded: Ua3LoadedScenario) -> dict[str, Any]:
    """The scenario as one self-contained document: every sheet inline."""
    inline = tuple(
        msgspec.structs.replace(spec, sheet=None, character=fighter.sheet)
        for spec, fighter in zip(loaded.scenario.combatants, loaded.fighters, strict=True)
    )
    document: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(msgspec.structs.replace(loaded.scenario, combatants=inline))
    )
    return document


def _sheet(name: str, root: Path | None, spec: Ua3CombatantSpec, where: str) -> Ua3Sheet:
    if (spec.sheet is None) == (spec.character is None):
        raise FileError(name, "give either `sheet` (a path) or `character` (inline)", json_path=where)
    if spec.character is not None:
        sheet, at = spec.character, f"{where}.character"
    else:
        assert spec.sheet is not None
        if root is None:
            raise FileError(
                name, f"sheet path {spec.sheet!r} where only an inline character may stand", json_path=f"{where}.sheet"
            )
        from engine.scenario.scenario import sheet_file

        target = sheet_file(name, root, spec.sheet, f"{where}.sheet")
        try:
            sheet = load_document(target, Ua3Sheet, hint="a ua3 sheet: see scenarios/ua3/characters/")
        except FileError as exc:
            inside = f" (at the sheet's {exc.json_path})" if exc.json_path else ""
            raise FileError(
                name, f"sheet {spec.sheet}: {exc.reason}{inside}", json_path=f"{where}.sheet", hint=exc.hint
            ) from None
        at = f"{where}.sheet"
    problems = sheet_problems(sheet)
    if problems:
        p = problems[0]
        raise FileError(
            name, p.message, json_path=f"{at}{p.path[1:]}" if spec.character is not None else at, hint=p.hint
        )
    return sheet


def resolve_ua3(scenario: Ua3Scenario, name: str, *, root: Path | None) -> Ua3LoadedScenario:
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
        catalog[w.name.casefold()] = w
    armory = {**ua3_catalog.armor(), **{a.name.casefold(): a for a in scenario.armor}}
    seen: set[str] = set()
    fighters = []
    for i, spec in enumerate(scenario.combatants):
        where = f"$.combatants[{i}]"
        if spec.id.casefold() in seen:
            raise FileError(name, f"combatant id {spec.id!r} is used twice", json_path=f"{where}.id")
        seen.add(spec.id.casefold())
        sheet = _sheet(name, root, spec, where)
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
        known = {"fists": "fists", **{w.name.casefold(): w.name for w in arsenal}}
        in_hand = known.get((spec.in_hand or "fists").casefold())
        if in_hand is None:
            raise FileError(
                name,
                f"{spec.id} does not carry a {spec.in_hand}",
                json_path=f"{where}.in_hand",
                hint=f"carried: {', '.join(known.values())}",
            )
        pieces = []
        for j, piece in enumerate(spec.armor):
            found_piece = armory.get(piece.casefold())
            if found_piece is None:
                raise FileError(
                    name,
                    f"no armor named {piece!r}",
                    json_path=f"{where}.armor[{j}]",
                    hint=f"armor: {', '.join(a.name for a in armory.values())}",
                )
            pieces.append(found_piece)
        if isinstance(spec.tactics, str):
            rules = PRESETS.get(spec.tactics)
            if rules is None:
                raise FileError(
                    name,
                    f"no ua3 tactics preset {spec.tactics!r}",
                    json_path=f"{where}.tactics",
                    hint=f"presets: {', '.join(PRESETS)}; or give a list of rules",
                )
        elif not spec.tactics:
            raise FileError(name, "tactics need at least one rule", json_path=f"{where}.tactics")
        else:
            rules = spec.tactics
            for j, rule in enumerate(rules):
                if rule.weapon and rule.weapon.casefold() not in known:
                    raise FileError(
                        name, f"{spec.id} does not carry a {rule.weapon}", json_path=f"{where}.tactics[{j}].weapon"
                    )
        fighters.append(
            Ua3Fighter(
                id=spec.id,
                side=spec.side,
                sheet=sheet,
                arsenal=tuple(arsenal),
                in_hand=in_hand,
                armor=worn(pieces),
                reaction=spec.reaction,
                rules=rules,
                coerced=spec.coerced,
            )
        )
    sides = {f.side for f in fighters}  # one side is a scene at the table; a fight needs two (U-22)
    if scenario.players and scenario.players not in sides:
        raise FileError(name, f"players: no side {scenario.players!r}", json_path="$.players")
    ids = {f.id for f in fighters}
    for i, t in enumerate(scenario.triggers):
        if t.who != "all" and t.who not in ids and t.who not in sides:
            raise FileError(name, f"trigger for {t.who!r}: no such side or combatant", json_path=f"$.triggers[{i}].who")
        if (t.gauge is None or t.rank is None) and not t.sample:
            raise FileError(name, "a trigger names a gauge and rank, or a sample", json_path=f"$.triggers[{i}]")
    return Ua3LoadedScenario(path=name, scenario=scenario, fighters=tuple(fighters))
