"""`ua session` commands for running the table: NPC turns by tactics, a reaction calmed, a
combatant joining mid-fight, the current session."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.cli.output import safe
from engine.cli.session.options import (
    DEFAULT_DB,
    CommandIdOpt,
    Db,
    Dice,
    DrawRest,
    Name,
    ask_dice,
    owned_dice,
    parse_dice,
    service,
)
from engine.cli.session.requests import answered
from engine.cli.session.run import act, render_result, result_json, show
from engine.errors import InvalidInput


def npc(
    name: Name,
    actor: Annotated[
        str | None, typer.Argument(help="The NPC to act (default: whoever acts now).", show_default=False)
    ] = None,
    all_: Annotated[
        bool, typer.Option("--all", help="NPCs act one after another until it is a player's turn (or the fight ends).")
    ] = False,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The NPC whose turn it is (or ACTOR) acts by its tactics, from the scenario the session
    was started from. A tactic the rules refuse becomes doing nothing, and says why.

    Dice: the NPC's dice come from the seed, unless --dice gives the first action's faces (in
    the order `attack` lists them). Players are set at `session new --players` (default: the
    scenario's players' side); NPCs' round-start declarations are made from their tactics."""
    sessions = service(db, name)
    turns = answered(
        db,
        name,
        lambda: sessions.npc(
            name,
            actor,
            until_player=all_,
            dice=parse_dice(dice),
            command_id=command_id,
            draw_rest=draw_rest,
            ask=ask_dice(),
            given=owned_dice(dice) or None,
        ),
        json=json,
    )
    state = sessions.state(name)
    phase = state.fight.phase
    if json:
        emit_json(
            {
                "turns": [{"npc": t.who, "refused": t.refused, **result_json(t.done)} for t in turns],
                "turn": turns[-1].done.turn if turns else None,
                "phase": phase,
            }
        )
        return
    if not turns:
        up = sessions.up_next(state)
        if up:
            console.print(safe(f"no NPC acts: it is {up}'s turn, a player's"), markup=False)
        elif phase == "declare":
            console.print("no NPC acts: the players declare their actions for the round", markup=False)
        else:
            console.print("no one acts now", markup=False)
        return
    for t in turns:
        if t.refused:
            console.print(f"[yellow]{safe(t.who)}'s tactics are refused ({safe(t.refused)}): it does nothing[/yellow]")
        render_result(t.done)
    up = turns[-1].done.turn if turns else None
    if up:
        console.print(f"[bold]{safe(up)}[/bold] to act")


def calm(
    name: Name,
    who: Annotated[str | None, typer.Argument(help="Whose reaction ends.", show_default=False)] = None,
    source: Annotated[
        str, typer.Option("--source", help="End every reaction kept for this source (or only WHO's).")
    ] = "",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A reaction (flee, freeze, frenzy) ends because its source is gone (M2-4): WHO's, or every
    one kept for --source. Reads no dice."""
    show(service(db, name).calm(name, who, source=source, command_id=command_id), json=json)


def add(
    name: Name,
    id_: Annotated[str, typer.Argument(help="The newcomer's id.", show_default=False)],
    side: Annotated[str, typer.Option("--side", help="Its side.")],
    sheet: Annotated[Path, typer.Option("--sheet", help="Its character sheet (TOML, YAML or JSON).")],
    in_hand: Annotated[str, typer.Option("--in-hand", help="The weapon in hand (default: fists).")] = "",
    tactics: Annotated[
        str | None,
        typer.Option("--tactics", help="A tactics preset: the newcomer is an NPC (`ua session npc`); else a player's."),
    ] = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A combatant joins mid-fight: no turn this round; its initiative is set at the next round's
    start (I2-5: default with an Initiative skill, else a Speed roll drawn then). Reads no dice."""
    import msgspec

    from engine.commands import AddCombatant
    from engine.scenario.sheets import load_sheet
    from engine.tactics.rules import PRESETS
    from engine.text import check_name

    check_name(id_, "the combatant id", where="ID")
    if tactics is not None and tactics not in PRESETS:
        raise InvalidInput(f"no tactics preset {tactics!r}", where="--tactics", hint=f"presets: {', '.join(PRESETS)}")
    command = AddCombatant(
        id=id_,
        side=side,
        sheet=load_sheet(sheet),
        in_hand=in_hand,
        tactics=tactics if tactics is not None else msgspec.UNSET,
    )
    act(db, name, command, json=json, command_id=command_id)


def use(
    name: Annotated[str | None, typer.Argument(help="The session to use from now on.", show_default=False)] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Forget the current session.")] = False,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Set the current session: then NAME may be left out of every `ua session` command (kept
    beside the database, in DB.current)."""
    from engine.cli.session.current import current_file, read_current, write_current

    if clear:
        current_file(db).unlink(missing_ok=True)
        name = None
    elif name is None:
        name = read_current(db)
    else:
        service(db, name).open(name)  # it must exist
        write_current(db, name)
    if json:
        emit_json({"current": name})
    else:
        console.print(safe(f"current session: {name}" if name else "no current session"), markup=False)
