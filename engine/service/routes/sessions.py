"""Sessions: made from a scenario, listed, read (state at any event, the narrated log, a
timeline, an audit), streamed live (Server-Sent Events), exported and imported as JSON lines,
deleted. Their commands are `engine.service.routes.commands`'."""

from __future__ import annotations

import os
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, Router, delete, get, post
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent

from engine.errors import InvalidInput
from engine.service import bodies, models, sessions
from engine.service.context import (
    BYTES,
    JSON_LINES,
    At,
    CommandId,
    Service,
    body_of,
    command_id_of,
    run,
    service_of,
)
from engine.service.stream import follow, start_after
from engine.session.service import SessionService


@get("/", sync_to_thread=True, summary="List the sessions")
def list_sessions(request: Request[Any, Any, Any]) -> models.SessionList:
    """The sessions in the server's database (the CLI's `--db` file): each one's title, ruleset,
    phase, round and who acts now, as `GET /sessions/NAME` gives them."""
    return models.SessionList(sessions=sessions.session_list(service_of(request).sessions))


def _create(service: Service, body: models.NewSession, command_id: str) -> models.CommandResult:
    loaded = bodies.load_any_source(body.scenario)
    seed = body.seed if body.seed is not None else int.from_bytes(os.urandom(4), "little")
    scenario = f"shipped:{body.scenario.name}" if body.scenario.name is not None else "posted"
    started = service.sessions.new(
        body.name, loaded, seed=seed, title=body.title, scenario=scenario, command_id=command_id or None
    )
    if body.played:
        service.sessions.seat(body.name, body.played)
    service.changes.poke()
    return sessions.started_result(started)


@post("/", status_code=201, opt={"body": models.NewSession}, summary="Start a session")
async def new_session(request: Request[Any, Any, Any], command_id: CommandId = None) -> models.CommandResult:
    """Start a session from a shipped scenario (by name) or a posted document, as `ua session new`.
    The scenario is stored in the session's log (forks take their tactics from it)."""
    body = await body_of(request, models.NewSession)
    return await run(_create, service_of(request), body, command_id_of(command_id))


@get("/{name:str}", sync_to_thread=True, summary="Get a session")
def session_info(request: Request[Any, Any, Any], name: FromPath[str]) -> models.SessionInfo:
    """A session's version, title, ruleset, phase, round and who acts now."""
    return sessions.session_info(name, *service_of(request).sessions.now(name))


@delete("/{name:str}", status_code=204, sync_to_thread=True, summary="Delete a session")
def delete_session(request: Request[Any, Any, Any], name: FromPath[str]) -> None:
    """Delete a whole session (every event of it)."""
    service_of(request).sessions.delete(name)


@get("/{name:str}/state", sync_to_thread=True, summary="Get a session's state")
def session_state(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    at: At = None,
) -> models.StateView:
    """The state folded from the log: now, or right after event `at` (0: before the first)."""
    return sessions.state_view(name, *service_of(request).sessions.now(name, at=at), at)


@get("/{name:str}/log", sync_to_thread=True, summary="Get a session's narrated log")
def session_log(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    combatant: Annotated[str | None, QueryParameter(required=False, max_length=64)] = None,
    round_: Annotated[int | None, QueryParameter(name="round", ge=0, required=False)] = None,
) -> models.LogView:
    """The narrated log: each event's explanation with rule ids, checks with exact odds, undone
    and superseded work marked `struck` with what did it."""
    return sessions.log_view(name, service_of(request).sessions.records(name), combatant=combatant, round_=round_)


@get("/{name:str}/timeline", sync_to_thread=True, summary="Get a session's timeline")
def session_timeline(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Timeline:
    """Every combatant's wounds and gauges after each event, for a chart over the fight."""
    return sessions.timeline_view(name, service_of(request).sessions.records(name))


@get("/{name:str}/audit", sync_to_thread=True, summary="Audit a session")
def audit(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Audit:
    """As `ua audit`: luck against the exact odds, the dice's fairness, and a re-decision check."""
    return sessions.audit_view(name, service_of(request).sessions.records(name))


@get(
    "/{name:str}/export",
    sync_to_thread=True,
    media_type=JSON_LINES,
    opt={"response_media": (JSON_LINES, BYTES)},
    summary="Export a session's log",
)
def export(request: Request[Any, Any, Any], name: FromPath[str]) -> Response[bytes]:
    """The session's log as JSON lines (a replay file, as `ua session export` writes); the same
    bytes as `application/octet-stream` to a client that accepts only that."""
    data = sessions.exported(service_of(request).sessions, name)
    accepted = request.headers.get("accept", "")
    return Response(
        data,
        media_type=BYTES if BYTES in accepted and JSON_LINES not in accepted else JSON_LINES,
        headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"'},
    )


async def log_text(request: Request[Any, Any, Any]) -> bytes:
    """A posted log: the body itself (JSON lines), or the `log` of an `ImportLog`."""
    raw = await request.body()
    if request.headers.get("content-type", "").startswith((JSON_LINES, "application/jsonl")):
        return raw
    return bodies.decode_body(raw, models.ImportLog).log.encode()


#: What a route taking a log (`log_text`) declares: its bodies, and its larger size limit.
TAKES_LOG: dict[str, Any] = {
    "status_code": 201,
    "opt": {"body": models.ImportLog, "body_media": (JSON_LINES,)},
    "request_max_body_size": models.MAX_LOG_BODY,
}


@post("/{name:str}/import", summary="Import a log as a new session", **TAKES_LOG)
async def import_log(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Imported:
    """A JSON-lines log into a new session named `name` (it must fold cleanly first)."""
    try:
        msgspec.convert(name, models.SessionName)
    except msgspec.ValidationError:
        raise InvalidInput(
            f"not a session name: {name!r}", where="name", hint="letters, digits, _ . - (up to 64)"
        ) from None
    data = await log_text(request)
    service = service_of(request)
    result = await run(imported, service.sessions, name, data)
    service.changes.poke()
    return result


def imported(into: SessionService, name: str, data: bytes) -> models.Imported:
    """A posted JSON-lines log into a new session, as `ua session import` (its re-run check)."""
    records, command_ids = sessions.read_jsonl(data)
    count = into.import_records(name, records, command_ids, source="log")
    return models.Imported(session=name, version=count, events=count)


@get("/{name:str}/events", summary="Follow a session's events live")
async def events(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    after: Annotated[int | None, QueryParameter(ge=0, required=False, description="Start after event N.")] = None,
    last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", required=False, max_length=20)] = None,
) -> ServerSentEvent:
    """The session's events as Server-Sent Events (`id` is the position), the ones already there
    and then each new one as it is written, by this API or the CLI. Resumable: `Last-Event-ID`."""
    service = service_of(request)
    await run(service.sessions.now, name)  # 404 for no such session, before the stream starts
    start = start_after(last_event_id, after)
    return ServerSentEvent(
        follow(service.store, service.changes, name, start, until=lambda: service.closed),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


ROUTER = Router(
    path="/sessions",
    route_handlers=[
        list_sessions,
        new_session,
        session_info,
        delete_session,
        session_state,
        session_log,
        session_timeline,
        audit,
        export,
        import_log,
        events,
    ],
    tags=["sessions"],
)
