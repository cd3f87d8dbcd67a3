"""The timeline of a session log (`engine.session.timeline`): the state after each event in one
pass is exactly `state_at(p)`, the fold of the log up to p, undo, redo and amend included."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.session.audit import rounds
from engine.session.history import effective_fold
from engine.session.live import stored_events
from engine.session.timeline import states_along
from engine.store.jsonl import JsonlStore

REPLAYS = sorted(Path("replays").rglob("*.jsonl"))


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


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_the_logs_round_of_each_event_is_the_timelines(path: Path) -> None:
    """U-22, C2-4: a log line's round is the round the state is in right after its event, in
    either edition (a ua3 log said round 0 throughout)."""
    store = JsonlStore(path)
    for stream in store.streams():
        records = list(stored_events(store, stream))
        timeline = {p: s.fight.round for p, s in states_along(records)}
        assert [(p, r) for p, r, _ in rounds(records)] == [(p, timeline[p]) for p, _ in records]


def test_ua3_fights_are_among_them_and_reach_later_rounds() -> None:
    ua3 = [p for p in REPLAYS if p.parent.name == "ua3"]
    store = JsonlStore(Path("replays/ua3/back-alley-brawl.jsonl"))
    (stream,) = store.streams()
    assert ua3 and max(r for _, r, _ in rounds(list(stored_events(store, stream)))) > 2
