"""The ruleset contract: DESIGN's laws, written once and run for every registered ruleset
(like the store contract, `tests/store/contract.py`; STYLE: OpenSpiel's `random_sim_test`).

A ruleset's test module subclasses `RulesetContract` and says only how to play it: how an
encounter of it is set up, which commands a GM could give in a state (mostly legal ones), which
commands a GM might give by mistake, its shipped scenarios and its golden replays.

- Law 1: after any sequence of commands the fold of the stored log is the live state; counting
  and recording sinks decide the same facts from the same commands (a refused command changes
  nothing), and the recorded facts fold to the counted table; in a batch (for a ruleset whose
  combatants can be scripted into fights), counting and recording sinks fight one fight, and a
  kept log folds to its table.
- Law 2: each golden replay folds to the state stored with it and re-decides command by command.
- Law 3: the same seed and commands give the same log; a batch is the same on 1 and 2 workers.
- Law 4: undo restores the state before the command, redo the state after; the log only grows.
- Law 5: amending a command with itself re-decides it and all later ones to the same states.
- Law 6: no reducer raises on an event the rules decided (every fold above).
- Law 8: every event the rules decide decodes back to itself from its own encoding, by any
  ruleset's decoder and by its own ruleset's (whose plug-in names every event type its rules
  apply and every command they decide).
- Every command gives events or a refusal, never another exception.
"""

from __future__ import annotations

import tempfile
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import StartEncounter
from engine.commands.base import CommandBase
from engine.dice.source import SeededDice, TableDice, derive_seed
from engine.errors import EngineError, Refused
from engine.events import decode, decoder_of, encode
from engine.events.commands import CommandRecorded
from engine.reducers import fold
from engine.rules.registry import available, command_types, event_types, find_ruleset
from engine.scenario.scenario import load_scenario
from engine.session.encoding import stored_log
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter, load_state, stored_events
from engine.session.replayfile import read_replay
from engine.session.verify import verify
from engine.simulate.batch import run_batch
from engine.simulate.fight import prepare, run_fight
from engine.simulate.outcome import outcome_of
from engine.simulate.stats import summary
from engine.store.base import StoredEvent
from engine.store.jsonl import JsonlStore, write_log
from engine.store.memory import MemoryStore

STEPS = 25
#: Every ruleset runs these same methods (one subclass each): differing executors are the point.
LAWS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
)


