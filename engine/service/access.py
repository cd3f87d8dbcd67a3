"""Access by capability (DESIGN "The table: participants, requests, access"): what a participant's
token may do, checked before any handler runs — so a forbidden command is a 403 and never a 422
from the rules, and nothing is written.

- The GM (the server's token; on loopback without `--token`, no token at all) may do anything.
- A viewer may read its own session: its state, log, timeline, events, open requests.
- A player may read its own session too, and act for its characters only: declare for them, run
  their actions (`PLAYER_COMMANDS` names each command's acting fields), answer their requests and
  spend their passions. Shifts, reactions and closing the round's declarations are the GM's.

A live stream is cut as soon as its participant's token is revoked (`Access.watch`)."""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import msgspec

from engine.errors import EngineError
from engine.service import bodies, models
from engine.service.guard import INTERNAL, PARTICIPANT, Refusal, Scope, bearer_of, refuse
from engine.store.participants import Participant, ParticipantBook

Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]

#: What a participant of session NAME may read (GET), by the path after `/sessions/NAME`.
READS = re.compile(r"^(|/state|/log|/timeline|/events|/requests|/audit|/export|/me|/passions/[^/]+)$")
_SESSION_PATH = re.compile(r"^/sessions/(?P<name>[^/]+)(?P<rest>(/[^/]+)*)$")
_ANSWER = re.compile(r"^/requests/(?P<id>[^/]+)$")
#: A live stream re-checks its participant's token at most this often (seconds).
RECHECK = 0.5
#: The largest command body a participant may send (a command is small).
MAX_COMMAND = 256 * 1024


def _actor(c: Any) -> list[str]:
    return [c.actor]


def _declared(field: str) -> Callable[[Any], list[str]]:
    return lambda c: [getattr(d, field) for d in c.declarations]


def _field(name: str) -> Callable[[Any], list[str]]:
    return lambda c: [getattr(c, name)]


#: The commands whose acting character is their `actor`, in each edition.
# fmt: off
_BY_ACTOR = (
    "attack", "dodge", "draw", "clear_jam", "stand_up", "do_nothing", "suppressive_fire", "break_free",
    "squeeze", "flee", "surrender", "spend_passion", "skill_check",
    "ua3_attack", "ua3_full_auto", "ua3_suppress", "ua3_aim", "ua3_dodge", "ua3_grapple", "ua3_finish",
    "ua3_ready", "ua3_clear_jam", "ua3_flee", "ua3_surrender", "ua3_nothing", "ua3_spend_passion", "ua3_check",
)
# fmt: on
#: command tag → who acts in it: the only commands a player may give, for its own characters.
PLAYER_COMMANDS: dict[str, Callable[[Any], list[str]]] = {
    **dict.fromkeys(_BY_ACTOR, _actor),
    "declare": _declared("id"),
    "first_aid": _field("healer"),
    "ua3_declare": _declared("actor"),
    "ua3_coerce": _field("coercer"),
    "ua3_answer_coercion": _field("target"),
}


def _forbidden(message: str, hint: str, where: str = "Authorization") -> Refusal:
    return (403, message, where, hint)


def command_refusal(who: Participant, command: Any) -> Refusal | None:
    """Why player `who` may not give `command` (None: it may)."""
    tag = str(type(command).__struct_config__.tag)
    acting = PLAYER_COMMANDS.get(tag)
    if acting is None:
        return _forbidden(f"{tag} is the GM's to give, not a player's", "ask the GM", "$.command.command")
    actors = acting(command)
    roll_passion = getattr(command, "roll_passion", msgspec.UNSET)
    if roll_passion is not msgspec.UNSET:
        actors.append(roll_passion.actor)
    others = [a for a in dict.fromkeys(actors) if a not in who.characters]
    if others or not actors:
        return _forbidden(
            f"{who.name} plays {', '.join(who.characters) or 'no one'}, not {', '.join(others) or 'no one'}",
            "act only for your own characters",
            "$.command",
        )
    if getattr(command, "shifts", ()) or getattr(command, "reactions", msgspec.UNSET) not in (msgspec.UNSET, ()):
        return _forbidden("shifts and reactions are the GM's rulings", "ask the GM for the shift", "$.command.shifts")
    if (tag == "declare" and command.open is not True) or (tag == "ua3_declare" and command.close is True):
        return _forbidden(
            "a player's declarations leave the round open; the GM closes them",
            'send "open": true (ua3: leave "close" out)',
            "$.command",
        )
    return None


def _decoded_command(raw: bytes) -> Any | None:
    """The command of a commands body, or None when it does not decode (the handler then answers
    the body's own error, as it does for the GM: nothing is asked of the rules either way)."""
    try:
        return bodies.decode_body(raw, models.Execute).command
    except EngineError:
        return None


def _passion_actor(raw: bytes) -> str | None:
    from engine.service.passions import PassionSpending

    try:
        return bodies.decode_body(raw, PassionSpending).actor
    except EngineError:
        return None


