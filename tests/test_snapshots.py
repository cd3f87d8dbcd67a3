"""Snapshots (DESIGN: Undo — "use snapshots so that this stays cheap"): a long session opens
from its latest snapshot and the events after it, and always to the state the whole log folds to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import RollCheck, Ruling, StartEncounter
from engine.dice.checks import CheckSpec
from engine.errors import Refused
from engine.session.live import LiveEncounter, load_state
from engine.store.base import EventData, StoredEvent
from engine.store.sqlite import SqliteStore

CHECK = RollCheck(spec=CheckSpec(kind="major", rating=45))


class CountingStore(SqliteStore):
    """A SQLite store that counts the events read back."""

    read_count = 0

    def read(self, stream: str, from_position: int = 1) -> Iterator[StoredEvent]:
        events = list(super().read(stream, from_position))
        self.read_count += len(events)
        return iter(events)

    def read_data(self, stream: str, from_position: int = 1) -> Iterator[EventData]:
        rows = list(super().read_data(stream, from_position))
        self.read_count += len(rows)
        return iter(rows)


@pytest.fixture
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LiveEncounter, "snapshot_every", 10)


def session(path: Path) -> LiveEncounter:
    live = LiveEncounter(SqliteStore(path), "s")
    live.execute(StartEncounter(seed=4))
    return live


@pytest.mark.usefixtures("small_snapshots")
def test_a_long_session_opens_from_its_snapshot_reading_only_the_events_after_it(tmp_path: Path) -> None:
    live = session(tmp_path / "s.sqlite")
    for _ in range(30):
        live.execute(CHECK)
    store = CountingStore(tmp_path / "s.sqlite")
    reopened = LiveEncounter(store, "s")
    assert store.read_count < 10  # the snapshot, then at most a few events after it
    assert reopened.state == load_state(SqliteStore(tmp_path / "s.sqlite"), "s") == live.state
    assert (reopened.version, reopened.next_id, reopened.dice_position) == (
        live.version,
        live.next_id,
        live.dice_position,
    )


@pytest.mark.usefixtures("small_snapshots")
def test_an_undo_after_the_snapshot_makes_the_session_fold_the_whole_log(tmp_path: Path) -> None:
    live = session(tmp_path / "s.sqlite")
    for _ in range(12):
        live.execute(CHECK)
    live.undo()
    store = CountingStore(tmp_path / "s.sqlite")
    reopened = LiveEncounter(store, "s")
    assert store.read_count >= live.version  # the whole log: the marker may reach back
    assert reopened.state == live.state


@pytest.mark.usefixtures("small_snapshots")
def test_a_snapshot_that_does_not_decode_is_ignored(tmp_path: Path) -> None:
    live = session(tmp_path / "s.sqlite")
    for _ in range(12):
        live.execute(CHECK)
    store = SqliteStore(tmp_path / "s.sqlite")
    store.save_snapshot("s", 10_000, b"not a snapshot")
    assert LiveEncounter(store, "s").state == live.state


@pytest.mark.usefixtures("small_snapshots")
def test_records_are_read_when_undo_needs_them(tmp_path: Path) -> None:
    live = session(tmp_path / "s.sqlite")
    for _ in range(11):
        live.execute(Ruling(note="n"))
    reopened = LiveEncounter(SqliteStore(tmp_path / "s.sqlite"), "s")
    reopened.undo()
    assert reopened.state == load_state(SqliteStore(tmp_path / "s.sqlite"), "s")
    assert len(reopened.records) == reopened.version


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["check", "ruling", "undo", "redo", "reopen"]), max_size=40))
def test_reopening_always_gives_the_state_of_the_whole_log(
    tmp_path_factory: pytest.TempPathFactory, steps: list[str]
) -> None:
    path = tmp_path_factory.mktemp("snap") / "s.sqlite"
    LiveEncounter.snapshot_every = 7
    try:
        live = session(path)
        for step in steps:
            try:
                if step == "check":
                    live.execute(CHECK)
                elif step == "ruling":
                    live.execute(Ruling(note="r"))
                elif step == "undo":
                    live.undo()
                elif step == "redo":
                    live.redo()
                else:
                    live = LiveEncounter(SqliteStore(path), "s")
            except Refused:
                pass
            reopened = LiveEncounter(SqliteStore(path), "s")
            assert reopened.state == live.state == load_state(SqliteStore(path), "s")
            assert (reopened.next_id, reopened.dice_position) == (live.next_id, live.dice_position)
    finally:
        LiveEncounter.snapshot_every = 1000
