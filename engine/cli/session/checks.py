"""`ua session` checks: skill checks, plain rolls, madness, therapy and passions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from engine.cli.common import JsonOption
from engine.cli.session.combat import on_sheet
from engine.cli.session.options import (
    DEFAULT_DB,
    Actor,
    Amend,
    CommandIdOpt,
    Db,
    Dice,
    DrawRest,
    Full,
    Name,
    Shifts,
    ask_dice,
    open_session,
    owned_dice,
    parse_dice,
    parse_shifts,
    service,
)
from engine.cli.session.requests import answered
from engine.cli.session.run import act, show
from engine.commands import MadnessCheck, RollCheck, SkillCheck, Therapy
from engine.dice.checks import CheckSpec
from engine.errors import InvalidInput
from engine.state.encounter import Encounter, Reaction
from engine.state.sheet import MeterName, PassionKind, StatName


def check(
    name: Name,
    actor: Actor,
    skill: Annotated[str, typer.Argument(help="The skill rolled.")],
    kind: Annotated[Literal["minor", "significant", "major"], typer.Option("--kind")] = "significant",
    stat: Annotated[StatName | None, typer.Option("--stat", help="Untrained: the stat rolled instead (C-7).")] = None,
    shift: Shifts = None,
    minimum: Annotated[int | None, typer.Option("--minimum")] = None,
    flipped: Annotated[bool | None, typer.Option("--flipped/--as-rolled")] = None,
    roll_anyway: Annotated[
        bool, typer.Option("--roll-anyway", help="A minor check at 15+: roll for quality anyway (C-3).")
    ] = False,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A skill check from the sheet (C-4, C-7, C-9); dice given to a minor check roll it for quality
    (C-3). Dice: the roll (2 faces, tens first, ACTOR's player). In a ua3 session, SKILL names an
    ability, identity or relationship (U-1, as `ability`)."""
    if open_session(db, name).state.ruleset == "ua3":
        if stat is not None:
            raise InvalidInput("ua3 characters have no stats (U-1)", where="--stat", hint="name an ability or identity")
        from engine.commands.ua3 import AbilityCheck

        ability = AbilityCheck(
            actor=actor,
            name=skill,
            kind=kind,
            shifts=parse_shifts(shift),
            minimum=minimum,
            flipped=flipped,
            roll_anyway=roll_anyway or (kind == "minor" and dice is not None),
            dice=parse_dice(dice),
        )
        act(
            db,
            name,
            ability,
            amend=amend,
            json=json,
            full=full,
            command_id=command_id,
            draw_rest=draw_rest,
            given=owned_dice(dice),
        )
        return
    command = SkillCheck(
        actor=actor,
        skill=skill,
        kind=kind,
        stat=stat,
        shifts=parse_shifts(shift),
        minimum=minimum,
        flipped=flipped,
        roll_anyway=roll_anyway or dice is not None,
        dice=parse_dice(dice),
    )
    known = on_sheet(actor, skill, stat is not None, where="SKILL", untrained_by="--stat STAT")
    act(
        db,
        name,
        command,
        amend=amend,
        json=json,
        full=full,
        command_id=command_id,
        draw_rest=draw_rest,
        check=known,
        given=owned_dice(dice),
    )


