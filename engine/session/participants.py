"""Inviting, listing and revoking a session's participants, as `ua session invite/participants/
revoke` and the GM's HTTP routes do: the characters named are checked against the session (and
given as its ids), and an invite's link carries the token in its fragment (`#TOKEN`), so it is
never sent in a Referer header or written to an access log."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import msgspec

from engine.errors import InvalidInput
from engine.session.reader import SessionReader
from engine.store.participants import Invited, Participant, participants_of

DEFAULT_URL = "http://127.0.0.1:8787"


class ParticipantView(msgspec.Struct, frozen=True, kw_only=True):
    """A participant as listed (never its token or hash). `status`: invited, no link, revoked."""

    id: str
    role: str
    name: str
    characters: list[str]
    status: str


class InviteView(msgspec.Struct, frozen=True, kw_only=True):
    """An invite: the participant, its link (shown once: only the token's hash is kept) and
    whether an earlier link of the same participant stopped working."""

    participant: ParticipantView
    link: str
    replaced: bool = False


def view(p: Participant) -> ParticipantView:
    return ParticipantView(id=p.id, role=p.role, name=p.name, characters=list(p.characters), status=p.status)


def link(base: str, session: str, token: str) -> str:
    base = base.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise InvalidInput(f"not a base URL: {base!r}", where="--url", hint="like http://192.168.1.5:8787")
    return f"{base}/play/{quote(session, safe='')}#{token}"


def _invited(done: Invited, base: str) -> InviteView:
    return InviteView(
        participant=view(done.participant),
        link=link(base, done.participant.session, done.token),
        replaced=done.replaced,
    )


def invite(
    reader: SessionReader,
    session: str,
    *,
    characters: list[str] | None = None,
    player: str | None = None,
    viewer: bool = False,
    base: str = DEFAULT_URL,
) -> InviteView:
    """A player's invite for `characters` (by id, case-insensitively; they become played
    characters), or with `viewer` a viewer's."""
    link(base, session, "")  # a bad base is refused before anything is written
    state = reader.state(session)  # NotFound for no such session
    book = participants_of(reader.store)
    if viewer:
        if characters:
            raise InvalidInput("a viewer plays no characters", where="--viewer", hint="give --player or --viewer")
        return _invited(book.invite_viewer(session, player), base)
    if not characters:
        raise InvalidInput("an invite is for a player or a viewer", where="--player", hint="--player Rosa, or --viewer")
    ids = [reader_id(state, c) for c in characters]
    return _invited(book.invite_player(session, ids, player), base)


def reader_id(state: Any, text: str) -> str:
    from engine.session.service import SessionService

    return SessionService.combatant_id(state, text.strip(), where="--player")


def listed(reader: SessionReader, session: str) -> list[ParticipantView]:
    reader.now(session)
    return [view(p) for p in participants_of(reader.store).of(session)]


def revoke(reader: SessionReader, session: str, who: str) -> ParticipantView:
    reader.now(session)
    return view(participants_of(reader.store).revoke(session, who))


def parse_player(text: str) -> tuple[str | None, list[str]]:
    """`Rosa,Vic` (the characters) or `Ana:Rosa,Vic` (the player's name, then the characters)."""
    name, sep, rest = text.partition(":")
    if not sep:
        name, rest = "", text
    characters = [c.strip() for c in rest.split(",") if c.strip()]
    if not characters or (sep and not name.strip()):
        raise InvalidInput(f"not a player: {text!r}", where="--player", hint='--player Rosa,Vic or --player "Ana:Rosa"')
    return (name.strip() or None), characters
