"""The one adapter between the HTTP API and `engine.session`: every session endpoint goes through
`Sessions`, which only opens sessions, calls the session layer, and shapes its results as the
API's structs. It holds no session logic: deciding, appending, undo, redo, amend, the history
that counts, narration and audits are `engine.session`'s.

Writers of one session are serialised by a lock per session in this process; the store's expected
version decides races with other processes (the CLI writing the same SQLite file)."""

from __future__ import annotations

import tempfile
import threading
from collections import OrderedDict
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
    UnknownEventType,
)
from engine.events.base import EventBase
from engine.rules.registry import ruleset_of
from engine.scenario.scenario import LoadedScenario
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
from engine.session.history import Record, fork_point
from engine.session.live import LiveEncounter, import_log, stored_events
from engine.session.timeline import states_along
from engine.session.verify import verify
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

#: How many command ids (and what they wrote) are kept for retries.
REMEMBERED = 10_000
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
    for c in msgspec.to_builtins(state.combatants):
        gauges: dict[str, int] = {}
        for name in GAUGE_FIELDS:
            _flatten(c.get(name), name, gauges)
        out.append(
            Gauge(
                id=str(c.get("id", "")),
                wounds=int(c.get("wounds", 0) or 0),
                max_wounds=int(c.get("max_wounds", 0) or 0),
                status=str(c.get("status", "")),
                gauges=gauges,
            )
        )
    return out


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
        self._done: OrderedDict[tuple[str, str], tuple[bytes, CommandResult]] = OrderedDict()

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

    def list(self) -> list[SessionInfo]:
        return [SessionInfo(name=n, version=self.store.version(n)) for n in self.store.streams()]

    def create(self, name: str, loaded: LoadedScenario, *, seed: int, title: str, scenario: str) -> CommandResult:
        """A new session set up from a scenario, in one append (all or nothing), as `ua session new`."""
        commands: list[CommandBase] = [
            StartEncounter(
                title=title or loaded.scenario.title, seed=seed, settings=loaded.settings, scenario=scenario
            ),
            *(f.joins() for f in loaded.fighters),
        ]
        with self._lock(name):
            if self.store.version(name):
                raise ConcurrencyConflict(f"session {name!r} already exists", where=name, hint="pick another name")
            rehearsal = LiveEncounter(MemoryStore(), name)
            for command in commands:
                rehearsal.execute(command)
            import_log(self.store, name, rehearsal.records)
            live = self._live(name)
            return CommandResult(
                session=name,
                version=live.version,
                events=[event_view(p, e, full=False) for p, e in rehearsal.records],
                turn=turn_of(live.state),
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

    def _remembered(self, name: str, command_id: str, fingerprint: bytes) -> CommandResult | None:
        if not command_id:
            return None
        found = self._done.get((name, command_id))
        if found is None:
            return None
        if found[0] != fingerprint:
            raise ConcurrencyConflict(
                f"command id {command_id!r} was used for another request",
                where="Command-Id",
                hint="use a fresh command id for each new command; the same one only to retry",
            )
        return msgspec.structs.replace(found[1], retry=True)

    def _remember(self, name: str, command_id: str, fingerprint: bytes, result: CommandResult) -> CommandResult:
        if command_id:
            result = msgspec.structs.replace(result, command_id=command_id)
            self._done[(name, command_id)] = (fingerprint, result)
            while len(self._done) > REMEMBERED:
                self._done.popitem(last=False)
        return result

    def _written(self, live: LiveEncounter, first: int, events: Sequence[EventBase]) -> CommandResult:
        round_ = live.state.fight.round
        return CommandResult(
            session=live.stream,
            version=live.version,
            events=[event_view(first + i, e, round_) for i, e in enumerate(events)],
            turn=turn_of(live.state),
        )

    def delete(self, name: str) -> None:
        with self._lock(name):
            if not self.store.delete(name):
                raise self._missing(name)
            self._open.pop(name, None)
            for key in [k for k in self._done if k[0] == name]:
                del self._done[key]

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
        fingerprint = b"execute:" + msgspec.json.encode(command)
        with self._lock(name):
            again = self._remembered(name, command_id, fingerprint)
            if again is not None:
                return again
            live = self._live(name)
            self._expect(live, expected)
            first = live.version + 1
            try:
                events = live.execute(command)
            except ConcurrencyConflict:
                raise self._conflict(name) from None
            return self._remember(name, command_id, fingerprint, self._written(live, first, events))

    def marker(self, name: str, what: str, *, expected: int | None, command_id: str) -> CommandResult:
        """Undo or redo, with what changed."""
        from engine.cli.views import state_diff

        fingerprint = what.encode()
        with self._lock(name):
            again = self._remembered(name, command_id, fingerprint)
            if again is not None:
                return again
            live = self._live(name)
            self._expect(live, expected)
            before, first = live.state, live.version + 1
            try:
                events = live.undo() if what == "undo" else live.redo()
            except ConcurrencyConflict:
                raise self._conflict(name) from None
            result = msgspec.structs.replace(self._written(live, first, events), changes=state_diff(before, live.state))
            return self._remember(name, command_id, fingerprint, result)

    def amend(
        self, name: str, number: int, command: Command, *, note: str, expected: int | None, command_id: str
    ) -> CommandResult:
        from engine.cli.views import state_diff

        fingerprint = b"amend:%d:" % number + msgspec.json.encode(command) + note.encode()
        with self._lock(name):
            again = self._remembered(name, command_id, fingerprint)
            if again is not None:
                return again
            live = self._live(name)
            self._expect(live, expected)
            first = live.version + 1
            try:
                amendment = live.amend(number, command, note)
            except ConcurrencyConflict:
                raise self._conflict(name) from None
            written = self._written(live, first, [e for _, e in live.records[first - 1 :]])
            result = msgspec.structs.replace(
                written,
                changes=state_diff(amendment.before, amendment.after),
                superseded=[
                    event_view(0, e, full=False) for e in amendment.old_events if type(e).__name__ != "CommandRecorded"
                ],
            )
            return self._remember(name, command_id, fingerprint, result)

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

    def fork_state(self, name: str, at: int) -> Any:
        records = self._records(name)
        if not 1 <= at <= len(records):
            raise InvalidInput(f"no event {at} in session {name!r}", where="$.at", hint=f"1 to {len(records)}")
        try:
            return fork_point(records, at)
        except InvalidInput as exc:
            raise InvalidInput(exc.message, where="$.at", hint=exc.hint) from None

    # -- files --------------------------------------------------------------------------------

    def export(self, name: str) -> bytes:
        from engine.store.jsonl import encode_line

        events = list(self.store.read(name))
        if not events:
            raise self._missing(name)
        return b"".join(encode_line(e) for e in events)

    def import_(self, name: str, data: bytes) -> Imported:
        """A JSON-lines log (as `ua session export` writes it) into a new session; it must fold."""
        with self._lock(name):
            if self.store.version(name):
                raise ConcurrencyConflict(f"session {name!r} already exists", where=name, hint="import into a new name")
            try:
                count = import_log(self.store, name, read_jsonl(data))
            except (CorruptLog, OutOfOrder, UnknownEventType) as exc:  # a posted log is input: a 400
                raise InvalidInput(exc.message, where=exc.where or "$.log", hint=exc.hint) from None
        return Imported(session=name, version=self.store.version(name), events=count)


def read_jsonl(data: bytes) -> list[Record]:
    """The records of the one stream in a posted JSON-lines log, checked as a file is."""
    from engine.store.jsonl import JsonlStore

    with tempfile.TemporaryDirectory(prefix="ua-import-") as folder:
        path = Path(folder) / "posted.jsonl"
        path.write_bytes(data)
        try:
            store = JsonlStore(path)
        except EngineError as exc:
            raise _posted(exc, path) from None
        try:
            if store.torn_tail is not None:
                torn = store.torn_tail
                raise InvalidInput(
                    torn.message.replace(str(path), "log"),
                    where=torn.where.replace(str(path), "log") or "$.log",
                    hint="the log ends in a line cut short",
                )
            streams = store.streams()
            if len(streams) != 1:
                raise InvalidInput(f"the log holds {len(streams)} streams, not one", where="$")
            return list(stored_events(store, streams[0]))
        except (CorruptLog, OutOfOrder, UnknownEventType) as exc:
            raise _posted(exc, path) from None
        finally:
            store.close()


def _posted(exc: EngineError, path: Path) -> InvalidInput:
    """An error reading a posted log, naming its line (not the temporary file it was read from)."""
    where = exc.where.replace(str(path), "log")
    return InvalidInput(exc.message.replace(str(path), "log"), where=where or "$.log", hint=exc.hint)
