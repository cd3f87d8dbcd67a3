"""`ua session` commands of the fight: declarations, attacks and the other actions, turns, the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import msgspec
import typer

from engine.cli.common import JsonOption, choices
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
    Reactions,
    Shifts,
    owned_dice,
    parse_dice,
    parse_reactions,
    parse_shifts,
    service,
)
from engine.cli.session.run import act, show
from engine.commands import (
    Attack,
    BreakFree,
    ClearJam,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    EndFight,
    Flee,
    Squeeze,
    StandUp,
    SuppressiveFire,
    Surrender,
)
from engine.commands.base import CommandBase
from engine.commands.combat import CherryName, Declaration, Strike
from engine.errors import InvalidInput
from engine.session.service import Precheck
from engine.state.encounter import Encounter
from engine.state.sheet import PassionKind


def declare(
    name: Name,
    focus: Annotated[
        list[str] | None, typer.Option("--focus", help="ID:TARGET:+10|+20|+30 (C2-5), repeatable.")
    ] = None,
    keep_dodging: Annotated[list[str] | None, typer.Option("--keep-dodging", help="ID keeps dodging (C2-16).")] = None,
    release: Annotated[list[str] | None, typer.Option("--release", help="ID lets go of a grip (C2-27).")] = None,
    keep_suppressing: Annotated[
        list[str] | None, typer.Option("--keep-suppressing", help="ID keeps up suppressive fire (C2-18).")
    ] = None,
    open_: Annotated[
        bool, typer.Option("--open", help="Leave declarations open for other players (the first action closes them).")
    ] = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Round-start declarations, all at once (C2-4): focus shifts, continued dodges, releases;
    then the round's first turn starts (with --open, they stay open for more). Reads no dice."""
    by_id: dict[str, dict[str, Any]] = {}
    for text in focus or ():
        parts = text.split(":")
        if len(parts) != 3 or parts[2].lstrip("+") not in ("10", "20", "30"):
            raise InvalidInput(f"bad --focus {text!r}", where="--focus", hint="ID:TARGET:+10 (or +20, +30)")
        by_id.setdefault(parts[0], {}).update(focus_target=parts[1], focus=int(parts[2].lstrip("+")))
    for who in keep_dodging or ():
        by_id.setdefault(who, {})["continue_dodge"] = True
    for who in release or ():
        by_id.setdefault(who, {})["release_hold"] = True
    for who in keep_suppressing or ():
        by_id.setdefault(who, {})["continue_suppression"] = True
    declarations = tuple(Declaration(id=who, **fields) for who, fields in by_id.items())
    command = Declare(declarations=declarations, open=True if open_ else msgspec.UNSET)
    act(db, name, command, amend=amend, json=json, full=full, command_id=command_id)


