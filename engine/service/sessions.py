"""How the HTTP API meets the session service: its `Front` (how the API words the service's errors,
and that it runs the engine's commands exactly as sent), and the API's structs made from the
service's results and the session's records. No session logic lives here: opening, deciding,
appending, retries by command id, expected versions, undo, redo, amend, import with its re-run
check, export and fork points are `engine.session.service.SessionService`'s, the same the CLI
goes through; narration, audits and timelines are `engine.session`'s.

The service keeps each session open between requests under a lock per session; the store's
expected version decides races with other processes (the CLI writing the same SQLite file).
Command ids are the log's own (law 7): a retry is found in the log itself, so it is one whether
the first try went through this server, another one, or `ua session … --command-id`."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.errors import (
    CommandIdReused,
    ConcurrencyConflict,
    EngineError,
    InvalidInput,
    NotFound,
    Refused,
    TornTail,
    VersionConflict,
)
from engine.events.base import EventBase
from engine.rules.registry import ruleset_of
from engine.service.models import (
    Audit,
    CommandResult,
    EventView,
    Fairness,
    Gauge,
    LogView,
    NpcResult,
    NpcTurnView,
    SessionInfo,
    StateView,
    Timeline,
    TimelinePoint,
)
from engine.service.models import Luck as LuckView
from engine.session.audit import chance, checks_in, chi_square_faces, luck, narrate, table_faces
from engine.session.front import Front
from engine.session.history import Record
from engine.session.service import Amended, Executed, Marked, NpcTurn, SessionService, Started
from engine.session.timeline import states_along
from engine.session.verify import verify

#: Where a combatant's gauges are, by ruleset: madness meters (ua2), shock gauges (ua3).
GAUGE_FIELDS = ("meters", "shock", "gauges")


def event_view(position: int, event: EventBase, round_: int = 0, *, full: bool = True) -> EventView:
    """An event as the API shows it: explanation (rule ids), the exact odds of its checks."""
    odds = "; ".join(f"{who or 'roll'} had {float(chance(r.spec)):.0%}" for who, r in checks_in(event) if r.roll)
    return EventView(
        position=position,
        type=str(type(event).__struct_config__.tag),
        command=event.command,
        round=round_,
        explanation=event.explain(),
        odds=odds,
        event=msgspec.to_builtins(event) if full else None,
    )


def state_json(state: Any) -> dict[str, Any]:
    """The state as its ruleset shows it as JSON (as `ua session state --json`): what is stored,
    and what a GM reads off it (ua2: wound shifts; ua3: wound levels, U-2, and thresholds,
    abilities, whose roll on the gridiron and its spaces, U-16)."""
    return ruleset_of(state).state_json(state)


def turn_of(state: Any) -> str | None:
    return ruleset_of(state).acting_now(state)


def gauges_of(state: Any) -> list[Gauge]:
    """Each combatant's wounds and other gauges, whatever the ruleset's state looks like."""
    out = []
    thresholds = _ua3_thresholds(state) if getattr(state, "ruleset", "") == "ua3" else {}
    for c in msgspec.to_builtins(state.combatants):
        gauges: dict[str, int] = {}
        for name in GAUGE_FIELDS:
            _flatten(c.get(name), name, gauges)
        out.append(
            Gauge(
                id=str(c.get("id", "")),
                wounds=int(c.get("wounds", 0) or 0),
                max_wounds=int(c.get("max_wounds", 0) or thresholds.get(str(c.get("id", "")), 0)),
                status=str(c.get("status", "")),
                gauges=gauges,
            )
        )
    return out


def _ua3_thresholds(state: Any) -> dict[str, int]:
    """A ua3 character's wound threshold (U-2, U-19): what its wounds are counted against."""
    from engine.rules.ua3.abilities import wound_threshold

    default = int(state.settings.wound_threshold)
    return {c.id: wound_threshold(c.sheet, default) for c in state.combatants}


