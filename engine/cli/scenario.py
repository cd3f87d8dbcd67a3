"""`ua scenario check|schema`: a scenario file, every sheet it references checked against the
creation rules as `ua character check` checks them, and a short trial batch that warns about
refused commands and fights over at round 0 before a long batch finds them.

Exit codes: 0 valid (warnings shown, not failing); 1 a file that cannot be loaded, or a sheet that
breaks a creation rule (one line per finding); 2 a usage error.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
import typer
from rich.text import Text

from engine.cli.character import INVALID, TierOption
from engine.cli.common import JsonOption, console, emit_json
from engine.cli.lazy import FullHelpGroup
from engine.cli.simulate import ScenarioArg, SetOpt
from engine.text import shown

if TYPE_CHECKING:
    from engine.scenario.checks import SheetCheck
    from engine.scenario.scenario import LoadedScenario

app = typer.Typer(
    cls=FullHelpGroup,
    help="Scenario files: check them, print their JSON Schema.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

#: The trial batch `check` fights: a few fights, always the same ones.
TRIAL_FIGHTS = 20
TRIAL_SEED = 1


def trial(loaded: "LoadedScenario", fights: int) -> dict[str, Any]:
    """A few fights on one worker: the refusals and round-0 endings a long batch would have."""
    from engine.simulate.batch import run_batch
    from engine.simulate.stats import summary

    prep, tally, _ = run_batch(loaded, fights, TRIAL_SEED, workers=1)
    report = summary(prep, tally, seed=TRIAL_SEED)
    return {
        "fights": fights,
        "seed": TRIAL_SEED,
        "refusals": report["refusals"],
        "round_zero": report["rounds"]["distribution"].get("0", 0),
        "warnings": report["warnings"],
    }


def _tier_text(c: "SheetCheck") -> str:
    if c.tier_from == "fits":
        return f"no tier: fits {_a(c.tier)}"
    if c.tier_from == "none fits":
        return f"no tier, and fits none: as {_a(c.tier)}"
    return f"as {_a(c.tier)}"


def _a(tier: str) -> str:
    return f"an {tier}" if tier[:1] in "aeiou" else f"a {tier}"


@app.command("check")
def check(
    scenario: ScenarioArg,
    tier: TierOption = None,
    sets: SetOpt = None,
    fights: Annotated[
        int, typer.Option("--trial", min=0, max=1000, help="Trial fights to run (0: none).")
    ] = TRIAL_FIGHTS,
    json: JsonOption = False,
) -> None:
    """Load a scenario and every sheet it names; check each sheet against the creation rules
    (S2-1…S2-6, as `ua character check`); fight a few trial fights and warn about refused
    commands and fights over at round 0. Exit 1 when a sheet breaks a creation rule. A ua3
    scenario: every sheet, weapon, armor piece and tactic loaded and checked (U-1, U-2,
    U-18…U-21), its warnings shown, and the same trial fights (U-22)."""
    from engine.scenario.checks import check_sheets
    from engine.scenario.ua3_scenario import scenario_ruleset
    from engine.simulate.overrides import load_with_overrides

    loaded = load_with_overrides(scenario, sets or [])
    if scenario_ruleset(scenario) == "ua3":
        fightable = fights and len(loaded.sides) > 1  # one side: a scenario for the table, not a fight
        _check_ua3(scenario, loaded, trial(loaded, fights) if fightable else None, json=json)
        return
    sheets = check_sheets(loaded, tier)
    errors = sum(c.errors for c in sheets)
    warnings = sum(c.warnings for c in sheets)
    tried = trial(loaded, fights) if fights else None
    if json:
        emit_json(
            {
                "title": loaded.scenario.title,
                "sides": list(loaded.sides),
                "players": loaded.players,
                "combatants": [
                    {
                        "id": f.id,
                        "side": f.side,
                        "name": f.sheet.name,
                        "in_hand": f.in_hand,
                        "rules": len(f.rules),
                        "sheet": msgspec.to_builtins(c),
                    }
                    for f, c in zip(loaded.fighters, sheets, strict=True)
                ],
                "errors": errors,
                "warnings": warnings + (len(tried["warnings"]) if tried else 0),
                "trial": tried,
                "valid": errors == 0,
            }
        )
    else:
        _render(scenario, loaded, sheets, errors, tried)
    if errors:
        raise typer.Exit(INVALID)


def _render(
    path: object, loaded: "LoadedScenario", sheets: list["SheetCheck"], errors: int, tried: dict[str, Any] | None
) -> None:
    verdict = ("valid", "bold green") if not errors else (f"not valid ({errors} errors)", "bold red")
    console.print(Text.assemble(f"{path}: ", verdict, f" — {loaded.scenario.title}"))
    for f, c in zip(loaded.fighters, sheets, strict=True):
        source = c.file or "inline"
        console.print(
            f"  {f.id} ({f.sheet.name}, {source}, {_tier_text(c)}), side {f.side}, {f.in_hand} in hand, "
            f"{len(f.rules)} tactic rules",
            markup=False,
        )
        for finding in c.findings:
            style = "bold red" if finding.severity == "error" else "yellow"
            console.print(Text.assemble("    ", (finding.severity, style), f": {finding.path}: {finding.message}"))
    _render_trial(tried)


def _render_trial(tried: dict[str, Any] | None) -> None:
    from engine.simulate.stats import TOP_REASONS

    if tried is None:
        return
    if not tried["warnings"]:
        console.print(f"trial: {tried['fights']} fights (seed {tried['seed']}): no refused commands, none at round 0")
    for text in tried["warnings"]:
        console.print(Text.assemble(("warning", "yellow"), f": trial of {tried['fights']} fights: {text}"))
    for r in tried["refusals"]["reasons"][1:TOP_REASONS]:
        console.print(f"    also refused: {r['reason']!r} in {r['fights']} fights", markup=False)


def _check_ua3(scenario: Path, loaded: Any, tried: dict[str, Any] | None, *, json: bool) -> None:
    """`check` of a ua3 scenario, `loaded` (a sheet that breaks a rule was refused loading it)."""
    from engine.rules.ua3.sheet_check import sheet_warnings

    warnings = {f.id: sheet_warnings(f.sheet, burnout_at=loaded.settings.burnout_hardened) for f in loaded.fighters}
    if json:
        emit_json(
            {
                "title": loaded.scenario.title,
                "ruleset": "ua3",
                "sides": list(loaded.sides),
                "players": loaded.players,
                "combatants": [
                    {
                        "id": f.id,
                        "side": f.side,
                        "name": f.sheet.name,
                        "warnings": [{"path": w.path, "message": w.message} for w in warnings[f.id]],
                    }
                    for f in loaded.fighters
                ],
                "errors": 0,
                "warnings": sum(len(w) for w in warnings.values()) + (len(tried["warnings"]) if tried else 0),
                "trial": tried,
                "valid": True,
            }
        )
        return
    console.print(shown(f"{loaded.scenario.title} ({scenario}), ua3: sides {', '.join(loaded.sides)}"), markup=False)
    for f in loaded.fighters:
        console.print(shown(f"  {f.id} ({f.side}): {f.sheet.name}, sheet valid"), markup=False)
        for w in warnings[f.id]:
            console.print(shown(f"    warning: {w.path}: {w.message}"), markup=False)
    console.print("valid" + ("" if len(loaded.sides) > 1 else " (one side: no trial fights)"), markup=False)
    _render_trial(tried)


@app.command("schema")
def schema(
    ruleset: Annotated[
        Literal["ua2", "ua3"], typer.Option("--ruleset", help="The edition whose scenario files to describe.")
    ] = "ua2",
) -> None:
    """Print the JSON Schema of scenario files (of the second edition, or --ruleset ua3)."""
    from engine.scenario.scenario import Scenario
    from engine.scenario.ua3_scenario import Ua3Scenario

    emit_json(msgspec.json.schema({"ua2": Scenario, "ua3": Ua3Scenario}[ruleset]))
