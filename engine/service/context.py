"""What every route shares: the server's configuration and state (`Service`: the session service
over the SQLite file, the event stream's watcher, the jobs, the replays), and the few steps of
every handler — its body decoded by the engine's own types, its `Command-Id`, blocking work in a
worker thread."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from litestar import Request
from litestar.params import FromPath, HeaderParameter, QueryParameter

from engine.errors import NotFound
from engine.service import bodies, sessions
from engine.service.guard import check_token
from engine.service.jobs import Jobs
from engine.service.stream import Changes
from engine.session.service import SessionService
from engine.store.base import COMMAND_ID_PATTERN, check_command_id
from engine.store.sqlite import SqliteStore

T = TypeVar("T")

#: The largest request body (a scenario document is at most 1 MiB; a log to import, more).
MAX_BODY = 2 * 1024 * 1024
#: Replays (dropped files) kept in memory for the viewer, the oldest forgotten first.
MAX_REPLAYS = 16
#: A log's media types: JSON lines, or the same bytes for a client that takes only bytes.
JSON_LINES = "application/x-ndjson"
BYTES = "application/octet-stream"
CommandId = Annotated[
    str | None,
    HeaderParameter(
        name="Command-Id",
        required=False,
        min_length=1,
        max_length=128,
        pattern=f"^{COMMAND_ID_PATTERN.pattern}$",
        description=(
            "The caller's id of this command (1–128 of A-Z a-z 0-9 . _ : -): the same id again is a retry,"
            " answered with what the command recorded (`retry: true`); nothing new is written."
        ),
    ),
]


#: `?at=N`: a state as it was right after event N (0: before the first).
At = Annotated[int | None, QueryParameter(ge=0, required=False, description="As it was right after event N.")]


#: The handlers' names of the headers they read → the headers' own names (what an error names).
HEADERS = {"command_id": "Command-Id", "last_event_id": "Last-Event-ID"}


@dataclass
class ServiceConfig:
    """What `ua serve` was started with."""

    db: Path
    token: str | None = None
    max_body: int = MAX_BODY
    state: dict[str, Any] = field(default_factory=dict)
    #: Names an in-process test client gives itself and the server, answered as this machine
    #: (the tests set them; `ua serve` never does).
    in_process: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.token is not None:
            check_token(self.token, where="ServiceConfig.token")


class Service:
    """What the handlers share: the sessions, the replays, the jobs, the stream watcher."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        #: Where the server keeps its files, never named in an answer (`without_folders`).
        self.folders = (config.db.absolute().parent, config.db.resolve().parent, bodies.SHIPPED.parent)
        self.store = SqliteStore(config.db)
        self.sessions = SessionService(self.store, front=sessions.HTTP)
        self.changes = Changes(self.store)
        self.jobs = Jobs(folders=self.folders)
        self.replays: OrderedDict[str, SessionService] = OrderedDict()
        #: set when the app shuts down: the event streams end
        self.closed = False

    def replay(self, replay_id: FromPath[str]) -> SessionService:
        found = self.replays.get(replay_id)
        if found is None:
            raise NotFound(f"no replay {replay_id!r}", where=replay_id, hint="POST /replays with the log first")
        return found

    def close(self) -> None:
        self.changes.stop()
        self.jobs.close()
        self.store.close()


def service_of(request: Request[Any, Any, Any]) -> Service:
    service: Service = request.app.state.service
    return service


async def run(fn: Callable[..., T], *args: Any) -> T:
    return await anyio.to_thread.run_sync(fn, *args)


async def body_of(request: Request[Any, Any, Any], type_: type[T]) -> T:
    return bodies.decode_body(await request.body(), type_)


def command_id_of(value: str | None) -> str:
    """The Command-Id header's id ("" when not given: the session layer makes a fresh one)."""
    if value is None:
        return ""
    return check_command_id(value, where="Command-Id")