def _flatten(value: Any, prefix: str, into: dict[str, int]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        into[prefix] = value
    elif isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{prefix}.{key}", into)


class HttpFront(Front):
    """The HTTP API as a front end of the session service: commands are the engine's, run as they
    are sent (no names respelled, no NPC declarations made on the client's behalf, a die beyond a
    command's rolls left unread); a state can be asked at event 0; errors name requests and
    `$.path`s, and their status says what they are (a name taken, a command id used for another
    command: 409; a posted log that does not read or re-decide: 400)."""

    table = False
    first_event = 0

    def missing(self, name: str, where: str) -> EngineError:
        return NotFound(f"no session {name!r}", where=name, hint="GET /sessions lists them; POST /sessions makes one")

    def taken(self, name: str, *, importing: bool) -> EngineError:
        hint = "import into a new name" if importing else "pick another name"
        return ConcurrencyConflict(f"session {name!r} already exists", where=name, hint=hint)

    def changed(self, name: str, version: int) -> EngineError:
        return VersionConflict(
            f"session {name!r} changed while this command ran (now at version {version}); nothing was written",
            version=version,
            where=name,
            hint="read the state again and resend",
        )

    def refused(self, name: str, exc: Refused, *, amend: bool) -> Refused:
        return exc

    def reused(self, exc: CommandIdReused) -> EngineError:  # the id of another command: a conflict
        return ConcurrencyConflict(exc.message, where="Command-Id", hint=exc.hint)

    def at_where(self, name: str, *, fork: bool) -> str:
        return "$.at" if fork else "at"

    def bad_log(self, exc: EngineError) -> EngineError:  # a posted log is input: a 400
        return InvalidInput(exc.message, where=exc.where or "$.log", hint=exc.hint)


HTTP = HttpFront()


# -- the API's structs from the service's results ---------------------------------------------


def started_result(started: Started) -> CommandResult:
    """A new session's setup (or, on a retry, what its command id had set up)."""
    return CommandResult(
        session=started.session,
        version=started.version,
        events=[event_view(p, e, full=False) for p, e in enumerate(started.events, start=1)],
        turn=turn_of(started.state),
        command_id=started.command_id,
        retry=started.retried,
    )


def command_result(done: Executed | Marked | Amended, command_id: str) -> CommandResult:
    """What a command, an undo, a redo or an amend wrote (or, on a retry, had written), at the
    positions it stands; `command_id` is the id the client gave ("" when it gave none)."""
    events = done.new_events if isinstance(done, Amended) else done.events
    if isinstance(done, Amended) and done.marker is not None:  # the amend's marker, then what it decided
        events = [done.marker, *events]
    result = CommandResult(
        session=done.session,
        version=done.version,
        events=[event_view(done.first + i, e, done.round) for i, e in enumerate(events)],
        turn=done.turn,
        command_id=command_id,
        retry=done.retried,
    )
    if isinstance(done, Marked):
        return msgspec.structs.replace(result, changes=done.changes)
    if isinstance(done, Amended):
        superseded = [e for e in done.old_events if type(e).__name__ != "CommandRecorded"]
        return msgspec.structs.replace(
            result, changes=done.changes, superseded=[event_view(0, e, full=False) for e in superseded]
        )
    return result


def npc_result(name: str, turns: Sequence[NpcTurn], version: int, state: Any) -> NpcResult:
    """What `SessionService.npc` did, as the API answers it."""
    views = [
        NpcTurnView(
            npc=t.who,
            refused=t.refused,
            commands=[command_result(done, done.command_id) for done in (t.done, *t.done.then)],
        )
        for t in turns
    ]
    return NpcResult(session=name, version=version, turn=ruleset_of(state).acting_now(state), turns=views)


def session_info(name: str, version: int, state: Any) -> SessionInfo:
    return SessionInfo(
        name=name,
        version=version,
        title=state.title,
        ruleset=state.ruleset,
        phase=state.fight.phase,
        round=state.fight.round,
        turn=turn_of(state),
    )


def session_list(service: SessionService) -> list[SessionInfo]:
    """Every session of the service's store as `session_info` shows it (one deleted meanwhile left out)."""
    out = []
    for name, _ in service.sessions():
        try:
            out.append(session_info(name, *service.now(name)))
        except NotFound:
            continue
    return out


def exported(service: SessionService, name: str) -> bytes:
    """The session's log as JSON lines, as `ua session export` writes a replay file."""
    from engine.store.jsonl import log_lines

    return b"".join(log_lines(service.export(name)))


def state_view(name: str, version: int, state: Any, at: int | None) -> StateView:
    return StateView(
        session=name,
        version=version,
        at=version if at is None else at,
        ruleset=state.ruleset,
        turn=turn_of(state),
        state=state_json(state),
    )


def log_view(name: str, records: Sequence[Record], *, combatant: str | None, round_: int | None) -> LogView:
    lines = narrate(records, combatant=combatant, round_=round_, commands=True)
    return LogView(
        session=name,
        version=len(records),
        lines=[
            EventView(
                position=x.position,
                type=x.type,
                command=x.command,
                round=x.round,
                explanation=x.text,
                odds=x.odds,
                struck=x.struck,
                note=x.note,
            )
            for x in lines
        ],
    )


def timeline_view(name: str, records: Sequence[Record]) -> Timeline:
    along = list(states_along(records))
    points = [
        TimelinePoint(
            position=p,
            round=s.fight.round,
            phase=s.fight.phase,
            turn=turn_of(s),
            combatants=gauges_of(s),
        )
        for p, s in along
    ]
    last = along[-1][1]
    return Timeline(
        session=name, version=len(records), ruleset=last.ruleset, points=points, words=ruleset_of(last).words
    )


def audit_view(name: str, records: Sequence[Record]) -> Audit:
    people = luck(records)
    checked = verify(records)
    fairness = {}
    for label, faces in (
        ("table_dice", table_faces(records)),
        ("all_dice", table_faces(records, only_table=False)),
    ):
        stat, p = chi_square_faces(faces)
        fairness[label] = Fairness(
            faces=len(faces),
            counts=[faces.count(d) for d in range(10)],
            chi_square=round(stat, 4),
            p_value=round(p, 6),
        )
    return Audit(
        session=name,
        version=len(records),
        luck={
            who: LuckView(
                checks=x.checks,
                expected_successes=round(x.expected, 4),
                successes=x.successes,
                difference=round(x.successes - x.expected, 4),
                z=round(x.z, 4),
            )
            for who, x in sorted(people.items())
        },
        fairness=fairness,
        verified=checked.ok,
        mismatch=checked.mismatch,
    )


def read_jsonl(data: bytes) -> tuple[list[Record], list[str]]:
    """The records (and their command ids) of the one stream in a posted JSON-lines log, every line
    checked as `ua session import` checks a file; errors name the line, not a temporary file."""
    from engine.session.replayfile import read_replay

    with tempfile.TemporaryDirectory(prefix="ua-import-") as folder:
        path = Path(folder) / "posted.jsonl"
        path.write_bytes(data)
        try:
            log = read_replay(path)
            return list(log.records), list(log.command_ids())
        except EngineError as exc:
            raise _posted(exc, path) from None


def _posted(exc: EngineError, path: Path) -> InvalidInput:
    """An error reading a posted log, naming its line (not the temporary file it was read from)."""
    where = exc.where.replace(str(path), "log")
    hint = exc.hint
    if isinstance(exc, TornTail):
        hint = "the log ends inside a command (cut short): send the whole log"
    elif hint.startswith("name one with --stream"):
        hint = "send one session's log (GET /sessions/NAME/export writes one)"
    return InvalidInput(exc.message.replace(str(path), "log"), where=where or "$.log", hint=hint)
