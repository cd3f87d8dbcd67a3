"""The application: `create_app(config)` builds the Litestar app of `ua serve`.

Every handler decodes its body with the engine's own types (`bodies.decode_body`), makes one call
of the session service (`SessionService`, the CLI's too, with the API's `Front`) or of
`engine.simulate` through `Jobs`, and answers with a struct from `models` (made by
`engine.service.sessions`). Blocking work runs in worker threads; errors leave as `ErrorBody`."""

from __future__ import annotations

import os
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio.to_thread
import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.exceptions import HTTPException
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import File, ServerSentEvent
from litestar.static_files import create_static_files_router

from engine.dice.checks import CheckSpec, roll_check
from engine.dice.odds import exact_odds
from engine.dice.source import SeededDice, TableDice
from engine.errors import EngineError, InvalidInput, NotFound
from engine.events.checks import CheckRolled
from engine.rules.registry import available
from engine.scenario.checks import check_sheets, creation_findings, tier_of
from engine.scenario.files import FileError
from engine.scenario.ua3_scenario import LoadedUa3Scenario
from engine.service import bodies, models, sessions
from engine.service.errors import (
    ServiceError,
    error_body,
    headers_for,
    http_error,
    unexpected,
    without_folders,
)
from engine.service.guard import Guard, check_token
from engine.service.jobs import Jobs
from engine.service.openapi import CorrectedSchema
from engine.service.stream import Changes, follow, start_after
from engine.session.service import SessionService
from engine.simulate.pool import clamp_workers
from engine.store.base import COMMAND_ID_PATTERN, check_command_id
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

T = TypeVar("T")

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body (a scenario document is at most 1 MiB; a log to import, more).
MAX_BODY = 2 * 1024 * 1024
MAX_LOG_BODY = 32 * 1024 * 1024
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

    def replay(self, replay_id: FromPath[str]) -> SessionService:
        found = self.replays.get(replay_id)
        if found is None:
            raise NotFound(f"no replay {replay_id!r}", where=replay_id, hint="POST /replays with the log first")
        return found

    def close(self) -> None:
        self.changes.stop()
        self.jobs.close()
        self.store.close()


def _service(request: Request[Any, Any, Any]) -> Service:
    service: Service = request.app.state.service
    return service


async def run(fn: Callable[..., T], *args: Any) -> T:
    return await anyio.to_thread.run_sync(fn, *args)


async def body_of(request: Request[Any, Any, Any], type_: type[T]) -> T:
    return bodies.decode_body(await request.body(), type_)


def _command_id(value: str | None) -> str:
    """The Command-Id header's id ("" when not given: the session layer makes a fresh one)."""
    if value is None:
        return ""
    return check_command_id(value, where="Command-Id")


# -- the service itself -----------------------------------------------------------------------


@get("/health", sync_to_thread=False)
def health(request: Request[Any, Any, Any]) -> models.Health:
    """Whether the server is up, its version, the rulesets it knows, and whether it wants a token."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        engine_version = version("ua-engine")
    except PackageNotFoundError:  # pragma: no cover
        engine_version = "0"
    return models.Health(
        ok=True, version=engine_version, rulesets=list(available()), auth=_service(request).config.token is not None
    )


# -- shipped scenarios, validation, odds and checks -------------------------------------------


@get("/scenarios", sync_to_thread=True)
def list_scenarios() -> models.ShippedScenarios:
    """The shipped scenarios, by name (what `scenario.name` takes)."""
    out = []
    for name in bodies.shipped_names():
        try:
            loaded = bodies.load_any_source(models.ScenarioSource(name=name))
        except EngineError:
            continue
        out.append(
            models.ShippedScenario(
                name=name,
                title=loaded.scenario.title,
                ruleset=loaded.scenario.ruleset,
                description=loaded.scenario.description,
                combatants=[f.id for f in loaded.fighters],
            )
        )
    return models.ShippedScenarios(scenarios=out)


@get("/scenarios/{name:str}", sync_to_thread=True)
def shipped_scenario(name: FromPath[str]) -> models.ShippedDocument:
    """A shipped scenario as one document (its sheets inline), to change and post back."""
    return models.ShippedDocument(name=name, document=bodies.inlined(name))


@get("/scenarios/{folder:str}/{name:str}", sync_to_thread=True)
def shipped_scenario_in(folder: FromPath[str], name: FromPath[str]) -> models.ShippedDocument:
    """A shipped scenario of a ruleset's own folder (`ua3/the-hollow-church`), as one document."""
    return models.ShippedDocument(name=f"{folder}/{name}", document=bodies.inlined(f"{folder}/{name}"))


