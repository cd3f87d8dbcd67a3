"""`ua session` combat actions of the third edition: an action declared for the round (U-22), and
the declared action carried out on the combatant's turn (`act`). The command `act` runs is the
one the tactics would build from the declaration (`engine.tactics.ua3.act`), with the options
the player states in place of a tactics rule's."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

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
    Name,
    Shifts,
    owned_dice,
    parse_dice,
    parse_shifts,
    service,
)
from engine.cli.session.run import act as run
from engine.cli.session.ua3 import Flipped
from engine.commands.base import CommandBase
from engine.commands.ua3 import Coerce
from engine.commands.ua3_combat import Declaration, Declare, FistsCrit, FistsMiss, GrappleEnd, GrappleMove
from engine.errors import InvalidInput, Refused
from engine.state.ua3.combat import Action, AttackMode, Burst, Called, LimbEffect
from engine.state.ua3.conflict import Demand
from engine.state.ua3.sheet import GaugeName, PassionKind, PassionMode


def declare_action(
    name: Name,
    actor: Actor,
    action: Annotated[
        Action,
        typer.Argument(metavar="ACTION", help=f"What the combatant will do this round (U-22): {choices(Action)}."),
    ],
    targets: Annotated[
        list[str] | None, typer.Argument(help="Whom it is aimed at (two for a split attack, U-6).", show_default=False)
    ] = None,
    weapon: Annotated[str, typer.Option("--weapon", help="The weapon it uses, or readies (default: in hand).")] = "",
    gauge: Annotated[str, typer.Option("--gauge", help="coerce: the gauge the threat works on (U-15).")] = "",
    close: Annotated[
        bool,
        typer.Option(
            "--close", help="Close the round's declarations now: whoever has not declared does nothing (U-22)."
        ),
    ] = False,
    tie_dice: Annotated[
        str | None,
        typer.Option(
            "--tie-dice",
            help="Should this declaration set the order: a die each for those tied (U-22, I2-4), in roster "
            "order, then again for any still tied: 7,3.",
        ),
    ] = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """ua3: declare ACTOR's action for the round (U-22; dodging too, U-12). Each combatant's
    declaration is its own command, until the round's order is set: once everyone able to act
    has declared (the NPCs declare as the round opens), or with --close. Reads no dice but the
    tie dice (--tie-dice) of the declaration that sets the order."""
    declaration = Declaration(actor=actor, action=action, targets=tuple(targets or ()), weapon=weapon, gauge=gauge)
    tie = parse_dice([tie_dice] if tie_dice else None)
    command = Declare(declarations=(declaration,), close=True if close else None, dice=tie)
    try:
        run(db, name, command, amend=amend, json=json, command_id=command_id)
    except InvalidInput as exc:  # the dice a declaration reads are its tie dice
        if exc.where == "--dice":
            exc.where, exc.hint = "--tie-dice", exc.hint.replace("--dice", "--tie-dice")
        raise


def act(
    name: Name,
    actor: Annotated[
        str | None, typer.Argument(help="Who acts (default: whoever's turn it is).", show_default=False)
    ] = None,
    mode: Annotated[
        AttackMode | None,
        typer.Option("--mode", help="attack: strike, throw (Fitness), throw_person, disarm (U-9, U-11)."),
    ] = None,
    called: Annotated[
        Called | None, typer.Option("--called", help="attack: a limb (−20) or head (−30) shot (U-9).")
    ] = None,
    limb: Annotated[
        LimbEffect | None,
        typer.Option(
            "--limb", help="attack --called limb: the opponent drops what it holds, or its movement halves (U-9)."
        ),
    ] = None,
    burst: Annotated[Burst | None, typer.Option("--burst", help="full_auto: the burst (U-7).")] = None,
    move: Annotated[
        GrappleMove | None,
        typer.Option("--move", help="grapple: roll; with advantage wounds, disarm, swap or shoot (U-17)."),
    ] = None,
    end: Annotated[GrappleEnd | None, typer.Option("--end", help="grapple: in the end zone, restrain or kill.")] = None,
    threat: Annotated[str | None, typer.Option("--threat", help="coerce: the threat made (U-15).")] = None,
    gauge: Annotated[
        GaugeName | None, typer.Option("--gauge", help="coerce: the gauge the threat works on (U-15).")
    ] = None,
    fists_miss: Annotated[
        FistsMiss | None,
        typer.Option(
            "--fists-miss",
            help="attack with fists: a matched failure costs the attacker −10 on its next roll (penalty), or "
            "gives the opponent +10 on its next attack on it (opening) (U-3).",
        ),
    ] = None,
    demand: Annotated[
        Demand | None,
        typer.Option(
            "--demand", help="coerce: what the threat demands, surrender (default), flee, drop or release (U-15)."
        ),
    ] = None,
    fists_crit: Annotated[
        FistsCrit | None,
        typer.Option("--fists-crit", help="attack with fists: a crit knocks out, or kills (U-3)."),
    ] = None,
    shift: Shifts = None,
    flipped: Flipped = None,
    passion: Annotated[
        PassionKind | None,
        typer.Option(
            "--passion",
            help="A passion in play: spent on the roll should it fail (U-21); on a coercion, the coercer's, "
            "+1 rank (U-15).",
        ),
    ] = None,
    passion_mode: Annotated[
        PassionMode | None, typer.Option("--passion-mode", help="reroll (the default) or flip.", show_default=False)
    ] = None,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """ua3: the combatant whose turn it is carries out the action it declared (U-22): attack,
    full_auto, suppress, aim, dodge, grapple (or its move in the grapple it is in), finish,
    coerce, ready, clear_jam, flee, surrender. A declaration whose targets are all gone becomes
    doing nothing. To change a declared action already done, amend it (ua session amend).

    Dice (--dice), in the order read: the actor's roll (2 faces, the actor's player), then each
    roll the action raises, as `ua session log` lists them."""
    from engine.dice.source import SeededDice
    from engine.rules.registry import ruleset_of
    from engine.tactics.ua3 import Ua3Profile, Ua3TacticRule
    from engine.tactics.ua3 import act as carry_out

    sessions = service(db, name)
    state = sessions.state(name)
    if state.ruleset != "ua3":
        raise InvalidInput(
            "ua session act carries out a ua3 declaration", where=name, hint="ua2: ua session attack, dodge, …"
        )
    table = ruleset_of(state).thaw(state)
    now = table.current
    who = sessions.combatant_id(state, actor, where="ACTOR") if actor else now
    if actor is None and now is not None and sessions.roster(name).is_npc(now):
        raise Refused(  # never act for a character the command did not name, unless a player's
            f"it is {now}'s turn, an NPC's: act names no one, so it does not act for {now}",
            hint=f"ua session npc {name} (its tactics), or ua session act {name} {now} to act for it yourself",
        )
    if who is None or who != now:
        phase = "the round's declarations are open" if table.phase == "declare" else f"the fight is {table.phase}"
        raise Refused(
            f"it is {now}'s turn, not {who}'s" if now else f"no one acts now: {phase}",
            hint=f"ua session state {name}",
        )
    declared = table.by_id[who].declared
    rule = Ua3TacticRule(do=declared.action if declared is not None else "nothing", grapple_move=move)
    command = carry_out(table, who, {who: Ua3Profile(rules=(rule,))}, SeededDice(0))
    options: dict[str, Any] = {
        "mode": mode,
        "called": called,
        "limb": limb,
        "burst": burst,
        "move": move,
        "end": end,
        "threat": threat,
        "gauge": gauge,
        "fists_miss": fists_miss,
        "demand": demand,
        "fists_crit": fists_crit,
        "shifts": parse_shifts(shift),
        "flipped": flipped,
        "passion": passion,
        "passion_mode": None if passion is None else (passion_mode or "reroll"),
        "dice": parse_dice(dice),
    }
    if passion_mode is not None and passion is None:
        raise InvalidInput("--passion-mode says how a passion is spent", where="--passion-mode", hint="give --passion")
    if isinstance(command, Coerce) and passion is not None:  # U-15 (4): in play, not spent on a roll
        options.update(passion=None, passion_mode=passion_mode, coercer_passions=(passion,))
    run(
        db, name, _with(command, options), json=json, command_id=command_id, draw_rest=draw_rest, given=owned_dice(dice)
    )


def _with(command: CommandBase, options: dict[str, Any]) -> CommandBase:
    """`command` with the options given (None or empty: not given); one the command does not
    take is refused rather than dropped."""
    fields = {f.name for f in msgspec.structs.fields(command)}
    given = {k: v for k, v in options.items() if v not in (None, ())}
    for key in given:
        if key not in fields:
            raise InvalidInput(
                f"--{key.replace('_', '-').removesuffix('s')} does not apply to {command.__struct_config__.tag}",
                where=f"--{key.replace('_', '-')}",
                hint="leave it out",
            )
    return msgspec.structs.replace(command, **given) if given else command
