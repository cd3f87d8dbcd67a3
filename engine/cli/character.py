"""`ua character check|show|schema`: character sheets as files (S2-*).

`check` prints every creation finding (error or warning) as one line with its `$.path` and
numbers, then the verdict; `show` renders the sheet (obsession marked, madness meters as notches);
`schema` prints the sheet's JSON Schema.

Exit codes: 0 a clean sheet (warnings shown, not failing); 1 a sheet that breaks a creation rule
or a file that cannot be read as a sheet (one line: file, `$.path`, hint); 2 a usage error (no
tier to check against).
"""

from typing import Annotated, Any, Literal

import msgspec
import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine.cli.common import JsonOption, console, emit_json
from engine.cli.lazy import FullHelpGroup
from engine.errors import InvalidInput
from engine.rules.ua2.creation import (
    BUDGETS,
    Finding,
    Spending,
    Tier,
    spending,
)
from engine.state.sheet import METERS, Meter, Sheet
from engine.text import one_line

app = typer.Typer(
    cls=FullHelpGroup,
    help="Character sheets (TOML, YAML or JSON): check the creation rules, show, schema.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

SheetArgument = Annotated[
    str,
    typer.Argument(metavar="SHEET", help="A sheet file: .toml, .yaml, .yml or .json.", show_default=False),
]
TierOption = Annotated[
    Tier | None,
    typer.Option("--tier", help="beginner, seasoned or experienced (S2-2); default: the sheet's `tier`."),
]

#: Exit code of a sheet that breaks a rule or cannot be read.
INVALID = 1
HARDENED_NOTCHES = 10
FAILED_NOTCHES = 5


@app.command("check")
def check(path: SheetArgument, tier: TierOption = None, json: JsonOption = False) -> None:
    """Check a sheet: a ua2 sheet against the creation rules (S2-1…S2-6), a ua3 sheet (`ruleset =
    "ua3"`) against its rules (U-1, U-2, U-18…U-21); exit 1 on any error."""
    from engine.scenario.checks import creation_findings
    from engine.scenario.sheets import load_sheet
    from engine.scenario.ua3_sheets import sheet_ruleset

    if sheet_ruleset(path) == "ua3":
        check_ua3(path, json=json)
        return
    sheet = load_sheet(path)  # a malformed file: one line, exit 1 (FileError)
    chosen = tier or sheet.tier
    if chosen is None:
        raise InvalidInput(
            "the sheet has no tier and --tier was not given",
            where=one_line(path),
            hint='add --tier beginner|seasoned|experienced, or tier = "beginner" to the sheet',
        )
    findings = creation_findings(sheet, chosen)
    account = spending(sheet, chosen)
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    if json:
        emit_json(
            {
                "file": path,
                "name": sheet.name,
                "tier": chosen,
                "valid": errors == 0,
                "errors": errors,
                "warnings": warnings,
                "findings": [msgspec.to_builtins(f) for f in findings],
                "spending": spending_json(account),
            }
        )
    else:
        _render_check(path, sheet, account, findings, errors, warnings)
    if errors:
        raise typer.Exit(INVALID)


def spending_json(account: Spending) -> dict[str, Any]:
    return {
        "stat_points": {
            "spent": account.stat_points_spent,
            "available": account.stat_points_available,
        },
        "skill_points": {
            a.stat: {"spent": a.spent, "available": a.available, "over": a.over} for a in account.accounts
        },
        "bonus_points": {"needed": account.bonus_needed, "available": account.bonus_available},
        "skills": [msgspec.to_builtins(c) for c in account.skills],
    }


def _render_check(
    path: str,
    sheet: Sheet,
    account: Spending,
    findings: list[Finding],
    errors: int,
    warnings: int,
) -> None:
    budget = BUDGETS[account.tier]
    console.print(
        Text.assemble(
            (sheet.name, "bold"),
            f" ({path}) as {'an' if account.tier[0] in 'aeiou' else 'a'} {account.tier}: "
            f"{budget.stat_points} stat points, "
            f"{budget.bonus_points} bonus points (S2-2)",
        )
    )
    skills = ", ".join(f"{a.stat.title()} {a.spent}/{a.available}" for a in account.accounts)
    console.print(
        f"  stat points {account.stat_points_spent}/{account.stat_points_available}; "
        f"skill points {skills}; bonus {account.bonus_needed}/{account.bonus_available}",
        markup=False,
    )
    for finding in findings:
        style = "bold red" if finding.severity == "error" else "yellow"
        console.print(Text.assemble((finding.severity, style), f": {finding.path}: {finding.message}"))
    verdict = ("not valid", "bold red") if errors else ("valid", "bold green")
    console.print(Text.assemble(verdict, f": {_count(errors, 'error')}, {_count(warnings, 'warning')}"))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


@app.command("show")
def show(path: SheetArgument, json: JsonOption = False) -> None:
    """Show a sheet: stats, skills, passions, weapons, wounds, madness meters as notches (ua2); shock
    gauges as notches with the abilities they set, identities and their features (ua3)."""
    from engine.cli.views import render_view
    from engine.rules.ua3 import view as ua3_view
    from engine.scenario.sheets import load_sheet
    from engine.scenario.ua3_sheets import load_ua3_sheet, sheet_ruleset

    if sheet_ruleset(path) == "ua3":
        ua3 = load_ua3_sheet(path)
        if json:
            emit_json(ua3_view.sheet_json(ua3))
        else:
            render_view(ua3_view.sheet_view(ua3))
        return
    sheet = load_sheet(path)  # a malformed file: one line, exit 1 (FileError)
    if json:
        emit_json(sheet)
        return
    console.print(render_sheet(sheet))


def render_sheet(sheet: Sheet) -> Group:
    """The whole sheet as one rich renderable (user text is never read as markup)."""
    grid = _Lines()
    title = Text(sheet.name, style="bold")
    if sheet.tier:
        title.append(f"  ({sheet.tier})", style="dim")
    grid.add_row(title)
    grid.add_row(Text("  ".join(f"{s.title()} {sheet.stats.of(s)}" for s in ("body", "speed", "mind", "soul"))))
    grid.add_row(_skills_table(sheet))
    grid.add_row(Text("passions", style="bold"))
    for passion in sheet.passions:
        grid.add_row(Text(f"  {passion.kind:<6} {passion.trigger}"))
    weapons = ", ".join(sheet.weapons) if sheet.weapons else "none"
    grid.add_row(Text.assemble(("weapons", "bold"), f"  {weapons}"))
    grid.add_row(Text.assemble(("wound points", "bold"), f"  {sheet.current_wounds} / {sheet.max_wounds}"))
    grid.add_row(Text("madness meters", style="bold"))
    for name in METERS:
        grid.add_row(meter_line(name, sheet.meters.of(name)))
    if sheet.notes:
        grid.add_row(Text.assemble(("notes", "bold"), f"  {sheet.notes}"))
    return Group(*grid.rows)


class _Lines:
    """Collects renderables, one a line."""

    def __init__(self) -> None:
        self.rows: list[RenderableType] = []

    def add_row(self, row: RenderableType) -> None:
        self.rows.append(row)


def _skills_table(sheet: Sheet) -> Table:
    table = Table(title=None, show_edge=False, pad_edge=False, box=None)
    table.add_column("skill", style="bold")
    table.add_column("stat")
    table.add_column("rating", justify="right")
    table.add_column("")
    for skill in sheet.skills:
        marks = []
        if sheet.is_obsession(skill.name):
            marks.append("★ obsession (C-9)")
        if skill.name.casefold() == sheet.hand_to_hand.casefold():
            marks.append("hand-to-hand")
        if skill.free:
            marks.append("free")
        table.add_row(
            Text(skill.name),
            Text(f"{skill.stat} {sheet.stats.of(skill.stat)}"),
            Text(str(skill.rating)),
            Text(", ".join(marks)),
        )
    return table


def notches(marked: int, total: int) -> str:
    """`■■■□□□□□□□` for 3 of 10."""
    marked = max(0, min(marked, total))
    return "■" * marked + "□" * (total - marked)


def meter_line(name: str, meter: Meter) -> Text:
    """`  violence      hardened ■■■□□□□□□□  failed ■□□□□` (M2-1, S2-7)."""
    line = Text(f"  {name:<13} hardened {notches(meter.hardened, HARDENED_NOTCHES)}")
    line.append(f"  failed {notches(meter.failed, FAILED_NOTCHES)}")
    if meter.neurosis:
        line.append("  neurosis (M2-5)", style="bold red")
    return line


@app.command("schema")
def schema(
    ruleset: Annotated[
        Literal["ua2", "ua3"], typer.Option("--ruleset", help="The edition whose sheet to describe.")
    ] = "ua2",
) -> None:
    """Print the JSON Schema of a sheet, for editors' completion and validation."""
    from engine.state.ua3.sheet import Ua3Sheet

    emit_json(msgspec.json.schema(Ua3Sheet if ruleset == "ua3" else Sheet))


def check_ua3(path: str, *, json: bool) -> None:
    """A ua3 sheet's problems (errors) and warnings, one line each with its `$.path`; exit 1 on
    any error. A sheet of the wrong shape (a notch out of range, an unknown field) is one line."""
    from engine.rules.ua3 import view as ua3_view
    from engine.rules.ua3.abilities import abilities, label
    from engine.rules.ua3.sheet_check import sheet_problems, sheet_warnings
    from engine.scenario.ua3_sheets import decode_ua3_sheet
    from engine.state.ua3.sheet import ABILITIES

    sheet = decode_ua3_sheet(path)
    errors = sheet_problems(sheet)
    warnings = sheet_warnings(sheet)
    if json:
        emit_json(
            {
                "file": path,
                "ruleset": "ua3",
                "name": sheet.name,
                "valid": not errors,
                "errors": len(errors),
                "warnings": len(warnings),
                "findings": [
                    {"severity": severity, "path": p.path, "message": p.message, "hint": p.hint}
                    for severity, found in (("error", errors), ("warning", warnings))
                    for p in found
                ],
                "sheet": ua3_view.sheet_json(sheet),
            }
        )
    else:
        values = abilities(sheet.gauges)
        console.print(Text.assemble((sheet.name, "bold"), f" ({path}), a ua3 sheet"))
        console.print(
            "  " + ", ".join(f"{label(a)} {values[a]}" for a in ABILITIES) + " (U-18)",
            markup=False,
        )
        for severity, found in (("error", errors), ("warning", warnings)):
            style = "bold red" if severity == "error" else "yellow"
            for p in found:
                hint = f" ({p.hint})" if p.hint else ""
                console.print(Text.assemble((severity, style), f": {p.path}: {p.message}{hint}"))
        verdict = ("not valid", "bold red") if errors else ("valid", "bold green")
        console.print(Text.assemble(verdict, f": {_count(len(errors), 'error')}, {_count(len(warnings), 'warning')}"))
    if errors:
        raise typer.Exit(INVALID)