def _findings_of(exc: FileError) -> list[models.Finding]:
    return [models.Finding(path=exc.json_path or "$", message=exc.reason, hint=exc.hint)]


def _validate_scenario(source: models.ScenarioSource) -> models.Validation:
    try:
        loaded = bodies.load_any_source(source)
    except FileError as exc:
        return models.Validation(ok=False, kind="scenario", findings=_findings_of(exc))
    if isinstance(loaded, LoadedUa3Scenario):  # its sheets were checked as they loaded (U-1)
        return models.Validation(
            ok=True,
            kind="scenario",
            findings=[],
            summary={
                "title": loaded.scenario.title,
                "ruleset": loaded.scenario.ruleset,
                "sides": list(loaded.sides),
                "players": loaded.players,
                "combatants": [{"id": f.id} for f in loaded.fighters],
            },
        )
    checks = check_sheets(loaded, None)
    findings = [
        models.Finding(path=f.path, message=f"{c.combatant}: {f.message} ({f.rule})", severity=f.severity)
        for c in checks
        for f in c.findings
    ]
    return models.Validation(
        ok=not any(f.severity == "error" for f in findings),
        kind="scenario",
        findings=findings,
        summary={
            "title": loaded.scenario.title,
            "ruleset": loaded.scenario.ruleset,
            "sides": list(loaded.sides),
            "players": loaded.players,
            "combatants": [{"id": c.combatant, "tier": c.tier, "tier_from": c.tier_from} for c in checks],
        },
    )


def _validate_sheet(source: models.SheetSource) -> models.Validation:
    try:
        sheet = bodies.load_sheet_source(source)
    except FileError as exc:
        return models.Validation(ok=False, kind="sheet", findings=_findings_of(exc))
    if source.tier is not None and source.tier not in ("beginner", "seasoned", "experienced"):
        raise InvalidInput(f"no tier {source.tier!r}", where="$.tier", hint="beginner, seasoned or experienced")
    if source.tier is not None or sheet.tier is not None:
        chosen = source.tier or sheet.tier
        found = creation_findings(sheet, chosen)  # type: ignore[arg-type]
        tier_from = "tier" if source.tier else "sheet"
    else:
        chosen, tier_from, found = tier_of(sheet, None, scenario_catalog_default())
    findings = [models.Finding(path=f.path, message=f"{f.message} ({f.rule})", severity=f.severity) for f in found]
    return models.Validation(
        ok=not any(f.severity == "error" for f in findings),
        kind="sheet",
        findings=findings,
        summary={"name": sheet.name, "tier": chosen, "tier_from": tier_from},
    )


def scenario_catalog_default() -> dict[str, Any]:
    from engine.catalog import weapon_catalog

    return dict(weapon_catalog())


@post("/validate/scenario", status_code=200, opt={"body": models.ScenarioSource})
async def validate_scenario(request: Request[Any, Any, Any]) -> models.Validation:
    """Check a scenario as `ua scenario check` does (its sheets against the creation rules): the
    same messages at the same `$.path`. A document that cannot be loaded is `ok: false`."""
    source = await body_of(request, models.ScenarioSource)
    return await run(_validate_scenario, source)


@post("/validate/sheet", status_code=200, opt={"body": models.SheetSource})
async def validate_sheet(request: Request[Any, Any, Any]) -> models.Validation:
    """Check a character sheet as `ua character check` does."""
    source = await body_of(request, models.SheetSource)
    return await run(_validate_sheet, source)


