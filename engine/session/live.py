"""A live encounter over a store: load, decide, append (one atomic append per command), fold;
undo, redo and amend (DESIGN laws 4 and 5) as appended markers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import msgspec

from engine.collector import collection_paused
from engine.commands.base import CommandBase
from engine.dice.source import RecordingDice, SeededDice, TableDice
from engine.errors import CommandIdReused, ConcurrencyConflict, CorruptLog, InvalidInput, Refused, SessionExists
from engine.events.base import EventBase
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.setup import EncounterStarted
from engine.reducers.fold import apply
from engine.rules.decide import decide_and_fold
from engine.rules.registry import ruleset_of
from engine.session.encoding import commands_of, decoded, to_new_events
from engine.session.history import (
    Record,
    command_entries,
    cursors,
    effective_fold,
    redo_stack,
    summary_of,
)
from engine.session.owners import OwnedDice, RollRead, Table, Waiting
from engine.session.pending import Pending
from engine.session.rows import decoded_records
from engine.session.snapshot import open_from_snapshot, save_snapshot
from engine.session.validate import valid_command
from engine.state.encounter import Encounter
from engine.store.base import EventStore, StoredEvent, check_command_id, new_command_id

if TYPE_CHECKING:
    from engine.commands import Command


def stored_events(store: EventStore, stream: str, from_position: int = 1) -> Iterator[Record]:
    """(position, event) pairs of a stream, upcast where older; errors name the position."""
    return iter(read_records(store, stream, from_position))


def read_records(store: EventStore, stream: str, from_position: int = 1, *, ruleset: str | None = None) -> list[Record]:
    """Every (position, event) of a stream from `from_position` on, each event decoded once, by
    the decoder of the stream's ruleset (`ruleset`; by default the one its first event read
    starts: from position 1, the session's)."""
    return decoded_records(stream, store.read_data(stream, from_position), ruleset)


def load_state(store: EventStore, stream: str) -> Encounter:
    """Fold a stored stream, undo and amend included (law 2)."""
    state: Encounter = effective_fold(list(stored_events(store, stream)))
    return state


def import_log(store: EventStore, stream: str, records: Sequence[Record], command_ids: Iterable[str]) -> int:
    """Copy a session's records into a new, empty `stream` as one append: all or nothing. Each
    record keeps its command id (`command_ids`, one per record); a log that does not fold, or an
    event that does not read back as itself, is refused before anything is written. The records
    are gone through twice, never held (they may be a `LogRecords` view of a large file)."""
    effective_fold(records)  # positions 1, 2, 3, … and every event folds, or a named error
    if store.version(stream):
        raise SessionExists(f"session {stream!r} already exists", hint="import into a new session name")
    events = (event for _, event in records)
    try:
        return store.append(stream, commands_of(stream, zip(command_ids, events, strict=True)), 0)
    except ConcurrencyConflict as exc:
        if store.version(stream):
            raise  # someone else made the session meanwhile
        raise CorruptLog(
            f"the log holds one command twice: {exc.message}", hint="it was edited; nothing was stored"
        ) from None


def rehearse(stream: str, commands: Sequence[CommandBase]) -> list[Record]:
    """A session's setup decided in memory, command by command: every event is decided and known to
    be storable before anything is written, so a refused part leaves nothing behind."""
    from engine.store.memory import MemoryStore

    rehearsal = LiveEncounter(MemoryStore(), stream)
    for command in commands:
        rehearsal.execute(command)
    return rehearsal.records


def begin_session(store: EventStore, stream: str, setup: Sequence[Record], *, command_id: str | None = None) -> bool:
    """Store a rehearsed setup as a new session, in one append named `command_id` (fresh by
    default). True if this call stored it; False if `command_id` already had (a retry)."""
    cid = new_command_id() if command_id is None else check_command_id(command_id, where="command id")
    exists = SessionExists(f"session {stream!r} already exists", hint="pick another name, or --db another file")
    if store.read_command(stream, cid):
        return False
    if store.version(stream):
        raise exists
    try:
        import_log(store, stream, setup, [cid] * len(setup))
    except ConcurrencyConflict:  # another writer got there first: with this very id, it was a retry
        if store.read_command(stream, cid):
            return False
        raise exists from None
    return True


