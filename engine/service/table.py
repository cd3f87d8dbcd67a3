"""The table over HTTP (RULES T-3…T-5, DESIGN "The table"): the requests a waiting action is open
on, answering them, dropping the action; a command that waits answers 202 with its requests;
and the stream's `request` events (never a log position)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import FromPath
from litestar.response import ServerSentEventMessage

from engine.service.models import CommandResult, NpcResult
from engine.service.sessions import command_result, npc_result
from engine.session.owners import Request as TableRequest
from engine.session.seats import WaitingAction, WaitsOn, load_waiting
from engine.session.service import Amended, Executed, NpcTurn
from engine.store.base import EventStore


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    """A user action that waits on requests (T-3): nothing of it is recorded yet. Answer each
    with `POST /sessions/{name}/requests/{id}`; `DELETE /sessions/{name}/requests` drops it."""

    session: str
    command_id: str
    action: str
    requests: list[TableRequest]


class Requests(msgspec.Struct, frozen=True, kw_only=True):
    """The requests the session's waiting action is open on (none: nothing waits)."""

    session: str
    waiting: Waiting | None = None
    requests: list[TableRequest] = msgspec.field(default_factory=list)


class Answer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Exactly one of: the faces rolled (`dice`, tens first), a choice's option (`choose`), or
    `roll_for_me` (the seed rolls it for its player; a choice: the automatic one)."""

    dice: list[Annotated[int, msgspec.Meta(ge=0, le=9)]] = msgspec.field(default_factory=list)
    choose: Annotated[str, msgspec.Meta(max_length=40)] = ""
    roll_for_me: bool = False


class Cancelled(msgspec.Struct, frozen=True, kw_only=True):
    session: str
    cancelled: str


def waiting_view(name: str, waiting: WaitingAction) -> Waiting:
    return Waiting(session=name, command_id=waiting.command_id, action=waiting.action, requests=list(waiting.requests))


def waits_response(exc: WaitsOn) -> Response[Any]:
    """202: the action waits on `exc`'s requests (nothing recorded)."""
    return Response(waiting_view(exc.where, exc.waiting), status_code=202)


def routes(service_of: Callable[[Request[Any, Any, Any]], Any], run: Any, body_of: Any) -> list[Any]:
    """The table's routes over the app's service (`service_of`), its thread runner and body reader."""

    @get("/sessions/{name:str}/requests", sync_to_thread=True, summary="List the open requests")
    def open_requests(request: Request[Any, Any, Any], name: FromPath[str]) -> Requests:
        """The requests the session's waiting action is open on: whose roll or choice, for which
        rule, the target and the exact odds (a choice: each option and what it does)."""
        waiting = service_of(request).sessions.waiting(name)
        if waiting is None:
            return Requests(session=name)
        return Requests(session=name, waiting=waiting_view(name, waiting), requests=list(waiting.requests))

    @post(
        "/sessions/{name:str}/requests/{request_id:str}",
        status_code=200,
        opt={"body": Answer},
        summary="Answer a request",
    )
    async def answer(
        request: Request[Any, Any, Any], name: FromPath[str], request_id: FromPath[str]
    ) -> CommandResult | NpcResult:
        """Answer one request: when every request of the action is in, it is decided with exactly
        what was given (200, its result); else 202 with the requests still open. Sent again after
        its action was decided, it answers that action's result (a retry)."""
        body = await body_of(request, Answer)
        service = service_of(request)
        done = await run(
            lambda: service.sessions.give(
                name, request_id, dice=tuple(body.dice), choose=body.choose, roll_for_me=body.roll_for_me
            )
        )
        service.changes.poke()
        return result_body(service.sessions, name, done)

    @delete("/sessions/{name:str}/requests", status_code=200, sync_to_thread=True, summary="Drop the waiting action")
    def cancel(request: Request[Any, Any, Any], name: FromPath[str]) -> Cancelled:
        """Drop the waiting action: nothing of it is recorded."""
        service = service_of(request)
        dropped = service.sessions.cancel(name)
        service.changes.poke()
        return Cancelled(session=name, cancelled=dropped.command_id)

    return [open_requests, answer, cancel]


def result_body(sessions: Any, name: str, done: Executed | Amended | list[Any]) -> CommandResult | NpcResult:
    """A decided action's result as its own endpoint answers it: NPC turns as `/npc` does, a
    command (the last of a beginning) as `/commands` does."""
    if isinstance(done, list) and done and isinstance(done[0], NpcTurn):
        return npc_result(name, done, *sessions.now(name))
    last = done[-1] if isinstance(done, list) else done
    return command_result(last, last.command_id)


class RequestEvents:
    """The stream's `request` events for one client: the open requests when it connects, then
    each request opened, answered or dropped, as the session's waiting action changes."""

    def __init__(self, store: EventStore, name: str) -> None:
        self.store = store
        self.name = name
        self.sent: WaitingAction | None = None

    def messages(self) -> list[ServerSentEventMessage]:
        now = load_waiting(self.store, self.name)
        before = self.sent
        self.sent = now
        out: list[dict[str, Any]] = []
        was = {r.id: r for r in before.requests} if before is not None else {}
        is_ = {r.id: r for r in now.requests} if now is not None else {}
        same_action = before is not None and now is not None and before.command_id == now.command_id
        for rid in was:
            if rid not in is_ or not same_action:
                out.append({"answered": rid})
        if before is not None and (now is None or not same_action) and not self._decided(before.command_id):
            out.append({"cancelled": True, "command_id": before.command_id})
        opened = [r for rid, r in is_.items() if rid not in was or not same_action]
        if opened:
            out.append({"opened": msgspec.to_builtins(opened)})
        return [ServerSentEventMessage(data=msgspec.json.encode(m).decode(), event="request") for m in out]

    def _decided(self, command_id: str) -> bool:
        return bool(self.store.read_command(self.name, command_id))
