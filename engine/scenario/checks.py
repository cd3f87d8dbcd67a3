"""A scenario's sheets against the creation rules, as `ua character check` checks one sheet:
what `ua scenario check` and the service's validation report (pure functions, no output)."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from engine.catalog import weapon_catalog
from engine.rules.ua2.creation import TIERS, Finding, Tier, check_sheet, check_weapons
from engine.scenario.scenario import LoadedScenario, scenario_catalog
from engine.state.sheet import Sheet
from engine.state.weapons import Weapon


def creation_findings(sheet: Sheet, tier: Tier, catalog: Mapping[str, Weapon] | None = None) -> list[Finding]:
    """Every creation finding of a sheet as a new character of `tier` (S2-1…S2-6), and its
    weapons against `catalog` (default: the seeds' catalog)."""
    return check_sheet(sheet, tier) + check_weapons(sheet, weapon_catalog() if catalog is None else catalog)


class SheetCheck(msgspec.Struct, kw_only=True):
    """One combatant's sheet against the creation rules, at `tier`. `tier_from`: "sheet",
    "--tier", "fits" (the sheet names no tier: the smallest tier it fits) or "none fits" (it
    breaks the rules at every tier: checked as the most generous)."""

    combatant: str
    file: str | None
    where: str
    tier: str
    tier_from: str
    errors: int
    warnings: int
    findings: list[Finding]


def tier_of(sheet: Sheet, tier: Tier | None, catalog: dict[str, Weapon]) -> tuple[Tier, str, list[Finding]]:
    """(tier, where it comes from, findings): `--tier`, else the sheet's own, else the smallest
    tier whose rules it keeps, else the most generous (whose errors it then has)."""
    chosen = tier if tier is not None else sheet.tier
    if chosen is not None:
        return chosen, "--tier" if tier else "sheet", creation_findings(sheet, chosen, catalog)
    for candidate in TIERS:
        findings = creation_findings(sheet, candidate, catalog)
        if not any(f.severity == "error" for f in findings):
            return candidate, "fits", findings
    return TIERS[-1], "none fits", findings


def check_sheets(loaded: LoadedScenario, tier: Tier | None) -> list[SheetCheck]:
    """Each combatant's sheet (a file or inline) as `ua character check` checks it: at `--tier`,
    else at its own tier; a sheet that names none (a GM's extra, a monster) at the smallest tier
    whose rules it keeps — or, keeping none, at the most generous, errors and all."""
    catalog = scenario_catalog(loaded.scenario)
    out = []
    for i, (spec, fighter) in enumerate(zip(loaded.scenario.combatants, loaded.fighters, strict=True)):
        where = f"$.combatants[{i}].sheet" if spec.sheet is not None else f"$.combatants[{i}].character"
        chosen, tier_from, findings = tier_of(fighter.sheet, tier, catalog)
        if spec.sheet is None:  # inline: paths inside the scenario file
            findings = [msgspec.structs.replace(f, path=where + f.path[1:]) for f in findings]
        errors = sum(f.severity == "error" for f in findings)
        out.append(
            SheetCheck(
                combatant=fighter.id,
                file=spec.sheet,
                where=where,
                tier=chosen,
                tier_from=tier_from,
                errors=errors,
                warnings=len(findings) - errors,
                findings=findings,
            )
        )
    return out
