"""`ua roll`, `ua odds`, `ua check`: percentile dice, exact odds and single checks."""

import os
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Table

from engine.cli.common import JsonOption, SeedOption, console, emit_json
from engine.cli.shifts import parse_shift
from engine.dice.asked import Spelling, checked, odds_of, roll_one
from engine.dice.checks import OUTCOMES, CheckResult, CheckSpec, Kind
from engine.dice.percentile import Percentile
from engine.dice.source import SeededDice, parse_faces, roll_percentile
from engine.errors import InvalidInput

#: How `ua odds` and `ua check` name a spec's fields: by their options.
OPTIONS = Spelling(where=lambda f: f"--{f}", give=lambda f: f"add --{f} N", name=lambda f: f"--{f}")
KindOption = Annotated[Kind, typer.Option("--kind", help="minor, significant or major (C-3…C-5).")]
RatingOption = Annotated[
    int, typer.Option("--rating", min=0, max=100, help="The skill (or the stat rolled directly), 0–100.")
]
StatOption = Annotated[
    int | None,
    typer.Option("--stat", min=1, max=99, help="The tied stat (weak band, C-4), or the stat used untrained."),
]
UntrainedOption = Annotated[bool, typer.Option("--untrained", help="Roll a stat for lack of the skill (C-7).")]
ShiftOption = Annotated[
    list[str] | None,
    typer.Option("--shift", help="A shift, N or SOURCE=N (repeatable), e.g. --shift -10 --shift focus=+20."),
]
MinimumOption = Annotated[int | None, typer.Option("--minimum", min=1, max=100, help="Minimum roll (C-8).")]
FlipOption = Annotated[bool, typer.Option("--flip", help="Flip-flop allowed (obsession or passion, C-9/C-10).")]
QualityOption = Annotated[
    bool, typer.Option("--roll-anyway", help="Minor check at 15+: roll for quality anyway (C-3).")
]


def build_spec(
    kind: Kind,
    rating: int,
    stat: int | None,
    untrained: bool,
    shifts: list[str] | None,
    minimum: int | None,
    flip: bool,
    roll_anyway: bool,
) -> CheckSpec:
    if minimum is not None and not 1 <= minimum <= 100:
        raise InvalidInput(f"minimum roll must be 1–100, got {minimum}", where="--minimum")
    spec = CheckSpec(
        kind=kind,
        rating=rating,
        stat=stat,
        untrained=untrained,
        shifts=tuple(parse_shift(text, i) for i, text in enumerate(shifts or (), start=1)),
        minimum=minimum,
        flip=flip,
        roll_anyway=roll_anyway,
    )
    return checked(spec, OPTIONS)


def spec_json(spec: CheckSpec) -> dict[str, Any]:
    return {
        "kind": spec.kind,
        "rating": spec.rating,
        "stat": spec.stat,
        "untrained": spec.untrained,
        "shifts": [{"source": s.source, "amount": s.amount} for s in spec.shifts],
        "minimum": spec.minimum,
        "flip": spec.flip,
        "target": spec.target,
        "stat_target": spec.stat_target if spec.resolves_as == "significant" else None,
    }


def odds_json(spec: CheckSpec) -> dict[str, Any]:
    return {**spec_json(spec), **msgspec.to_builtins(odds_of(spec))}


def result_json(result: CheckResult) -> dict[str, Any]:
    from engine.events.checks import CheckRolled

    roll = result.roll
    return {
        **spec_json(result.spec),
        "outcome": result.outcome,
        "success": result.success,
        "value": result.value,
        "dice": None if roll is None else {"tens": roll.tens, "ones": roll.ones},
        "flipped": False if roll is None else roll.flipped,
        "matched": False if roll is None else roll.is_matched,
        "explanation": CheckRolled(result=result).explain(),
    }


def odds(
    kind: KindOption,
    rating: RatingOption = 0,
    stat: StatOption = None,
    untrained: UntrainedOption = False,
    shift: ShiftOption = None,
    minimum: MinimumOption = None,
    flip: FlipOption = False,
    roll_anyway: QualityOption = False,
    json: JsonOption = False,
) -> None:
    """Exact probability of every outcome class of a check (all 100 rolls counted)."""
    spec = build_spec(kind, rating, stat, untrained, shift, minimum, flip, roll_anyway)
    data = odds_json(spec)
    if json:
        emit_json(data)
        return
    table = Table(title=f"{kind} check, target {spec.target}" + (" (flip-flop)" if flip else ""))
    table.add_column("outcome")
    table.add_column("rolls of 100", justify="right")
    table.add_column("probability", justify="right")
    for name in OUTCOMES:
        table.add_row(name, data["exact"][name].split("/")[0], f"{data['odds'][name]:.2%}")
    console.print(table)
    console.print(f"any success: {data['success']:.2%}")


def check(
    kind: KindOption,
    rating: RatingOption = 0,
    stat: StatOption = None,
    untrained: UntrainedOption = False,
    shift: ShiftOption = None,
    minimum: MinimumOption = None,
    flip: FlipOption = False,
    roll_anyway: QualityOption = False,
    dice: Annotated[str | None, typer.Option("--dice", help="Dice rolled at the table, tens first: 5,2.")] = None,
    flipped: Annotated[
        bool | None,
        typer.Option("--flipped/--as-rolled", help="State the orientation (C-11) instead of the best."),
    ] = None,
    seed: SeedOption = None,
    json: JsonOption = False,
) -> None:
    """Resolve one check from table dice (--dice) or the seeded source (--seed)."""
    spec = build_spec(kind, rating, stat, untrained, shift, minimum, flip, roll_anyway)
    if flipped and not flip:
        raise InvalidInput("--flipped needs --flip", where="--flipped", hint="only obsession or passion rolls flip")
    faces = None if dice is None else parse_faces(dice)
    if faces is not None and len(faces) != 2:
        raise InvalidInput(f"a percentile roll is two dice, got {len(faces)}", where="--dice", hint="--dice 5,2")
    result, seeded = roll_one(spec, faces, seed, flipped)
    data = result_json(result)
    if seeded is not None:
        data["seed"] = seeded
    if json:
        emit_json(data)
        return
    console.print(data["explanation"])


def roll(
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=10_000, help="How many rolls.")] = 1,
    seed: SeedOption = None,
    json: JsonOption = False,
) -> None:
    """Roll percentile dice: value, crit, fumble, match, digit sum (D-1…D-5)."""
    source = SeededDice(seed if seed is not None else int.from_bytes(os.urandom(4), "little"))
    rolls = [roll_percentile(source) for _ in range(count)]
    rows = [_roll_json(r) for r in rolls]
    data = {"seed": source.seed, "rolls": rows}
    if json:
        emit_json(data)
        return
    table = Table(title=f"percentile dice (seed {source.seed})")
    for column in ("dice", "value", "flip-flop", "digit sum", "special"):
        table.add_column(column, justify="right")
    for r, d in zip(rolls, rows, strict=True):
        table.add_row(
            f"{r.tens},{r.ones}",
            str(r.value),
            str(r.flip().value),
            str(r.digit_sum),
            d["special"] or "",
        )
    console.print(table)


def _roll_json(r: Percentile) -> dict[str, Any]:
    special = "crit" if r.is_crit else "fumble" if r.is_fumble else "matched" if r.is_matched else None
    return {
        "tens": r.tens,
        "ones": r.ones,
        "value": r.value,
        "flipped_value": r.flip().value,
        "digit_sum": r.digit_sum,
        "crit": r.is_crit,
        "fumble": r.is_fumble,
        "matched": r.is_matched,
        "special": special,
    }