def _spec_checked(spec: CheckSpec) -> CheckSpec:
    """What `ua odds` and `ua check` refuse before rolling (C-4: a significant check's weak band)."""
    if spec.untrained and spec.stat is None and spec.rating == 0:
        raise InvalidInput("an untrained check needs the stat used", where="$.stat", hint="give stat")
    if spec.kind == "significant" and not spec.untrained and spec.stat is None:
        raise InvalidInput(
            "a significant check needs the skill's tied stat for its weak band (C-4)",
            where="$.stat",
            hint="give stat; for a stat rolled directly, give it as both rating and stat",
        )
    return spec


def _odds(spec: CheckSpec) -> models.Odds:
    spec = _spec_checked(spec)
    odds = exact_odds(spec)
    wins = ("crit", "matched_success", "success", "weak_success")
    return models.Odds(
        spec=spec,
        target=spec.target,
        rolled=not spec.automatic,
        odds={name: float(p) for name, p in odds.items()},
        exact={name: f"{int(p * 100)}/100" for name, p in odds.items()},
        success=float(sum((p for n, p in odds.items() if n in wins), Fraction(0))),
    )


@post("/odds", status_code=200, opt={"body": CheckSpec})
async def odds(request: Request[Any, Any, Any]) -> models.Odds:
    """Exact odds of every outcome class of a check (C-13), as `ua odds`."""
    return _odds(await body_of(request, CheckSpec))


def _check(body: models.CheckRequest) -> models.CheckOutcome:
    spec = _spec_checked(body.spec)
    if body.flipped and not spec.flip:
        raise InvalidInput(
            "`flipped` needs a spec with flip", where="$.flipped", hint="only obsession or passion rolls flip"
        )
    source: TableDice | SeededDice
    if body.dice:
        if len(body.dice) != 2 or not all(0 <= d <= 9 for d in body.dice):
            raise InvalidInput("a percentile roll is two faces 0–9, tens first", where="$.dice", hint="[5, 2]")
        if spec.automatic:
            spec = msgspec.structs.replace(spec, roll_anyway=True)
        source = TableDice(body.dice)
    else:
        source = SeededDice(body.seed if body.seed is not None else int.from_bytes(os.urandom(4), "little"))
    result = roll_check(spec, source, flipped=body.flipped)
    roll = result.roll
    return models.CheckOutcome(
        spec=result.spec,
        target=result.spec.target,
        outcome=result.outcome,
        success=result.success,
        value=result.value,
        dice=None if roll is None else [roll.tens, roll.ones],
        flipped=False if roll is None else roll.flipped,
        matched=False if roll is None else roll.is_matched,
        explanation=CheckRolled(result=result).explain(),
        seed=source.seed if isinstance(source, SeededDice) else None,
    )


@post("/checks", status_code=200, opt={"body": models.CheckRequest})
async def check(request: Request[Any, Any, Any]) -> models.CheckOutcome:
    """Resolve one check from table dice or the seeded source, as `ua check`."""
    return _check(await body_of(request, models.CheckRequest))


# -- sessions ---------------------------------------------------------------------------------


@get("/sessions", sync_to_thread=True, name="list_sessions")
def list_sessions(request: Request[Any, Any, Any]) -> models.SessionList:
    """The sessions in the server's database (the CLI's `--db` file): each one's title, ruleset,
    phase, round and who acts now, as `GET /sessions/NAME` gives them."""
    return models.SessionList(sessions=sessions.session_list(_service(request).sessions))


def _create(service: Service, body: models.NewSession, command_id: str) -> models.CommandResult:
    loaded = bodies.load_any_source(body.scenario)
    seed = body.seed if body.seed is not None else int.from_bytes(os.urandom(4), "little")
    scenario = f"shipped:{body.scenario.name}" if body.scenario.name is not None else "posted"
    started = service.sessions.new(
        body.name, loaded, seed=seed, title=body.title, scenario=scenario, command_id=command_id or None
    )
    service.changes.poke()
    return sessions.started_result(started)


