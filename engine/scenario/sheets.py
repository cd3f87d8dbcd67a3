"""ua2 character sheets as files: `load_sheet(path) -> Sheet`, with sheet-level validation.

The shape (types, ranges, unknown or missing fields, no control characters in names) is checked
by msgspec while loading (`engine.scenario.files`). Then `sheet_problems` checks what a sheet must
satisfy whatever the rules of creation (those are `engine.rules.ua2.creation`):

- skill names are unique, ignoring case (`$.skills[i].name`);
- the obsession, when given, names one of the sheet's skills (`$.obsession`, C-9);
- exactly three passions, one each of rage, fear and noble (`$.passions`, C-10);
- current wound points ≤ maximum (`$.wounds.current`);
- the hand-to-hand skill, when not the default `Fighting`, names one of the sheet's skills
  (`$.hand_to_hand`, C2-1).

Decision: a sheet with no obsession loads (a GM's quick extra may lack one); `ua character check`
reports it under S2-5. A sheet without passions does not load (the brief asks for exactly three).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec

from engine.scenario.files import FileError, load_document
from engine.state.sheet import MAX_FAILED, METERS, Sheet

SCHEMA_HINT = "`ua character schema` prints every field of a sheet and its type"
PASSION_KINDS = ("rage", "fear", "noble")


class SheetProblem(msgspec.Struct, frozen=True, gc=False):
    """One thing wrong with a sheet: where (`$.path`) and what."""

    path: str
    message: str


def load_sheet(path: str | Path) -> Sheet:
    """The sheet in a TOML, YAML or JSON file; `FileError` (one line: file, `$.path`, hint)
    when it cannot be read, has the wrong shape, or breaks a sheet-level rule."""
    name = str(path)
    try:
        sheet = load_document(path, Sheet, hint=SCHEMA_HINT)
    except FileError as exc:
        if "matching regex" in exc.reason:  # the only patterns of a sheet: PRINTABLE(_LINES)
            raise FileError(
                exc.file,
                "text contains a control character (a tab, line break or escape)",
                json_path=exc.json_path,
                hint="names and triggers are one line of printable text",
            ) from None
        raise
    problems = sheet_problems(sheet)
    if problems:
        first = problems[0]
        more = len(problems) - 1
        hint = f"{more} more problem{'s' if more > 1 else ''} after this one" if more else ""
        raise FileError(name, first.message, json_path=first.path, hint=hint)
    return sheet


def sheet_problems(sheet: Sheet) -> list[SheetProblem]:
    """Everything wrong with `sheet` as a sheet (not as a new character), in field order."""
    problems: list[SheetProblem] = []
    seen: dict[str, int] = {}
    for i, skill in enumerate(sheet.skills):
        key = skill.name.casefold()
        if key in seen:
            problems.append(
                SheetProblem(
                    f"$.skills[{i}].name",
                    f"duplicate skill {skill.name!r} (also $.skills[{seen[key]}])",
                )
            )
        else:
            seen[key] = i
    if sheet.obsession and sheet.skill(sheet.obsession) is None:
        problems.append(
            SheetProblem(
                "$.obsession",
                f"the obsession {sheet.obsession!r} is not one of the sheet's skills (C-9)",
            )
        )
    kinds: list[str] = [p.kind for p in sheet.passions]
    if sorted(kinds) != sorted(PASSION_KINDS):
        problems.append(SheetProblem("$.passions", passion_message(kinds)))
    if sheet.wounds is not None and sheet.wounds.current > sheet.wounds.maximum:
        problems.append(
            SheetProblem(
                "$.wounds.current",
                f"current wound points {sheet.wounds.current} exceed the maximum {sheet.wounds.maximum}",
            )
        )
    if sheet.hand_to_hand.casefold() != "fighting" and sheet.skill(sheet.hand_to_hand) is None:
        problems.append(
            SheetProblem(
                "$.hand_to_hand",
                f"the hand-to-hand skill {sheet.hand_to_hand!r} is not one of the sheet's skills (C2-1)",
            )
        )
    for meter in METERS:
        notches = sheet.meters.of(meter)
        if notches.failed == MAX_FAILED and not notches.neurosis:
            problems.append(
                SheetProblem(
                    f"$.meters.{meter}.neurosis",
                    f"{MAX_FAILED} failed {meter} notches mark a neurosis (M2-5): set neurosis = true",
                )
            )
    return problems


def passion_message(kinds: Sequence[str]) -> str:
    """'3 passions given (rage, rage, fear): need one each of rage, fear and noble — noble missing,
    rage twice (C-10)'."""
    missing = [k for k in PASSION_KINDS if k not in kinds]
    repeated = [k for k in PASSION_KINDS if kinds.count(k) > 1]
    parts = [f"{', '.join(missing)} missing"] if missing else []
    parts += [f"{k} {kinds.count(k)} times" for k in repeated]
    given = f"{len(kinds)} passion{'' if len(kinds) == 1 else 's'} given"
    if kinds:
        given += f" ({', '.join(kinds)})"
    return f"{given}: need one each of rage, fear and noble — {'; '.join(parts)} (C-10)"
