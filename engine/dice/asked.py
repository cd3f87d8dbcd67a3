"""A check as a person asks for it (`ua odds`, `ua check`, `POST /odds`, `POST /checks`): the spec
refused before rolling where it lacks what the rules need, its exact odds summed up, and one roll
of it from table dice or the seeded source. Written once; each front end names the fields its
own way (`Spelling`) and renders the result."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Annotated, Any, NamedTuple

import msgspec

from engine.dice.checks import CheckResult, CheckSpec, roll_check
from engine.dice.odds import exact_odds
from engine.dice.source import SeededDice, TableDice
from engine.errors import InvalidInput

#: The outcome classes that are a success (C-2…C-5).
WINS = ("crit", "matched_success", "success", "weak_success")


class Spelling(NamedTuple):
    """How a front end names a spec's field: in an error's `where` (`--stat`, `$.stat`), in a hint
    telling to give it (`add --stat N`, `give stat`), and in prose (`--rating`, `rating`)."""

    where: Callable[[str], str]
    give: Callable[[str], str]
    name: Callable[[str], str]


#: `checked`'s two refusals as JSON Schema (a client's generator or validator refuses the same
#: specs before sending them): not untrained with neither stat nor rating; not a trained
#: significant check without its tied stat.
SPEC_RULES: list[dict[str, Any]] = [
    {
        "not": {
            "required": ["untrained"],
            "properties": {"untrained": {"const": True}, "rating": {"const": 0}, "stat": {"type": "null"}},
        },
        "description": "an untrained check needs the stat used (C-7)",
    },
    {
        "not": {
            "required": ["kind"],
            "properties": {"kind": {"const": "significant"}, "untrained": {"const": False}, "stat": {"type": "null"}},
        },
        "description": "a significant check needs the skill's tied stat for its weak band (C-4)",
    },
]
#: A spec as a person asks for it: a `CheckSpec` the document says `checked` accepts.
AskedSpec = Annotated[CheckSpec, msgspec.Meta(extra_json_schema={"allOf": SPEC_RULES})]


def checked(spec: CheckSpec, spelling: Spelling) -> CheckSpec:
    """`spec`, or `InvalidInput` where the rules cannot resolve it: an untrained check names the
    stat used (C-7); a significant check the skill's tied stat for its weak band (C-4)."""
    if spec.untrained and spec.stat is None and spec.rating == 0:
        raise InvalidInput(
            "an untrained check needs the stat used", where=spelling.where("stat"), hint=spelling.give("stat")
        )
    if spec.kind == "significant" and not spec.untrained and spec.stat is None:
        raise InvalidInput(
            "a significant check needs the skill's tied stat for its weak band (C-4)",
            where=spelling.where("stat"),
            hint=f"{spelling.give('stat')}; for a stat rolled directly, give it as both"
            f" {spelling.name('rating')} and {spelling.name('stat')}",
        )
    return spec


class OddsOf(msgspec.Struct, frozen=True, kw_only=True):
    """A check's exact odds (C-13): whether it is rolled at all (C-3), each outcome class's
    probability and count of the 100 rolls, and the chance of any success."""

    rolled: bool
    odds: dict[str, float]
    exact: dict[str, str]
    success: float


def odds_of(spec: CheckSpec) -> OddsOf:
    odds = exact_odds(spec)
    return OddsOf(
        rolled=not spec.automatic,
        odds={name: float(p) for name, p in odds.items()},
        exact={name: f"{int(p * 100)}/100" for name, p in odds.items()},
        success=float(sum((p for n, p in odds.items() if n in WINS), Fraction(0))),
    )


def roll_one(
    spec: CheckSpec, faces: Sequence[int] | None, seed: int | None, flipped: bool | None
) -> tuple[CheckResult, int | None]:
    """One roll of `spec`: from the table's two `faces` (a minor check rolled for quality then,
    C-3), else from the seeded source (`seed`, or a random one); and the seed used (None for
    table dice)."""
    source: TableDice | SeededDice
    if faces:
        if spec.automatic:
            spec = msgspec.structs.replace(spec, roll_anyway=True)
        source = TableDice(list(faces))
    else:
        source = SeededDice(seed if seed is not None else int.from_bytes(os.urandom(4), "little"))
    result = roll_check(spec, source, flipped=flipped)
    return result, source.seed if isinstance(source, SeededDice) else None