@post("/sessions", status_code=201, opt={"body": models.NewSession})
async def new_session(request: Request[Any, Any, Any], command_id: CommandId = None) -> models.CommandResult:
    """Start a session from a shipped scenario (by name) or a posted document, as `ua session new`.
    The scenario is stored in the session's log (forks take their tactics from it)."""
    body = await body_of(request, models.NewSession)
    cid = _command_id(command_id)
    return await run(_create, _service(request), body, cid)


@get("/sessions/{name:str}", sync_to_thread=True, name="session_info")
def session_info(request: Request[Any, Any, Any], name: FromPath[str]) -> models.SessionInfo:
    """A session's version, phase, round and who acts now."""
    return sessions.session_info(name, *_service(request).sessions.now(name))


@delete("/sessions/{name:str}", status_code=204, sync_to_thread=True)
def delete_session(request: Request[Any, Any, Any], name: FromPath[str]) -> None:
    """Delete a whole session (every event of it)."""
    _service(request).sessions.delete(name)


@get("/sessions/{name:str}/state", sync_to_thread=True)
def session_state(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    at: Annotated[
        int | None, QueryParameter(ge=0, required=False, description="As it was right after event N.")
    ] = None,
) -> models.StateView:
    """The state folded from the log: now, or right after event `at` (0: before the first)."""
    return sessions.state_view(name, *_service(request).sessions.now(name, at=at), at)


@get("/sessions/{name:str}/log", sync_to_thread=True)
def session_log(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    combatant: Annotated[str | None, QueryParameter(required=False, max_length=64)] = None,
    round_: Annotated[int | None, QueryParameter(name="round", ge=0, required=False)] = None,
) -> models.LogView:
    """The narrated log: each event's explanation with rule ids, checks with exact odds, undone
    and superseded work marked `struck` with what did it."""
    return sessions.log_view(name, _service(request).sessions.records(name), combatant=combatant, round_=round_)