class ExtraFaces(InvalidInput):
    """A command was given more dice than it reads: nothing is written. `read` are the faces it
    read, `given` those it was given, `events` what it decided with them."""

    def __init__(
        self, command: CommandBase, events: list[EventBase], read: tuple[int, ...], given: tuple[int, ...]
    ) -> None:
        from engine.session.faces import describe_faces, faces_went

        what = str(type(command).__struct_config__.tag).replace("_", " ")
        went = describe_faces(faces_went(events, read)) or "no dice"
        count = f"{len(read)} {'die' if len(read) == 1 else 'dice'}"
        super().__init__(
            f"this {what} reads {count} ({went}), but {len(given)} were given; nothing was written",
            where="--dice",
            hint=f"give just {','.join(map(str, read)) or 'no dice'}",
        )
        self.read, self.given, self.events = read, given, events


class Amendment(msgspec.Struct, frozen=True):
    """What an amend did: the states and the events before and after, for the audit's diff."""

    before: Encounter
    after: Encounter
    old_events: list[EventBase]
    new_events: list[EventBase]


class LiveEncounter:
    """State kept while running, backed by a store; every command is one atomic append whose
    expected version is what this session last saw (a race → ConcurrencyConflict, nothing written).
    Inside `atomic`, every command run is one append together, at the block's end, or none."""

    #: Save a snapshot each time the log grows past another multiple of this many events.
    snapshot_every = 1000
    #: Position of the first event that `execute`, `undo`, `redo` or `amend` last returned (where
    #: the original stands, on a retry).
    result_at = 0
    #: A live table's owners for the user action being decided (None: the dice as given, then
    #: the seed's), each character's rolls numbered across the action's steps, and the rolls the
    #: last command read (`OwnedDice`).
    table: Table | None = None
    roll_counts: dict[str, int]
    table_reads: list[RollRead]

    def __init__(self, store: EventStore, stream: str, *, seed: int | None = None) -> None:
        self.store = store
        self.stream = stream
        self._seed = seed
        self._records: list[Record] | None = None
        self._pending: Pending | None = None
        self.roll_counts = {}
        self.table_reads = []
        opened = open_from_snapshot(store, stream)
        if opened is not None:  # the snapshot and the events after it: no need to read the rest yet
            self.state, self._count, self.next_id, self.dice_position = opened
            self._snapshot_at = self._count
        else:
            with collection_paused():
                self._records = read_records(store, stream)
                self.state = effective_fold(self._records)
            self._count = len(self._records)
            self.next_id, self.dice_position = cursors(self._records)
            self._snapshot_at = 0

    @property
    def records(self) -> list[Record]:
        """Every (position, event) of the session, read from the store on first use."""
        records = self._records
        if records is None:
            held = self._pending.records if self._pending is not None else []
            stored = self._count - len(held)
            with collection_paused():
                records = [(p, e) for p, e in read_records(self.store, self.stream) if p <= stored]
            records.extend(held)
            self._records = records
        return records

    @property
    def seed(self) -> int:
        """The encounter's seed; if its start was undone, the seed it was started with, so that
        every session on this log (whatever `seed` it was opened with) draws the same dice."""
        if self.state.seed is not None:
            return int(self.state.seed)
        started = [e.seed for _, e in self.records if isinstance(e, EncounterStarted) and e.seed is not None]
        if started:
            return started[-1]
        return 0 if self._seed is None else self._seed

    @property
    def version(self) -> int:
        return self._count

    def _decide(
        self,
        state: Encounter,
        command: CommandBase,
        number: int,
        faces: Sequence[int] = (),
        *,
        given: int | None = None,
        draw: bool = True,
        exact: bool = False,
        table: Table | None = None,
    ) -> tuple[list[EventBase], Encounter]:
        """The command's events (its record first) and the state after them. Dice: `faces` first
        (table dice or a command's recorded dice), then fresh seeded dice (unless `draw` is
        False: then a roll beyond `faces` is `DiceError`).

        The first `given` faces (all, by default) are dice a person rolled; the rest of `faces`
        are seeded dice an earlier decision drew, reused by an amend (still not the table's).
        With `exact`, a command that reads fewer faces than it was given is refused
        (`ExtraFaces`): a die a person rolled is never dropped without a word.

        With a `table` (a live table with its owners, T-1…T-4), each roll's faces come from its
        owner (`OwnedDice`), and a player's roll nobody gave is `Waiting` (nothing decided)."""
        seeded = SeededDice(self.seed, position=self.dice_position)
        start = seeded.position
        if table is not None:
            return self._decide_owned(state, command, number, faces, seeded, table)
        source = TableDice(faces, fallback=seeded if draw else None)
        dice = RecordingDice(source)
        decided, after = decide_and_fold(state, command, dice)  # the rule's own fold is reused
        if exact and source.used < len(faces):
            raise ExtraFaces(command, decided, tuple(dice.faces), tuple(faces))
        table_dice = source.used if given is None else min(source.used, given)
        return self._record(command, number, decided, after, tuple(dice.faces), table_dice, start, seeded)

    def _decide_owned(
        self,
        state: Encounter,
        command: CommandBase,
        number: int,
        faces: Sequence[int],
        seeded: SeededDice,
        table: Table,
    ) -> tuple[list[EventBase], Encounter]:
        start = seeded.position
        table = msgspec.structs.replace(table, states=ruleset_of(state).stated_choices(command))
        owned = OwnedDice(table, seeded, faces, self.roll_counts)
        dice = RecordingDice(owned)
        try:
            decided, after = decide_and_fold(state, command, dice)
        except Refused:
            if owned.requests:  # read on provisional faces: what it waits on comes first
                raise Waiting(owned.requests) from None
            raise
        owned.finish()
        if owned.flat_used < len(faces):
            raise ExtraFaces(command, decided, tuple(dice.faces), tuple(faces))
        unread = owned.unread()
        if unread:
            rolls = ", ".join(f"{r.who}'s {r.what}" for r in owned.reads if r.who) or "no roll"
            who = ", ".join(f"{w}={','.join(map(str, f))}" for w, f in unread.items())
            raise InvalidInput(
                f"no roll of this command reads the dice given as {who}",
                where="--dice",
                hint=f"it reads: {rolls}",
            )
        if owned.made:  # the players' choices, stated in the command: it re-decides the same
            command = ruleset_of(state).with_choices(command, owned.made)
        sources = [r.source for r in owned.reads]
        given = sum(len(r.faces) for r in owned.reads if r.source == "given")
        prefix = all(s == "given" for s in sources[: sources.count("given")])
        self.table_reads = owned.reads
        return self._record(command, number, decided, after, tuple(dice.faces), given if prefix else 0, start, seeded)

    def _record(
        self,
        command: CommandBase,
        number: int,
        decided: list[EventBase],
        after: Encounter,
        faces: tuple[int, ...],
        table_dice: int,
        start: int,
        seeded: SeededDice,
    ) -> tuple[list[EventBase], Encounter]:
        record = CommandRecorded(
            id=number,
            issued=command,
            dice_used=faces,
            table_dice=table_dice,
            seeded_from=start,
            seeded_count=seeded.position - start,
            command=number,
        )
        self.dice_position = seeded.position
        events = [record, *(msgspec.structs.replace(e, command=number) for e in decided)]
        return events, apply(after, record)  # the record changes nothing but the version

    def _append(self, events: Sequence[EventBase], command_id: str) -> None:
        version = self.version
        new = to_new_events(self.stream, command_id, events)
        if self._pending is not None:
            self._pending.hold(new, events)
        else:
            self.store.append(self.stream, new, version)
        if self._records is not None:
            self._records.extend(enumerate(events, start=version + 1))
        self._count = version + len(events)
        self.result_at = version + 1

    def _once(
        self,
        command_id: str | None,
        same: Callable[[list[EventBase]], bool],
        run: Callable[[str], list[EventBase]],
    ) -> list[EventBase]:
        """Run a command once (law 7): when `command_id` is already in the log (a retry, even after
        the session moved on), what it recorded then, writing nothing; else `run(command_id)`.
        A conflict with another writer is a retry only if that writer stored this very command."""
        if command_id is None:  # a fresh id: a new command, which nothing can have stored yet
            return run(new_command_id())
        cid = check_command_id(command_id, where="command id")
        earlier = self._recorded(cid, same)
        if earlier is not None:
            return earlier
        try:
            return run(cid)
        except ConcurrencyConflict:
            earlier = self._recorded(cid, same)
            if earlier is None:
                raise
            return earlier

    def _recorded(self, command_id: str, same: Callable[[list[EventBase]], bool]) -> list[EventBase] | None:
        stored = self.command_events(command_id)
        if not stored:
            return None
        events: list[EventBase] = [decoded(e) for e in stored]
        if not same(events):
            raise CommandIdReused(
                f"command id {command_id} was already used for another command",
                where="command id",
                hint="give each new command a fresh id; the same id only to retry that command",
            )
        self.result_at = stored[0].position
        return events

    def command_events(self, command_id: str) -> list[StoredEvent]:
        """The events command `command_id` stored in this session, or holds to store (`atomic`)."""
        stored = self.store.read_command(self.stream, command_id)
        if not stored and self._pending is not None:
            stored = self._pending.read_command(command_id)
        return stored

    @property
    def holding(self) -> bool:
        """Inside `atomic`: what is decided is held, not yet stored."""
        return self._pending is not None

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Every command run inside the block is decided on the state the one before it left,
        and all their events are stored at its end in one append, at the version the block
        began at: a refusal or any other error inside (or a race at the end) stores none of
        them and leaves this session as it was. Inside another block it is a step of that one:
        an error undoes the step's own commands, and the outer block stores the rest."""
        outer = self._pending is None
        if outer:
            self._pending = Pending(self.stream, self._count)
        saved = (self.state, self._count, self.next_id, self.dice_position, self.result_at)
        held = len(self._pending) if self._pending is not None else 0
        try:
            yield
            if outer and self._pending is not None:
                pending, self._pending = self._pending, None
                if pending.events:
                    self.store.append(self.stream, pending.events, pending.version)
        except BaseException:
            self.state, self._count, self.next_id, self.dice_position, self.result_at = saved
            if self._records is not None:
                del self._records[self._count :]
            if outer:
                self._pending = None
            elif self._pending is not None:
                self._pending.truncate(held)
            raise
        if outer:
            self._changed()

    def _changed(self) -> None:
        """After the state moved on: save a snapshot when the log crossed another boundary
        (once the events are stored: not while `atomic` holds them)."""
        if self._pending is not None:
            return
        if self._count // self.snapshot_every > self._snapshot_at // self.snapshot_every:
            save_snapshot(self.store, self.stream, self._count, self.state, self.next_id, self.dice_position)
            self._snapshot_at = self._count

    def issued(self, command_id: str) -> CommandBase | None:
        """The command that `command_id` recorded in this session, if it recorded one."""
        stored = self.command_events(check_command_id(command_id, where="command id"))
        first = decoded(stored[0]) if stored else None
        return first.issued if isinstance(first, CommandRecorded) else None

    def execute(
        self, command: Command | CommandBase, *, command_id: str | None = None, draw: bool = True, exact: bool = False
    ) -> list[EventBase]:
        """Decide, append, fold. A refused command writes nothing. `command_id` names this
        command (a fresh one by default); the same id again is a retry (see `_once`). A command
        that breaks its own types' constraints is `InvalidInput` (`engine.session.validate`).
        Dice: the command's own, then the seed's; with `draw` False and dice given, a roll
        beyond them is `DiceError` (nothing written); with `exact`, faces beyond its rolls are
        `ExtraFaces` (nothing written; else they are left unread)."""
        command = valid_command(command)

        def same(events: list[EventBase]) -> bool:
            record = events[0]
            if not isinstance(record, CommandRecorded):
                return False
            # at a table the record states what its players chose (`with_choices`): the same kind
            # of command under the same id is the one that was asked
            return record.issued == command or (self.table is not None and type(record.issued) is type(command))

        return self._once(
            command_id, same, lambda cid: self._execute(command, cid, draw=draw or not command.dice, exact=exact)
        )

    def preview(self, command: Command | CommandBase) -> list[EventBase]:
        """The events `command` would produce now, every roll beyond its own dice drawn from the
        seed; nothing is written and the session is left as it was (`Refused` as `execute`)."""
        command = valid_command(command)
        dice_before = self.dice_position
        try:
            events, _ = self._decide(self.state, command, self.next_id, command.dice, given=len(command.dice))
        finally:
            self.dice_position = dice_before
        return events

    def _execute(
        self, command: Command | CommandBase, command_id: str, *, draw: bool = True, exact: bool = False
    ) -> list[EventBase]:
        dice_before = self.dice_position
        try:
            events, new_state = self._decide(
                self.state, command, self.next_id, command.dice, draw=draw, exact=exact, table=self.table
            )
            self._append(events, command_id)
        except BaseException:
            self.dice_position = dice_before
            raise
        self.state = new_state
        self.next_id += 1
        self._changed()
        return events

    def undo(self, *, command_id: str | None = None) -> list[EventBase]:
        """Law 4: the latest command that counts stops counting."""
        return self._once(command_id, lambda events: isinstance(events[0], CommandUndone), self._undo)

    def _undo(self, command_id: str) -> list[EventBase]:
        effective = [e for e in command_entries(self.records) if e.status == "effective"]
        if not effective:
            raise Refused("there is nothing to undo")
        last = effective[-1]
        marker = CommandUndone(id=last.id, summary=summary_of(last.record))
        self._append([marker], command_id)
        self.state = effective_fold(self.records)
        self._changed()
        return [marker]

    def redo(self, *, command_id: str | None = None) -> list[EventBase]:
        """Law 4: the most recently undone command counts again (until a new command is made)."""
        return self._once(command_id, lambda events: isinstance(events[0], CommandRedone), self._redo)

    def _redo(self, command_id: str) -> list[EventBase]:
        stack = redo_stack(self.records)
        if not stack:
            raise Refused("there is nothing to redo", hint="redo only follows undo, before any new command")
        entry = next(e for e in command_entries(self.records) if e.id == stack[-1])
        marker = CommandRedone(id=entry.id, summary=summary_of(entry.record))
        self._append([marker], command_id)
        self.state = effective_fold(self.records)
        self._changed()
        return [marker]

    def amend(
        self, number: int, corrected: Command | CommandBase, /, note: str = "", *, command_id: str | None = None
    ) -> Amendment:
        """Law 5: replace command #`number` and re-decide it and every later command with the
        dice they recorded (fresh dice only if the corrected history needs more). All or nothing.
        `command_id` names this amend (fresh by default; the same one to retry it)."""
        corrected = valid_command(corrected)
        amendments: list[Amendment] = []

        def same(events: list[EventBase]) -> bool:
            return isinstance(events[0], CommandAmended) and events[0].id == number

        def run(cid: str) -> list[EventBase]:
            amendments.append(self._amend(number, corrected, note, cid))
            return amendments[-1].new_events

        events = self._once(command_id, same, run)
        if amendments:
            return amendments[0]
        return self._amendment_at(self.result_at, events)

    def _amendment_at(self, position: int, events: list[EventBase]) -> Amendment:
        """The amendment recorded at `position` (a retry's answer), rebuilt from the log."""
        marker = events[0]
        assert isinstance(marker, CommandAmended)
        superseded = set(marker.superseded)
        return Amendment(
            before=self.state_at(position - 1),
            after=self.state_at(position + len(events) - 1),
            old_events=[ev for _, ev in self.records[: position - 1] if ev.command in superseded],
            new_events=events[1:],
        )

    def _amend(self, number: int, corrected: Command | CommandBase, note: str, cid: str) -> Amendment:
        entries = [e for e in command_entries(self.records) if e.status == "effective"]
        ids = [e.id for e in entries]
        if number not in ids:
            known = ", ".join(f"#{i}" for i in ids) or "none"
            raise Refused(f"command #{number} is not one that counts now", hint=f"commands that count: {known}")
        index = ids.index(number)
        later = entries[index:]
        base = effective_fold(self.records, also_skip=ids[index:])
        dice_before, next_before = self.dice_position, self.next_id
        new_events: list[EventBase] = []
        state = base
        k = 0
        try:
            for k, entry in enumerate(later):
                record = entry.record
                command = corrected if k == 0 else record.issued
                # the recorded dice, in the order they were used: the table's, then the seeded ones;
                # the corrected command's own table dice replace the table's (the GM says what was rolled)
                faces, given = record.dice_used, record.table_dice
                if k == 0 and corrected.dice:
                    faces, given = (*corrected.dice, *record.dice_used[record.table_dice :]), len(corrected.dice)
                events, state = self._decide(state, command, self.next_id, faces, given=given)
                self.next_id += 1
                new_events.extend(events)
        except Refused as exc:
            self.dice_position, self.next_id = dice_before, next_before
            what = "the amended command" if k == 0 else f"command #{later[k].id} after it"
            raise Refused(f"the amend no longer makes sense: {what} is refused: {exc.message}", hint=exc.hint) from None
        except BaseException:
            self.dice_position, self.next_id = dice_before, next_before
            raise
        marker = CommandAmended(
            id=number,
            superseded=tuple(e.id for e in later),
            replacements=tuple(range(next_before, self.next_id)),
            note=note,
        )
        old_events = [ev for _, ev in self.records if ev.command in set(marker.superseded)]
        before = self.state
        try:
            self._append([marker, *new_events], cid)
        except BaseException:
            self.dice_position, self.next_id = dice_before, next_before
            raise
        self.state = effective_fold(self.records)
        self._changed()
        return Amendment(before=before, after=self.state, old_events=old_events, new_events=new_events)

    def state_at(self, position: int) -> Encounter:
        """The state as it was right after event `position` (markers up to there included)."""
        state: Encounter = effective_fold(self.records[:position])
        return state


Session = LiveEncounter
