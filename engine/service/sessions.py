"""The one adapter between the HTTP API and `engine.session`: every session endpoint goes through
`Sessions`, which only opens sessions, calls the session layer, and shapes its results as the
API's structs. It holds no session logic: deciding, appending, undo, redo, amend, the history
that counts, narration and audits are `engine.session`'s.

Writers of one session are serialised by a lock per session in this process; the store's expected
version decides races with other processes (the CLI writing the same SQLite file). Command ids are
the session layer's (law 7): a retry is found in the log itself, so it is one whether the first
try went through this server, another one, or `ua session … --command-id`."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.commands import Command, StartEncounter
from engine.commands.base import CommandBase
from engine.errors import (
    ConcurrencyConflict,
    CorruptLog,
    EngineError,
    InvalidInput,
    NotFound,
    OutOfOrder,
    TornTail,
    UnknownEventType,
)
from engine.events.base import EventBase
from engine.rules.registry import ruleset_of
from engine.scenario.scenario import LoadedScenario, scenario_document
from engine.scenario.ua3_scenario import LoadedUa3Scenario, ua3_scenario_document
from engine.service.errors import VersionConflict
from engine.service.models import (
    Audit,
    CommandResult,
    EventView,
    Fairness,
    Gauge,
    Imported,
    LogView,
    SessionInfo,
    StateView,
    Timeline,
    TimelinePoint,
)
from engine.service.models import Luck as LuckView
from engine.session.audit import chance, checks_in, chi_square_faces, luck, narrate, table_faces
from engine.session.diff import state_diff
from engine.session.encoding import decoded
from engine.session.history import Record, fork_point
from engine.session.live import LiveEncounter, begin_session, import_log, rehearse, stored_events
from engine.session.scenario import stored_scenario
from engine.session.timeline import states_along
from engine.session.verify import verify
from engine.store.base import new_command_id
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

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
    data: dict[str, Any] = msgspec.to_builtins(state)
    return data


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


class Sessions:
    """The sessions of one SQLite file, as the API sees them."""

    def __init__(self, store: SqliteStore | MemoryStore) -> None:
        self.store = store
        self._locks: dict[str, threading.Lock] = {}
        self._registry = threading.Lock()
        self._open: dict[str, LiveEncounter] = {}

    def close(self) -> None:
        self.store.close()

    # -- opening ------------------------------------------------------------------------------

    def _lock(self, name: str) -> threading.Lock:
        with self._registry:
            return self._locks.setdefault(name, threading.Lock())

    def _live(self, name: str) -> LiveEncounter:
        """The session, kept open between requests while no other writer changed it."""
        version = self.store.version(name)
        if not version:
            raise self._missing(name)
        live = self._open.get(name)
        if live is None or live.version != version:
            live = self._open[name] = LiveEncounter(self.store, name)
        return live

    def _records(self, name: str) -> list[Record]:
        records: list[Record] = list(stored_events(self.store, name))
        if not records:
            raise self._missing(name)
        return records

    def _missing(self, name: str) -> NotFound:
        return NotFound(f"no session {name!r}", where=name, hint="GET /sessions lists them; POST /sessions makes one")

    def version(self, name: str) -> int:
        return self.store.version(name)

    # -- sessions -----------------------------------------------------------------------------

    def info(self, name: str) -> SessionInfo:
        live = self._live(name)
        state = live.state
        return SessionInfo(
            name=name,
            version=live.version,
            title=state.title,
            ruleset=state.ruleset,
            phase=state.fight.phase,
            round=state.fight.round,
            turn=turn_of(state),
        )

    def listing(self) -> list[SessionInfo]:
        return [SessionInfo(name=n, version=self.store.version(n)) for n in self.store.streams()]

    def create(
        self,
        name: str,
        loaded: LoadedScenario | LoadedUa3Scenario,
        *,
        seed: int,
        title: str,
        scenario: str,
        command_id: str,
    ) -> CommandResult:
        """A new session set up from a scenario, in one append (all or nothing), as `ua session new`;
        the scenario is stored in the start command (forks read their tactics there). The same
        command id again is a retry: what was set up then comes back, nothing is written."""
        commands: list[CommandBase]
        if isinstance(loaded, LoadedUa3Scenario):
            commands = [
                StartEncounter(
                    ruleset="ua3",
                    title=title or loaded.scenario.title,
                    seed=seed,
                    settings=loaded.settings,
                    scenario=scenario,
                    scenario_document=ua3_scenario_document(loaded),
                ),
                *(f.joins() for f in loaded.fighters),
            ]
        else:
            commands = [
                StartEncounter(
                    title=title or loaded.scenario.title,
                    seed=seed,
                    settings=loaded.settings,
                    scenario=scenario,
                    scenario_document=scenario_document(loaded),
                ),
                *(f.joins() for f in loaded.fighters),
            ]
        cid = command_id or new_command_id()
        with self._lock(name):
            retry = bool(command_id) and bool(self.store.read_command(name, cid))
            if not retry:
                if self.store.version(name):
                    raise ConcurrencyConflict(f"session {name!r} already exists", where=name, hint="pick another name")
                retry = not begin_session(self.store, name, rehearse(name, commands), command_id=cid)
            live = self._live(name)
            setup = self.store.read_command(name, cid)
            return CommandResult(
                session=name,
                version=live.version,
                events=[event_view(e.position, decoded(e), full=False) for e in setup],
                turn=turn_of(live.state),
                command_id=cid,
                retry=retry,
            )

    # -- commands -----------------------------------------------------------------------------

    def _expect(self, live: LiveEncounter, expected: int | None) -> None:
        if expected is not None and expected != live.version:
            raise VersionConflict(
                f"session {live.stream!r} is at version {live.version}, not {expected}",
                version=live.version,
                where=live.stream,
                hint="read the state again, then send the command with the current version",
            )

    def _once(
        self, name: str, command_id: str, expected: int | None, run: Any
    ) -> tuple[LiveEncounter, list[EventBase], bool]:
        """Run a session action once (law 7, the session layer's command ids): a command id already
        in the log is a retry, answered with what it recorded (whatever the version now); else the
        expected version is checked and the action run. (session, its events, whether a retry)."""
        live = self._live(name)
        retry = bool(command_id) and bool(self.store.read_command(name, command_id))
        if not retry:
            self._expect(live, expected)
        before = live.version
        try:
            events = run(live, command_id or None)
        except ConcurrencyConflict:
            raise self._conflict(name) from None
        except InvalidInput as exc:
            if exc.where == "command id":  # the id of another command: a conflict, not bad input
                raise ConcurrencyConflict(exc.message, where="Command-Id", hint=exc.hint) from None
            raise
        return live, events, live.version == before

    def _written(self, live: LiveEncounter, events: Sequence[EventBase], retry: bool) -> CommandResult:
        """What an action wrote (or, on a retry, had written), at the positions it stands."""
        first = live.result_at
        after = live.state_at(first + len(events) - 1) if retry else live.state
        round_ = after.fight.round
        return CommandResult(
            session=live.stream,
            version=live.version,
            events=[event_view(first + i, e, round_) for i, e in enumerate(events)],
            turn=turn_of(live.state),
            retry=retry,
        )

    def delete(self, name: str) -> None:
        with self._lock(name):
            if not self.store.delete(name):
                raise self._missing(name)
            self._open.pop(name, None)

    def _conflict(self, name: str) -> VersionConflict:
        self._open.pop(name, None)
        version = self.store.version(name)
        return VersionConflict(
            f"session {name!r} changed while this command ran (now at version {version}); nothing was written",
            version=version,
            where=name,
            hint="read the state again and resend",
        )

    def execute(self, name: str, command: Command, *, expected: int | None, command_id: str) -> CommandResult:
        with self._lock(name):
            live, events, retry = self._once(
                name, command_id, expected, lambda live, cid: live.execute(command, command_id=cid)
            )
            return self._result(live, events, retry, command_id)

    def _result(self, live: LiveEncounter, events: Sequence[EventBase], retry: bool, command_id: str) -> CommandResult:
        result = self._written(live, events, retry)
        return msgspec.structs.replace(result, command_id=command_id) if command_id else result

    def marker(self, name: str, what: str, *, expected: int | None, command_id: str) -> CommandResult:
        """Undo or redo, with what changed."""

        def run(live: LiveEncounter, cid: str | None) -> list[EventBase]:
            return live.undo(command_id=cid) if what == "undo" else live.redo(command_id=cid)

        with self._lock(name):
            live, events, retry = self._once(name, command_id, expected, run)
            at = live.result_at
            changes = state_diff(live.state_at(at - 1), live.state_at(at + len(events) - 1))
            return msgspec.structs.replace(self._result(live, events, retry, command_id), changes=changes)

    def amend(
        self, name: str, number: int, command: Command, *, note: str, expected: int | None, command_id: str
    ) -> CommandResult:
        amendments = []

        def run(live: LiveEncounter, cid: str | None) -> list[EventBase]:
            amendments.append(live.amend(number, command, note, command_id=cid))
            marker = live.records[live.result_at - 1][1]  # CommandAmended, then what it decided
            return [marker, *amendments[-1].new_events]

        with self._lock(name):
            live, events, retry = self._once(name, command_id, expected, run)
            amendment = amendments[-1]
            result = self._result(live, events, retry, command_id)
            return msgspec.structs.replace(
                result,
                changes=state_diff(amendment.before, amendment.after),
                superseded=[
                    event_view(0, e, full=False) for e in amendment.old_events if type(e).__name__ != "CommandRecorded"
                ],
            )

    # -- reading ------------------------------------------------------------------------------

    def state(self, name: str, at: int | None) -> StateView:
        if at is None:
            live = self._live(name)
            state, version = live.state, live.version
        else:
            records = self._records(name)
            version = len(records)
            if not 0 <= at <= version:
                raise InvalidInput(f"no event {at} in session {name!r}", where="at", hint=f"0 to {version}")
            state = next(s for p, s in states_along(records[:at]) if p == at)
        return StateView(
            session=name,
            version=version,
            at=version if at is None else at,
            ruleset=state.ruleset,
            turn=turn_of(state),
            state=state_json(state),
        )

    def log(self, name: str, *, combatant: str | None = None, round_: int | None = None) -> LogView:
        records = self._records(name)
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

    def timeline(self, name: str) -> Timeline:
        records = self._records(name)
        points = [
            TimelinePoint(
                position=p,
                round=s.fight.round,
                phase=s.fight.phase,
                turn=turn_of(s),
                combatants=gauges_of(s),
            )
            for p, s in states_along(records)
        ]
        return Timeline(session=name, version=len(records), ruleset=self._live(name).state.ruleset, points=points)

    def audit(self, name: str) -> Audit:
        records = self._records(name)
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

    def fork_state(self, name: str, at: int) -> tuple[Any, LoadedScenario]:
        """The state after event `at` of the history that counts, and the scenario the session
        stored when it was started (its tactics), as `ua session fork` takes them."""
        records = self._records(name)
        if not 1 <= at <= len(records):
            raise InvalidInput(f"no event {at} in session {name!r}", where="$.at", hint=f"1 to {len(records)}")
        try:
            state = fork_point(records, at)
        except InvalidInput as exc:
            raise InvalidInput(exc.message, where="$.at", hint=exc.hint) from None
        return state, stored_scenario(records[:at], where=f"session {name}")

    # -- files --------------------------------------------------------------------------------

    def export(self, name: str) -> bytes:
        """The session's log as JSON lines, as `ua session export` writes it (checksums, commands)."""
        from engine.store.jsonl import log_lines

        events = list(self.store.read(name))
        if not events:
            raise self._missing(name)
        return b"".join(log_lines(events))

    def import_(self, name: str, data: bytes) -> Imported:
        """A JSON-lines log (as `ua session export` writes it) into a new session, as `ua session
        import`: every line checked, every command re-decided with its dice, then stored with its
        command ids in one append."""
        records, command_ids = read_jsonl(data)
        result = verify(records)
        if not result.ok:
            raise InvalidInput(
                f"not imported: {result.mismatch}",
                where=f"log event {result.position}",
                hint="the log was edited, or comes from other rules; nothing was stored",
            )
        with self._lock(name):
            if self.store.version(name):
                raise ConcurrencyConflict(f"session {name!r} already exists", where=name, hint="import into a new name")
            try:
                count = import_log(self.store, name, records, command_ids)
            except (CorruptLog, OutOfOrder, UnknownEventType) as exc:  # a posted log is input: a 400
                raise InvalidInput(exc.message, where=exc.where or "$.log", hint=exc.hint) from None
        return Imported(session=name, version=self.store.version(name), events=count)


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