def focus(
    name: Name,
    actor: Actor,
    target: Annotated[str, typer.Argument(help="The focus target.")],
    amount: Annotated[int, typer.Option("--amount", help="+10, +20 or +30.")] = 10,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """ACTOR declares a focus shift on TARGET (C2-5) — or replaces its earlier declaration this
    round. Declarations stay open for the other players until the round's first action (or
    `ua session next`). Reads no dice."""
    if amount not in (10, 20, 30):
        raise InvalidInput(f"a focus shift is +10, +20 or +30, not {amount}", where="--amount", hint="--amount 10")
    declaration = Declaration(id=actor, focus_target=target, focus=cast(Literal[10, 20, 30], amount))
    act(
        db,
        name,
        Declare(declarations=(declaration,), open=True),
        amend=amend,
        json=json,
        full=full,
        command_id=command_id,
    )


def _declaring(field: str, doc: str) -> Callable[..., None]:
    """A one-combatant declaration that leaves the round's declarations open (C2-4)."""

    def command(
        name: Name,
        actor: Actor,
        amend: Amend = None,
        full: Full = False,
        command_id: CommandIdOpt = None,
        db: Db = Path(DEFAULT_DB),
        json: JsonOption = False,
    ) -> None:
        declaration = Declaration(id=actor, **{field: True})  # type: ignore[arg-type]
        act(
            db,
            name,
            Declare(declarations=(declaration,), open=True),
            amend=amend,
            json=json,
            full=full,
            command_id=command_id,
        )

    command.__doc__ = doc
    return command


keep_dodging = _declaring(
    "continue_dodge",
    "ACTOR declares it keeps dodging this round (C2-16), against every attack, even the faster "
    "ones' — or replaces its earlier declaration. Declarations stay open until the round's first action. "
    "Reads no dice.",
)
release = _declaring(
    "release_hold",
    "ACTOR declares it lets go of its Kung Fu Grip at the round's start (C2-27). Reads no dice.",
)
keep_suppressing = _declaring(
    "continue_suppression",
    "ACTOR declares it keeps up last round's suppressive fire (C2-18) from the round's start. Reads no dice.",
)


def attack(
    name: Name,
    actor: Actor,
    target: Annotated[str | None, typer.Argument(help="The target (or use --strike).")] = None,
    weapon: Annotated[str, typer.Option("--weapon", help="Default: the weapon in hand.")] = "",
    mode: Annotated[Literal["strike", "disarm", "throw_person", "throw"], typer.Option("--mode")] = "strike",
    strike: Annotated[
        list[str] | None, typer.Option("--strike", help="TARGET[:SHARE] — several attacks (C2-8).")
    ] = None,
    minimum: Annotated[int | None, typer.Option("--minimum", help="Called shot: minimum roll (C2-6).")] = None,
    called: Annotated[str, typer.Option("--called", help="What the called shot aims at.")] = "",
    skill: Annotated[str, typer.Option("--skill", help="Attack with this skill of the sheet instead.")] = "",
    untrained: Annotated[
        bool,
        typer.Option("--untrained", help="--skill is not on the sheet: roll it untrained on the weapon's stat (C-7)."),
    ] = False,
    shift: Shifts = None,
    cherry: Annotated[
        CherryName | None,
        typer.Option(
            "--cherry", metavar="CHERRY", help=f"The cherry on a matched success (C2-22): {choices(CherryName)}."
        ),
    ] = None,
    knock_out: Annotated[
        bool, typer.Option("--knock-out", help="A crit knocks out instead of killing (C2-10).")
    ] = False,
    drop: Annotated[bool, typer.Option("--drop", help="A disarmed weapon drops instead of being taken.")] = False,
    flipped: Annotated[bool | None, typer.Option("--flipped/--as-rolled", help="State the orientation (C-11).")] = None,
    passion: Annotated[
        PassionKind | None, typer.Option("--passion", help="Spend a passion on a failed roll of this attack (C-10).")
    ] = None,
    passion_mode: Annotated[Literal["reroll", "flip"], typer.Option("--passion-mode")] = "reroll",
    monkey_to: Annotated[
        str,
        typer.Option(
            "--monkey-to",
            help="With --cherry monkey_dodge: the combatant the next attack on the attacker goes to "
            "(default: nothing, the wall; C2-28).",
        ),
    ] = "",
    reaction: Reactions = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Attack (C2-1): one target, or several with --strike (C2-8).

    Dice, in the order read (--dice, tens first): the attacker's roll (2 faces, the attacker's
    player); if it hits a dodger, the dodger's roll (2, the dodger's player, C2-15); then damage
    dice when a cherry or a matched success asks for them (More Hurt 1, New Damage 2, C2-30);
    then each Mind roll (2) of a madness check the attack raises (M2-8), by that combatant's
    player; for several strikes, the same again per strike. Faces beyond those are refused."""
    strikes = []
    for text in strike or ():
        who, _, share = text.partition(":")
        if share and not share.isdigit():
            raise InvalidInput(f"bad --strike {text!r}", where="--strike", hint="TARGET or TARGET:SHARE")
        strikes.append(Strike(target=who, share=int(share) if share else None))
    command = Attack(
        actor=actor,
        target=target or "",
        strikes=tuple(strikes),
        weapon=weapon,
        mode=mode,
        minimum=minimum,
        called=called,
        skill=skill,
        shifts=parse_shifts(shift),
        cherry=cherry,
        crit="knock_out" if knock_out else "kill",
        take_weapon=not drop,
        flipped=flipped,
        passion=passion,
        passion_mode=passion_mode,
        monkey_redirect=monkey_to,
        reactions=parse_reactions(reaction),
        dice=parse_dice(dice),
    )
    if monkey_to and cherry != "monkey_dodge":
        raise InvalidInput(
            "--monkey-to goes with --cherry monkey_dodge", where="--monkey-to", hint="add --cherry monkey_dodge"
        )
    known = on_sheet(actor, skill, untrained, where="--skill", untrained_by="--untrained")
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


def on_sheet(actor: str, skill: str, untrained: bool, *, where: str, untrained_by: str) -> Precheck:
    """A check that `skill` (if named) is one of the actor's sheet's skills, unless `untrained`
    (the option `untrained_by` says so)."""

    def check(state: Encounter) -> None:
        found = state.combatant(actor)
        if not skill or untrained or found is None or found.sheet.skill(skill) is not None:
            return
        skills = ", ".join(s.name for s in found.sheet.skills) or "none"
        raise InvalidInput(
            f"{actor}'s sheet has no skill {skill!r}",
            where=where,
            hint=f"skills: {skills}; add {untrained_by} to roll it untrained (C-7)",
        )

    return check


def _simple(command_type: type[CommandBase], doc: str) -> Callable[..., None]:
    """A command whose only argument is who acts (and the options every action takes)."""

    def command(
        name: Name,
        actor: Actor,
        dice: Dice = None,
        draw_rest: DrawRest = False,
        amend: Amend = None,
        full: Full = False,
        command_id: CommandIdOpt = None,
        db: Db = Path(DEFAULT_DB),
        json: JsonOption = False,
    ) -> None:
        command = command_type(actor=actor, dice=parse_dice(dice))  # type: ignore[call-arg]
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

    command.__doc__ = doc
    command.__name__ = str(command_type.__struct_config__.tag)
    return command


dodge = _simple(
    Dodge,
    "Dodge as this turn's action (C2-15). Reads no dice now: the dodger's roll comes with each "
    "attack on it later this round (the `attack` that it dodges reads it, by the dodger's player).",
)
clear_jam = _simple(ClearJam, "Clear a jammed gun (C2-3). Reads no dice.")
stand = _simple(StandUp, "Stand up after a knock-down (C2-29). Reads no dice.")
break_free = _simple(
    BreakFree,
    "Try to break a Kung Fu Grip (C2-27). Dice: the held fighter's hand-to-hand roll (2 faces, its player).",
)
flee = _simple(Flee, "Leave the fight (counts as fled, C2-33). Reads no dice.")
surrender = _simple(Surrender, "Give up the fight (C2-33). Reads no dice.")


def squeeze(
    name: Name,
    actor: Actor,
    gimme: Annotated[
        bool, typer.Option("--gimme", help="Roll for a Gimme instead of the automatic damage (C2-26, C2-27).")
    ] = False,
    drop: Annotated[
        bool, typer.Option("--drop", help="With --gimme: the weapon drops instead of being taken.")
    ] = False,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The holder's turn (C2-27): the grip's automatic damage (5, or 8 with a readied hand-to-hand
    weapon; reads no dice), or with --gimme a hand-to-hand roll (2 faces, the holder's player) to
    take the held fighter's weapon (C2-26)."""
    if drop and not gimme:
        raise InvalidInput("--drop goes with --gimme", where="--drop", hint="add --gimme")
    command = Squeeze(actor=actor, gimme=gimme, take_weapon=not drop, dice=parse_dice(dice))
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