@get("/sessions/{name:str}/timeline", sync_to_thread=True)
def session_timeline(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Timeline:
    """Every combatant's wounds and gauges after each event, for a chart over the fight."""
    return sessions.timeline_view(name, _service(request).sessions.records(name))


@post("/sessions/{name:str}/commands", status_code=200, opt={"body": models.Execute})
async def execute(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Run any command of the engine (the `command` union, tagged by `command`). With
    `expected_version`, a session that moved on answers 409 with its current version."""
    body = await body_of(request, models.Execute)
    service = _service(request)
    cid = _command_id(command_id)
    done = await run(
        lambda: service.sessions.execute(name, body.command, expected=body.expected_version, command_id=cid or None)
    )
    service.changes.poke()
    return sessions.command_result(done, cid)


@post("/sessions/{name:str}/npc", status_code=200, opt={"body": models.Npc, "body_required": False})
async def npc(request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None) -> models.NpcResult:
    """The NPCs act by their tactics (`ua session npc`): their responses due now, then whoever's
    turn it is (or `actor`), or with `all` until a player's turn. A tactic the rules refuse
    becomes doing nothing, and the turn says why. With a `Command-Id`, a retry redoes nothing."""
    raw = await request.body()
    body = bodies.decode_body(raw, models.Npc) if raw.strip() else models.Npc()
    service = _service(request)
    cid = _command_id(command_id)
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
    request: Request[Any, Any, Any], name: FromPath[str], what: str, command_id: str | None
) -> models.CommandResult:
    raw = await request.body()
    body = bodies.decode_body(raw, models.Marker) if raw.strip() else models.Marker()
    service = _service(request)
    cid = _command_id(command_id)
    mark = service.sessions.undo if what == "undo" else service.sessions.redo
    done = await run(lambda: mark(name, expected=body.expected_version, command_id=cid or None))
    service.changes.poke()
    return sessions.command_result(done, cid)


@post("/sessions/{name:str}/undo", status_code=200, opt={"body": models.Marker, "body_required": False})
async def undo(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Undo the latest command that counts (its events stay in the log, struck out)."""
    return await _marker(request, name, "undo", command_id)


@post("/sessions/{name:str}/redo", status_code=200, opt={"body": models.Marker, "body_required": False})
async def redo(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Redo the most recently undone command."""
    return await _marker(request, name, "redo", command_id)


@post("/sessions/{name:str}/amend", status_code=200, opt={"body": models.Amend})
async def amend(
    request: Request[Any, Any, Any], name: FromPath[str], command_id: CommandId = None
) -> models.CommandResult:
    """Replace command `number` with a corrected one; later commands re-resolve with their dice.
    `changes` says what differs per combatant; `superseded` lists the events replaced."""
    body = await body_of(request, models.Amend)
    service = _service(request)
    cid = _command_id(command_id)
    done = await run(
        lambda: service.sessions.amend(
            name, body.number, body.command, note=body.note, expected=body.expected_version, command_id=cid or None
        )
    )
    service.changes.poke()
    return sessions.command_result(done, cid)


@get(
    "/sessions/{name:str}/export",
    sync_to_thread=True,
    media_type=JSON_LINES,
    opt={"response_media": (JSON_LINES, BYTES)},
)
def export(request: Request[Any, Any, Any], name: FromPath[str]) -> Response[bytes]:
    """The session's log as JSON lines (a replay file, as `ua session export` writes); the same
    bytes as `application/octet-stream` to a client that accepts only that."""
    from engine.store.jsonl import log_lines

    data = b"".join(log_lines(_service(request).sessions.export(name)))
    accepted = request.headers.get("accept", "")
    return Response(
        data,
        media_type=BYTES if BYTES in accepted and JSON_LINES not in accepted else JSON_LINES,
        headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"'},
    )


class ImportLog(models.Request, frozen=True):
    """A JSON-lines log (as `ua session export` writes it), as text."""

    log: Annotated[str, msgspec.Meta(max_length=MAX_LOG_BODY)]


async def _log_text(request: Request[Any, Any, Any]) -> bytes:
    raw = await request.body()
    if request.headers.get("content-type", "").startswith((JSON_LINES, "application/jsonl")):
        return raw
    return bodies.decode_body(raw, ImportLog).log.encode()


@post(
    "/sessions/{name:str}/import",
    status_code=201,
    opt={"body": ImportLog, "body_media": (JSON_LINES,)},
    request_max_body_size=MAX_LOG_BODY,
)
async def import_log(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Imported:
    """A JSON-lines log into a new session named `name` (it must fold cleanly first)."""
    models_name = msgspec.convert(name, models.SessionName) if _valid_name(name) else None
    if models_name is None:
        raise InvalidInput(f"not a session name: {name!r}", where="name", hint="letters, digits, _ . - (up to 64)")
    data = await _log_text(request)
    service = _service(request)
    result = await run(_import, service.sessions, name, data)
    service.changes.poke()
    return result


def _import(into: SessionService, name: str, data: bytes) -> models.Imported:
    """A posted JSON-lines log into a new session, as `ua session import` (its re-run check)."""
    records, command_ids = sessions.read_jsonl(data)
    count = into.import_records(name, records, command_ids, source="log")
    return models.Imported(session=name, version=count, events=count)


def _valid_name(name: FromPath[str]) -> bool:
    try:
        msgspec.convert(name, models.SessionName)
    except msgspec.ValidationError:
        return False
    return True


@get("/sessions/{name:str}/audit", sync_to_thread=True)
def audit(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Audit:
    """As `ua audit`: luck against the exact odds, the dice's fairness, and a re-decision check."""
    return sessions.audit_view(name, _service(request).sessions.records(name))


@post("/sessions/{name:str}/fork", status_code=202, opt={"body": models.Fork})
async def fork(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Job:
    """What if: fight the rest from event `at` many times, as a job (`ua session fork --simulate`)."""
    body = await body_of(request, models.Fork)
    service = _service(request)
    state, loaded = await run(service.sessions.fork_point, name, body.at)
    workers = clamp_workers(body.workers)  # silently: more processes than CPUs only share them
    return service.jobs.start("fork", (state, loaded, body.simulate, body.seed, workers, body.at), body.simulate)


@get("/sessions/{name:str}/events")
async def events(
    request: Request[Any, Any, Any],
    name: FromPath[str],
    after: Annotated[int | None, QueryParameter(ge=0, required=False, description="Start after event N.")] = None,
    last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", required=False, max_length=20)] = None,
) -> ServerSentEvent:
    """The session's events as Server-Sent Events (`id` is the position), the ones already there
    and then each new one as it is written, by this API or the CLI. Resumable: `Last-Event-ID`."""
    service = _service(request)
    await run(service.sessions.now, name)  # 404 for no such session, before the stream starts
    start = start_after(last_event_id, after)
    return ServerSentEvent(
        follow(service.store, service.changes, name, start, until=lambda: service.state_closed),  # type: ignore[attr-defined]
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# -- batch simulations and jobs ---------------------------------------------------------------


@post("/simulations", status_code=202, opt={"body": models.Simulation})
async def simulate(request: Request[Any, Any, Any]) -> models.Job:
    """A batch of fights as a job (`ua simulate`): poll `/jobs/ID`, then `/jobs/ID/result`."""
    body = await body_of(request, models.Simulation)
    loaded = await run(bodies.load_source, body.scenario)
    workers = clamp_workers(body.workers)  # silently: more processes than CPUs only share them
    return _service(request).jobs.start("simulation", (loaded, body.n, body.seed, workers), body.n)


@get("/jobs", sync_to_thread=False)
def list_jobs(request: Request[Any, Any, Any]) -> models.JobList:
    return models.JobList(jobs=_service(request).jobs.list())


@get("/jobs/{job_id:str}", sync_to_thread=False)
def job(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.Job:
    """A job's state and progress (fights done of those requested)."""
    return _service(request).jobs.get(job_id)


@get("/jobs/{job_id:str}/result", sync_to_thread=False)
def job_result(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.JobResult:
    """The report of a finished (or cancelled: partial) job, as `ua simulate --json` prints it."""
    return _service(request).jobs.result(job_id)


@delete("/jobs/{job_id:str}", status_code=200, sync_to_thread=False)
def cancel_job(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.Job:
    """Cancel a running job; the fights it finished make its (partial) report."""
    return _service(request).jobs.cancel(job_id)


# -- replays: a dropped JSON-lines file, for the viewer ---------------------------------------


def _new_replay(service: Service, data: bytes) -> models.Imported:
    replay_id = secrets.token_hex(8)
    replay = SessionService(MemoryStore(), front=sessions.HTTP)
    result = _import(replay, replay_id, data)
    service.replays[replay_id] = replay
    while len(service.replays) > MAX_REPLAYS:
        service.replays.popitem(last=False)
    return result


@post(
    "/replays",
    status_code=201,
    opt={"body": ImportLog, "body_media": (JSON_LINES,)},
    request_max_body_size=MAX_LOG_BODY,
)
async def new_replay(request: Request[Any, Any, Any]) -> models.Imported:
    """Keep a JSON-lines log in memory to look at (its `session` is the replay's id)."""
    data = await _log_text(request)
    return await run(_new_replay, _service(request), data)


@get("/replays/{replay_id:str}/state", sync_to_thread=True)
def replay_state(
    request: Request[Any, Any, Any],
    replay_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(ge=0, required=False)] = None,
) -> models.StateView:
    return sessions.state_view(replay_id, *_service(request).replay(replay_id).now(replay_id, at=at), at)


@get("/replays/{replay_id:str}/log", sync_to_thread=True)
def replay_log(request: Request[Any, Any, Any], replay_id: FromPath[str]) -> models.LogView:
    records = _service(request).replay(replay_id).records(replay_id)
    return sessions.log_view(replay_id, records, combatant=None, round_=None)


@get("/replays/{replay_id:str}/timeline", sync_to_thread=True)
def replay_timeline(request: Request[Any, Any, Any], replay_id: FromPath[str]) -> models.Timeline:
    return sessions.timeline_view(replay_id, _service(request).replay(replay_id).records(replay_id))


# -- the viewer -------------------------------------------------------------------------------


@get("/", include_in_schema=False, sync_to_thread=False)
def index() -> File:
    return File(STATIC / "index.html", content_disposition_type="inline", media_type="text/html")


@get("/favicon.ico", include_in_schema=False, sync_to_thread=False, status_code=204)
def favicon() -> None:
    return None


# -- errors -----------------------------------------------------------------------------------


def _engine_error(request: Request[Any, Any, Any], exc: EngineError) -> Response[Any]:
    body = without_folders(error_body(exc), _service(request).folders)
    if isinstance(exc, FileError) and exc.json_path:
        body = msgspec.structs.replace(body, where=exc.json_path)
    return Response(body, status_code=body.status, headers=headers_for(body))


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if status >= 500:
        return _other_error(request, exc)
    message = str(exc.detail or "")
    where = ""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if extra and isinstance(extra[0], dict):  # Litestar's parameter validation: which one, and why
        first = extra[0]
        where = HEADERS.get(str(first.get("key", "")), str(first.get("key", "")))
        message = f"{message}: {first.get('message', '')}".strip(": ")
    body = msgspec.structs.replace(http_error(status, message or "the request was refused"), where=where)
    # Litestar's own headers stay: a 405's `Allow` (RFC 9110 §15.5.6) names the route's methods
    return Response(body, status_code=status, headers={**(exc.headers or {}), **headers_for(body)})


def _other_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    body = unexpected(exc, str(request.url.path))
    return Response(body, status_code=500)


ROUTES = [
    health,
    list_scenarios,
    shipped_scenario,
    shipped_scenario_in,
    validate_scenario,
    validate_sheet,
    odds,
    check,
    list_sessions,
    new_session,
    session_info,
    delete_session,
    session_state,
    session_log,
    session_timeline,
    execute,
    undo,
    redo,
    npc,
    amend,
    export,
    import_log,
    audit,
    fork,
    events,
    simulate,
    list_jobs,
    job,
    job_result,
    cancel_job,
    new_replay,
    replay_state,
    replay_log,
    replay_timeline,
    index,
    favicon,
]
#: The structs the document describes with msgspec's schemas (responses; bodies come from routes).
DOCUMENTED = [
    models.Health,
    models.ShippedScenarios,
    models.ShippedDocument,
    models.Validation,
    models.Odds,
    models.CheckOutcome,
    models.SessionList,
    models.SessionInfo,
    models.CommandResult,
    models.StateView,
    models.LogView,
    models.Timeline,
    models.Audit,
    models.Imported,
    models.Job,
    models.JobList,
    models.JobResult,
]


def create_app(config: ServiceConfig) -> Litestar:
    """The `ua serve` application over the SQLite file `config.db`."""
    service = Service(config)

    async def started(app: Litestar) -> None:
        service.state_closed = False  # type: ignore[attr-defined]
        service.changes.start()

    async def stopped(app: Litestar) -> None:
        service.state_closed = True  # type: ignore[attr-defined]
        service.close()

    service.state_closed = False  # type: ignore[attr-defined]
    app = Litestar(
        route_handlers=[
            *ROUTES,
            create_static_files_router(path="/viewer", directories=[STATIC], include_in_schema=False),
        ],
        exception_handlers={
            EngineError: _engine_error,
            HTTPException: _http_error,
            Exception: _other_error,
        },
        middleware=[DefineMiddleware(Guard, token=config.token, in_process=config.in_process)],  # type: ignore[arg-type]
        openapi_config=OpenAPIConfig(
            title="Unknown Armies encounter engine",
            version="1",
            description="Sessions, commands, live event streams, odds, validation and batch simulations.",
            path="/schema",
            render_plugins=[CorrectedSchema(DOCUMENTED)],
            use_handler_docstrings=True,
        ),
        request_max_body_size=config.max_body,
        on_startup=[started],
        on_shutdown=[stopped],
        debug=False,
    )
    app.state.service = service
    return app


__all__ = ["ServiceConfig", "ServiceError", "create_app"]
