"""A session's commands: any command of the engine, undo and redo, an amend of an earlier one,
and the NPCs' turns by their tactics. Each is decided by the session service (`SessionService`),
once per `Command-Id` and, with `expected_version`, only at that version."""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from litestar.params import FromPath

from engine.service import bodies, models, sessions
from engine.service.context import CommandId, body_of, command_id_of, run, service_of


@post("/commands", status_code=200, opt={"body": models.Execute}, summary="Run a command")
async def execute(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Run any command of the engine (the `command` union, tagged by `command`). With
    `expected_version`, a session that moved on answers 409 with its current version."""
    body = await body_of(request, models.Execute)
    service = service_of(request)
    cid = command_id_of(command_id)
    done = await run(
        lambda: service.sessions.execute(name, body.command, expected=body.expected_version, command_id=cid or None)
    )
    service.changes.poke()
    return sessions.command_result(done, cid)


async def _optional(request: Request[Any, Any, Any], type_: type[Any]) -> Any:
    """A body that may be left out (its defaults then)."""
    raw = await request.body()
    return bodies.decode_body(raw, type_) if raw.strip() else type_()


@post(
    "/npc",
    status_code=200,
    opt={"body": models.Npc, "body_required": False},
    summary="Let the NPCs act",
)
async def npc(request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None) -> models.NpcResult:
    """The NPCs act by their tactics (`ua session npc`): their responses due now, then whoever's
    turn it is (or `actor`), or with `all` until a player's turn. A tactic the rules refuse
    becomes doing nothing, and the turn says why. With a `Command-Id`, a retry redoes nothing."""
    body: models.Npc = await _optional(request, models.Npc)
    service = service_of(request)
    cid = command_id_of(command_id)
    turns = await run(
        lambda: service.sessions.npc(
            name,
            body.actor,
            until_player=body.all,
            command_id=cid or None,
            respond=True,
            expected=body.expected_version,
        )
    )
    service.changes.poke()
    return sessions.npc_result(name, turns, *service.sessions.now(name))


async def _marker(
    request: Request[Any, Any, Any], name: str, undo: bool, command_id: str | None
) -> models.CommandResult:
    body: models.Marker = await _optional(request, models.Marker)
    service = service_of(request)
    cid = command_id_of(command_id)
    mark = service.sessions.undo if undo else service.sessions.redo
    done = await run(lambda: mark(name, expected=body.expected_version, command_id=cid or None))
    service.changes.poke()
    return sessions.command_result(done, cid)


#: Undo's and redo's body: a `Marker`, which may be left out.
MARKS: dict[str, Any] = {"status_code": 200, "opt": {"body": models.Marker, "body_required": False}}


@post("/undo", summary="Undo the latest command", **MARKS)
async def undo(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Undo the latest command that counts (its events stay in the log, struck out)."""
    return await _marker(request, name, True, command_id)


@post("/redo", summary="Redo the latest undone command", **MARKS)
async def redo(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Redo the most recently undone command."""
    return await _marker(request, name, False, command_id)


@post("/amend", status_code=200, opt={"body": models.Amend}, summary="Correct an earlier command")
async def amend(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Replace command `number` with a corrected one; later commands re-resolve with their dice.
    `changes` says what differs per combatant; `superseded` lists the events replaced."""
    body = await body_of(request, models.Amend)
    service = service_of(request)
    cid = command_id_of(command_id)
    done = await run(
        lambda: service.sessions.amend(
            name, body.number, body.command, note=body.note, expected=body.expected_version, command_id=cid or None
        )
    )
    service.changes.poke()
    return sessions.command_result(done, cid)


ROUTER = Router(path="/sessions/{name:str}", route_handlers=[execute, npc, undo, redo, amend], tags=["commands"])
