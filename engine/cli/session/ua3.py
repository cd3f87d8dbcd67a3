"""`ua session …` actions of the third edition (ua3): ability checks (U-1), stress checks (U-23,
the seed's samples U-25, listed by `ua stress-checks`), coercion (U-15), the gridiron (U-16),
threats gone. Each takes table dice (`--dice 4,7`) or draws from the session's seed, and
`--amend N`, exactly as the ua2 actions (each through `engine.session.service`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, cast

import typer

from engine.cli.common import JsonOption
from engine.cli.session.options import (
    DEFAULT_DB,
    Actor,
    Amend,
    CommandIdOpt,
    Db,
    Dice,
    Name,
    Shifts,
    owned_dice,
)
from engine.cli.session.options import parse_dice as _dice
from engine.cli.session.options import parse_shifts as _shifts
from engine.cli.session.run import act
from engine.commands import ua3 as cmd
from engine.dice.checks import Kind
from engine.errors import InvalidInput
from engine.state.ua3.conflict import Demand, Space
from engine.state.ua3.sheet import GAUGES, PassionKind, PassionMode

Reaction = Literal["flee", "freeze", "frenzy"]
Flipped = Annotated[
    bool | None, typer.Option("--flipped/--as-rolled", help="State the orientation of an obsession roll (C-9, C-11).")
]
PassionOpt = Annotated[
    PassionKind | None, typer.Option("--passion", help="A passion in play, spent if the roll fails (U-21).")
]
PassionModeOpt = Annotated[PassionMode, typer.Option("--passion-mode", help="reroll or flip.")]
ReactionOpt = Annotated[
    Reaction | None,
    typer.Option("--reaction", help="flee, freeze or frenzy should the stress check fail (U-23)."),
]
RollWith = Annotated[
    str, typer.Option("--roll-with", help="The ability, identity or relationship to roll (default: the best).")
]


def ability(
    name: Name,
    actor: Actor,
    what: Annotated[str, typer.Argument(help="An ability, an identity or a relationship's person.")],
    kind: Annotated[Kind, typer.Option("--kind", help="minor, significant or major (C-3…C-5).")] = "major",
    shift: Shifts = None,
    minimum: Annotated[int | None, typer.Option("--minimum", help="A minimum roll (C-8).")] = None,
    purpose: Annotated[str, typer.Option("--purpose", help="What the roll is for.")] = "",
    flipped: Flipped = None,
    roll_anyway: Annotated[
        bool, typer.Option("--roll-anyway", help="A minor check at 15+: roll for quality anyway (C-3).")
    ] = False,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A ua3 check (U-1): an ability (or the best identity standing in for it, U-19), an
    identity, or a relationship (U-20), judged as every check (C-*)."""
    command = cmd.AbilityCheck(
        actor=actor,
        name=what,
        kind=kind,
        shifts=_shifts(shift),
        minimum=minimum,
        purpose=purpose,
        flipped=flipped,
        roll_anyway=roll_anyway or (kind == "minor" and dice is not None),
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id, given=owned_dice(dice))


