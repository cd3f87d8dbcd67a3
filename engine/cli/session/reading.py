"""`ua session` commands that read sessions: the list, a session's state (now or at any point)
and its log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.cli.output import safe
from engine.cli.session.options import DEFAULT_DB, Db, Name, reader
from engine.cli.session.requests import show_waiting
from engine.cli.views import lines_json, render_lines, render_state, state_json
from engine.session.seats import load_seats, load_waiting, passions_left
from engine.text import shown


def list_sessions(db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """The sessions in a database."""
    sessions = reader(db, create=True).sessions()
    if json:
        emit_json({"sessions": [{"name": n, "events": count} for n, count in sessions]})
        return
    for n, count in sessions:
        console.print(shown(f"{n} ({count} events)"), markup=False)


def state(
    name: Name,
    at: Annotated[str | None, typer.Option("--at", help="As it was after event N, or after command #N ('#9').")] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The encounter as the GM sees it: wounds, conditions, meters, order, whose turn."""
    sessions = reader(db, name)
    position = None if at is None else sessions.position(name, at, where="--at")
    shown = sessions.state(name, at=position)
    seats, waiting = load_seats(sessions.store, name), load_waiting(sessions.store, name)
    left = passions_left(shown)
    if json:
        table = {
            "played": seats.played,
            "prefer": seats.prefer,
            "passions_left": left,
            "requests": msgspec.to_builtins(waiting.requests) if waiting is not None and position is None else [],
        }
        emit_json({**state_json(shown), "table": table})
        return
    render_state(shown, title=f"{name}" + (f" after event {position}" if position else ""))
    spendable = "; ".join(f"{who} {', '.join(kinds) or '—'}" for who, kinds in left.items())
    console.print(safe(f"passions left: {spendable}"), markup=False)
    if seats.played:
        played = ", ".join(f"{who} ({player})" for who, player in seats.played.items())
        prefer = "; ".join(f"{who} {' '.join(f'{k}={v}' for k, v in c.items())}" for who, c in seats.prefer.items())
        console.print(safe(f"played: {played}" + (f" · standing choices: {prefer}" if prefer else "")), markup=False)
    if waiting is not None and position is None:
        show_waiting(name, waiting, json=False)


def log(
    name: Name,
    combatant: Annotated[str | None, typer.Option("--combatant", help="Only events about this combatant.")] = None,
    round_: Annotated[int | None, typer.Option("--round", help="Only this round.")] = None,
    type_: Annotated[list[str] | None, typer.Option("--type", help="Only these event types.")] = None,
    commands: Annotated[
        bool,
        typer.Option(
            "--commands/--events-only",
            help="Head each command's events with its number, actor, action and target (the number "
            "--amend, undo and fork take).",
        ),
    ] = True,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Narrate the session command by command: each command's number (#9, what --amend, undo
    and `fork '#9'` take), actor, action and target, then its events (e27: event 27), with rule
    ids and exact odds; undone work struck out."""
    lines = reader(db, name).narrate(name, combatant=combatant, round_=round_, types=type_ or (), commands=commands)
    if json:
        emit_json({"session": name, "lines": lines_json(lines)})
    else:
        render_lines(lines)
