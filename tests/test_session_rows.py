"""Stored rows decoded into a session's records (engine.session.rows): once each when current,
upcast when older, refused when newer or damaged, naming the event."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.commands import StartEncounter
from engine.errors import CorruptLog, Refused
from engine.events import CommandRecorded, EncounterStarted, decode, encode, ruleset_started
from engine.events.ua3 import CharacterJoined
from engine.session.encoding import decoded
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter
from engine.session.rows import decoded_records
from engine.store.base import NewEvent
from engine.store.jsonl import JsonlStore
from engine.store.memory import MemoryStore
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


def test_a_log_that_changed_ruleset_reads_each_event_as_every_rulesets_decoder_does() -> None:
    """A log is read by the decoder of the ruleset its first event starts; an event of another
    ruleset (a start undone, then another edition's) is read by every ruleset's, the same."""
    from tests.rulesets.ua3_play import LOADED, setup_commands

    live = LiveEncounter(MemoryStore(), "s")
    live.execute(StartEncounter(ruleset="ua2"))
    live.undo()
    for command in setup_commands(LOADED["the-hollow-church.toml"], 7):
        live.execute(command)
    rows = list(live.store.read_data("s"))
    assert ruleset_started(rows[0][2]) == "ua2"
    records = decoded_records("s", rows)
    assert records == [(position, decode(data)) for position, _, data in rows] == live.records
    assert any(isinstance(event, CharacterJoined) for _, event in records)
    assert LiveEncounter(live.store, "s").state == live.state and live.state.ruleset == "ua3"


def test_a_log_of_a_ruleset_the_registry_lacks_opens_to_one_clear_refusal() -> None:
    start = CommandRecorded(id=1, issued=StartEncounter(ruleset="ua9"), command=1)
    rows = [(1, 2, encode(start)), (2, 2, encode(EncounterStarted(ruleset="ua9", command=1)))]
    records = decoded_records("s", rows)
    assert records == [(1, start), (2, EncounterStarted(ruleset="ua9", command=1))]
    with pytest.raises(Refused) as refused:
        effective_fold(records)
    assert refused.value.message == "unknown ruleset 'ua9'" and "\n" not in refused.value.hint
