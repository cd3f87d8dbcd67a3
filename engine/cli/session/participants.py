"""`ua session invite / participants / revoke`: who plays or watches a session from the browser,
each by a link of their own (DESIGN "The table: participants, requests, access")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.cli.session.options import DEFAULT_DB, Db, Name, reader
from engine.errors import InvalidInput
from engine.session import participants as table
from engine.text import shown

Player = Annotated[
    str | None,
    typer.Option(
        "--player",
        help='The characters a player plays, WHO[,WHO] (character ids), or "NAME:WHO[,WHO]" to name the player.',
    ),
]
Viewer = Annotated[bool, typer.Option("--viewer", help="A read-only link instead (watch, never act).")]
Url = Annotated[str, typer.Option("--url", envvar="UA_URL", help="The server's address as the participants reach it.")]


def invite(
    name: Name,
    player: Player = None,
    viewer: Viewer = False,
    url: Url = table.DEFAULT_URL,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A link for a player (their characters become played characters) or a viewer; it is shown
    once (only the token's hash is kept). Inviting a player again makes a new link, ending the old."""
    if player is not None and viewer:
        raise InvalidInput("give --player or --viewer, not both", where="--viewer", hint="one invite per participant")
    who, characters = table.parse_player(player) if player is not None else (None, [])
    done = table.invite(reader(db, name), name, characters=characters, player=who, viewer=viewer, base=url)
    if json:
        emit_json(msgspec.to_builtins(done))
        return
    p = done.participant
    what = f"{p.name} plays {', '.join(p.characters)}" if p.role == "player" else f"{p.name} watches"
    console.print(
        shown(f"{what} ({p.id}){' — the earlier link no longer works' if done.replaced else ''}"), markup=False
    )
    typer.echo(shown(done.link))  # one unbroken line, to copy whole


def participants(name: Name, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """The session's players (and the characters they play) and viewers, with their links' status."""
    listed = table.listed(reader(db, name), name)
    if json:
        emit_json({"session": name, "participants": msgspec.to_builtins(listed)})
        return
    if not listed:
        console.print(shown(f"no participants in {name} yet (ua session invite {name} --player WHO)"), markup=False)
    for p in listed:
        plays = f" plays {', '.join(p.characters)}" if p.characters else ""
        console.print(shown(f"{p.id}  {p.role} {p.name}{plays}  [{p.status}]"), markup=False)


def revoke(
    name: Name,
    who: Annotated[str, typer.Argument(help="A character played, or a participant's id.", show_default=False)],
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """End a participant's link at once (a running server refuses it from its next request)."""
    ended = table.revoke(reader(db, name), name, who)
    if json:
        emit_json(msgspec.to_builtins(ended))
        return
    console.print(shown(f"{ended.name}'s link ({ended.id}) no longer works"), markup=False)
