"""The store contract: every store passes these. A subclass only says how to make its store.

Backends subclass `StoreContract` and implement `make_store(tmp_path)`; the cases run for each.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from engine.errors import ConcurrencyConflict
from engine.store.base import EventStore, NewEvent, event_id_for


def new_events(stream: str, start: int, count: int, tag: str = "gm_ruling") -> list[NewEvent]:
    out = []
    for i in range(count):
        position = start + i + 1
        data = f'{{"type":"{tag}","note":"event {position}"}}'.encode()
        out.append(
            NewEvent(
                event_id=event_id_for(stream, position, tag, data),
                type=tag,
                schema_version=1,
                data=data,
            )
        )
    return out


class StoreContract:
    """Shared cases. `make_store` opens a store rooted in `tmp_path` (and reopens it)."""

    def make_store(self, tmp_path: Path) -> EventStore:
        raise NotImplementedError

    def test_a_new_stream_is_at_version_zero(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        assert store.version("s") == 0
        assert list(store.read("s")) == []
        assert store.streams() == []

    def test_append_then_read_in_order(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        assert store.append("s", new_events("s", 0, 3), 0) == 3
        assert store.append("s", new_events("s", 3, 2), 3) == 5
        read = list(store.read("s"))
        assert [e.position for e in read] == [1, 2, 3, 4, 5]
        assert read[4].data == b'{"type":"gm_ruling","note":"event 5"}'
        assert [e.position for e in store.read("s", 4)] == [4, 5]

    def test_streams_are_listed_and_separate(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        store.append("b", new_events("b", 0, 1), 0)
        store.append("a", new_events("a", 0, 2), 0)
        assert store.streams() == ["a", "b"]
        assert store.version("a") == 2
        assert store.version("b") == 1

    def test_a_wrong_expected_version_is_a_conflict_and_writes_nothing(
        self, tmp_path: Path
    ) -> None:
        store = self.make_store(tmp_path)
        store.append("s", new_events("s", 0, 2), 0)
        with pytest.raises(ConcurrencyConflict):
            store.append("s", new_events("s", 0, 1, tag="check_rolled"), 0)
        with pytest.raises(ConcurrencyConflict):
            store.append("s", new_events("s", 5, 1), 5)
        assert store.version("s") == 2

    def test_a_retried_append_is_idempotent(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        batch = new_events("s", 0, 2)
        assert store.append("s", batch, 0) == 2
        assert store.append("s", batch, 0) == 2
        assert store.version("s") == 2

    def test_concurrent_appenders_one_wins_no_gap_no_duplicate(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        store.append("s", new_events("s", 0, 1), 0)
        results: list[str] = []
        barrier = threading.Barrier(6)

        def contender(n: int) -> None:
            events = new_events("s", 1, 2, tag=f"t{n}")
            barrier.wait()
            try:
                store.append("s", events, 1)
                results.append("won")
            except ConcurrencyConflict:
                results.append("conflict")

        threads = [threading.Thread(target=contender, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["conflict"] * 5 + ["won"]
        positions = [e.position for e in store.read("s")]
        assert positions == [1, 2, 3]
        assert len({e.event_id for e in store.read("s")}) == 3
