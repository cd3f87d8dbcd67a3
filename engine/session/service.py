"""The session service: the application flow of a live encounter, for every front end.

The CLI and the HTTP API both go through `SessionService`: it starts a session (from a scenario,
or by importing a log it re-decides first), opens it in a store, runs a command (or an amend, an
undo, a redo) once per command id and only at the version the caller expected, turns a race with
another writer into one clear error, exports the log, and returns a result value — `Started`,
`Executed`, `Amended`, `Marked` — that each front end renders its own way (a rich table, JSON).
What differs between the front ends is a `Front`: how commands come (typed at the table, or sent
as the engine's commands) and the words of the errors. A session stays open between calls under
a lock of its own, so a server's threads can share one service. It knows no edition: the rules
are reached through the encounter's ruleset, and it contains no rules itself (DESIGN: parts).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from engine.commands.base import CommandBase, JoinCommand
from engine.dice.source import SeededDice
from engine.dice.spec import CheckResult
from engine.errors import (
    CommandIdReused,
    ConcurrencyConflict,
    CorruptLog,
    DiceError,
    EngineError,
    InvalidInput,
    OutOfOrder,
    Refused,
    SessionExists,
    UnknownEventType,
    VersionConflict,
)
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.rules.registry import ruleset_of
from engine.session.at_table import AtTable, Given, decoded_command
from engine.session.diff import state_diff
from engine.session.encoding import decoded
from engine.session.faces import faces_went
from engine.session.history import Record, command_entries
from engine.session.live import LiveEncounter, begin_session, import_log, rehearse
from engine.session.owners import Table, Waiting
from engine.session.reader import one_at_a_time
from engine.session.roster import Roster, roster_of
from engine.session.seats import load_seats
from engine.state.encounter import Encounter
from engine.state.sheet import PassionKind, PassionMode
from engine.store.base import StoredEvent, new_command_id

if TYPE_CHECKING:
    from engine.scenario.scenario import LoadedScenario
    from engine.scenario.ua3_scenario import LoadedUa3Scenario

T = TypeVar("T")

#: A look at the state before a command is run, to refuse an argument that makes no sense there.
Precheck = Callable[[Encounter], None]

#: Asked for the faces of a roll the given dice do not cover: `what` names the roll ("Vic's
#: dodge"); the answer is its faces, or None to draw that roll and every later one from the seed.
AskDice = Callable[[str], "tuple[int, ...] | None"]

#: Asked the reaction of a combatant whose madness check (M2-8) an attack raises fails: `who`,
#: what the check was, and the reaction it would take by default; the answer is flee, freeze or
#: frenzy, or None for that default.
AskReaction = Callable[[str, str, str], "str | None"]

#: What a combatant's roll was (`LastRoll.kind`).
RollKind = Literal["roll", "dodge", "madness"]

#: (what the faces were read for, the faces), in the order a command read them.
FacesWent = list[tuple[str, tuple[int, ...]]]


class Started(msgspec.Struct, frozen=True):
    """A session set up: its setup's events from position 1, the session's version and state
    now. `retried`: this command id had already started it (nothing new was written)."""

    session: str
    command_id: str
    seed: int
    events: list[EventBase]
    state: Encounter
    retried: bool
    version: int = 0


class Executed(msgspec.Struct, frozen=True):
    """A command done (or, on a retry, found done): its events, the first at position `first`;
    the state after it and who acts now. `faces`: which faces went where; `table_dice`: how many
    of them (the first) were rolled at the table, the rest drawn from the seed. `then`: commands
    the session made after it on its own (the NPCs' declarations at a new round). `retried`: the
    command id had already done it (nothing new was written; `state`, `turn` and `version` are
    the session's now, `round` the fight's round right after the command, as it was then)."""

    session: str
    command_id: str
    events: list[EventBase]
    first: int
    state: Encounter
    turn: str | None
    faces: FacesWent = msgspec.field(default_factory=list)
    table_dice: int = 0
    then: tuple[Executed, ...] = ()
    round: int = 0
    version: int = 0
    retried: bool = False

    @property
    def number(self) -> int:
        """The command's number (what `session log`, `--amend`, `undo` and `fork` show)."""
        first = self.events[0] if self.events else None
        return first.id if isinstance(first, CommandRecorded) else 0

    @property
    def issued(self) -> CommandBase | None:
        """The command as it was issued (None when nothing was recorded)."""
        first = self.events[0] if self.events else None
        return first.issued if isinstance(first, CommandRecorded) else None


class Amended(msgspec.Struct, frozen=True):
    """An amend of command `number`: the marker at position `first`, the new events after it,
    the events it took out, the states before and after, and what changed between them; who
    acts now and the session's version now. `retried`: as `Executed`'s."""

    session: str
    command_id: str
    number: int
    first: int
    old_events: list[EventBase]
    new_events: list[EventBase]
    before: Encounter
    after: Encounter
    changes: list[str]
    marker: EventBase | None = None
    turn: str | None = None
    version: int = 0
    retried: bool = False

    @property
    def state(self) -> Encounter:
        return self.after

    @property
    def round(self) -> int:
        return int(self.after.fight.round)


class Marked(msgspec.Struct, frozen=True):
    """An undo or a redo: its marker event at `first`, what changed in the state (on a retry,
    what changed then), the state now; the fight's round right after it, the session's
    version now. `retried`: as `Executed`'s."""

    session: str
    command_id: str
    events: list[EventBase]
    first: int
    changes: list[str]
    state: Encounter
    round: int = 0
    version: int = 0
    retried: bool = False

    @property
    def turn(self) -> str | None:
        return ruleset_of(self.state).acting_now(self.state)


class LastRoll(msgspec.Struct, frozen=True):
    """A combatant's most recent roll: in command `command` (`issued`, its record `record`), made
    by `maker`; `own` when that command is the combatant's own; `what` says which roll it was;
    `passion`: a passion already changed it."""

    command: int
    issued: CommandBase
    record: CommandRecorded[CommandBase]
    maker: str
    own: bool
    what: str
    result: CheckResult
    passion: bool = False
    #: what the roll was: the command's own ("roll"), or one an attack made the combatant roll:
    #: its dodge (C2-15) or the Mind roll of a madness check the attack raised (M2-8)
    kind: RollKind = "roll"


def _last_roll(records: Sequence[Record], who: str) -> LastRoll | None:
    """`who`'s last roll in the history that counts (see `LastRoll`)."""
    from engine.commands import Attack
    from engine.events.checks import CheckRolled
    from engine.events.combat import AttackResolved
    from engine.events.madness import PassionSpent

    entries = [e for e in command_entries(records) if e.status == "effective"]
    by_command: dict[int, list[EventBase]] = {}
    for _, event in records:
        by_command.setdefault(event.command, []).append(event)
    for entry in reversed(entries):
        issued = entry.record.issued
        maker = str(getattr(issued, "actor", "") or "the GM")
        found: LastRoll | None = None
        events = by_command.get(entry.id, ())
        spent = any(isinstance(e, PassionSpent) and e.actor == who for e in events)
        for event in events:
            what = ""
            result: CheckResult | None = None
            kind: RollKind = "roll"
            if isinstance(event, AttackResolved):
                if event.attacker == who and event.result.roll is not None:
                    what, result = f"an attack on {event.target}", event.result
                elif event.dodge is not None and event.dodge.dodger == who and event.dodge.result.roll is not None:
                    what, result, kind = f"a dodge of {event.attacker}'s attack", event.dodge.result, "dodge"
            elif isinstance(event, CheckRolled) and event.actor == who and event.result.roll is not None:
                what, result = f"a {event.result.spec.label or event.result.spec.kind} roll", event.result
                if isinstance(issued, Attack):  # an attack rolls no other checks than madness (M2-8)
                    what, kind = f"the Mind roll of a madness check in {maker}'s attack", "madness"
            if result is not None:
                own = maker == who
                found = LastRoll(entry.id, issued, entry.record, maker, own, what, result, spent, kind)
        if found is None and spent:  # a passion spent on an earlier check (SpendPassion)
            after = next(e.after for e in events if isinstance(e, PassionSpent) and e.actor == who)
            found = LastRoll(entry.id, issued, entry.record, maker, True, "a roll a passion changed", after, True)
        if found is not None:
            return found
    return None


def _roll_passion_amend(
    records: Sequence[Record],
    last: LastRoll,
    who: str,
    kind: PassionKind,
    mode: PassionMode,
    dice: tuple[int, ...],
    ask: AskDice | None,
) -> CommandBase:
    """C-10 on `who`'s failed roll that an attack made it roll (`last.kind`: its dodge, or a
    madness check's Mind roll): that attack as it would have been had `who` spent the passion on
    the first such roll, its dice as recorded with a reroll's two faces read right after that
    roll's own (so every later roll keeps its faces)."""
    from engine.commands.combat import RollPassion
    from engine.events.checks import CheckRolled
    from engine.events.combat import AttackResolved

    record = last.record
    events = [e for _, e in records if e.command == last.command and e is not record]
    rolls: list[tuple[str, CheckResult]] = []  # (who rolled, how it came out) of that kind, in order
    for e in events:
        if last.kind == "dodge" and isinstance(e, AttackResolved) and e.dodge is not None:
            rolls.append((e.dodge.dodger, e.dodge.result))
        elif last.kind == "madness" and isinstance(e, CheckRolled):
            rolls.append((e.actor, e.result))
    failed = next(r.roll for actor, r in rolls if actor == who and not r.success)
    label = f"{who}'s dodge" if last.kind == "dodge" else f"{who}'s Mind"
    used, table = record.dice_used, record.table_dice
    after = 0  # how many faces the attack had read once that roll was made
    for went, faces in faces_went(events, used):
        after += len(faces)
        if went == label and failed is not None and faces == (failed.tens, failed.ones):
            break
    reroll: tuple[int, ...] = ()
    if mode == "reroll":
        roll = "dodge" if last.kind == "dodge" else "Mind roll"
        reroll = dice or (ask(f"{who}'s {kind} reroll of the {roll}") if ask is not None else None) or ()
        if len(reroll) != 2:
            raise InvalidInput(
                f"the reroll of {who}'s {roll} reads 2 faces, not {len(reroll)}",
                where="--dice",
                hint="give the faces rolled again, tens first: --dice 4,7",
            )
    elif dice:
        raise InvalidInput("a flip-flop reads no dice", where="--dice", hint="leave --dice out")
    # Faces the table rolled stay the table's; the seed's follow (the amend adds them back) —
    # unless that roll itself was drawn from the seed: then every face is given, in order.
    given = used[:table] if after <= table else used
    faces = (*given[:after], *reroll, *given[after:])
    use = RollPassion(actor=who, passion=kind, mode=mode, roll="dodge" if last.kind == "dodge" else "madness")
    corrected: CommandBase = msgspec.structs.replace(last.issued, roll_passion=use, dice=faces)
    return corrected


class NpcTurn(msgspec.Struct, frozen=True):
    """One NPC action: who acted, the command its tactics chose, why the rules refused it (then
    it did nothing instead; empty if not), and what was done."""

    who: str
    chosen: CommandBase
    refused: str
    done: Executed


#: `npc --all` stops after this many actions at most (a fight's round limit ends it first).
NPC_STEPS = 10_000
#: NPC tactics draw their choices from the seed's AI stream, from command number × this.
AI_CHOICES_PER_COMMAND = 1000


def _with_reactions(command: CommandBase, preview: Sequence[EventBase], ask: AskReaction) -> CommandBase:
    """An attack with the reaction `ask` chooses for each combatant its preview shows failing a
    madness check with a reaction no one stated (M2-4); any other command as it is."""
    from engine.commands import Attack
    from engine.commands.combat import ReactionChoice
    from engine.events.madness import MadnessCheckResolved, ReactionTaken

    if not isinstance(command, Attack):
        return command
    stated = {} if isinstance(command.reactions, msgspec.UnsetType) else {r.id: r for r in command.reactions}
    checks = {e.actor: f"{e.meter} {e.rank}" for e in preview if isinstance(e, MadnessCheckResolved)}
    chosen = dict(stated)
    for e in preview:
        if isinstance(e, ReactionTaken) and e.chosen_by != "stated" and e.actor not in stated:
            answer = ask(e.actor, checks.get(e.actor, str(e.meter)), str(e.reaction))
            if answer in ("flee", "freeze", "frenzy"):
                chosen[e.actor] = ReactionChoice(id=e.actor, reaction=answer)  # type: ignore[arg-type]
    if chosen == stated:
        return command
    return msgspec.structs.replace(command, reactions=tuple(chosen.values()))


def options_apply(command: CommandBase, events: Sequence[EventBase]) -> None:
    """`InvalidInput` when a person's option has nothing to act on in what `command` decided
    (`events`, its preview): --flipped/--as-rolled on rolls that may not be flip-flopped (C-9), a
    --cherry where the attack earns none (C2-22)."""
    from engine.events.checks import CheckRolled
    from engine.events.combat import AttackResolved, CherryTaken

    actor = str(getattr(command, "actor", "") or "")
    flipped = getattr(command, "flipped", None)
    if flipped is not None:
        specs = [
            e.result.spec
            for e in events
            if (isinstance(e, AttackResolved) and e.attacker == actor)
            or (isinstance(e, CheckRolled) and e.actor == actor and e.result.roll is not None)
        ]
        if specs and not any(spec.flip for spec in specs):
            label = specs[0].label or specs[0].kind
            raise InvalidInput(
                f"{actor}'s {label} roll may not be flip-flopped: it is not the obsession skill (C-9)",
                where="--flipped" if flipped else "--as-rolled",
                hint="leave the orientation out; nothing was written",
            )
    cherry = getattr(command, "cherry", None)
    if cherry is not None and not any(isinstance(e, CherryTaken) for e in events):
        attacks = [e for e in events if isinstance(e, AttackResolved) and e.attacker == actor]
        matched = [a for a in attacks if a.result.outcome == "matched_success"]
        why = (
            f"{actor}'s roll is not a matched success"
            if not matched
            else f"{actor}'s {matched[0].result.spec.label or 'attack'} is not the obsession hand-to-hand skill"
        )
        raise InvalidInput(
            f"--cherry {cherry}: {why}, so there is no cherry (C2-22); nothing was written",
            where="--cherry",
            hint="run it again without --cherry (the dice stay the same)",
        )


#: Fields (of commands and the structs inside them) that name a combatant.
ID_FIELDS = frozenset(
    {"actor", "target", "targets", "healer", "patient", "monkey_redirect", "focus_target", "id", "field"}
)


def _response_id(command_id: str, what: str) -> str:
    """The command id of an NPCs' response (`declare`, `answerK`) to the command `command_id`."""
    return f"{command_id}.{what}"[:128]


def _response_ids(command_id: str) -> tuple[str, ...]:
    """The ids the first of the NPCs' responses to `command_id` may have."""
    return _response_id(command_id, "declare"), _response_id(command_id, "answer1")


def _round(state: Any) -> int:
    """The round the fight on `state` is in (0 before it begins)."""
    round_: int = ruleset_of(state).thaw(state).round
    return round_


def canonical_ids(state: Encounter, command: CommandBase) -> CommandBase:
    """`command` with every combatant it names spelled as the session spells it (matched
    case-insensitively); an unknown one is `InvalidInput` listing the combatants. A command
    that brings a combatant in (or starts the encounter) is left as it is."""
    from engine.commands import StartEncounter

    if isinstance(command, (JoinCommand, StartEncounter)) or not state.combatants:
        return command

    def fix(value: Any, where: str) -> Any:
        if isinstance(value, str):
            return SessionService.combatant_id(state, value, where=where.upper()) if value else value
        if isinstance(value, tuple):
            return tuple(fix(v, where) for v in value)
        if isinstance(value, msgspec.Struct):
            return fixed(value)
        return value

    def fixed(struct: Any) -> Any:
        changes = {}
        for f in msgspec.structs.fields(struct):
            value = getattr(struct, f.name)
            if f.name in ID_FIELDS and isinstance(value, (str, tuple)):
                new = fix(value, f.name)
            elif isinstance(value, tuple) and value and isinstance(value[0], msgspec.Struct):
                new = tuple(fixed(v) for v in value)
            else:
                continue
            if new != value:
                changes[f.name] = new
        return msgspec.structs.replace(struct, **changes) if changes else struct

    result: CommandBase = fixed(command)
    return result


class SessionService(AtTable):
    """Sessions in one store, run: starting, importing and exporting them, their commands (once
    per command id, at the version the caller expected), undo and redo, passions, NPCs; finding
    and reading them is `SessionReader`'s (`where`, `front`, the sessions kept open, the locks)."""

    @one_at_a_time
    def delete(self, name: str) -> None:
        """Delete the session `name` and every event of it (`NotFound` if there is none), in a
        store that deletes (SQLite, memory)."""
        self._live.pop(name, None)
        remove: Callable[[str], int] | None = getattr(self.store, "delete", None)
        if remove is None:
            raise InvalidInput(f"sessions in {self.where or 'this store'} cannot be deleted", where=name)
        if not remove(name):
            raise self.front.missing(name, self.where)

    def _changed(self, name: str) -> EngineError:
        self._live.pop(name, None)
        return self.front.changed(name, self.store.version(name))

    def _expect(self, session: LiveEncounter, expected: int | None, command_id: str | None) -> None:
        """`VersionConflict` when the caller expected another version than the session's now,
        unless `command_id` is already in the log (a retry is answered whatever the version)."""
        if expected is None or expected == session.version:
            return
        if command_id and self.store.read_command(session.stream, command_id):
            return
        raise VersionConflict(
            f"session {session.stream!r} is at version {session.version}, not {expected}",
            version=session.version,
            where=session.stream,
            hint="read the state again, then send the command with the current version",
        )

    @contextmanager
    def _guarded(self, name: str, *, amend: bool | None = None) -> Iterator[None]:
        """The front end's errors for a race with another writer, a command id used for another
        command, and (unless `amend` is None) a refused command or amend."""
        try:
            yield
        except CommandIdReused as exc:
            raise self.front.reused(exc) from None
        except ConcurrencyConflict:
            raise self._changed(name) from None
        except Refused as exc:
            if amend is None:
                raise
            raise self.front.refused(name, exc, amend=amend) from None

    # -- starting ---------------------------------------------------------------------------------

    @staticmethod
    def rehearse(name: str, setup: Sequence[CommandBase]) -> list[Record]:
        """A session's setup decided in memory: every event decided and known to be storable
        before any store is touched (a refused part leaves nothing behind)."""
        return rehearse(name, setup)

    @one_at_a_time
    def start(self, name: str, records: Sequence[Record], *, command_id: str | None = None) -> Started:
        """A new session from its rehearsed setup (`rehearse`), stored as one append named
        `command_id`: the same id again is a retry (what it set up comes back, nothing is
        written); any other start under a name that is taken is refused."""
        command_id = command_id or new_command_id()
        try:
            stored = begin_session(self.store, name, records, command_id=command_id)
        except SessionExists:
            raise self.front.taken(name, importing=False) from None
        session = self.open(name)
        events: list[EventBase] = [decoded(e) for e in self.store.read_command(name, command_id)]
        return Started(
            name, command_id, session.seed, events, session.state, retried=not stored, version=session.version
        )

    def new(
        self,
        name: str,
        loaded: LoadedScenario | LoadedUa3Scenario,
        *,
        seed: int,
        scenario: str,
        title: str = "",
        players: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET,
        command_id: str | None = None,
    ) -> Started:
        """A new session set up from a loaded scenario (`engine.session.scenario.setup_commands`:
        the scenario is stored in its start), rehearsed, then started (`start`)."""
        from engine.session.scenario import setup_commands

        setup = setup_commands(loaded, title=title, seed=seed, scenario=scenario, players=players)
        return self.start(name, self.rehearse(name, setup), command_id=command_id)

    def import_records(
        self, name: str, records: Sequence[Record], command_ids: Iterable[str], *, source: str = "the log"
    ) -> int:
        """A log (of `source`, as its errors name it) copied into a new session, all or nothing,
        each command keeping its id (`command_ids`, gone through twice): the log is verified first
        (`engine.session.verify`, as `ua replay --verify`), and nothing is stored unless it is
        its setup and exactly what its commands decide. The number of events."""
        from engine.session.verify import verify

        try:
            result = verify(records, command_ids)
            if not result.ok:
                raise CorruptLog(
                    f"not imported: {result.mismatch}",
                    where=f"{source} event {result.position}",
                    hint="the log was edited, or comes from other rules; nothing was stored",
                )
            with self.lock(name):
                if self.store.version(name):
                    raise self.front.taken(name, importing=True)
                return import_log(self.store, name, records, command_ids)
        except (CorruptLog, OutOfOrder, UnknownEventType) as exc:
            raise self.front.bad_log(exc) from None
        except SessionExists:  # made by another writer meanwhile
            raise self.front.taken(name, importing=True) from None

    def export(self, name: str) -> Iterator[StoredEvent]:
        """The session's stored events in order, to write as a JSON-lines log (`engine.store.jsonl`:
        `write_log`, `log_lines`); `NotFound` at once if there is no such session."""
        if not self.store.version(name):
            raise self.front.missing(name, self.where)
        return self.store.read(name)

    # -- commands ---------------------------------------------------------------------------------

    @one_at_a_time
    def execute(
        self,
        name: str,
        command: CommandBase,
        *,
        amend: int | None = None,
        command_id: str | None = None,
        check: Precheck | None = None,
        draw_rest: bool | None = None,
        ask: AskDice | None = None,
        strict: bool = False,
        ask_reaction: AskReaction | None = None,
        expected: int | None = None,
        given: Given | None = None,
    ) -> Executed | Amended:
        """Run `command` (or, with `amend`, replace command #`amend` with it and re-decide what
        followed). With `strict` (a person's command), an option that does not apply is refused
        rather than dropped (`options_apply`: a stated orientation on a roll that may not flip,
        a cherry where the roll earns none); and `ask_reaction` is asked the reaction of each
        combatant whose madness check the attack raises fails (M2-4), unless the command names
        it. `command_id` names it (fresh by default): sent
        again, it is a retry and writes nothing. `check` looks at the state first. A race with
        another writer writes nothing. With `expected`, a session at another version is
        `VersionConflict` (carrying the version now), unless the command is a retry.

        Dice: the command's own faces, in the order it reads them; faces beyond its rolls are
        refused (`ExtraFaces`). A roll the given faces do not cover is drawn from the seed when
        `draw_rest`; else `ask` is asked for its faces (None: draw it and the rest), and with no
        `ask` the command is refused (`InvalidInput`) naming the roll. A command with no faces
        draws all its dice from the seed.

        At a table (`AtTable.at_table`: a session with played characters, or `given` dice by
        owner, T-1): each roll's faces come from its owner; a player's roll nobody gave is
        `WaitsOn` (nothing recorded), and NPC rolls not given are drawn."""
        if amend is not None:
            return self.amend(name, amend, command, command_id=command_id, check=check, expected=expected)
        args = {"command": command, "draw_rest": draw_rest, "given": dict(given or {}), "strict": strict}
        with self.at_table(name, command_id, "execute", args, given=given or {}, draw_rest=bool(draw_rest)) as cid:
            rest = draw_rest is not False  # not said: off a table, the seed's (as ever)
            return self._execute_once(name, command, command_id, cid, check, rest, ask, strict, ask_reaction, expected)

    def _execute_once(
        self,
        name: str,
        command: CommandBase,
        callers_id: str | None,
        command_id: str,
        check: Precheck | None,
        draw_rest: bool,
        ask: AskDice | None,
        strict: bool,
        ask_reaction: AskReaction | None,
        expected: int | None,
    ) -> Executed | Amended:
        """`execute`'s run under its command id (`callers_id`: the one its caller gave, if any)."""
        session, command, command_id, before = self._prepare(name, command, command_id, check, expected)
        issued = command

        def run(session: LiveEncounter) -> Executed | Amended:
            nonlocal command
            round_before = _round(session.state)
            with self._guarded(name, amend=False):
                if strict and session.issued(command_id) is None:  # a retry answers what it did then
                    preview = session.preview(command)
                    options_apply(command, preview)
                    if ask_reaction is not None:
                        command = _with_reactions(command, preview, ask_reaction)
                events = self._run(session, command, command_id, draw_rest=draw_rest, ask=ask)
            done = self._executed(session, command_id, events, before)
            if done.retried:  # what the NPCs did after it then, not what they would do now
                then = tuple(self._stored_steps(session, command_id, _response_ids(command_id)) or ())
            else:
                then = self._npc_responses(session, command_id, round_before) if self.front.table else ()
            return done if not then else replace(done, then=then, version=session.version)

        def retry() -> Executed | Amended | None:
            if not self.store.read_command(name, command_id):
                return None
            return self.execute(name, issued, command_id=command_id)

        return self._one_append(session, callers_id, run, retry)

    def _one_append(
        self,
        session: LiveEncounter,
        command_id: str | None,
        run: Callable[[LiveEncounter], T],
        retry: Callable[[], T | None],
    ) -> T:
        """A user action, made of one command or of several (`run`: triggers then initiative, a
        command and the NPCs' responses, a stretch of NPC turns), stored as one append or not at
        all (`LiveEncounter.atomic`: each step decided on the state the one before it left): a
        refusal at any step stores none of them. A race lost at the end to a writer that stored
        this very action (`command_id`) is answered as its retry (`retry`: None if it was not
        stored); any other race stores nothing (the front end's `changed`)."""
        decided = False  # a conflict after it is the store's: a race lost at the end
        try:
            with self._guarded(session.stream), session.atomic():
                done = run(session)
                decided = True
        except ConcurrencyConflict:
            answered = retry() if decided and command_id and not session.holding else None
            if answered is None:
                raise
            return answered
        return done

    def _stored_steps(self, session: LiveEncounter, command_id: str, firsts: Iterable[str]) -> list[Executed] | None:
        """What a user action `command_id` stored, one command at a time (as a retry answers it),
        from the first of the steps that may come first (`firsts`) that it stored (None if none):
        the consecutive events of its steps, whose ids are `command_id.…` (`ID.t1`, `ID.declare`,
        `ID.3`), and of `command_id` itself."""
        found = (self.store.read_command(session.stream, cid) for cid in firsts)
        start = next((events[0].position for events in found if events), 0)
        if not start:
            return None
        steps: list[tuple[str, int, list[EventBase]]] = []
        for stored in self.store.read(session.stream, start):
            cid = stored.command_id
            if cid != command_id and not cid.startswith(f"{command_id}."):
                break
            if steps and steps[-1][0] == cid:
                steps[-1][2].append(decoded(stored))
            else:
                steps.append((cid, stored.position, [decoded(stored)]))
        return [self._executed(session, cid, events, session.version, first=at) for cid, at, events in steps]

    @one_at_a_time
    def amend(
        self,
        name: str,
        number: int,
        command: CommandBase,
        *,
        note: str = "",
        command_id: str | None = None,
        check: Precheck | None = None,
        expected: int | None = None,
    ) -> Amended:
        """Replace command #`number` with `command` (and `note` why) and re-decide what followed
        with the dice it recorded (law 5); `command_id`, `check` and `expected` as `execute`'s."""
        session, command, command_id, before = self._prepare(name, command, command_id, check, expected)
        with self._guarded(name, amend=True):
            result = session.amend(number, command, note, command_id=command_id)
        return Amended(
            session=session.stream,
            command_id=command_id,
            number=number,
            first=session.result_at,
            old_events=result.old_events,
            new_events=result.new_events,
            before=result.before,
            after=result.after,
            changes=state_diff(result.before, result.after),
            marker=session.records[session.result_at - 1][1],
            turn=ruleset_of(session.state).acting_now(session.state),
            version=session.version,
            retried=session.version == before,
        )

    def _prepare(
        self, name: str, command: CommandBase, command_id: str | None, check: Precheck | None, expected: int | None
    ) -> tuple[LiveEncounter, CommandBase, str, int]:
        """Before a command (or an amend) runs: the session; the command, its combatants spelled
        as the session spells them (at the table); `check` and the expected version looked at;
        its command id (fresh if none); the session's version before it."""
        session = self.open(name)
        if self.front.table:
            command = canonical_ids(session.state, command)
        if check is not None:
            check(session.state)
        self._expect(session, expected, command_id)
        return session, command, command_id or new_command_id(), session.version

    def _run(
        self, session: LiveEncounter, command: CommandBase, command_id: str, *, draw_rest: bool, ask: AskDice | None
    ) -> list[EventBase]:
        """`session.execute`, asking for (or refusing) the faces of rolls the command's dice miss;
        at a table, with each roll's faces from its owner (`AtTable.seated`)."""
        exact = self.front.table  # a die a person rolled is never dropped without a word
        with self.seated(session):
            if session.table is not None:
                return session.execute(command, command_id=command_id, exact=exact)
        if draw_rest or not command.dice:
            return session.execute(command, command_id=command_id, exact=exact)
        while True:
            try:
                return session.execute(command, command_id=command_id, draw=False, exact=exact)
            except DiceError:
                pass
            what = self._next_roll(session, command)
            if ask is None:
                given = ",".join(map(str, command.dice))
                raise InvalidInput(
                    f"the dice given ({given}) run out before {what}",
                    where="--dice",
                    hint=f"add the faces of {what} to --dice, or --draw-rest to draw the rest from the seed",
                ) from None
            more = ask(what)
            if more is None:
                return session.execute(command, command_id=command_id, exact=exact)
            command = msgspec.structs.replace(command, dice=(*command.dice, *more))

    @staticmethod
    def _next_roll(session: LiveEncounter, command: CommandBase) -> str:
        """What the first roll beyond the command's own faces is ("Vic's dodge")."""
        events = session.preview(command)
        record = events[0]
        assert isinstance(record, CommandRecorded)
        went = faces_went(events, record.dice_used)
        read = 0
        for what, faces in went:
            if read + len(faces) > len(command.dice):
                return what
            read += len(faces)
        return "the next roll"

    def _executed(
        self, session: LiveEncounter, command_id: str, events: list[EventBase], before: int, *, first: int = 0
    ) -> Executed:
        """What `events` (just run, or found by a retry when the session's version is still
        `before`) did, at the positions they stand (from `first`; by default where the session's
        last command or retry put them)."""
        state = session.state
        turn = ruleset_of(state).acting_now(state)
        record = events[0] if events else None
        faces: FacesWent = []
        table_dice = 0
        if isinstance(record, CommandRecorded):
            faces = faces_went(events, record.dice_used)
            table_dice = record.table_dice
        first = first or session.result_at
        retried = session.version == before
        after = session.state_at(first + len(events) - 1) if retried else state
        return Executed(
            session.stream,
            command_id,
            events,
            first,
            state,
            turn,
            faces,
            table_dice,
            round=int(after.fight.round),
            version=session.version,
            retried=retried,
        )

    @one_at_a_time
    def undo(self, name: str, *, command_id: str | None = None, expected: int | None = None) -> Marked:
        """Undo the latest command that counts (law 4); `command_id` and `expected` as `execute`'s."""
        return self._marker(name, "undo", command_id, expected)

    @one_at_a_time
    def redo(self, name: str, *, command_id: str | None = None, expected: int | None = None) -> Marked:
        """Redo the most recently undone command (law 4); `command_id` and `expected` as `execute`'s."""
        return self._marker(name, "redo", command_id, expected)

    def _marker(self, name: str, what: str, command_id: str | None, expected: int | None) -> Marked:
        session = self.open(name)
        self._expect(session, expected, command_id)
        before, version = session.state, session.version
        command_id = command_id or new_command_id()
        with self._guarded(name):
            events = session.undo(command_id=command_id) if what == "undo" else session.redo(command_id=command_id)
        at, retried = session.result_at, session.version == version
        if retried:  # what it changed then
            before, after = session.state_at(at - 1), session.state_at(at + len(events) - 1)
        else:
            after = session.state
        return Marked(
            name,
            command_id,
            events,
            at,
            state_diff(before, after),
            session.state,
            round=int(after.fight.round),
            version=session.version,
            retried=retried,
        )

    @one_at_a_time
    def move_on(self, name: str, *, command_id: str | None = None) -> Executed | Amended:
        """Move on: close the round's declarations, or the combatant whose turn it is does nothing.
        A retry (a `command_id` already used) does what that id moved on with, whatever now."""
        session = self.open(name)
        fight = session.state.fight
        command: CommandBase | None = None if command_id is None else session.issued(command_id)
        if command is not None:
            pass  # a retry: the command this id moved on with, whatever the state says now
        elif fight.phase in ("declare", "ambush", "acting"):
            # a madness check (or the like) may have put the fighter whose turn it was out of action:
            # the turn has passed on; if it passed to the next round, its declarations come first
            script = ruleset_of(session.state).script
            actor = ruleset_of(session.state).acting_now(session.state)
            if fight.phase == "declare" or actor is None:
                command = script.instead(ruleset_of(session.state).thaw(session.state), "declare")
            else:
                command = script.nothing(actor)
        else:
            raise InvalidInput(f"there is no turn to move on from (the fight is {fight.phase})", where=name)
        return self.execute(name, command, command_id=command_id)

    def play(
        self, name: str, commands: Sequence[CommandBase], *, command_id: str | None = None, where: str = ""
    ) -> Iterator[Executed]:
        """Run `commands` in order, each its own transaction, yielding each result; the first one
        the rules refuse stops the run (what went before stays) with an error naming it. With
        `command_id`, command N is `ID.N`: those already done by a run of that id are not redone.
        A line never waits (T-3): one that needs a played character's roll it does not give is
        refused, naming the roll."""
        seats = load_seats(self.store, name)
        table = Table(played=seats.played, roll_for_me=seats.roll_for_me, prefer=seats.prefer) if seats.played else None
        for number, command in enumerate(commands, start=1):
            cid = f"{command_id}.{number}" if command_id else None  # None: fresh, no retry lookup
            with self.lock(name):
                session = self.open(name)
                before = session.version
                try:
                    with self._guarded(name):
                        session.table, session.roll_counts = table, {}
                        try:
                            events = session.execute(command, command_id=cid)
                        except Waiting as stopped:
                            asked = ", ".join(r.what for r in stopped.requests)
                            raise Refused(
                                f"it needs {asked}, a played character's (T-3), and a play line never waits",
                                hint="give those faces in its dice (in the order read), or run it as a command",
                            ) from None
                        finally:
                            session.table = None
                except Refused as exc:
                    raise Refused(
                        f"command {number} of {len(commands)} is refused: {exc.message}",
                        where=where,
                        hint=exc.hint or "fix it and play the rest",
                    ) from None
                done = self._executed(session, cid or "", events, before)
            yield done

    # -- passions and reactions -------------------------------------------------------------------

    @one_at_a_time
    def last_roll(self, name: str, who: str) -> LastRoll | None:
        """`who`'s most recent roll in the history that counts: the command that made it, what
        it was and how it came out (None: no roll yet)."""
        session = self.open(name)
        who = self.combatant_id(session.state, who, where="WHO")
        return _last_roll(session.records, who)

    @one_at_a_time
    def passion(
        self,
        name: str,
        who: str,
        kind: PassionKind,
        mode: PassionMode = "reroll",
        *,
        dice: tuple[int, ...] = (),
        flipped: bool | None = None,
        command_id: str | None = None,
        draw_rest: bool | None = None,
        ask: AskDice | None = None,
    ) -> Executed | Amended:
        """C-10 after the roll: `who` spends a passion on its last roll, which must have failed.
        A check is rerolled or flipped in place (`SpendPassion`); an attack or a madness check is
        amended to have spent the passion on that roll, so what followed it is re-resolved with
        the dice it recorded (law 5); so is a roll an attack made `who` roll — its dodge, a madness
        check's Mind roll (`Attack.roll_passion`, the reroll's faces read right after that
        roll's). `dice`: the reroll's faces. Refused with the true reason when the last roll is
        not a failure one can change."""
        from engine.commands import Attack, MadnessCheck, RollCheck, SkillCheck, SpendPassion

        session = self.open(name)
        self._players_reroll(name, session, who, mode, dice, draw_rest)
        if session.state.ruleset == "ua3":  # U-21: the ua3 rules judge the last check themselves
            from engine.commands.ua3 import SpendPassion as Ua3SpendPassion

            ua3 = Ua3SpendPassion(actor=who, passion=kind, mode=mode, flipped=flipped, dice=dice)
            return self.execute(name, ua3, command_id=command_id, draw_rest=draw_rest, ask=ask)
        who = self.combatant_id(session.state, who, where="WHO")
        last = _last_roll(session.records, who)
        if last is None:
            raise Refused(f"{who} has made no roll yet for a passion to change (C-10)", hint="roll first")
        about = f"{who}'s last roll, {last.what} (command {last.command})"
        if last.passion:
            raise Refused(f"{about} was already changed by a passion", hint="a passion changes one failed roll (C-10)")
        if last.result.success:
            raise Refused(
                f"{about}, was a {last.result.outcome.replace('_', ' ')}, not a failure",
                hint="a passion changes a failed roll only (C-10)",
            )
        issued = last.issued
        if isinstance(issued, (SkillCheck, RollCheck)) and last.own:
            command = SpendPassion(actor=who, passion=kind, mode=mode, flipped=flipped, dice=dice)
            return self.execute(name, command, command_id=command_id, draw_rest=draw_rest, ask=ask)
        if isinstance(issued, (Attack, MadnessCheck)) and flipped is not None:
            raise InvalidInput(
                "--flipped/--as-rolled applies to a reroll of a check, not to a roll in an attack or a madness roll",
                where="--flipped",
                hint="leave it out",
            )
        if isinstance(issued, Attack) and last.kind != "roll":  # a dodge or a Mind roll the attack made
            amended = _roll_passion_amend(session.records, last, who, kind, mode, dice, ask)
            return self.execute(name, amended, amend=last.command, command_id=command_id)
        if isinstance(issued, (Attack, MadnessCheck)) and last.own:
            record = last.record
            kept = record.dice_used[: record.table_dice]
            corrected = msgspec.structs.replace(issued, passion=kind, passion_mode=mode, dice=(*kept, *dice))
            return self.execute(name, corrected, amend=last.command, command_id=command_id)
        raise Refused(
            f"{about} was made in {last.maker}'s command; a passion can change it only by an amend",
            hint=f"amend command {last.command} with the dice {who} rolls again: ua session … --amend {last.command}",
        )

    def _players_reroll(
        self, name: str, session: LiveEncounter, who: str, mode: PassionMode, dice: tuple[int, ...], draw: bool | None
    ) -> None:
        """T-3, T-6: a played character's passion reroll is its player's roll: given, or drawn
        only when its player (a standing choice) or the GM (`draw`) says so; else refused."""
        seats = load_seats(self.store, name)
        who = self.combatant_id(session.state, who, where="WHO")
        if mode != "reroll" or dice or draw or who not in seats.played or who in seats.roll_for_me:
            return
        raise InvalidInput(
            f"{who}'s passion reroll is {seats.played[who]}'s roll (T-3): nothing was changed",
            where="--dice",
            hint="give the reroll's faces: --dice T,U (or --draw-rest to draw them from the seed)",
        )

    @one_at_a_time
    def calm(
        self, name: str, who: str | None = None, *, source: str = "", command_id: str | None = None
    ) -> Executed | Amended:
        """M2-4: a reaction ends because its source is gone: `who`'s (whatever its source), or
        every reaction kept for `source`."""
        from engine.commands import SourceGone

        session = self.open(name)
        state = session.state
        if who is None and not source:
            raise InvalidInput("name who calms down, or --source", where="WHO", hint="ua session calm NAME WHO")
        if who is not None:
            who = self.combatant_id(state, who, where="WHO")
            found = state.combatant(who)
            kept = found.reaction if found is not None else None
            if kept is None:
                raise Refused(f"{who} is not in the grip of a reaction (M2-4)", hint="ua session state NAME")
            source = source or kept.source
        return self.execute(name, SourceGone(source=source, actor=who or ""), command_id=command_id)

    # -- beginning the fight ------------------------------------------------------------------------

    @one_at_a_time
    def triggers(self, name: str) -> list[CommandBase]:
        """The scenario's madness triggers (M2-8: e.g. unnatural 4 at the first sight of a monster)
        not yet made in this session, in order, as the commands that make them."""
        from engine.commands import MadnessCheck

        session = self.open(name)
        made = [
            msgspec.structs.replace(e.record.issued, dice=())
            for e in command_entries(session.records)
            if e.status == "effective" and isinstance(e.record.issued, MadnessCheck)
        ]
        return [t for t in self._opening(session) if msgspec.structs.replace(t, dice=()) not in made]

    @staticmethod
    def _opening(session: LiveEncounter) -> tuple[CommandBase, ...]:
        """Every madness trigger of the scenario the session was started from (none without one)."""
        roster = roster_of(session.records, where=f"session {session.stream}")
        if roster.scenario is None:
            return ()
        return ruleset_of(session.state).script.opening(roster.scenario)

    @one_at_a_time
    def begin(
        self,
        name: str,
        command: CommandBase,
        *,
        triggers: bool = True,
        trigger_dice: Callable[[CommandBase], tuple[int, ...] | None] | None = None,
        command_id: str | None = None,
        draw_rest: bool | None = None,
        ask: AskDice | None = None,
        given: Given | None = None,
    ) -> list[Executed | Amended]:
        """Begin the fight with `command` (initiative), after the scenario's triggers not yet made
        (unless `triggers` is False): each rolled from the seed, or with the faces
        `trigger_dice(trigger)` gives (None: drawn). A trigger the rules refuse (its combatant
        is out already) is left out, as in a batch. All of it is one append, or nothing if the
        initiative is refused (`_one_append`). Trigger N is `ID.tN` with `command_id`; the same
        id again is a retry, answered with what it stored. At a table, as `execute`."""
        args = {"command": command, "triggers": triggers, "draw_rest": draw_rest, "given": dict(given or {})}
        with self.at_table(name, command_id, "begin", args, given=given or {}, draw_rest=bool(draw_rest)) as cid:
            return self._begin(name, command, triggers, trigger_dice, cid, draw_rest is not False, ask)

    def _begin(
        self,
        name: str,
        command: CommandBase,
        triggers: bool,
        trigger_dice: Callable[[CommandBase], tuple[int, ...] | None] | None,
        command_id: str,
        draw_rest: bool,
        ask: AskDice | None,
    ) -> list[Executed | Amended]:
        session = self.open(name)
        if command_id and self.store.read_command(name, command_id):
            return [*self._stored_triggers(session, command_id), self.execute(name, command, command_id=command_id)]

        def run(session: LiveEncounter) -> list[Executed | Amended]:
            done: list[Executed | Amended] = []
            if triggers and session.state.fight.phase == "setup":
                for k, trigger in enumerate(self.triggers(name), start=1):
                    faces = trigger_dice(trigger) if trigger_dice is not None else None
                    if faces:
                        trigger = msgspec.structs.replace(trigger, dice=faces)
                    cid = f"{command_id}.t{k}" if command_id else None
                    try:
                        done.append(self.execute(name, trigger, command_id=cid))
                    except Refused:
                        continue
            done.append(self.execute(name, command, command_id=command_id, draw_rest=draw_rest, ask=ask))
            return done

        def retry() -> list[Executed | Amended] | None:
            stored = command_id is not None and self.store.read_command(name, command_id)
            return self.begin(name, command, command_id=command_id) if stored else None

        return self._one_append(session, command_id, run, retry)

    def _stored_triggers(self, session: LiveEncounter, command_id: str) -> list[Executed]:
        """The triggers a begin named `command_id` made before its initiative (`ID.tN`), as stored."""
        triggers = (f"{command_id}.t{k}" for k in range(1, len(self._opening(session)) + 1))
        steps = self._stored_steps(session, command_id, triggers) or []
        return list(itertools.takewhile(lambda done: done.command_id != command_id, steps))

    # -- NPCs -------------------------------------------------------------------------------------

    @one_at_a_time
    def roster(self, name: str) -> Roster:
        """Who players run and who acts by the session's tactics (`engine.session.roster`)."""
        return roster_of(self.open(name).records, where=f"session {name}").seated(self.seats(name).played)

    @one_at_a_time
    def npc(
        self,
        name: str,
        actor: str | None = None,
        *,
        until_player: bool = False,
        dice: tuple[int, ...] = (),
        command_id: str | None = None,
        draw_rest: bool | None = None,
        ask: AskDice | None = None,
        respond: bool = False,
        expected: int | None = None,
        given: Given | None = None,
    ) -> list[NpcTurn]:
        """The NPC whose turn it is (or `actor`, who must be the one to act) acts by its tactics;
        with `until_player`, NPCs act one after another until a player's turn or the fight's end.
        `dice` are the first action's faces (the rest come from the seed). A tactic the rules
        refuse becomes doing nothing, as in a batch, and the turn says why. With `respond` (a
        front that makes no responses after each command), the NPCs' responses due now come
        first — their declarations in an open round, answers owed (`Script.responds`) — as turns
        of no one. All of it is one user action: one append, or nothing if any step is refused
        (`_one_append`). With `command_id`, action N is `ID.N` (responses first: `ID.r.…`); the
        same id again is a retry, answered with the turns it stored. `expected`: the session's
        version the caller saw (as `execute`'s). At a table, as `execute`: a played character's
        roll an NPC's action raises (its dodge, its Mind check) is asked of its player."""
        args = {
            "actor": actor,
            "until_player": until_player,
            "dice": dice,
            "draw_rest": draw_rest,
            "respond": respond,
            "given": dict(given or {}),
        }
        with self.at_table(name, command_id, "npc", args, given=given or {}, draw_rest=bool(draw_rest)) as cid:
            return self._npc(name, actor, until_player, dice, cid, draw_rest is not False, ask, respond, expected)

    def _npc(
        self,
        name: str,
        actor: str | None,
        until_player: bool,
        dice: tuple[int, ...],
        command_id: str,
        draw_rest: bool,
        ask: AskDice | None,
        respond: bool,
        expected: int | None,
    ) -> list[NpcTurn]:
        session = self.open(name)
        if command_id:
            answered = self._stored_turns(session, command_id)
            if answered is not None:
                return answered
        self._expect(session, expected, command_id)
        roster = roster_of(session.records, where=f"session {name}").seated(load_seats(self.store, name).played)
        if not roster.npcs:
            raise InvalidInput(
                f"session {name!r} has no NPCs: no combatant acts by tactics",
                where=name,
                hint="start a session from a scenario (NPCs: every side but the players'), "
                "or add one with ua session add … --tactics PRESET",
            )
        if actor is not None:
            actor = self.combatant_id(session.state, actor, where="ID")
            if actor not in roster.profiles:
                raise InvalidInput(
                    f"{actor} has no tactics in this session",
                    where="ID",
                    hint=f"NPCs: {', '.join(roster.npcs)}",
                )

        def run(session: LiveEncounter) -> list[NpcTurn]:
            turns: list[NpcTurn] = []
            if respond and session.state.fight.phase in ("declare", "acting"):
                for done in self._npc_responses(session, f"{command_id or new_command_id()}.r", None):
                    turns.append(self._npc_turn("", done))
            for step in range(1, NPC_STEPS + 1):
                state = session.state
                phase = state.fight.phase
                if phase in ("setup", "ended"):
                    if turns:
                        break
                    raise Refused(
                        "the fight has not begun" if phase == "setup" else "the fight is over",
                        hint="ua session begin NAME" if phase == "setup" else "ua session state NAME",
                    )
                up = self.up_next(state)
                if up is None:
                    break
                if actor is None and not roster.is_npc(up):
                    if turns or until_player:
                        break
                    raise Refused(
                        f"it is {up}'s turn, a player's, not an NPC's",
                        hint=f"{up}'s player acts (ua session attack … {up} …); or ua session npc NAME {up}",
                    )
                who = actor or up
                cid = f"{command_id}.{step}" if command_id else None
                turns.append(self._npc_act(session, roster, who, dice if step == 1 else (), cid, draw_rest, ask))
                if not until_player:
                    break
            return turns

        def retry() -> list[NpcTurn] | None:
            return self._stored_turns(self.open(name), command_id) if command_id else None

        return self._one_append(session, command_id, run, retry)

    @staticmethod
    def _npc_turn(who: str, done: Executed, refused: str = "") -> NpcTurn:
        assert done.issued is not None, "an NPC's action is a recorded command"
        return NpcTurn(who=who, chosen=done.issued, refused=refused, done=done)

    def _stored_turns(self, session: LiveEncounter, command_id: str) -> list[NpcTurn] | None:
        """The turns an `npc` named `command_id` stored (None if it stored none): its responses
        (`ID.r.…`, turns of no one), then each action `ID.N` with what followed it (`ID.N.…`).
        Why a tactic was refused is not stored: a retry shows what was done instead."""
        steps = self._stored_steps(session, command_id, (*_response_ids(f"{command_id}.r"), f"{command_id}.1"))
        if steps is None:
            return None
        turns: list[NpcTurn] = []
        for done in steps:
            step = done.command_id[len(command_id) + 1 :]
            if step.startswith("r."):
                turns.append(self._npc_turn("", done))
            elif "." not in step:
                actor = str(getattr(done.issued, "actor", "") or "")
                turns.append(self._npc_turn(actor or self.up_next(session.state_at(done.first - 1)) or "", done))
            elif turns:
                last = turns[-1]
                turns[-1] = replace(last, done=replace(last.done, then=(*last.done.then, done)))
        return turns

    def _npc_act(
        self,
        session: LiveEncounter,
        roster: Roster,
        who: str,
        dice: tuple[int, ...],
        command_id: str | None,
        draw_rest: bool,
        ask: AskDice | None,
    ) -> NpcTurn:
        state = session.state
        ruleset = ruleset_of(state)
        closed = self._closed(state)
        table = ruleset.thaw(closed)
        profiles = roster.tactics_for([c.id for c in state.combatants])
        ai = SeededDice(session.seed, ai_position=session.next_id * AI_CHOICES_PER_COMMAND)
        command = ruleset.script.next_command(table, profiles, ai)
        if getattr(command, "actor", who) != who:
            raise Refused(f"it is {getattr(command, 'actor', '?')}'s turn, not {who}'s", hint="act in initiative order")
        if dice:
            command = msgspec.structs.replace(command, dice=dice)
        cid = command_id or new_command_id()
        round_before = _round(state)
        refused = ""
        before = session.version
        try:
            with self._guarded(session.stream):
                events = self._run(session, command, cid, draw_rest=draw_rest, ask=ask)
        except Refused as exc:
            refused = exc.message
            instead = ruleset.script.instead(table, table.phase)
            if dice:
                instead = msgspec.structs.replace(instead, dice=dice)
            try:
                with self._guarded(session.stream):
                    events = self._run(session, instead, cid, draw_rest=True, ask=None)
            except Refused:
                raise exc from None
        done = self._executed(session, cid, events, before)
        then = self._npc_responses(session, cid, round_before)
        return NpcTurn(who=who, chosen=command, refused=refused, done=replace(done, then=then) if then else done)

    @staticmethod
    def _closed(state: Encounter) -> Encounter:
        """`state` with the round's declarations closed (as the first action closes them)."""
        if state.fight.phase != "declare":
            return state
        ruleset = ruleset_of(state)
        try:
            closing = ruleset.script.instead(ruleset.thaw(state), "declare")
            _, closed = ruleset.decide(state, closing, SeededDice(state.seed or 0))
        except Refused:
            return state
        return closed  # type: ignore[no-any-return]

    @staticmethod
    def up_next(state: Encounter) -> str | None:
        """Who acts next: whose turn it is, or, while the round's declarations are open, who will
        act first once they close. None when the fight is not going on."""
        return ruleset_of(state).up_next(state)

    def _npc_responses(self, session: LiveEncounter, command_id: str, round_before: int | None) -> tuple[Executed, ...]:
        """What the NPCs do on their own after a command (`Script.responds`): their declarations
        at a new round's start (C2-4, U-22: one open declaration command, `ID.declare`), an
        answer owed by one of them (U-15, `ID.answer`). A response the rules refuse is not made
        (as in a batch)."""
        roster: Roster | None = None  # read only when NPCs may respond (the stored scenario, parsed)
        then: list[Executed] = []
        declared = False
        for k in range(1, NPC_STEPS + 1):
            state = session.state
            ruleset = ruleset_of(state)
            table = ruleset.thaw(state)
            opened = (round_before is None or table.round != round_before) and not declared
            if not ruleset.script.may_respond(table, round_opened=opened):
                break
            roster = roster or roster_of(session.records).seated(load_seats(self.store, session.stream).played)
            if not roster.npcs:
                break
            profiles = roster.tactics_for([c.id for c in state.combatants])
            ai = SeededDice(session.seed, ai_position=session.next_id * AI_CHOICES_PER_COMMAND)
            chosen = ruleset.script.responds(table, profiles, roster.npcs, ai, round_opened=opened)
            if chosen is None:
                break
            declaring = table.phase == "declare" and type(chosen) is type(ruleset.script.instead(table, "declare"))
            declared = declared or declaring
            cid = _response_id(command_id, "declare" if declaring else f"answer{k}")
            before = session.version
            try:
                events = session.execute(chosen, command_id=cid)
            except Refused:
                break
            then.append(self._executed(session, cid, events, before))
        return tuple(then)

    @staticmethod
    def combatant_id(state: Encounter, text: str, *, where: str = "") -> str:
        """The id of the combatant `text` names, matched case-insensitively; an unknown one is
        `InvalidInput` listing the combatants (and the likeliest one meant)."""
        ids = [c.id for c in state.combatants]
        for cid in ids:
            if cid == text:
                return cid
        folded = [cid for cid in ids if cid.casefold() == text.casefold()]
        if len(folded) == 1:
            return folded[0]
        import difflib

        near = difflib.get_close_matches(text.casefold(), [i.casefold() for i in ids], n=1, cutoff=0.5)
        meant = next((cid for cid in ids if near and cid.casefold() == near[0]), None)
        hint = f"did you mean {meant!r}? " if meant else ""
        raise InvalidInput(
            f"no combatant {text!r} in this session",
            where=where,
            hint=f"{hint}combatants: {', '.join(ids) or 'none yet'}",
        )

    # -- what-if forks -----------------------------------------------------------------------------

    @one_at_a_time
    def fork_point(
        self, name: str, at: int, *, scenario: Path | None = None, check: Callable[[], None] | None = None
    ) -> tuple[Encounter, LoadedScenario]:
        """Where a what-if fork of `name` starts: the state after event `at` of the history that
        counts now, and the scenario whose tactics fight it out (the one the session stored when
        it was started, or the file `scenario`). `check` runs once `at` is known to exist."""
        from engine.scenario.scenario import load_scenario
        from engine.session.history import fork_point
        from engine.session.scenario import stored_scenario

        session = self.open(name)
        where = self.front.at_where(name, fork=True)
        if not 1 <= at <= session.version:
            raise InvalidInput(f"no event {at} in session {name!r}", where=where, hint=f"1 to {session.version}")
        if check is not None:
            check()
        records = session.records
        if scenario is not None:
            loaded = load_scenario(scenario)
        else:
            loaded = stored_scenario(records[:at], where=f"session {name}")
        try:
            state = fork_point(records, at)
        except InvalidInput as exc:
            raise InvalidInput(exc.message, where=where, hint=exc.hint) from None
        return state, loaded


def _arg(args: dict[str, msgspec.Raw], key: str, kind: Any) -> Any:
    return msgspec.json.decode(args[key], type=kind)


def _resume_execute(service: SessionService, name: str, cid: str, args: dict[str, msgspec.Raw]) -> Executed | Amended:
    return service.execute(
        name,
        decoded_command(args["command"]),
        command_id=cid,
        draw_rest=_arg(args, "draw_rest", bool | None),
        given=_arg(args, "given", dict[str, tuple[int, ...]]),
        strict=_arg(args, "strict", bool),
    )


def _resume_begin(
    service: SessionService, name: str, cid: str, args: dict[str, msgspec.Raw]
) -> list[Executed | Amended]:
    return service.begin(
        name,
        decoded_command(args["command"]),
        triggers=_arg(args, "triggers", bool),
        command_id=cid,
        draw_rest=_arg(args, "draw_rest", bool | None),
        given=_arg(args, "given", dict[str, tuple[int, ...]]),
    )


def _resume_npc(service: SessionService, name: str, cid: str, args: dict[str, msgspec.Raw]) -> list[NpcTurn]:
    return service.npc(
        name,
        _arg(args, "actor", str | None),
        until_player=_arg(args, "until_player", bool),
        dice=_arg(args, "dice", tuple[int, ...]),
        command_id=cid,
        draw_rest=_arg(args, "draw_rest", bool | None),
        respond=_arg(args, "respond", bool),
        given=_arg(args, "given", dict[str, tuple[int, ...]]),
    )


SessionService.resumers = {"execute": _resume_execute, "begin": _resume_begin, "npc": _resume_npc}
