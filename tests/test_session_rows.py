"""Stored rows decoded into a session's records (engine.session.rows): once each when current,
upcast when older, refused when newer or damaged, naming the event."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import CorruptLog
from engine.events import decode
from engine.session.encoding import decoded
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter
from engine.session.rows import decoded_records
from engine.store.base import NewEvent
from engine.store.jsonl import JsonlStore
from engine.store.sqlite import SqliteStore

OLD_LOG = Path(__file__).resolve().parents[1] / "replays" / "schema-v1" / "session-v1.jsonl"
CHECK = b'{"type":"gm_ruling","command":0,"note":"the chair breaks","about":""}'


def test_a_sqlite_session_of_older_schema_versions_opens_upcast_as_its_replay_file_folds(tmp_path: Path) -> None:
    old = JsonlStore(OLD_LOG)
    (stream,) = old.streams()
    stored = list(old.read(stream))
    assert {e.schema_version for e in stored if e.type == "command_recorded"} == {1}
    rows = [
        NewEvent(
            event_id=e.event_id, command_id=e.command_id, type=e.type, schema_version=e.schema_version, data=e.data
        )
        for e in stored
    ]
    with SqliteStore(tmp_path / "old.sqlite") as store:
        store.append(stream, rows, 0)
        opened = LiveEncounter(store, stream)
        assert opened.records == [(e.position, decoded(e)) for e in stored]
        assert opened.state == effective_fold([(e.position, decoded(e)) for e in stored])


def test_each_current_row_decodes_to_its_event() -> None:
    records = decoded_records("s", [(1, 1, CHECK), (2, 1, CHECK)])
    assert records == [(1, decode(CHECK)), (2, decode(CHECK))]


def test_a_row_of_a_newer_schema_version_is_refused_naming_the_event() -> None:
    with pytest.raises(CorruptLog, match="newer") as caught:
        decoded_records("s", [(1, 1, CHECK), (2, 7, CHECK)])
    assert caught.value.where == "s event 2"


def test_a_row_that_does_not_decode_is_a_corrupt_log_naming_the_event() -> None:
    with pytest.raises(CorruptLog) as caught:
        decoded_records("s", [(1, 1, CHECK), (2, 1, b'{"type":"gm_ruling"')])
    assert caught.value.where == "s event 2"
