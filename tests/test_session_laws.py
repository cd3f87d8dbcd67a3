"""DESIGN laws 1, 4, 5 and 7 for live sessions: random GM commands on a SQLite session.

A `RuleBasedStateMachine` plays a GM at the table: the current actor's attack, dodge, draw or
nothing (dice rolled at the table or drawn from the seed), declarations, madness checks, rulings,
undo, redo, amends of a random command that counts, an export to JSON lines imported as a new
session, and closing and reopening the database. A model of the commands that count (each with
the state before and after it) says what undo, redo and amend must give.

After every step: the stored log folds to the live state, a session reopened on the file sees
the same state and cursors, the log only grew, and every command re-decides with its dice.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.commands import (
    Attack,
    BeginFight,
)
from engine.commands.base import CommandBase
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded, CommandUndone
from engine.reducers import fold
from engine.rules.ua2 import RULESET
from engine.session.history import command_entries, effective_fold
from engine.session.live import Amendment, LiveEncounter, import_log, load_state, stored_events
from engine.session.verify import verify
from engine.state.encounter import Encounter
from engine.store.base import StoredEvent
from engine.store.jsonl import JsonlStore, write_log
from engine.store.sqlite import SqliteStore
from tests.rulesets.ua2_play import LOADED, commands_for, setup_commands, wild_commands


@dataclass(frozen=True)
class Step:
    """A command that counts, with the state it was decided on and the state it left."""

    id: int
    before: Encounter
    after: Encounter


def batches(events: list[EventBase]) -> list[list[EventBase]]:
    """Events of several commands, one list per command (each starting with its record)."""
    out: list[list[EventBase]] = []
    for e in events:
        if isinstance(e, CommandRecorded):
            out.append([])
        out[-1].append(e)
    return out


class SessionLaws(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="ua-session-laws-"))
        self.db = self.dir / "sessions.sqlite"
        self.store = SqliteStore(self.db)
        self.name = "table"
        self.imports = 0
        self.live = LiveEncounter(self.store, self.name)
        self.setup: list[CommandBase] = []
        self.chain: list[Step] = []  # the commands that count, in order
        self.undone: list[Step] = []  # what redo brings back, latest last
        self.seen: list[StoredEvent] = []  # the log as last read

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- helpers --------------------------------------------------------------------------

    @property
    def state(self) -> Encounter:
        return self.live.state

    def execute(self, command: CommandBase) -> list[EventBase] | None:
        """Run a command; a refusal must change nothing. Updates the model."""
        before, version = self.state, self.live.version
        cursors = (self.live.next_id, self.live.dice_position)
        try:
            events = self.live.execute(command)
        except Refused:
            self.assert_unchanged(before, version, cursors)
            return None
        assert self.live.version == version + len(events)
        assert self.state == fold(events, before)
        assert isinstance(events[0], CommandRecorded)
        self.chain.append(Step(events[0].id, before, self.state))
        self.undone.clear()
        return events

    def assert_unchanged(self, before: Encounter, version: int, cursors: tuple[int, int]) -> None:
        assert self.state == before
        assert self.live.version == version
        assert self.store.version(self.name) == version, "a refused command appended events"
        assert (self.live.next_id, self.live.dice_position) == cursors

    # -- rules ----------------------------------------------------------------------------

    @initialize(
        scenario=st.sampled_from(sorted(LOADED)),
        seed=st.integers(0, 2**32 - 1),
        begin=st.sampled_from([True, True, True, False]),
    )
    def start(self, scenario: str, seed: int, begin: bool) -> None:
        self.setup = setup_commands(LOADED[scenario], seed)
        for command in [*self.setup, BeginFight()] if begin else self.setup:
            assert self.execute(command) is not None

    @rule(data=st.data(), count=st.integers(1, 6))
    def gm_commands(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            self.execute(data.draw(commands_for(self.state, self.setup), label="command"))

    @precondition(lambda self: self.state.fight.phase in ("ambush", "acting"))
    @rule(data=st.data(), count=st.integers(1, 6))
    def fight_on(self, data: st.DataObject, count: int) -> None:
        """Turns in order: the current actor attacks (mostly), dodges, draws or waits."""
        for _ in range(count):
            self.execute(data.draw(commands_for(self.state, self.setup, fighting=True), label="turn"))

    @rule(data=st.data())
    def mistaken_command(self, data: st.DataObject) -> None:
        """A command typed by mistake is refused and changes nothing (or is legal and counts)."""
        current = RULESET.acting_now(self.state)
        others = [c.id for c in self.state.combatants if c.id != current]
        if self.state.fight.phase == "acting" and current is not None and others and data.draw(st.booleans()):
            actor = data.draw(st.sampled_from(others), label="out of turn")
            assert self.execute(Attack(actor=actor, target=current)) is None, "an attack out of turn was not refused"
            return
        self.execute(data.draw(wild_commands(self.state), label="mistake"))

    @rule()
    def undo(self) -> None:
        before, version = self.state, self.live.version
        cursors = (self.live.next_id, self.live.dice_position)
        if not self.chain:
            try:
                self.live.undo()
            except Refused:
                self.assert_unchanged(before, version, cursors)
                return
            raise AssertionError("undo with nothing to undo was not refused")
        step = self.chain.pop()
        (marker,) = self.live.undo()
        assert isinstance(marker, CommandUndone) and marker.id == step.id
        assert self.state == step.before  # law 4: exactly the state before it
        self.undone.append(step)

    @rule()
    def redo(self) -> None:
        before, version = self.state, self.live.version
        cursors = (self.live.next_id, self.live.dice_position)
        if not self.undone:
            try:
                self.live.redo()
            except Refused:
                self.assert_unchanged(before, version, cursors)
                return
            raise AssertionError("redo with nothing undone (or after a new command) was not refused")
        step = self.undone.pop()
        self.live.redo()
        assert self.state == step.after  # law 4: exactly the state after it
        self.chain.append(step)

    @rule(data=st.data())
    def do_undo_redo(self, data: st.DataObject) -> None:
        before = self.state
        events = self.execute(data.draw(commands_for(self.state, self.setup), label="command"))
        if events is None:
            return
        after = self.state
        self.undo()
        assert self.state == before
        self.redo()
        assert self.state == after

    def pick(self, data: st.DataObject) -> int:
        """A command that counts: mostly one of the last few, sometimes any."""
        last = len(self.chain) - 1
        recent = st.integers(max(0, last - 4), last)
        return data.draw(st.one_of(recent, recent, st.integers(0, last)), label="amended")

    @precondition(lambda self: bool(self.chain))
    @rule(data=st.data())
    def amend(self, data: st.DataObject) -> None:
        index = self.pick(data)
        step = self.chain[index]
        corrected = data.draw(
            st.one_of(commands_for(step.before, self.setup), wild_commands(step.before)), label="corrected"
        )
        self.amend_with(index, corrected)

    @precondition(lambda self: bool(self.chain))
    @rule(data=st.data())
    def amend_with_itself(self, data: st.DataObject) -> None:
        index = self.pick(data)
        record = self.record_of(self.chain[index].id)
        before = self.state
        amendment = self.amend_with(index, record.issued)
        assert amendment is not None, "amending a command with itself was refused"
        assert self.state == before  # law 5: the same command and dice change nothing
        for old, new in zip(
            [e for e in amendment.old_events if not isinstance(e, CommandRecorded)],
            [e for e in amendment.new_events if not isinstance(e, CommandRecorded)],
            strict=True,
        ):
            assert msgspec.structs.replace(old, command=0) == msgspec.structs.replace(new, command=0)

    def record_of(self, command_id: int) -> CommandRecorded:
        return next(e.record for e in command_entries(self.live.records) if e.id == command_id)

    def amend_with(self, index: int, corrected: CommandBase) -> Amendment | None:
        before, version = self.state, self.live.version
        cursors = (self.live.next_id, self.live.dice_position)
        step = self.chain[index]
        try:
            amendment = self.live.amend(step.id, corrected, note="at the table")
        except Refused as exc:
            assert exc.message.startswith("the amend no longer makes sense")
            self.assert_unchanged(before, version, cursors)
            return None
        assert amendment.before == before and amendment.after == self.state
        # the corrected history: the commands before it, then each replacement in turn
        replaced = self.chain[index:]
        assert [e.command for e in amendment.old_events if isinstance(e, CommandRecorded)] == [s.id for s in replaced]
        state = step.before
        self.chain[index:] = []
        for batch in batches(amendment.new_events):
            after = fold(batch, state)
            assert isinstance(batch[0], CommandRecorded)
            self.chain.append(Step(batch[0].id, state, after))
            state = after
        assert state == self.state
        # law 5: every re-decided command reused the dice it had recorded
        for old, new in zip(replaced[1:], self.chain[index + 1 :], strict=True):
            old_dice, new_dice = self.record_of(old.id).dice_used, self.record_of(new.id).dice_used
            shared = min(len(old_dice), len(new_dice))
            assert old_dice[:shared] == new_dice[:shared]
        self.undone.clear()
        return amendment

    @rule()
    def export_and_import(self) -> None:
        """Export to JSON lines, import as a new session, and go on there."""
        self.imports += 1
        path = self.dir / f"export-{self.imports}.jsonl"
        write_log(path, self.store.read(self.name))
        with JsonlStore(path) as replay:
            (stream,) = replay.streams()
            records = list(stored_events(replay, stream))
            command_ids = [e.command_id for e in replay.read(stream)]
        assert records == self.live.records
        assert command_ids == [e.command_id for e in self.store.read(self.name)]
        name = f"imported-{self.imports}"
        import_log(self.store, name, records, command_ids)
        self.live = LiveEncounter(self.store, name)
        self.name = name
        self.seen = []

    @rule()
    def close_and_reopen(self) -> None:
        cursors = (self.live.next_id, self.live.dice_position)
        state = self.state
        self.store.close()
        self.store = SqliteStore(self.db)
        self.live = LiveEncounter(self.store, self.name)
        assert self.state == state
        assert (self.live.next_id, self.live.dice_position) == cursors

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def the_log_only_grows(self) -> None:
        stored = list(self.store.read(self.name))
        assert len(stored) >= len(self.seen)
        assert stored[: len(self.seen)] == self.seen
        self.seen = stored

    @invariant()
    def fold_of_the_log_is_the_live_state(self) -> None:
        records = list(stored_events(self.store, self.name))
        assert records == self.live.records
        assert effective_fold(records) == self.state  # law 1
        assert self.state == (self.chain[-1].after if self.chain else effective_fold([]))

    @invariant()
    def a_reopened_session_sees_the_same(self) -> None:
        with SqliteStore(self.db) as other:
            assert load_state(other, self.name) == self.state
            again = LiveEncounter(other, self.name)
            assert again.state == self.state
            assert (again.next_id, again.dice_position) == (self.live.next_id, self.live.dice_position)

    @invariant()
    def every_command_re_decides_with_its_dice(self) -> None:
        result = verify(self.live.records)
        assert result.ok, result.mismatch

    @invariant()
    def redo_is_possible_exactly_when_the_model_says(self) -> None:
        from engine.session.history import redo_stack

        assert redo_stack(self.live.records) == [s.id for s in self.undone]


SessionLaws.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_session_laws = SessionLaws.TestCase