class Access:
    """ASGI middleware after the `Guard`: holds each participant's request to its scope."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], *, book: ParticipantBook) -> None:
        self.app = app
        self.book = book

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        who: Participant | None = scope.get(PARTICIPANT)
        if who is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no participant's business (a websocket, should one appear)
            await send({"type": "websocket.close", "code": 1008})
            return
        method = str(scope.get("method", "GET")).upper()
        path = str(scope.get("path", ""))
        if method in ("GET", "HEAD"):
            refusal = self.read_refusal(who, path)
            if refusal is None:
                await self.watch(scope, receive, send, who)
            else:
                await refuse(send, refusal)
            return
        if who.role != "player":
            await refuse(send, _forbidden(f"{who.name}'s link only reads", "the GM acts; a viewer watches"))
            return
        raw, receive = await _buffered(receive)
        if raw is None:
            await refuse(send, (413, "the body is too large for a command", "body", "send one command"))
            return
        refusal = await self.write_refusal(scope, who, method, path, raw)
        if refusal is not None:
            await refuse(send, refusal)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _session_of(who: Participant, path: str) -> tuple[str, str] | Refusal:
        found = _SESSION_PATH.match(path)
        if found is None or path == "/health":
            return _forbidden(f"{who.name}'s link opens session {who.session} only", "the GM's token does the rest")
        name = _unquote(found["name"])
        if name != who.session:
            return _forbidden(f"{who.name}'s link is for session {who.session}, not {name}", "use that session's link")
        return name, found["rest"] or ""

    def read_refusal(self, who: Participant, path: str) -> Refusal | None:
        if path == "/health":
            return None
        where = self._session_of(who, path)
        if len(where) != 2:
            return where
        _, rest = where
        if READS.match(rest) is None:
            return _forbidden(f"{rest.lstrip('/')} is the GM's to read", "a participant reads the session's play")
        return None

    async def write_refusal(self, scope: Scope, who: Participant, method: str, path: str, raw: bytes) -> Refusal | None:
        where = self._session_of(who, path)
        if len(where) != 2:
            return where
        name, rest = where
        if method == "POST" and rest == "/commands":
            command = _decoded_command(raw)
            return None if command is None else command_refusal(who, command)
        if method == "POST" and rest == "/passions":
            actor = _passion_actor(raw)
            if actor is None or actor in who.characters:
                return None  # a body that does not decode: the handler says why
            return _forbidden(
                f"{who.name} plays {', '.join(who.characters)}, not {actor}", "spend your own passions", "$.actor"
            )
        answer = _ANSWER.match(rest)
        if method == "POST" and answer is not None:
            character = await _request_character(scope, name, _unquote(answer["id"]))
            if character is None or character in who.characters:
                return None  # no such request: the handler says so (404), as it does to the GM
            return _forbidden(f"that request is {character}'s, not {who.name}'s", "answer your own requests")
        return _forbidden(f"{method} {rest or '/'} is the GM's", "a player declares, acts and answers for its own")

    async def watch(self, scope: Scope, receive: Receive, send: Send, who: Participant) -> None:
        """Answer a read; a stream ends once the participant's token is revoked (re-checked at
        most every `RECHECK` seconds, as events are sent)."""
        token = bearer_of({k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())})
        checked = time.monotonic()
        ended = False

        async def guarded(message: Any) -> None:
            nonlocal checked, ended
            if ended:
                return
            if message.get("type") == "http.response.body" and message.get("more_body"):
                now = time.monotonic()
                if now - checked >= RECHECK:
                    checked = now
                    if token is None or self.book.by_token(token) is None:
                        ended = True
                        await send({"type": "http.response.body", "body": b"", "more_body": False})
                        raise _Revoked
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except BaseException as exc:  # the stream stopped because its token was revoked
            if not ended or not _is_revoked(exc):
                raise


class _Revoked(Exception):
    """Raised into a stream whose participant was revoked, to stop it."""


def _is_revoked(exc: BaseException) -> bool:
    if isinstance(exc, _Revoked):
        return True
    inner: Iterable[BaseException] = getattr(exc, "exceptions", ())
    return any(_is_revoked(e) for e in inner)


def _unquote(text: str) -> str:
    from urllib.parse import unquote

    return unquote(text)


async def _buffered(receive: Receive) -> tuple[bytes | None, Receive]:
    """The whole body (None: over `MAX_COMMAND`) and a `receive` that gives it again."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_COMMAND:
            return None, receive
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    body = b"".join(chunks)
    given = False

    async def again() -> Any:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, again


async def _request_character(scope: Scope, name: str, request_id: str) -> str | None:
    """The character whose open request `request_id` of session `name` is, asked of this app as
    its GM (`GET /sessions/NAME/requests`, the requests' own contract); None when there is no
    such request (or no requests support)."""
    from urllib.parse import quote

    path = f"/sessions/{quote(name, safe='')}/requests"
    inner: Scope = {
        **{k: scope[k] for k in ("type", "asgi", "http_version", "scheme", "server", "root_path", "app") if k in scope},
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"accept", b"application/json")],
        "client": ("127.0.0.1", 0),
        INTERNAL: True,
    }
    status = 0
    chunks: list[bytes] = []

    async def nothing() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def collect(message: Any) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await scope["app"](inner, nothing, collect)
    if status != 200:
        return None
    try:
        listed = msgspec.json.decode(b"".join(chunks))
    except msgspec.DecodeError:
        return None
    for r in listed.get("requests", []) if isinstance(listed, dict) else []:
        if isinstance(r, dict) and r.get("id") == request_id:
            return str(r.get("character", ""))
    return None