def roll(
    name: Name,
    kind: Annotated[Literal["minor", "significant", "major"], typer.Option("--kind")],
    rating: Annotated[int, typer.Option("--rating", min=0, max=100, help="The rating rolled against, 0–100.")],
    shift: Shifts = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A plain check by rating, recorded in the session. Dice: the roll (2 faces, tens first)."""
    command = RollCheck(spec=CheckSpec(kind=kind, rating=rating, shifts=parse_shifts(shift)), dice=parse_dice(dice))
    act(
        db,
        name,
        command,
        amend=amend,
        json=json,
        full=full,
        command_id=command_id,
        draw_rest=draw_rest,
        given=owned_dice(dice),
    )


def madness(
    name: Name,
    actor: Actor,
    meter: Annotated[MeterName, typer.Argument(help="violence, unnatural, helplessness, isolation or self.")],
    rank: Annotated[int, typer.Argument(help="1–10.")],
    source: Annotated[str, typer.Option("--source", help="What triggered it (kept until it is gone).")] = "",
    reaction: Annotated[
        Reaction | None, typer.Option("--reaction", help="flee, freeze or frenzy, if it fails.")
    ] = None,
    passion: Annotated[
        PassionKind | None, typer.Option("--passion", help="Spend a passion if the Mind roll fails (C-10).")
    ] = None,
    passion_mode: Annotated[Literal["reroll", "flip"], typer.Option("--passion-mode")] = "reroll",
    shift: Shifts = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A madness check (M2-2…M2-5). Dice: the Mind roll (2 faces, ACTOR's player) when one is
    made (not with enough hardened notches, M2-2, nor on an automatic failure, M2-3); then, with
    --passion, its reroll (2)."""
    command = MadnessCheck(
        actor=actor,
        meter=meter,
        rank=rank,
        source=source,
        reaction=reaction,
        passion=passion,
        passion_mode=passion_mode,
        shifts=parse_shifts(shift),
        dice=parse_dice(dice),
    )
    act(
        db,
        name,
        command,
        amend=amend,
        json=json,
        full=full,
        command_id=command_id,
        draw_rest=draw_rest,
        given=owned_dice(dice),
    )


def therapy(
    name: Name,
    actor: Actor,
    meter: Annotated[MeterName, typer.Argument()],
    hardened: Annotated[int, typer.Option("--hardened")] = 0,
    failed: Annotated[int, typer.Option("--failed")] = 0,
    note: Annotated[str, typer.Option("--note")] = "",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Therapy removes notches (M2-6), as many as are marked at most."""
    command = Therapy(actor=actor, meter=meter, hardened=hardened, failed=failed, note=note)

    def notches_there(state: Encounter) -> None:
        found = state.combatant(actor)
        if found is None:
            return  # the rule says who is missing
        held = found.meters.of(meter)
        for option, asked, marked in (("--hardened", hardened, held.hardened), ("--failed", failed, held.failed)):
            if asked > marked:
                raise InvalidInput(
                    f"{actor} has {marked} {option[2:]} {meter} notches; therapy cannot remove {asked}",
                    where=option,
                    hint=f"at most {marked} (M2-6)",
                )

    act(db, name, command, json=json, command_id=command_id, check=notches_there)


def passion(
    name: Name,
    actor: Actor,
    kind: Annotated[PassionKind, typer.Argument(help="rage, fear or noble.")],
    mode: Annotated[Literal["reroll", "flip"], typer.Option("--mode", help="reroll or flip.")] = "reroll",
    flipped: Annotated[
        bool | None, typer.Option("--flipped/--as-rolled", help="The reroll of an obsession check: its orientation.")
    ] = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """ACTOR spends a passion on its last roll, if it failed (C-10; in ua3, U-21): rerolled, or flip-flopped.

    A check is changed in place; an attack or a madness check is amended to have spent the
    passion on that roll, so what followed is re-resolved with the dice it recorded (the
    output leads with what changed) — a dodge of someone else's attack too (that attack is
    amended). Dice: the reroll (2 faces, ACTOR's player), then any the re-resolved attack reads
    beyond those it had (a dodge, damage dice); for a dodge, only the reroll; none for a flip."""
    if mode == "flip" and dice:
        raise InvalidInput("a flip-flop reads the same dice the other way round", where="--dice", hint="leave it out")
    result = answered(
        db,
        name,
        lambda: service(db, name).passion(
            name,
            actor,
            kind,
            mode,
            dice=parse_dice(dice),
            flipped=flipped,
            command_id=command_id,
            draw_rest=draw_rest,
            ask=ask_dice(),
        ),
        json=json,
    )
    show(result, json=json, full=full)
