"""The GM's routes for a session's participants (as `ua session invite / participants / revoke`),
and `GET /sessions/NAME/me`: who the caller's token is (the pages ask it first). What each token
may reach is `engine.service.access`'s to say; these routes are the GM's only."""

from __future__ import annotations

from typing import Annotated, Any, cast

import anyio.to_thread
import msgspec
from litestar import Request, delete, get, post
from litestar.params import FromPath

from engine.errors import InvalidInput
from engine.rules.registry import ruleset_of
from engine.rules.words import Words
from engine.service import bodies, models
from engine.service.guard import PARTICIPANT
from engine.session import participants as table
from engine.store.participants import Participant, played_characters

CharacterId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Invite(models.Request, frozen=True):
    """A player's invite (`characters`, by id; `player`: the player's name, default the first
    character) or a viewer's (`viewer: true`). `url`: the base of the link (default: this
    server's address as the request reached it)."""

    characters: Annotated[list[CharacterId], msgspec.Meta(max_length=32)] = msgspec.field(default_factory=list)
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None
    viewer: bool = False
    url: Annotated[str, msgspec.Meta(max_length=300)] | None = None


class ParticipantList(models.Response, frozen=True):
    session: str
    participants: list[table.ParticipantView]


class Me(models.Response, frozen=True):
    """Who this request's token is: the GM, or a session's player (with its characters) or viewer."""

    role: str
    name: str
    session: str
    characters: list[str]
    ruleset: str
    #: the edition's words for what the pages show (wounds left or taken, meters or gauges)
    words: Words
    #: the session's played characters → their players' names (the GM's console shows who plays whom)
    played: dict[str, str] = msgspec.field(default_factory=dict)


def _service(request: Request[Any, Any, Any]) -> Any:
    return request.app.state.service


def _base(request: Request[Any, Any, Any]) -> str:
    return str(request.base_url).rstrip("/")


@get(
    "/sessions/{name:str}/participants",
    sync_to_thread=True,
    summary="List a session's participants",
    tags=["participants"],
)
def list_participants(request: Request[Any, Any, Any], name: FromPath[str]) -> ParticipantList:
    """The session's players (and the characters they play) and viewers; never their tokens."""
    return ParticipantList(session=name, participants=table.listed(_service(request).sessions, name))


@post(
    "/sessions/{name:str}/participants",
    status_code=201,
    opt={"body": Invite},
    summary="Invite a player or a viewer",
    tags=["participants"],
)
async def invite(request: Request[Any, Any, Any], name: FromPath[str]) -> table.InviteView:
    """Invite a player (their characters become played characters) or a viewer: the link, with
    the token in its fragment, is answered once (only its hash is kept)."""
    body = bodies.decode_body(await request.body(), Invite)
    if body.viewer and body.characters:
        raise InvalidInput("a viewer plays no characters", where="$.characters", hint="leave characters out")
    base = body.url or _base(request)
    return await anyio.to_thread.run_sync(
        lambda: table.invite(
            _service(request).sessions,
            name,
            characters=body.characters,
            player=body.player,
            viewer=body.viewer,
            base=base,
        )
    )


@delete(
    "/sessions/{name:str}/participants/{who:str}",
    status_code=200,
    sync_to_thread=True,
    summary="Revoke a participant",
    tags=["participants"],
)
def revoke(request: Request[Any, Any, Any], name: FromPath[str], who: FromPath[str]) -> table.ParticipantView:
    """End a participant (by id, or a character it plays): its link is refused from now on."""
    return table.revoke(_service(request).sessions, name, who)


@get("/sessions/{name:str}/me", sync_to_thread=True, summary="Who this token is", tags=["participants"])
def me(request: Request[Any, Any, Any], name: FromPath[str]) -> Me:
    """Who the caller is in session `name`."""
    service = _service(request)
    _, state = service.sessions.now(name)  # 404 for no such session
    played = played_characters(service.store, name)
    who = cast("Participant | None", request.scope.get(PARTICIPANT))
    role, named, characters = ("gm", "GM", []) if who is None else (who.role, who.name, list(who.characters))
    words = ruleset_of(state).words
    return Me(
        role=role, name=named, session=name, characters=characters, played=played, ruleset=state.ruleset, words=words
    )


ROUTES = [list_participants, invite, revoke, me]
DOCUMENTED = [ParticipantList, table.InviteView, table.ParticipantView, Me]