def stress(
    name: Name,
    actor: Actor,
    gauge: Annotated[
        str,
        typer.Argument(
            help="violence, helplessness, isolation, unnatural or self (or give --sample); the rank may come first."
        ),
    ] = "",
    rank: Annotated[
        str, typer.Argument(help="1–10 (with --sample: within its range, alone or with the gauge).", metavar="[RANK]")
    ] = "",
    sample: Annotated[
        str,
        typer.Option("--sample", help='A sample check by its text: "violence: kill someone in a fight" (U-25).'),
    ] = "",
    source: Annotated[str, typer.Option("--source", help="The threat; a reaction lasts until it is gone.")] = "",
    roll_with: RollWith = "",
    involves: Annotated[
        list[str] | None, typer.Option("--involves", help="A person involved: their relationship applies (repeatable).")
    ] = None,
    reaction: ReactionOpt = None,
    shift: Shifts = None,
    flipped: Flipped = None,
    passion: PassionOpt = None,
    passion_mode: PassionModeOpt = "reroll",
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A stress check (U-23): immune at hardened ≥ rank, an automatic failure at five failed,
    else the resisting ability (or a `resists` identity, or a relationship involved; the best)."""
    gauge, level = gauge_and_rank(gauge, rank)
    if not gauge and not sample:
        raise InvalidInput("name a gauge and a rank, or a sample with --sample", where="GAUGE", hint=_GAUGES_HINT)
    if gauge and not sample and level is None:
        raise InvalidInput(f"a {gauge} stress check needs a rank, 1–10", where="RANK")
    command = cmd.StressCheck(
        actor=actor,
        gauge=gauge,
        rank=level,
        sample=sample,
        source=source,
        roll_with=roll_with,
        involves=tuple(involves or ()),
        shifts=_shifts(shift),
        reaction=reaction,
        flipped=flipped,
        passion=passion,
        passion_mode=passion_mode,
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id, given=owned_dice(dice))


_GAUGES_HINT = "gauges: " + ", ".join(GAUGES) + "; samples: ua stress-checks"


def gauge_and_rank(first: str, second: str) -> tuple[str, int | None]:
    """A stress check's gauge and rank in either order (`violence 3`, `3 violence`); a number
    alone is the rank (of a `--sample`)."""
    words = [w.strip() for w in (first, second) if w.strip()]
    numbers = [int(w) for w in words if w.isdigit()]
    names = [w for w in words if not w.isdigit()]
    if len(numbers) > 1 or len(names) > 1:
        raise InvalidInput(f"{' '.join(words)!r}: give one gauge and one rank", where="GAUGE RANK", hint=_GAUGES_HINT)
    return (names[0] if names else ""), (numbers[0] if numbers else None)


def coerce(
    name: Name,
    coercer: Annotated[str, typer.Argument(help="Who makes the threat.", show_default=False)],
    target: Annotated[str, typer.Argument(help="Whom it is made against.", show_default=False)],
    gauge: Annotated[str, typer.Argument(help="The gauge the threat works on.", show_default=False)],
    threat: Annotated[str, typer.Option("--threat", help="The credible threat (U-15, 1).")] = "",
    demand: Annotated[
        Demand,
        typer.Option("--demand", help="In a fight: what the threat demands; the target does it if it acquiesces."),
    ] = "surrender",
    roll_with: RollWith = "",
    coercer_passion: Annotated[
        list[str] | None,
        typer.Option("--coercer-passion", help="A passion of the coercer's in play: +1 rank (repeatable)."),
    ] = None,
    target_passion: Annotated[
        list[str] | None,
        typer.Option("--target-passion", help="A passion of the target's in play: +1 rank (repeatable)."),
    ] = None,
    answer: Annotated[
        Literal["acquiesce", "refuse"] | None,
        typer.Option("--answer", help="The target's answer at once (else `ua session answer` later)."),
    ] = None,
    reaction: ReactionOpt = None,
    shift: Shifts = None,
    flipped: Flipped = None,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Coercion (U-15): the coercer rolls the gauge's coercing rating (or a `coerces` identity,
    or a relationship with the target); on a success the target acquiesces or refuses and takes
    a stress check of rank 1 (2 on a matched success or crit) +1 for each passion in play."""
    command = cmd.Coerce(
        coercer=coercer,
        target=target,
        gauge=gauge,
        threat=threat,
        demand=demand,
        roll_with=roll_with,
        coercer_passions=_passions(coercer_passion, "--coercer-passion"),
        target_passions=_passions(target_passion, "--target-passion"),
        shifts=_shifts(shift),
        flipped=flipped,
        answer=answer,
        reaction=reaction,
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id, given=owned_dice(dice))


def _passions(texts: list[str] | None, where: str) -> tuple[PassionKind, ...]:
    """Passions in play, each once: rage, fear or noble."""
    out: list[PassionKind] = []
    for text in texts or ():
        if text not in ("rage", "fear", "noble"):
            raise InvalidInput(f"unknown passion {text!r}", where=where, hint="rage, fear or noble (U-21)")
        if text not in out:
            out.append(cast(PassionKind, text))
    return tuple(out)


def answer(
    name: Name,
    target: Annotated[str, typer.Argument(help="The coerced character.", show_default=False)],
    choice: Annotated[Literal["acquiesce", "refuse"], typer.Argument(help="acquiesce, or refuse.")],
    roll_with: RollWith = "",
    reaction: ReactionOpt = None,
    shift: Shifts = None,
    flipped: Flipped = None,
    passion: PassionOpt = None,
    passion_mode: PassionModeOpt = "reroll",
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The coerced target's answer (U-15, 3): acquiesce, or refuse and take the stress check."""
    command = cmd.AnswerCoercion(
        target=target,
        answer=choice,
        roll_with=roll_with,
        shifts=_shifts(shift),
        reaction=reaction,
        flipped=flipped,
        passion=passion,
        passion_mode=passion_mode,
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id, given=owned_dice(dice))


def parse_side(text: str, where: str) -> cmd.SideSpec:
    """`ACTOR:ROLL:STAKE` (a character rolling an ability, identity or relationship) or
    `NAME=RATING:STAKE` (a side with a fixed rating: the crowd=40:riot)."""
    head, sep, stake = text.partition(":")
    if "=" in head and sep:
        who, _, rating = head.partition("=")
        if not who.strip() or not rating.strip().isdigit() or not stake.strip():
            raise InvalidInput(f"bad side {text!r}", where=where, hint="ACTOR:ROLL:STAKE or NAME=RATING:STAKE")
        return cmd.SideSpec(name=who.strip(), rating=int(rating), stake=stake.strip())
    roll, sep2, stake = stake.partition(":")
    if not (sep and sep2 and head.strip() and roll.strip() and stake.strip()):
        raise InvalidInput(f"bad side {text!r}", where=where, hint="ACTOR:ROLL:STAKE or NAME=RATING:STAKE")
    return cmd.SideSpec(actor=head.strip(), roll=roll.strip(), stake=stake.strip())


def conflict(
    name: Name,
    side_a: Annotated[
        str, typer.Option("--a", help="Side A: ACTOR:ROLL:STAKE, or NAME=RATING:STAKE.", show_default=False)
    ],
    side_b: Annotated[
        str, typer.Option("--b", help="Side B: ACTOR:ROLL:STAKE, or NAME=RATING:STAKE.", show_default=False)
    ],
    conflict_id: Annotated[str, typer.Option("--id", help="The conflict's name (default: c1, c2, …).")] = "",
    about: Annotated[str, typer.Option("--about", help="What the conflict is about.")] = "",
    start: Annotated[Space, typer.Option("--start", help="Where the token starts (U-16).")] = "balance",
    compressed: Annotated[
        bool, typer.Option("--compressed/--open-ended", help="A set number of exchanges, or until an end zone.")
    ] = False,
    exchanges: Annotated[int | None, typer.Option("--exchanges", help="Exchanges each (compressed).")] = None,
    first: Annotated[
        Literal["a", "b"] | None, typer.Option("--first", help="Who rolls first (default: the higher rating, U-22).")
    ] = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Start a conflict on the gridiron (U-16): two sides with stakes and the ratings they roll."""
    command = cmd.StartConflict(
        sides=(parse_side(side_a, "--a"), parse_side(side_b, "--b")),
        id=conflict_id,
        about=about,
        start=start,
        compressed=compressed,
        exchanges=exchanges,
        first=first,
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id)


def gridiron(
    name: Name,
    conflict_id: Annotated[str, typer.Argument(help="The conflict (default: the one running).")] = "",
    side: Annotated[
        Literal["a", "b"] | None, typer.Option("--side", help="The side rolling (checked against whose turn it is).")
    ] = None,
    matched_failure: Annotated[
        cmd.MatchedFailure | None,
        typer.Option("--matched-failure", help="penalty (−10 next roll) or wounds (1d10), should it be one."),
    ] = None,
    shift: Shifts = None,
    flipped: Flipped = None,
    passion: PassionOpt = None,
    passion_mode: PassionModeOpt = "reroll",
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The next roll of a conflict (U-16): fumble one step back, success one on, crit two."""
    command = cmd.GridironRoll(
        conflict=conflict_id,
        side=side,
        matched_failure=matched_failure,
        shifts=_shifts(shift),
        flipped=flipped,
        passion=passion,
        passion_mode=passion_mode,
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id, given=owned_dice(dice))


def conflict_end(
    name: Name,
    conflict_id: Annotated[str, typer.Argument(help="The conflict (default: the one running).")] = "",
    winner: Annotated[Literal["a", "b"] | None, typer.Option("--winner", help="The side that wins, if any.")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "the GM ends the conflict",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The GM ends a conflict (U-16), naming the winner or none; a grapple (U-17, a conflict of
    the fight, `grapple-1` in `ua session state`) as its rules allow."""
    act(db, name, cmd.EndConflict(conflict=conflict_id, winner=winner, reason=reason), json=json, command_id=command_id)


def threat_gone(
    name: Name,
    source: Annotated[str, typer.Argument(help="The threat that is gone.", show_default=False)],
    actor: Annotated[str, typer.Option("--actor", help="Only this character's reaction ends.")] = "",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The threat is gone: the reactions kept for it end (U-23)."""
    act(db, name, cmd.ThreatGone(source=source, actor=actor), json=json, command_id=command_id)
