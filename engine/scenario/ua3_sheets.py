"""Character sheets of either edition as files: which ruleset a sheet is for (its `ruleset`
field: absent or "ua2" for the second edition, "ua3" for the third), and ua3 sheets loaded and
checked (U-1, U-18…U-21, U-2).

The shape of a ua3 sheet (types, ranges — notches 0–9 hardened and 0–5 failed, U-18 —, unknown
or missing fields) is checked by msgspec while loading; what it must satisfy beyond its shape is
`engine.rules.ua3.sheet_check`. Every error is one line naming the file and the `$.path`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.rules.ua3.sheet_check import Problem, sheet_problems
from engine.scenario.files import FileError, convert_document, parse_document, read_limited
from engine.scenario.sheets import load_sheet
from engine.state.sheet import Sheet
from engine.state.ua3.sheet import Ua3Sheet

UA3_SCHEMA_HINT = "`ua character schema --ruleset ua3` prints every field of a ua3 sheet and its type"
SHEET_RULESETS = ("ua2", "ua3")


def read_document(path: str | Path) -> Any:
    """The parsed document of a sheet file (plain values), or `FileError`."""
    path = Path(path)
    return parse_document(read_limited(path), name=str(path))


def ruleset_of_document(document: Any, name: str) -> str:
    """The ruleset a sheet document is for: its `ruleset` ("ua2" when absent)."""
    if not isinstance(document, dict):
        return "ua2"  # the ua2 loader says what is wrong with it
    ruleset = document.get("ruleset", "ua2")
    if ruleset not in SHEET_RULESETS:
        raise FileError(
            name,
            f"unknown ruleset {ruleset!r}" if isinstance(ruleset, str) else "the ruleset is not a name",
            json_path="$.ruleset",
            hint=f"sheets are for: {', '.join(SHEET_RULESETS)}",
        )
    return str(ruleset)


def sheet_ruleset(path: str | Path) -> str:
    """The ruleset of the sheet at `path` ("ua2" or "ua3"), or `FileError`."""
    return ruleset_of_document(read_document(path), str(path))


def decode_ua3_sheet(path: str | Path, document: Any = None) -> Ua3Sheet:
    """The ua3 sheet at `path` (or `document`, its parsed values) by its shape only: `FileError`
    on a value out of range or a field unknown, at its `$.path`."""
    name = str(path)
    if document is None:
        document = read_document(path)
    try:
        return convert_document(document, name=name, type_=Ua3Sheet, hint=UA3_SCHEMA_HINT)
    except FileError as exc:
        if "matching regex" in exc.reason:  # the only patterns of a sheet: printable text
            raise FileError(
                exc.file,
                "text contains a control character (a tab, line break or escape), or a name is empty or too long",
                json_path=exc.json_path,
                hint="names and triggers are one line of printable text",
            ) from None
        raise


def first_problem(name: str, problems: list[Problem]) -> FileError:
    """The first of a sheet's problems as one error, counting the rest."""
    first = problems[0]
    more = len(problems) - 1
    hint = first.hint
    if more:
        hint = f"{hint}; " if hint else ""
        hint += f"{more} more problem{'s' if more > 1 else ''} after this one (ua character check)"
    return FileError(name, first.message, json_path=first.path, hint=hint)


def load_ua3_sheet(path: str | Path, document: Any = None, *, wound_threshold: int = 50) -> Ua3Sheet:
    """The ua3 sheet at `path`, checked: `FileError` (one line: file, `$.path`, hint) when it
    cannot be read, has the wrong shape, or breaks a sheet rule (two obsessions, a feature naming
    an unknown ability or gauge, two relationships on one gauge, wounds at the threshold — the
    table's `wound_threshold` unless an identity sets one, U-2, U-19 — …)."""
    sheet = decode_ua3_sheet(path, document)
    problems = sheet_problems(sheet, default_threshold=wound_threshold)
    if problems:
        raise first_problem(str(path), problems)
    return sheet


def load_any_sheet(path: str | Path) -> Sheet | Ua3Sheet:
    """The sheet at `path` of whichever edition it says it is for."""
    document = read_document(path)
    if ruleset_of_document(document, str(path)) == "ua3":
        return load_ua3_sheet(path, document)
    return load_sheet(path)