def draw(
    name: Name,
    actor: Actor,
    weapon: Annotated[str, typer.Argument(help="The weapon to draw.")],
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Draw or ready a weapon (C2-3): usable from next round. Reads no dice."""
    act(db, name, Draw(actor=actor, weapon=weapon), amend=amend, json=json, full=full, command_id=command_id)


def nothing(
    name: Name,
    actor: Actor,
    reinit: Annotated[
        Literal["roll", "default"] | None,
        typer.Option("--reinit", help="roll or default: re-set initiative next round (I2-5)."),
    ] = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Spend the turn doing nothing (refused for a frenzied fighter, M2-7). Dice: none, unless
    the turn ends the round and initiative is re-set by a roll (I2-5): that Speed roll (2 faces,
    the re-rolling combatant's player), then any tie dice (I2-4)."""
    command = DoNothing(actor=actor, reinitiative=reinit, dice=parse_dice(dice))
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


def suppress(
    name: Name,
    actor: Actor,
    shots: Annotated[int, typer.Option("--shots", help="More than three (C2-18).")],
    field: Annotated[str, typer.Option("--field", help="Who is in the field of fire: A,B,…")],
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Suppressive fire (C2-18): more than three shots at a field of fire; hits only on a crit.
    Dice: the shooter's Firearms roll (2 faces, its player); on a crit, the damage it reads.
    Next round, `keep-suppressing` continues it from the round's start."""
    targets = tuple(t.strip() for t in field.split(",") if t.strip())
    command = SuppressiveFire(actor=actor, shots=shots, field=targets, dice=parse_dice(dice))
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


def next_turn(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Move on: close the round's declarations, or the current combatant does nothing. Reads no
    dice (a new round's re-set initiative draws from the seed)."""
    show(service(db, name).move_on(name, command_id=command_id), json=json)


def end(
    name: Name,
    winner: Annotated[str | None, typer.Option("--winner", help="The winning side, if any.")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "the GM ends the fight",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """End the fight now (the GM's call)."""
    act(db, name, EndFight(winner=winner, reason=reason), json=json, command_id=command_id)