class RulesetContract(ABC):
    """Laws every ruleset keeps. Subclasses set `ruleset` and say how to play it."""

    ruleset: ClassVar[str]
    #: Whether a command the rules refuse leaves the working table as it was (sessions decide on
    #: a copy and write nothing either way; batches count on it).
    refusals_change_nothing: ClassVar[bool] = True

    @abstractmethod
    def setup(self, seed: int) -> list[CommandBase]:
        """The commands that start an encounter of this ruleset and add its combatants."""

    @abstractmethod
    def commands(self, state: Any) -> st.SearchStrategy[CommandBase]:
        """A command a GM could give in `state` (mostly legal ones)."""

    @abstractmethod
    def mistakes(self, state: Any) -> st.SearchStrategy[CommandBase]:
        """A command a GM might give by mistake in `state` (unknown people, illegal actions)."""

    @abstractmethod
    def scenarios(self) -> Sequence[Path]:
        """Shipped scenario files of this ruleset."""

    @abstractmethod
    def goldens(self) -> Sequence[Path]:
        """Golden replay logs of this ruleset (each with its `.state.json`)."""

    # -- playing -----------------------------------------------------------------------------

    def _session(self, seed: int) -> LiveEncounter:
        live = LiveEncounter(MemoryStore(), "contract")
        for command in self.setup(seed):
            live.execute(command)
        return live

    def _play(self, data: st.DataObject, live: LiveEncounter, steps: int = STEPS) -> list[CommandBase]:
        """Up to `steps` commands drawn for the state each meets (refusals change nothing)."""
        given_commands = []
        for _ in range(steps):
            state = live.state
            command = data.draw(st.one_of(self.commands(state), self.commands(state), self.mistakes(state)))
            given_commands.append(command)
            try:
                live.execute(command)
            except Refused:
                continue
        return given_commands

    # -- the laws ----------------------------------------------------------------------------

    def test_the_ruleset_is_registered(self) -> None:
        assert find_ruleset(self.ruleset).name == self.ruleset

    def test_its_plug_in_names_every_event_type_it_applies_and_every_command_it_decides(self) -> None:
        ruleset = find_ruleset(self.ruleset)
        assert set(event_types(self.ruleset)) == set(ruleset.appliers)
        assert set(command_types(self.ruleset)) == set(ruleset.handlers)

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_1_the_fold_of_the_stored_log_is_the_live_state(self, data: st.DataObject, seed: int) -> None:
        live = self._session(seed)
        for _ in range(STEPS):
            command = data.draw(self.commands(live.state))
            try:
                live.execute(command)
            except Refused:
                continue
            assert load_state(live.store, live.stream) == live.state

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_every_command_gives_events_or_a_refusal_never_another_exception(
        self, data: st.DataObject, seed: int
    ) -> None:
        live = self._session(seed)
        for _ in range(STEPS):
            command = data.draw(st.one_of(self.commands(live.state), self.mistakes(live.state)))
            try:
                live.execute(command)
            except EngineError:
                continue  # a refusal, or dice a person gave that do not fit: one clear error

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_8_every_decided_event_decodes_back_to_itself(self, data: st.DataObject, seed: int) -> None:
        live = self._session(seed)
        self._play(data, live)
        own = decoder_of(self.ruleset)
        for position, event in stored_events(live.store, live.stream):
            assert decode(encode(event), where=f"event {position}") == event
            assert own.decode(encode(event)) == event

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_3_the_same_seed_and_commands_give_the_same_log(self, data: st.DataObject, seed: int) -> None:
        live = self._session(seed)
        given_commands = self._play(data, live)
        again = self._session(seed)
        for command in given_commands:
            try:
                again.execute(command)
            except Refused:
                continue
        first = [e for _, e in stored_events(live.store, live.stream)]
        second = [e for _, e in stored_events(again.store, again.stream)]
        assert first == second

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_4_undo_restores_the_state_before_and_redo_the_state_after(
        self, data: st.DataObject, seed: int
    ) -> None:
        live = self._session(seed)
        self._play(data, live, steps=10)
        command = data.draw(self.commands(live.state))
        before, length = live.state, live.version
        try:
            live.execute(command)
        except Refused:
            return
        after = live.state
        live.undo()
        assert _same(live.state, before) and live.version > length
        live.redo()
        assert _same(live.state, after)
        assert effective_fold(live.records) == live.state

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_5_amending_a_command_with_itself_re_decides_to_the_same_states(
        self, data: st.DataObject, seed: int
    ) -> None:
        live = self._session(seed)
        self._play(data, live, steps=12)
        entries = [e for e in _entries(live) if e.status == "effective"]
        target = data.draw(st.sampled_from(entries))
        before = live.state
        live.amend(target.id, target.record.issued)
        assert _same(live.state, before)
        assert verify(live.records).ok

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_every_log_the_engine_writes_verifies_as_a_file(self, data: st.DataObject, seed: int) -> None:
        """Issue 26: a session's log — commands and mistakes, undo, redo, amends, its start undone
        and an encounter of another ruleset started over it — written as a file, then read back,
        verifies with its command ids: its setup and exactly what its commands decide."""
        live = self._session(seed)
        for _ in range(12):
            action = data.draw(st.sampled_from(["command"] * 4 + ["undo", "redo", "amend", "restart"]))
            try:
                if action == "command":
                    live.execute(data.draw(st.one_of(self.commands(live.state), self.mistakes(live.state))))
                elif action == "undo":
                    live.undo()
                elif action == "redo":
                    live.redo()
                elif action == "amend":
                    effective = [e for e in _entries(live) if e.status == "effective"]
                    if not effective:
                        continue
                    target = data.draw(st.sampled_from(effective))
                    corrected = data.draw(st.one_of(st.just(target.record.issued), self.commands(live.state)))
                    live.amend(target.id, corrected)
                else:
                    _restart_as_another_ruleset(live, self.ruleset, seed)
            except Refused:
                continue
        _verifies_as_written(list(live.store.read(live.stream)))

    def test_every_fight_log_the_engine_writes_verifies_as_a_file(self) -> None:
        """Issue 26: `ua fight --save` and `simulate --keep` logs (a setup append of no command,
        then the commands) verify as written."""
        for path in self.scenarios():
            prep = prepare(load_scenario(path))
            for i in range(3):
                run = run_fight(prep, derive_seed(11, i), keep_log=True)
                _verifies_as_written(stored_log("fight", run.events, seed=run.seed))

    def test_law_2_golden_replays_fold_to_their_states_and_re_decide(self) -> None:
        ruleset = find_ruleset(self.ruleset)
        assert self.goldens(), "a ruleset ships golden replays"
        for path in self.goldens():
            store = JsonlStore(path)
            (stream,) = store.streams()
            records = list(stored_events(store, stream))
            state_file = path.with_name(path.name.removesuffix(".jsonl") + ".state.json")
            stored = msgspec.json.decode(state_file.read_bytes(), type=ruleset.state_type)
            assert effective_fold(records) == stored, path.name
            assert verify(records).ok, path.name

    @LAWS
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def test_law_1_counting_and_recording_sinks_decide_the_same_facts(self, data: st.DataObject, seed: int) -> None:
        ruleset = find_ruleset(self.ruleset)
        start = self._session(seed).state
        recording = ruleset.sink(ruleset.thaw(start), record=True)
        counting = ruleset.sink(ruleset.thaw(start), record=False)
        dice = {id(recording): SeededDice(seed), id(counting): SeededDice(seed)}
        for _ in range(STEPS):
            command = data.draw(st.one_of(self.commands(recording.table.freeze()), self.mistakes(start)))
            outcomes = []
            for sink in (recording, counting):
                before, kept = sink.table.freeze(), len(sink.events or ())
                try:
                    ruleset.handle(sink, command, TableDice(command.dice, fallback=dice[id(sink)]))
                    outcomes.append("decided")
                except EngineError:
                    outcomes.append("refused")
                    changed = sink.table.freeze() != before
                    assert not (changed and self.refusals_change_nothing), (
                        f"{command!r} was refused after changing the table"
                    )
                    sink.table = ruleset.thaw(before)  # as a session does: a refused command writes nothing
                    if sink.events is not None:
                        del sink.events[kept:]
            assert outcomes[0] == outcomes[1]
        assert recording.table.freeze() == counting.table.freeze()
        assert ruleset.fold(recording.recorded, start) == counting.table.freeze()

    def test_law_1_counting_and_recording_sinks_fight_one_fight(self) -> None:
        for path in self.scenarios():
            prep = prepare(load_scenario(path))
            for i in range(10):
                seed = derive_seed(5, i)
                counted = outcome_of(prep, run_fight(prep, seed))
                logged = run_fight(prep, seed, keep_log=True)
                assert outcome_of(prep, logged)._replace(events=counted.events) == counted, path.name
                assert fold(logged.events) == logged.state, path.name

    def test_law_3_a_batch_is_the_same_on_one_and_two_workers(self) -> None:
        path = self.scenarios()[0]
        loaded = load_scenario(path)
        one = summary(*run_batch(loaded, 400, 9, workers=1)[:2], seed=9)
        two = summary(*run_batch(loaded, 400, 9, workers=2)[:2], seed=9)
        assert msgspec.json.encode(one) == msgspec.json.encode(two)


def _same(a: Any, b: Any) -> bool:
    """The same encounter whatever the version (undo and redo markers add to the log)."""
    return bool(msgspec.structs.replace(a, version=0) == msgspec.structs.replace(b, version=0))


def _restart_as_another_ruleset(live: LiveEncounter, ruleset: str, seed: int) -> None:
    """Every command that counts undone, the start too, then an encounter of another ruleset."""
    while any(e.status == "effective" for e in _entries(live)):
        live.undo()
    other = next((name for name in available() if name != ruleset), ruleset)
    live.execute(StartEncounter(ruleset=other, seed=seed))


def _verifies_as_written(stored: Sequence[StoredEvent]) -> None:
    """The log written as a JSON-lines file verifies, read back with its command ids."""
    with tempfile.TemporaryDirectory(prefix="ua-contract-") as folder:
        path = Path(folder) / "log.jsonl"
        write_log(path, stored)
        log = read_replay(path)
        result = verify(log)
        assert result.ok, result.mismatch
        assert result.commands == sum(1 for _, e in log.records if isinstance(e, CommandRecorded))


def _entries(live: LiveEncounter) -> list[Any]:
    from engine.session.history import command_entries

    return command_entries(live.records)
