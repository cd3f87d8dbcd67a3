"""The timeline of a session log (`engine.session.timeline`): the state after each event in one
pass is exactly `state_at(p)`, the fold of the log up to p, undo, redo and amend included."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.session.history import effective_fold
from engine.session.live import stored_events
from engine.session.timeline import states_along
from engine.store.jsonl import JsonlStore

REPLAYS = sorted(Path("replays").glob("*.jsonl"))


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_the_state_after_each_event_is_the_fold_up_to_it(path: Path) -> None:
    store = JsonlStore(path)
    for stream in store.streams():
        records = list(stored_events(store, stream))
        along = list(states_along(records))
        assert [p for p, _ in along] == list(range(len(records) + 1))
        for position, state in along:
            assert state == effective_fold(records[:position]), f"{path.name} event {position}"


def test_a_log_with_undo_redo_and_amend_is_among_them() -> None:
    assert any("undo" in p.stem for p in REPLAYS)
