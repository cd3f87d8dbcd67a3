"""The JSON-lines store: the contract, several processes, crashes, torn tails, damaged lines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from engine.errors import ConcurrencyConflict, CorruptLog, InvalidInput, NotFound, TornTail
from engine.store.jsonl import JsonlStore, export_log, write_log
from engine.store.sqlite import SqliteStore
from tests.store import processes
from tests.store.contract import StoreContract, event_with, new_events


class TestJsonlStore(StoreContract):
    durable = True

    def make_store(self, tmp_path: Path) -> JsonlStore:
        return JsonlStore(tmp_path / "events.jsonl")


def write_sample(path: Path) -> list[tuple[str, int]]:
    """Appends of 1–3 events in two streams, ending with a one-event append to 'a'.
    Returns (stream, position) of every event, in file order."""
    with JsonlStore(path) as store:
        store.append("a", new_events("a", 0, 3), 0)
        store.append("b", new_events("b", 0, 1), 0)
        store.append("a", new_events("a", 3, 2), 3)
        store.append("b", new_events("b", 1, 2), 1)
        store.append("a", new_events("a", 5, 1), 5)
    return [
        ("a", 1),
        ("a", 2),
        ("a", 3),
        ("b", 1),
        ("a", 4),
        ("a", 5),
        ("b", 2),
        ("b", 3),
        ("a", 6),
    ]


def contents(store: JsonlStore) -> list[tuple[str, int]]:
    return sorted(
        ((e.stream, e.position) for name in store.streams() for e in store.read(name)),
        key=lambda key: (key[0], key[1]),
    )


def assert_every_line_is_a_whole_json_object(path: Path) -> None:
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    for line in raw.split(b"\n")[:-1]:
        assert isinstance(json.loads(line), dict)


def test_each_line_is_readable_json_with_the_event_embedded(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with JsonlStore(path) as store:
        store.append("s", new_events("s", 0, 2), 0)
    first, second = (json.loads(line) for line in path.read_text().splitlines())
    assert first["data"] == {"type": "gm_ruling", "note": "event 1"}  # an object, not base64
    assert (first["stream"], first["position"], first["commit"]) == ("s", 1, False)
    assert (second["position"], second["commit"]) == (2, True)
    assert list(first) == [
        "stream",
        "position",
        "event_id",
        "command_id",
        "type",
        "schema_version",
        "recorded_at",
        "commit",
        "data",
        "checksum",  # always last: the line's bytes without it are what it sums
    ]


def test_appenders_in_several_processes_one_wins_no_gap_no_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    outcomes = processes.race("jsonl", path, contenders=4, rounds=5)
    assert outcomes == {r: ["conflict"] * 3 + ["won"] for r in range(5)}
    with JsonlStore(path) as store:
        events = list(store.read(processes.STREAM))
        assert store.torn_tail is None
    assert [e.position for e in events] == list(range(1, 11))
    assert len({e.event_id for e in events}) == 10
    assert all(events[i].type == events[i + 1].type for i in range(0, 10, 2))
    assert_every_line_is_a_whole_json_object(path)


def test_a_killed_appender_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path, acks = tmp_path / "events.jsonl", tmp_path / "acks"
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    for kill in range(4):
        acked = processes.kill_while_appending("jsonl", path, acks, rng)
        with JsonlStore(path) as store:
            events = list(store.read(processes.STREAM))
        context = f"seed {seed}, kill {kill}: acknowledged {acked}, found {len(events)}"
        assert [e.position for e in events] == list(range(1, len(events) + 1)), context
        assert len(events) >= acked, context
        expected = [processes.event_at(p).event_id for p in range(1, len(events) + 1)]
        assert [e.event_id for e in events] == expected, context
    with JsonlStore(path) as store:  # the next append leaves a clean file
        version = store.version(processes.STREAM)
        store.append(processes.STREAM, [processes.event_at(version + 1)], version)
    assert_every_line_is_a_whole_json_object(path)


def test_a_file_cut_at_any_byte_of_its_last_line_keeps_every_whole_event(
    tmp_path: Path,
) -> None:
    whole = tmp_path / "whole.jsonl"
    order = write_sample(whole)
    raw = whole.read_bytes()
    last_line_start = raw.rindex(b"\n", 0, len(raw) - 1) + 1
    kept = sorted(order[:-1])
    path = tmp_path / "cut.jsonl"
    for cut in range(last_line_start, len(raw) - 1):  # the last line without only its newline is whole
        path.write_bytes(raw[:cut])
        with JsonlStore(path) as store:
            assert contents(store) == kept, f"cut at byte {cut}"
            if cut == last_line_start:
                assert store.torn_tail is None
            else:
                assert isinstance(store.torn_tail, TornTail)
                assert store.torn_tail.where == f"{path}:9"
                assert f"{cut - last_line_start} bytes" in store.torn_tail.message
            assert store.append("a", new_events("a", 5, 1, tag="check_rolled"), 5) == 6
            assert store.torn_tail is None
        assert_every_line_is_a_whole_json_object(path)
        with JsonlStore(path) as reopened:
            assert reopened.torn_tail is None
            assert contents(reopened) == sorted(order)
            assert [e.type for e in reopened.read("a", 6)] == ["check_rolled"]


def test_a_crash_inside_a_multi_event_append_drops_the_whole_append(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    with JsonlStore(whole) as store:
        store.append("s", new_events("s", 0, 1), 0)
        store.append("s", new_events("s", 1, 3), 1)  # one command: three events
    raw = whole.read_bytes()
    batch_start = raw.index(b"\n") + 1
    path = tmp_path / "cut.jsonl"
    for cut in range(batch_start + 1, len(raw) - 1):
        path.write_bytes(raw[:cut])
        with JsonlStore(path) as store:
            assert [e.position for e in store.read("s")] == [1], f"cut at byte {cut}"
            assert store.torn_tail is not None
            assert store.torn_tail.where == f"{path}:2"
            store.append("s", new_events("s", 1, 1), 1)
        with JsonlStore(path) as reopened:
            assert [e.position for e in reopened.read("s")] == [1, 2]


def test_an_invalid_last_line_with_its_newline_is_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    with path.open("ab") as out:
        out.write(b"\x00\x00\x00\x00\n")
    with JsonlStore(path) as store:
        assert store.torn_tail is not None
        assert store.torn_tail.where == f"{path}:10"
        assert len(contents(store)) == 9


def test_dropping_a_torn_tail_logs_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    with path.open("ab") as out:
        out.write(b'{"stream":"a","posi')
    with capture_logs() as logs, JsonlStore(path) as store:
        store.append("a", new_events("a", 6, 1), 6)
    dropped = [entry for entry in logs if entry["event"] == "dropped torn tail of event log"]
    assert len(dropped) == 1
    assert dropped[0]["log_level"] == "warning"
    assert (dropped[0]["line"], dropped[0]["bytes"]) == (10, 19)


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (b"{not json at all\n", "not an event line"),
        (b'{"stream":"a","position":4}\n', "not an event line"),
        (b"\n", "not an event line"),
    ],
)
def test_a_damaged_line_in_the_middle_is_a_corrupt_log_naming_it(tmp_path: Path, damage: bytes, why: str) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = damage
    path.write_bytes(b"".join(lines))
    with pytest.raises(CorruptLog) as caught:
        JsonlStore(path)
    assert not isinstance(caught.value, TornTail)
    assert caught.value.where == f"{path}:4"
    assert "line 4" in caught.value.message
    assert why in caught.value.message


def test_positions_that_skip_are_a_corrupt_log_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    del lines[4]  # a 4 (a 5 commits its append) — now a 5 follows a 3
    path.write_bytes(b"".join(lines))
    with pytest.raises(CorruptLog) as caught:
        JsonlStore(path)
    assert caught.value.where == f"{path}:5"
    assert "position 5 follows position 3" in caught.value.message


def test_a_repeated_line_is_a_corrupt_log_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines.insert(4, lines[3])  # b 1 twice
    path.write_bytes(b"".join(lines))
    with pytest.raises(CorruptLog) as caught:
        JsonlStore(path)
    assert caught.value.where == f"{path}:5"


def test_an_append_without_its_commit_line_followed_by_others_is_corrupt(
    tmp_path: Path,
) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    del lines[2]  # the commit line of the first append to 'a'; 'b' follows
    path.write_bytes(b"".join(lines))
    with pytest.raises(CorruptLog) as caught:
        JsonlStore(path)
    assert caught.value.where == f"{path}:3"
    assert "no commit line" in caught.value.message


def test_a_hand_written_line_without_checksum_reads_only_unchecked_as_a_whole_append(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    line = {
        "stream": "s",
        "position": 1,
        "event_id": "e1",
        "type": "gm_ruling",
        "schema_version": 1,
        "recorded_at": 0,
        "data": {"type": "gm_ruling", "note": "typed by hand"},
    }
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(CorruptLog, match="line 1 has no checksum") as refused:
        JsonlStore(path)
    assert "--unchecked" in refused.value.hint
    with JsonlStore(path, unchecked=True) as store:
        (event,) = store.read("s")
        assert json.loads(event.data) == line["data"]
        assert event.command_id == "legacy-1"
        assert store.torn_tail is None


def test_a_complete_last_line_without_its_newline_is_kept_and_the_next_append_starts_a_line(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    order = write_sample(path)
    path.write_bytes(path.read_bytes()[:-1])
    with JsonlStore(path) as store:
        assert contents(store) == sorted(order)
        assert store.torn_tail is None
        store.append("a", new_events("a", 6, 1), 6)
    assert_every_line_is_a_whole_json_object(path)
    with JsonlStore(path) as reopened:
        assert [e.position for e in reopened.read("a")] == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize("line", [0, 3, 8])
def test_an_edited_line_is_refused_naming_it_wherever_it_is(tmp_path: Path, line: int) -> None:
    path = tmp_path / "events.jsonl"
    write_sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[line] = lines[line].replace(b"\"note\":\"event", b"\"note\":\"Event")
    path.write_bytes(b"".join(lines))
    with pytest.raises(CorruptLog, match=f"line {line + 1} was changed after it was written") as caught:
        JsonlStore(path)
    assert not isinstance(caught.value, TornTail)
    assert caught.value.where == f"{path}:{line + 1}"


def test_data_that_is_not_json_on_one_line_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "events.jsonl"
    with JsonlStore(path) as store:
        for data in (b"\x80\x81 not json", b'{"a":\n1}', b"{} {}"):
            with pytest.raises(InvalidInput):
                store.append("s", [event_with("s", 1, data)], 0)
        assert store.version("s") == 0
    assert path.read_bytes() == b""


def test_appends_from_another_store_are_read_before_the_version_check(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with JsonlStore(path) as one, JsonlStore(path) as two:
        one.append("s", new_events("s", 0, 1), 0)
        with pytest.raises(ConcurrencyConflict):
            two.append("s", new_events("s", 0, 1, tag="check_rolled"), 0)
        two.append("s", new_events("s", 1, 1), 1)
        assert one.version("s") == 2
    assert_every_line_is_a_whole_json_object(path)


def test_a_file_rewritten_shorter_under_an_open_store_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with JsonlStore(path) as store:
        store.append("s", new_events("s", 0, 2), 0)
        path.write_bytes(b"")
        with pytest.raises(CorruptLog, match="shrank"):
            store.version("s")


def test_a_missing_directory_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        JsonlStore(tmp_path / "nowhere" / "events.jsonl")


def test_an_exported_sqlite_log_reopens_as_the_same_events(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "events.db") as source:
        source.append("b", new_events("b", 0, 2), 0)
        source.append("a", new_events("a", 0, 3), 0)
        assert export_log(source, tmp_path / "replay.jsonl") == 5
        expected = {name: list(source.read(name)) for name in source.streams()}
    with JsonlStore(tmp_path / "replay.jsonl") as replay:
        assert {name: list(replay.read(name)) for name in replay.streams()} == expected


def test_writing_a_log_with_a_gap_is_refused_and_leaves_no_file(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "events.db") as source:
        source.append("s", new_events("s", 0, 3), 0)
        events = list(source.read("s"))
    target = tmp_path / "replay.jsonl"
    with pytest.raises(CorruptLog, match="follows"):
        write_log(target, [events[0], events[2]])
    assert list(tmp_path.iterdir()) == [tmp_path / "events.db"]


def test_a_file_that_is_not_a_log_is_refused_and_never_cut_back(tmp_path: Path) -> None:
    db = tmp_path / "sessions.sqlite"
    with SqliteStore(db) as store:
        store.append("s", new_events("s", 0, 1), 0)
    for path, content in ((db, db.read_bytes()), (tmp_path / "notes.txt", b"no newline, not JSON")):
        path.write_bytes(content)
        with pytest.raises(CorruptLog, match="not a JSON-lines event log"):
            JsonlStore(path)
        assert path.read_bytes() == content
