"""The store contract: every store passes these. A subclass only says how to make its store.

Backends subclass `StoreContract` and implement `make_store(tmp_path)`; the cases run for each.
A durable store sets `durable = True`, and `make_store` called again with the same `tmp_path`
must reopen the same file: the reopen cases then run too.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import ConcurrencyConflict
from engine.store.base import EventStore, NewEvent, event_id_for


def new_events(
    stream: str, start: int, count: int, tag: str = "gm_ruling", command_id: str | None = None
) -> list[NewEvent]:
    """`count` events of one command (by default `TAG-START`: another tag is another command)."""
    command_id = command_id or f"{tag}-{start}"
    out = []
    for i in range(count):
        position = start + i + 1
        data = f'{{"type":"{tag}","note":"event {position}"}}'.encode()
        out.append(
            NewEvent(
                event_id=event_id_for(stream, command_id, i),
                command_id=command_id,
                type=tag,
                schema_version=1,
                data=data,
            )
        )
    return out


def event_with(stream: str, position: int, data: bytes, tag: str = "gm_ruling") -> NewEvent:
    command_id = f"with-{position}"
    return NewEvent(
        event_id=event_id_for(stream, command_id, 0),
        command_id=command_id,
        type=tag,
        schema_version=2,
        data=data,
    )


def append_second_event(store: EventStore) -> None:
    """Run in a forked child, on the store object it inherited."""
    store.append("s", new_events("s", 1, 1), 1)


class StoreContract:
    """Shared cases. `make_store` opens a store rooted in `tmp_path` (and reopens it)."""

    durable = False

    def make_store(self, tmp_path: Path) -> EventStore:
        raise NotImplementedError

    @pytest.fixture(autouse=True)
    def _close_opened_stores(self) -> Iterator[None]:
        self._opened: list[EventStore] = []
        yield
        for store in self._opened:
            store.close()

    def open(self, tmp_path: Path) -> EventStore:
        """`make_store`, closed again when the test ends."""
        store = self.make_store(tmp_path)
        self._opened.append(store)
        return store

    def needs_durable(self) -> None:
        if not self.durable:
            pytest.skip("the store keeps nothing once closed")

    # -- every store ----------------------------------------------------------------------

    def test_a_new_stream_is_at_version_zero(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        assert store.version("s") == 0
        assert list(store.read("s")) == []
        assert store.streams() == []

    def test_append_then_read_in_order(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        assert store.append("s", new_events("s", 0, 3), 0) == 3
        assert store.append("s", new_events("s", 3, 2), 3) == 5
        read = list(store.read("s"))
        assert [e.position for e in read] == [1, 2, 3, 4, 5]
        assert read[4].data == b'{"type":"gm_ruling","note":"event 5"}'
        assert [e.position for e in store.read("s", 4)] == [4, 5]

    def test_reading_from_past_the_end_is_empty_and_from_zero_is_everything(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        store.append("s", new_events("s", 0, 2), 0)
        assert list(store.read("s", 3)) == []
        assert list(store.read("s", 99)) == []
        assert [e.position for e in store.read("s", 0)] == [1, 2]

    def test_a_stored_event_is_what_was_appended(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        data = '{"type": "gm_ruling", "note": "café \\"quoted\\" \\n tab\\t ☠", "n": [1.5, null]}'
        event = event_with("s", 1, data.encode())
        before = time.time()
        store.append("s", [event], 0)
        (stored,) = store.read("s")
        assert (stored.stream, stored.position) == ("s", 1)
        assert (stored.event_id, stored.command_id, stored.type, stored.schema_version) == (
            event.event_id,
            event.command_id,
            event.type,
            2,
        )
        assert stored.data == data.encode()  # byte for byte, whitespace and escapes kept
        assert isinstance(stored.recorded_at, float)
        assert before - 1 <= stored.recorded_at <= time.time() + 1

    def test_read_data_is_what_read_gives_cut_to_what_decoding_needs(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        store.append("s", new_events("s", 0, 3), 0)
        store.append("t", new_events("t", 0, 1, tag="other"), 0)
        store.append("s", [event_with("s", 4, b'{"type":"gm_ruling","note":"v2"}')], 3)
        for start in (0, 1, 3, 5):
            expected = [(e.position, e.schema_version, e.data) for e in store.read("s", start)]
            assert list(store.read_data("s", start)) == expected
        assert [row[1] for row in store.read_data("s")] == [1, 1, 1, 2]
        assert list(store.read_data("nothing")) == []

    def test_streams_are_listed_and_separate(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        store.append("b", new_events("b", 0, 1), 0)
        store.append("a", new_events("a", 0, 2), 0)
        assert store.streams() == ["a", "b"]
        assert store.version("a") == 2
        assert store.version("b") == 1

    def test_a_stream_name_may_be_any_text(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        names = ["fight: Mara vs Vic", 'quote " and \\ back', "line\nbreak", "émigré ☠"]
        for name in names:
            store.append(name, new_events(name, 0, 1), 0)
        assert store.streams() == sorted(names)
        for name in names:
            assert [e.stream for e in store.read(name)] == [name]

    def test_an_empty_append_writes_nothing(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        assert store.append("s", [], 0) == 0
        assert store.streams() == []
        store.append("s", new_events("s", 0, 1), 0)
        assert store.append("s", [], 1) == 1
        with pytest.raises(ConcurrencyConflict):
            store.append("s", [], 0)
        assert store.version("s") == 1

    def test_a_large_batch_is_one_append(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        assert store.append("s", new_events("s", 0, 500), 0) == 500
        assert [e.position for e in store.read("s")] == list(range(1, 501))

    def test_a_wrong_expected_version_is_a_conflict_and_writes_nothing(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        store.append("s", new_events("s", 0, 2), 0)
        with pytest.raises(ConcurrencyConflict):
            store.append("s", new_events("s", 0, 1, tag="check_rolled"), 0)
        with pytest.raises(ConcurrencyConflict):
            store.append("s", new_events("s", 5, 1), 5)
        assert store.version("s") == 2

    def test_a_command_appended_again_is_a_conflict_and_writes_nothing(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        batch = new_events("s", 0, 2)
        assert store.append("s", batch, 0) == 2
        with pytest.raises(ConcurrencyConflict):
            store.append("s", batch, 0)  # the stream moved on
        with pytest.raises(ConcurrencyConflict):
            store.append("s", batch, 2)  # the same command's events are already stored
        assert store.version("s") == 2

    def test_the_same_content_under_another_command_id_is_another_command(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        store.append("s", new_events("s", 0, 1, command_id="first"), 0)
        same_content = new_events("s", 0, 1, command_id="second")
        with pytest.raises(ConcurrencyConflict):
            store.append("s", same_content, 0)  # two commands at one expected version: one wins
        assert store.append("s", same_content, 1) == 2  # appended after it, it is stored too
        assert [e.command_id for e in store.read("s")] == ["first", "second"]
        assert [e.data for e in store.read("s")] == [same_content[0].data] * 2

    def test_read_command_gives_a_commands_events_whatever_came_after(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        first = new_events("s", 0, 2, command_id="attack")
        store.append("s", first, 0)
        store.append("s", new_events("s", 2, 3, command_id="later"), 2)
        found = store.read_command("s", "attack")
        assert [(e.position, e.event_id, e.command_id) for e in found] == [
            (1, first[0].event_id, "attack"),
            (2, first[1].event_id, "attack"),
        ]
        assert [e.position for e in store.read_command("s", "later")] == [3, 4, 5]
        assert store.read_command("s", "never") == []
        assert store.read_command("other", "attack") == []

    def test_a_batch_may_carry_several_commands(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        batch = [*new_events("s", 0, 2, command_id="one"), *new_events("s", 2, 1, command_id="two")]
        assert store.append("s", batch, 0) == 3
        assert [e.position for e in store.read_command("s", "two")] == [3]

    def test_an_event_id_stored_in_another_stream_is_a_conflict_and_writes_nothing(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        taken = new_events("a", 0, 1)
        store.append("a", taken, 0)
        with pytest.raises(ConcurrencyConflict):
            store.append("b", [*new_events("b", 0, 1), *taken], 0)
        assert store.version("b") == 0
        assert store.streams() == ["a"]

    def test_concurrent_appenders_one_wins_no_gap_no_duplicate(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
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

    def test_threads_appending_to_their_own_streams_all_succeed(self, tmp_path: Path) -> None:
        store = self.open(tmp_path)
        errors: list[BaseException] = []

        def writer(name: str) -> None:
            try:
                for version in range(10):
                    store.append(name, new_events(name, version, 1), version)
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(f"s{n}",)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert store.streams() == ["s0", "s1", "s2", "s3"]
        assert all(store.version(f"s{n}") == 10 for n in range(4))

    def test_closing_twice_is_harmless(self, tmp_path: Path) -> None:
        store = self.make_store(tmp_path)
        store.close()
        store.close()

    # -- durable stores -------------------------------------------------------------------

    def test_a_reopened_store_holds_the_same_events(self, tmp_path: Path) -> None:
        self.needs_durable()
        store = self.open(tmp_path)
        store.append("b", new_events("b", 0, 2), 0)
        store.append("a", new_events("a", 0, 3), 0)
        store.append("a", [event_with("a", 4, b'{"x": [1, 2]}')], 3)
        before = {name: list(store.read(name)) for name in ("a", "b")}
        store.close()
        reopened = self.open(tmp_path)
        assert reopened.streams() == ["a", "b"]
        assert {name: list(reopened.read(name)) for name in ("a", "b")} == before

    def test_a_reopened_store_goes_on_where_it_left_off(self, tmp_path: Path) -> None:
        self.needs_durable()
        store = self.open(tmp_path)
        batch = new_events("s", 0, 2)
        store.append("s", batch, 0)
        store.close()
        reopened = self.open(tmp_path)
        assert [e.event_id for e in reopened.read_command("s", batch[0].command_id)] == [
            e.event_id for e in batch
        ]  # a retry across a restart is recognised
        with pytest.raises(ConcurrencyConflict):
            reopened.append("s", new_events("s", 0, 1, tag="check_rolled"), 0)
        assert reopened.append("s", new_events("s", 2, 1), 2) == 3
        assert [e.position for e in reopened.read("s")] == [1, 2, 3]

    def test_two_stores_open_on_one_file_see_each_others_appends(self, tmp_path: Path) -> None:
        self.needs_durable()
        one = self.open(tmp_path)
        two = self.open(tmp_path)
        one.append("s", new_events("s", 0, 2), 0)
        assert two.version("s") == 2
        with pytest.raises(ConcurrencyConflict):
            two.append("s", new_events("s", 0, 1, tag="check_rolled"), 0)
        assert two.append("s", new_events("s", 2, 1), 2) == 3
        assert [e.position for e in one.read("s")] == [1, 2, 3]
        assert one.streams() == two.streams() == ["s"]

    def test_a_forked_child_can_append_through_the_store_it_inherited(self, tmp_path: Path) -> None:
        self.needs_durable()
        store = self.open(tmp_path)
        store.append("s", new_events("s", 0, 1), 0)
        child = multiprocessing.get_context("fork").Process(target=append_second_event, args=(store,))
        child.start()
        child.join(timeout=30)
        assert child.exitcode == 0
        assert store.version("s") == 2
        assert store.append("s", new_events("s", 2, 1), 2) == 3
        assert [e.position for e in self.open(tmp_path).read("s")] == [1, 2, 3]
