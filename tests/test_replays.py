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
from engine.state.encounter import Encounter
from engine.state.ua3.encounter import Ua3Encounter
from engine.store.jsonl import JsonlStore
from tests.golden import (
    REPLAYS,
    SESSION_FILE,
    SIMULATED,
    UA3_SESSION_FILE,
    Simulated,
    session_log,
    simulated_log,
    state_file,
    ua3_session_log,
)

LOGS = sorted(REPLAYS.rglob("*.jsonl"))


def records_of(path: Path) -> list[tuple[int, object]]:
    store = JsonlStore(path)
    (stream,) = store.streams()
    return list(stored_events(store, stream))  # type: ignore[arg-type]


def test_there_is_a_golden_log_for_every_scenario_kind_and_for_undo_and_amend() -> None:
    names = {str(p.relative_to(REPLAYS)) for p in LOGS}
    assert {s.file for s in SIMULATED} | {SESSION_FILE} <= names
    assert (REPLAYS / UA3_SESSION_FILE) in LOGS
    assert any(p.parent.name.startswith("schema-v") for p in LOGS)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_a_golden_log_folds_to_its_recorded_state(path: Path) -> None:
    raw = state_file(path).read_bytes()
    state_type = find_ruleset(msgspec.json.decode(raw).get("ruleset", "ua2")).state_type
    expected = msgspec.json.decode(raw, type=state_type)
    assert type(expected) is (Ua3Encounter if path.parent.name == "ua3" else Encounter)
    assert effective_fold(records_of(path)) == expected  # type: ignore[arg-type]


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


def test_the_golden_ua3_session_is_rebuilt_byte_for_byte_and_ends_as_its_commands_left_it() -> None:
    """U-23, U-25, U-15, U-16, U-21, C-9: the ua3 session at the table, with an undo, a redo and
    an amend (law 5: the amended stress check re-decides everything after it)."""
    assert ua3_session_log() == (REPLAYS / UA3_SESSION_FILE).read_bytes()
    state = effective_fold(records_of(REPLAYS / UA3_SESSION_FILE))  # type: ignore[arg-type]
    assert isinstance(state, Ua3Encounter)
    marge = state.combatant("Marge")
    assert marge is not None and marge.gauges.violence.hardened == 2  # the amended roll, 41: success
    assert marge.gauges.unnatural.failed == 1 and marge.reaction is None  # refused Agnes, fled; Agnes gone
    (conflict,) = state.conflicts
    assert conflict.token == "balance" and not conflict.over


def test_the_old_schema_log_is_really_old_and_upcast_on_read() -> None:
    path = REPLAYS / "schema-v1" / "session-v1.jsonl"
    store = JsonlStore(path)
    started = next(e for e in store.read(store.streams()[0]) if e.type == "encounter_started")
    assert started.schema_version == 1 and b"scenario" not in started.data
    state = effective_fold(records_of(path))  # type: ignore[arg-type]
    assert state.scenario == "" and state.title.startswith("Knife against a .22")
