"""Validation: a scenario or a sheet checked as `ua scenario check` and `ua character check` check
a file (the same messages at the same `$.path`), the exact odds of a check, and one check rolled —
through the same `engine.dice.asked` as `ua odds` and `ua check`."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Router, post

from engine.dice.asked import SPEC_RULES, Spelling, checked, odds_of, roll_one
from engine.dice.checks import CheckSpec
from engine.errors import InvalidInput
from engine.events.checks import CheckRolled
from engine.scenario.checks import check_sheets, creation_findings, tier_of
from engine.scenario.files import FileError
from engine.scenario.ua3_scenario import LoadedUa3Scenario
from engine.service import bodies, models
from engine.service.context import body_of, run

#: How the API names a check spec's fields: by their `$.path` in the body.
FIELDS = Spelling(where=lambda f: f"$.{f}", give=lambda f: f"give {f}", name=lambda f: f)


def _findings_of(exc: FileError) -> list[models.Finding]:
    return [models.Finding(path=exc.json_path or "$", message=exc.reason, hint=exc.hint)]


def _validate_scenario(source: models.ScenarioSource) -> models.Validation:
    try:
        loaded = bodies.load_any_source(source)
    except FileError as exc:
        return models.Validation(ok=False, kind="scenario", findings=_findings_of(exc))
    if isinstance(loaded, LoadedUa3Scenario):  # its sheets were checked as they loaded (U-1)
        return models.Validation(
            ok=True,
            kind="scenario",
            findings=[],
            summary={
                "title": loaded.scenario.title,
                "ruleset": loaded.scenario.ruleset,
                "sides": list(loaded.sides),
                "players": loaded.players,
                "combatants": [{"id": f.id} for f in loaded.fighters],
            },
        )
    checks = check_sheets(loaded, None)
    findings = [
        models.Finding(path=f.path, message=f"{c.combatant}: {f.message} ({f.rule})", severity=f.severity)
        for c in checks
        for f in c.findings
    ]
    return models.Validation(
        ok=not any(f.severity == "error" for f in findings),
        kind="scenario",
        findings=findings,
        summary={
            "title": loaded.scenario.title,
            "ruleset": loaded.scenario.ruleset,
            "sides": list(loaded.sides),
            "players": loaded.players,
            "combatants": [{"id": c.combatant, "tier": c.tier, "tier_from": c.tier_from} for c in checks],
        },
    )


def _validate_sheet(source: models.SheetSource) -> models.Validation:
    try:
        sheet = bodies.load_sheet_source(source)
    except FileError as exc:
        return models.Validation(ok=False, kind="sheet", findings=_findings_of(exc))
    if source.tier is not None and source.tier not in ("beginner", "seasoned", "experienced"):
        raise InvalidInput(f"no tier {source.tier!r}", where="$.tier", hint="beginner, seasoned or experienced")
    if source.tier is not None or sheet.tier is not None:
        chosen = source.tier or sheet.tier
        found = creation_findings(sheet, chosen)  # type: ignore[arg-type]
        tier_from = "tier" if source.tier else "sheet"
    else:
        chosen, tier_from, found = tier_of(sheet, None, scenario_catalog_default())
    findings = [models.Finding(path=f.path, message=f"{f.message} ({f.rule})", severity=f.severity) for f in found]
    return models.Validation(
        ok=not any(f.severity == "error" for f in findings),
        kind="sheet",
        findings=findings,
        summary={"name": sheet.name, "tier": chosen, "tier_from": tier_from},
    )


def scenario_catalog_default() -> dict[str, Any]:
    from engine.catalog import weapon_catalog

    return dict(weapon_catalog())


@post("/validate/scenario", status_code=200, opt={"body": models.ScenarioSource}, summary="Check a scenario")
async def validate_scenario(request: Request[Any, Any, Any]) -> models.Validation:
    """Check a scenario as `ua scenario check` does (its sheets against the creation rules): the
    same messages at the same `$.path`. A document that cannot be loaded is `ok: false`."""
    return await run(_validate_scenario, await body_of(request, models.ScenarioSource))


@post("/validate/sheet", status_code=200, opt={"body": models.SheetSource}, summary="Check a character sheet")
async def validate_sheet(request: Request[Any, Any, Any]) -> models.Validation:
    """Check a character sheet as `ua character check` does."""
    return await run(_validate_sheet, await body_of(request, models.SheetSource))


@post(
    "/odds",
    status_code=200,
    opt={"body": CheckSpec, "body_schema": {"allOf": SPEC_RULES}},
    summary="Exact odds of a check",
)
async def odds(request: Request[Any, Any, Any]) -> models.Odds:
    """Exact odds of every outcome class of a check (C-13), as `ua odds`."""
    spec = checked(await body_of(request, CheckSpec), FIELDS)
    return models.Odds(spec=spec, target=spec.target, **msgspec.structs.asdict(odds_of(spec)))


def _check(body: models.CheckRequest) -> models.CheckOutcome:
    spec = checked(body.spec, FIELDS)
    if body.flipped and not spec.flip:
        raise InvalidInput(
            "`flipped` needs a spec with flip", where="$.flipped", hint="only obsession or passion rolls flip"
        )
    if body.dice and (len(body.dice) != 2 or not all(0 <= d <= 9 for d in body.dice)):
        raise InvalidInput("a percentile roll is two faces 0–9, tens first", where="$.dice", hint="[5, 2]")
    result, seed = roll_one(spec, body.dice, body.seed, body.flipped)
    roll = result.roll
    return models.CheckOutcome(
        spec=result.spec,
        target=result.spec.target,
        outcome=result.outcome,
        success=result.success,
        value=result.value,
        dice=None if roll is None else [roll.tens, roll.ones],
        flipped=False if roll is None else roll.flipped,
        matched=False if roll is None else roll.is_matched,
        explanation=CheckRolled(result=result).explain(),
        seed=seed,
    )


@post(
    "/checks",
    status_code=200,
    opt={"body": models.CheckRequest, "body_schema": models.FLIPPED_NEEDS_FLIP},
    summary="Roll one check",
)
async def check(request: Request[Any, Any, Any]) -> models.CheckOutcome:
    """Resolve one check from table dice or the seeded source, as `ua check`."""
    return _check(await body_of(request, models.CheckRequest))


ROUTER = Router(path="/", route_handlers=[validate_scenario, validate_sheet, odds, check], tags=["validation"])
