"""`ua session requests|give|cancel|prefer`: the dice a waiting action needs from its players
(RULES T-3…T-5), and running a command that may wait (`answered`).

Off a terminal, a command that waits prints what it waits on and exits with code 5, having
written nothing to the log; on a terminal it asks for each roll instead ("Enter" to roll for me)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
import typer

from engine.cli.common import JsonOption, console, emit_json, warn
from engine.cli.output import safe
from engine.cli.session.options import DEFAULT_DB, Db, Name, service
from engine.errors import InvalidInput
from engine.session.owners import Request
from engine.session.seats import WaitingAction, WaitsOn

T = TypeVar("T")


def describe(request: Request) -> str:
    """`Rosa.1 — Ana: Rosa's Fighting (C-1), target 55: 75% to succeed`."""
    rule = f" ({request.rule})" if request.rule else ""
    odds = f", target {request.target}" if request.target is not None else ""
    if request.chance is not None:
        odds += f": {request.chance * 100:.2f}".rstrip("0").rstrip(".") + "% to succeed"
    if request.kind == "choice":
        options = "; ".join(f"{o.value}: {o.says}" for o in request.options)
        return f"{request.id} — {request.owner}: {request.what}{rule} — {options}"
    faces = "" if request.faces == 2 else f" — {request.faces} d10 face{'s' if request.faces > 1 else ''}"
    return f"{request.id} — {request.owner}: {request.what}{rule}{odds}{faces}"


def waiting_json(waiting: WaitingAction | None) -> dict[str, Any]:
    if waiting is None:
        return {"waiting": None, "requests": []}
    requests = msgspec.to_builtins(waiting.requests)
    return {"waiting": {"command_id": waiting.command_id, "action": waiting.action}, "requests": requests}


def show_waiting(name: str, waiting: WaitingAction | None, *, json: bool) -> None:
    if json:
        emit_json(waiting_json(waiting))
        return
    if waiting is None:
        console.print(safe(f"session {name!r} waits on nothing"), markup=False)
        return
    console.print(safe(f"session {name!r} waits on {len(waiting.requests)} request(s):"), markup=False)
    for request in waiting.requests:
        console.print(safe(f"  {describe(request)}"), markup=False)
    console.print(
        safe(
            f"  answer: ua session give {name} REQUEST --dice T,U | --choose OPTION | --roll-for-me; "
            f"drop it: ua session cancel {name}"
        ),
        markup=False,
        style="dim",
    )


def answered(db: Path, name: str, call: Callable[[], T], *, json: bool) -> T:
    """`call()` (a command that may wait): on a terminal, each request it waits on is asked and
    answered until it is decided; elsewhere its requests are shown and `WaitsOn` (exit 5) raised."""
    try:
        return call()
    except WaitsOn as waits:
        if not (sys.stdin.isatty() and sys.stderr.isatty()) or json:
            show_waiting(name, waits.waiting, json=json)
            raise
        requests: Sequence[Request] = waits.waiting.requests
    sessions = service(db, name)
    while True:
        request = requests[0]
        dice = _ask(request)
        try:
            result: T = sessions.give(name, request.id, dice=dice, roll_for_me=not dice)
            return result
        except WaitsOn as waits:
            requests = waits.waiting.requests


def _ask(request: Request) -> tuple[int, ...]:
    from engine.dice.source import parse_faces

    while True:
        typed = input(f"{describe(request)} — the dice (e.g. 4,7), or Enter to roll for me: ").strip()
        if not typed:
            return ()
        try:
            faces = parse_faces(typed)
        except InvalidInput as exc:
            sys.stderr.write(f"  {exc.message}; try again\n")
            continue
        if len(faces) == request.faces:
            return faces
        sys.stderr.write(f"  {request.what} reads {request.faces} faces; try again\n")


def requests(name: Name, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """The requests the session's waiting action is open on: whose roll, for which rule, the
    target and the exact odds (T-3). Nothing waits: says so."""
    show_waiting(name, service(db, name).waiting(name), json=json)


def give(
    name: Name,
    request: Annotated[str, typer.Argument(help="The request's id (ua session requests).", show_default=False)],
    dice: Annotated[str | None, typer.Option("--dice", help="The faces rolled, tens first: 4,7.")] = None,
    choose: Annotated[str, typer.Option("--choose", help="A choice's option (ua session requests lists them).")] = "",
    roll_for_me: Annotated[
        bool, typer.Option("--roll-for-me", help="The seed rolls it for its player (the log says so).")
    ] = False,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Answer one request of the waiting action with the dice rolled (or --roll-for-me); once
    every request is answered the action is decided, with exactly what was given (T-4)."""
    from engine.dice.source import parse_faces

    faces = parse_faces(dice) if dice is not None else ()
    sessions = service(db, name)
    result = answered(
        db, name, lambda: sessions.give(name, request, dice=faces, choose=choose, roll_for_me=roll_for_me), json=json
    )
    show_any(result, json=json)


def cancel(name: Name, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Drop the waiting action: nothing of it is recorded."""
    dropped = service(db, name).cancel(name)
    if json:
        emit_json({"cancelled": dropped.command_id})
    else:
        console.print(safe(f"dropped the action waiting on {len(dropped.requests)} request(s); nothing recorded"))


def prefer(
    name: Name,
    who: Annotated[str, typer.Argument(help="A played character.", show_default=False)],
    choices: Annotated[list[str], typer.Argument(help="KEY=VALUE: roll_for_me=all|none.", show_default=False)],
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A played character's standing choices (T-3): `roll_for_me=all` draws all its rolls from
    the seed at once (the log says its player asked), `roll_for_me=none` asks again."""
    parsed: dict[str, str] = {}
    for text in choices:
        key, sep, value = text.partition("=")
        if not sep:
            raise InvalidInput(f"{text!r} is not KEY=VALUE", where="KEY=VALUE", hint="roll_for_me=all")
        parsed[key.strip()] = value.strip()
    seats = service(db, name).prefer(name, who, parsed)
    if json:
        emit_json({"played": seats.played, "prefer": seats.prefer})
    else:
        shown = ", ".join(f"{k}={v}" for k, v in seats.prefer.get(who, {}).items())
        console.print(safe(f"{who}'s standing choices: {shown}"), markup=False)


def show_any(result: Any, *, json: bool) -> None:
    """The result of a decided action, whichever kind it was (a command, a beginning, NPC turns)."""
    from engine.cli.session.run import show
    from engine.session.service import NpcTurn

    results = result if isinstance(result, list) else [result]
    for one in results:
        if isinstance(one, NpcTurn):
            show(one.done, json=json)
            if one.refused:
                warn(f"{one.who}: {one.refused}")
        else:
            show(one, json=json)
