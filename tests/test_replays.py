"""Golden replays (DESIGN law 2): every log in `replays/` folds to its recorded state, re-decides
command by command, and — for simulated fights — re-simulates byte for byte."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from engine.rules.registry import find_ruleset
from engine.session.history import effective_fold
from engine.session.live import stored_events
from engine.session.verify import verify
from engine.store.jsonl import JsonlStore
from tests.golden import REPLAYS, SESSION_FILE, SIMULATED, Simulated, session_log, simulated_log, state_file

LOGS = sorted(REPLAYS.rglob("*.jsonl"))


def records_of(path: Path) -> list[tuple[int, object]]:
    store = JsonlStore(path)
    (stream,) = store.streams()
    return list(stored_events(store, stream))  # type: ignore[arg-type]


def test_there_is_a_golden_log_for_every_scenario_kind_and_for_undo_and_amend() -> None:
    names = {str(p.relative_to(REPLAYS)) for p in LOGS}
    assert {s.file for s in SIMULATED} | {SESSION_FILE} <= names
    assert any(p.parent.name.startswith("schema-v") for p in LOGS)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_a_golden_log_folds_to_its_recorded_state(path: Path) -> None:
    folded = effective_fold(records_of(path))  # type: ignore[arg-type]
    state_type = find_ruleset(folded.ruleset).state_type  # each ruleset's own state (ua2, ua3)
    expected = msgspec.json.decode(state_file(path).read_bytes(), type=state_type)
    assert folded == expected


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_every_command_of_a_golden_log_re_decides_to_the_same_events(path: Path) -> None:
    result = verify(records_of(path))  # type: ignore[arg-type]
    assert result.ok, result.mismatch
    assert result.commands > 0


@pytest.mark.parametrize("item", SIMULATED, ids=lambda s: s.file)
def test_a_simulated_golden_fight_re_simulates_byte_for_byte(item: Simulated) -> None:
    assert simulated_log(item) == (REPLAYS / item.file).read_bytes()


def test_the_golden_session_is_rebuilt_byte_for_byte() -> None:
    assert session_log() == (REPLAYS / SESSION_FILE).read_bytes()


def test_the_old_schema_log_is_really_old_and_upcast_on_read() -> None:
    path = REPLAYS / "schema-v1" / "session-v1.jsonl"
    store = JsonlStore(path)
    started = next(e for e in store.read(store.streams()[0]) if e.type == "encounter_started")
    assert started.schema_version == 1 and b"scenario" not in started.data
    state = effective_fold(records_of(path))  # type: ignore[arg-type]
    assert state.scenario == "" and state.title.startswith("Knife against a .22")
