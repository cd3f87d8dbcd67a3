"""Replays: a dropped JSON-lines file kept in memory for the viewer (the newest `MAX_REPLAYS`),
read like a session: its state at any event, its narrated log, its timeline."""

from __future__ import annotations

import secrets
from typing import Any

from litestar import Request, Router, get, post
from litestar.params import FromPath

from engine.service import models, sessions
from engine.service.context import MAX_REPLAYS, At, Service, run, service_of
from engine.service.routes.sessions import TAKES_LOG, imported, log_text
from engine.session.service import SessionService
from engine.store.memory import MemoryStore


def _new_replay(service: Service, data: bytes) -> models.Imported:
    replay_id = secrets.token_hex(8)
    replay = SessionService(MemoryStore(), front=sessions.HTTP)
    result = imported(replay, replay_id, data)
    service.replays[replay_id] = replay
    while len(service.replays) > MAX_REPLAYS:
        service.replays.popitem(last=False)
    return result


@post("/", summary="Keep a log to look at", **TAKES_LOG)
async def new_replay(request: Request[Any, Any, Any]) -> models.Imported:
    """Keep a JSON-lines log in memory to look at (its `session` is the replay's id)."""
    data = await log_text(request)
    return await run(_new_replay, service_of(request), data)


@get("/{replay_id:str}/state", sync_to_thread=True, summary="Get a replay's state")
def replay_state(
    request: Request[Any, Any, Any],
    replay_id: FromPath[str],
    at: At = None,
) -> models.StateView:
    """The replay's state now, or right after event `at` (0: before the first)."""
    return sessions.state_view(replay_id, *service_of(request).replay(replay_id).now(replay_id, at=at), at)


@get("/{replay_id:str}/log", sync_to_thread=True, summary="Get a replay's narrated log")
def replay_log(request: Request[Any, Any, Any], replay_id: FromPath[str]) -> models.LogView:
    """The replay's narrated log, as a session's."""
    records = service_of(request).replay(replay_id).records(replay_id)
    return sessions.log_view(replay_id, records, combatant=None, round_=None)


@get("/{replay_id:str}/timeline", sync_to_thread=True, summary="Get a replay's timeline")
def replay_timeline(request: Request[Any, Any, Any], replay_id: FromPath[str]) -> models.Timeline:
    """Every combatant's wounds and gauges after each event of the replay."""
    return sessions.timeline_view(replay_id, service_of(request).replay(replay_id).records(replay_id))


ROUTER = Router(
    path="/replays", route_handlers=[new_replay, replay_state, replay_log, replay_timeline], tags=["replays"]
)
