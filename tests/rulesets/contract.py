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

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands.base import CommandBase
from engine.dice.source import SeededDice, TableDice, derive_seed
from engine.errors import EngineError, Refused
from engine.events import decode, decoder_of, encode
from engine.reducers import fold
from engine.rules.registry import command_types, event_types, find_ruleset
from engine.scenario.scenario import load_scenario
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter, load_state, stored_events
from engine.session.verify import verify
from engine.simulate.batch import run_batch
from engine.simulate.fight import prepare, run_fight
from engine.simulate.outcome import outcome_of
from engine.simulate.stats import summary
from engine.store.jsonl import JsonlStore
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


def _entries(live: LiveEncounter) -> list[Any]:
    from engine.session.history import command_entries

    return command_entries(live.records)
