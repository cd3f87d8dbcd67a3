"""Issue 26: a verified log is its setup (the encounter's start and its joins, decided by no
recorded command) and then exactly the events its recorded commands decide, each in its
command's append, nothing more or less. A forged event — at any position of any golden log, its
checksum made to match — is refused by the library's `verify`, by `ua replay --verify` and `ua
session import` (exit 2, one line naming the event, nothing stored) and by HTTP import (400,
nothing stored); so are a line whose type disagrees with its data, a changed schema version,
changed dice, a command outside its type's constraints, markers the engine would not write, and
commands swapped so that what they decide changes.

Swapped commands whose order changes nothing they decide are accepted once renumbered (the rule
asks for exactly what the recorded commands decide, and they still decide it: a rule-consistent
forgery is out of scope, a checksum is not a signature); swapped as they were numbered, they are
refused, since commands are numbered in the order they were recorded."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.commands import Ruling
from engine.errors import EngineError
from engine.events.commands import MARKERS, CommandRecorded
from engine.session.replayfile import read_replay
from engine.session.verify import Verification, verify
from engine.store.logfile import Line
from tests.cli.test_session_cli import Ua
from tests.golden import REPLAYS
from tests.logs import inserted, line_of, signed

LOGS = sorted(REPLAYS.rglob("*.jsonl"))
#: Positions per golden log tried over the CLI and HTTP (the library tries every one).
SAMPLE = int(os.environ.get("UA_FORGED_SAMPLE", "3"))
RECORD_TAGS = {"command_recorded", "command_undone", "command_redone", "command_amended"}


def name(path: Path) -> str:
    return str(path.relative_to(REPLAYS))


def raw_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def outcome(path: Path) -> Verification | EngineError:
    """What the library says of the log at `path`: refused on reading, or its verification."""
    try:
        return verify(read_replay(path))
    except EngineError as exc:
        return exc


def refused(path: Path) -> str:
    """The one-line reason the library refuses the log at `path` (fails the test if it does not)."""
    result = outcome(path)
    if isinstance(result, EngineError):
        return str(result)
    assert not result.ok, f"{path.name} was accepted"
    assert result.position >= 1 and "\n" not in result.mismatch
    return result.mismatch


def death_of(lines: list[Line]) -> Line:
    """The log's last harm done (a death, a wound), else its last decided event: what a forger
    would add to say someone is dead without an attack."""
    decided = [line for line in lines if line.type not in RECORD_TAGS]
    harm = [line for line in decided if "status" in line.type or "wound" in line.type]
    return (harm or decided)[-1]


def forgeries(path: Path) -> Iterator[tuple[int, list[bytes]]]:
    """(position, the log with one forged event there) for every position of the log: a copy of
    the event just before it joined to that event's append, and the log's last harm as an
    append of its own where an append ends (else joined to the one before)."""
    lines = raw_lines(path)
    parsed = [line_of(raw) for raw in lines]
    death = death_of(parsed)
    for at in range(1, len(lines) + 2):
        neighbour = parsed[max(at - 2, 0)]
        yield at, inserted(lines, at, neighbour, own_append=at == 1)
        ends_append = at == 1 or parsed[at - 2].commit
        yield at, inserted(lines, at, death, own_append=ends_append)


@pytest.mark.parametrize("path", LOGS, ids=name)
def test_an_event_forged_at_any_position_of_a_golden_log_is_refused_by_verify(path: Path, tmp_path: Path) -> None:
    assert outcome(path).ok  # type: ignore[union-attr]  (the log as shipped verifies)
    forged = tmp_path / "forged.jsonl"
    tried = 0
    for at, lines in forgeries(path):
        forged.write_bytes(b"".join(lines))
        reason = refused(forged)
        assert reason, at
        tried += 1
    assert tried == 2 * (len(raw_lines(path)) + 1)


def sample(path: Path) -> list[int]:
    """Positions to forge at over the CLI and HTTP: the first, right after the setup, the end and
    (with a larger sample) evenly between."""
    count = len(raw_lines(path))
    setup_end = next(i for i, line in enumerate(raw_lines(path), start=1) if b'"commit":true' in line) + 1
    picks = [1, setup_end, count + 1, *(1 + k * count // max(SAMPLE, 1) for k in range(SAMPLE))]
    return sorted(set(picks))


def forged_death(path: Path, at: int) -> bytes:
    lines = raw_lines(path)
    parsed = [line_of(raw) for raw in lines]
    ends_append = at == 1 or parsed[at - 2].commit
    return b"".join(inserted(lines, at, death_of(parsed), own_append=ends_append))


@pytest.mark.parametrize("path", LOGS, ids=name)
def test_a_forged_event_is_refused_by_replay_verify_and_session_import_storing_nothing(
    path: Path, tmp_path: Path
) -> None:
    ua = Ua(tmp_path)
    forged = tmp_path / "forged.jsonl"
    for at in sample(path):
        forged.write_bytes(forged_death(path, at))
        line = ua.fails("replay", str(forged), "--verify", code=2)
        assert f"{forged}" in line and "event" in line, line
        line = ua.fails("session", "import", str(forged), "copy", code=2)
        assert "event" in line, line
        assert ua.count("copy") == 0


def test_the_issues_forged_death_after_the_last_command_is_refused_naming_it(tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    end = len(raw_lines(path)) + 1
    lines = raw_lines(path)
    death = death_of([line_of(raw) for raw in lines])
    data = msgspec.json.decode(death.data) | {"command": 0}  # "Vic is dead", of no attack
    death = msgspec.structs.replace(death, data=msgspec.Raw(msgspec.json.encode(data)))
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"".join(inserted(lines, end, death, own_append=True)))
    assert b'"status":"dead"' in raw_lines(forged)[-1]
    result = verify(read_replay(forged))
    assert not result.ok and result.position == end
    assert result.mismatch == f"event {end} (status_changed) is in no command's batch: no recorded command decided it"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("litestar", reason="the service needs the serve extra")
    from tests.service.conftest import client_for

    with client_for(tmp_path / "sessions.sqlite") as c:
        yield c


@pytest.mark.parametrize("path", LOGS, ids=name)
def test_a_forged_event_is_refused_by_http_import_and_replays_storing_nothing(path: Path, client: Any) -> None:
    for at in sample(path):
        body = forged_death(path, at).decode()
        r = client.post("/sessions/copy/import", json={"log": body})
        assert r.status_code == 400, (at, r.text)
        assert "event" in r.json()["where"] and "\n" not in r.json()["message"], r.text
        assert client.get("/sessions/copy").status_code == 404
        raw = client.post("/replays", content=body.encode(), headers={"Content-Type": "application/x-ndjson"})
        assert raw.status_code == 400, (at, raw.text)
    assert client.get("/sessions").json()["sessions"] == []


# -- lines that say something else than their data ---------------------------------------------


def edited(path: Path, tmp_path: Path, index: int, **changes: Any) -> Path:
    """The log with line `index` (0-based) changed and its checksum made to match."""
    lines = raw_lines(path)
    lines[index] = signed(msgspec.structs.replace(line_of(lines[index]), **changes))
    out = tmp_path / "edited.jsonl"
    out.write_bytes(b"".join(lines))
    return out


def index_of(path: Path, kind: str, nth: int = 0) -> int:
    return [i for i, raw in enumerate(raw_lines(path)) if line_of(raw).type == kind][nth]


def test_a_line_whose_type_disagrees_with_its_data_is_refused_everywhere(tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    index = index_of(path, "attack_resolved")
    forged = edited(path, tmp_path, index, type="status_changed")
    reason = refused(forged)
    assert "says its event is a 'status_changed', but its data is a 'attack_resolved'" in reason
    ua = Ua(tmp_path)
    assert "but its data is a 'attack_resolved'" in ua.fails("replay", str(forged), code=2)
    assert f"event {index + 1}" in ua.fails("session", "import", str(forged), "copy", code=2)
    assert ua.count("copy") == 0


@pytest.mark.parametrize(
    ("path", "kind", "nth", "version", "why"),
    [
        (REPLAYS / "knife-duel.jsonl", "attack_resolved", 0, 2, "newer than 1"),
        (REPLAYS / "knife-duel.jsonl", "encounter_started", 0, 1, "holds 'scenario', which version 2 added"),
        (REPLAYS / "knife-duel.jsonl", "command_recorded", -1, 1, "of schema version 1, after one of version 2"),
        (REPLAYS / "ua3/the-hollow-church.jsonl", "command_recorded", 3, 1, "after one of version 2"),
        (REPLAYS / "schema-v1/session-v1.jsonl", "combatant_joined", 0, 2, "newer than 1"),
    ],
    ids=["v1-type-up", "start-down", "record-down", "ua3-record-down", "old-log-up"],
)
def test_a_changed_schema_version_is_refused(
    path: Path, kind: str, nth: int, version: int, why: str, tmp_path: Path
) -> None:
    forged = edited(path, tmp_path, index_of(path, kind, nth), schema_version=version)
    assert why in refused(forged)
    assert why in Ua(tmp_path).fails("session", "import", str(forged), "copy", code=2)


def test_the_first_record_of_a_session_started_from_a_scenario_cannot_pass_for_version_1(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", "scenarios/knife-vs-22.toml", "--seed", "5")
    log = tmp_path / "duel.jsonl"
    assert ua("session", "export", "duel", str(log)).exit_code == 0
    forged = edited(log, tmp_path, 0, schema_version=1)
    assert "holds 'issued.scenario_document', which version 2 added" in refused(forged)


# -- commands -----------------------------------------------------------------------------------


def data_edited(path: Path, tmp_path: Path, index: int, change: Any) -> Path:
    line = line_of(raw_lines(path)[index])
    data = msgspec.json.decode(line.data)
    change(data)
    return edited(path, tmp_path, index, data=msgspec.Raw(msgspec.json.encode(data)))


def first_attack(path: Path) -> int:
    lines = [line_of(raw) for raw in raw_lines(path)]
    return next(
        i
        for i, line in enumerate(lines)
        if line.type == "command_recorded" and msgspec.json.decode(line.data)["issued"]["command"] == "attack"
    )


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(dice_used=[9 - f for f in d["dice_used"]]), "re-decides differently from event"),
        (lambda d: d.update(dice_used=[*d["dice_used"], 4, 7]), "reads 2 of the 4 dice it records"),
        (lambda d: d.update(dice_used=[12, *d["dice_used"][1:]]), "a die face must be 0–9"),
        (lambda d: d.update(seeded_from=d["seeded_from"] + 2), "says its seeded dice began at die"),
    ],
    ids=["other-faces", "extra-faces", "not-a-face", "moved-seed"],
)
def test_a_command_whose_recorded_dice_were_changed_is_refused(change: Any, why: str, tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    index = first_attack(path)
    assert len(msgspec.json.decode(line_of(raw_lines(path)[index]).data)["dice_used"]) == 2
    assert why in refused(data_edited(path, tmp_path, index, change))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d["issued"].update(minimum=0), "Expected `int` >= 1 - at `$.issued.minimum`"),
        (lambda d: d["issued"].update(minimum=101), "Expected `int` <= 100 - at `$.issued.minimum`"),
        (lambda d: d["issued"].update(called="\u202eleft"), "is not one the engine takes"),
    ],
    ids=["minimum-0", "minimum-101", "bidi-override"],
)
def test_a_recorded_command_outside_its_types_constraints_is_refused(change: Any, why: str, tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    assert why in refused(data_edited(path, tmp_path, first_attack(path), change))


def test_a_ruling_whose_note_breaks_its_text_rules_is_refused_though_it_re_decides_the_same(tmp_path: Path) -> None:
    path = REPLAYS / "session-undo-amend.jsonl"
    lines = [line_of(raw) for raw in raw_lines(path)]
    record = next(i for i, line in enumerate(lines) if b'"command":"ruling"' in bytes(line.data))
    note = "a bell\u0007"
    forged = data_edited(path, tmp_path, record, lambda d: d["issued"].update(note=note))
    out = tmp_path / "both.jsonl"  # the ruling's own event says the same, so only the command's check tells
    lines_out = raw_lines(forged)
    event = line_of(lines_out[record + 1])
    said = bytes(event.data).replace(b"Vic's shot grazed Rosa's ribs", b"a bell\\u0007")
    lines_out[record + 1] = signed(msgspec.structs.replace(event, data=msgspec.Raw(said)))
    out.write_bytes(b"".join(lines_out))
    assert "is not one the engine takes" in refused(out)


# -- markers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "change", "why"),
    [
        ("command_undone", lambda d: d.update(id=99), "the undo names command #99, but the latest that counts is #8"),
        ("command_undone", lambda d: d.update(id=7, summary="check"), "the undo names command #7"),
        ("command_undone", lambda d: d.update(summary="attack Vic → Rosa"), "the marker says command #8 was"),
        ("command_redone", lambda d: d.update(id=7), "the redo names command #7, but #8 is the one to redo"),
        ("command_amended", lambda d: d.update(superseded=[6, 7]), "replaces #6, #7, not #6, #7, #8"),
        ("command_amended", lambda d: d.update(replacements=[19, 20, 21]), "names replacements #19, #20, #21"),
        ("command_amended", lambda d: d.update(id=99), "the amend names command #99, which does not count"),
        ("command_undone", lambda d: d.update(command=3), "markers belong to no command"),
    ],
    ids=[
        "undo-unknown",
        "undo-not-latest",
        "undo-summary",
        "redo-not-undone",
        "amend-part",
        "amend-ids",
        "amend-unknown",
        "marker-command",
    ],
)
def test_a_marker_the_engine_would_not_have_written_is_refused(
    kind: str, change: Any, why: str, tmp_path: Path
) -> None:
    path = REPLAYS / "session-undo-amend.jsonl"
    assert why in refused(data_edited(path, tmp_path, index_of(path, kind), change))


def test_an_undo_naming_a_command_already_undone_is_refused(tmp_path: Path) -> None:
    path = REPLAYS / "session-undo-amend.jsonl"
    lines = raw_lines(path)
    undo = index_of(path, "command_undone")
    forged = tmp_path / "twice.jsonl"
    forged.write_bytes(b"".join(inserted(lines, undo + 2, line_of(lines[undo]), own_append=True)))
    assert "the undo names command #8, but the latest that counts is #7" in refused(forged)


# -- appends and order --------------------------------------------------------------------------


def test_a_commands_event_moved_into_an_append_of_its_own_is_refused(tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    lines = [line_of(raw) for raw in raw_lines(path)]
    last = len(lines) - 1
    assert lines[last].type not in RECORD_TAGS and lines[last - 1].type not in RECORD_TAGS
    lines[last - 1] = msgspec.structs.replace(lines[last - 1], commit=True)
    lines[last] = msgspec.structs.replace(lines[last], command_id="elsewhere")
    forged = tmp_path / "split.jsonl"
    forged.write_bytes(b"".join(signed(line) for line in lines))
    assert f"event {last + 1} of command" in refused(forged) and "outside its command's append" in refused(forged)


def batches_of(lines: list[Line]) -> list[list[Line]]:
    """The lines grouped by append."""
    out: list[list[Line]] = [[]]
    for line in lines:
        out[-1].append(line)
        if line.commit:
            out.append([])
    return [batch for batch in out if batch]


def swapped(path: Path, tmp_path: Path, first: int, *, renumber: bool) -> Path:
    """The log with its appends `first` and `first + 1` swapped (positions kept in order); with
    `renumber`, each command takes the number of the place it moved to (and its dice the place
    in the seed's stream), as a forger would to hide the swap."""
    groups = batches_of([line_of(raw) for raw in raw_lines(path)])
    a, b = groups[first], groups[first + 1]
    if renumber:
        ra, rb = (msgspec.json.decode(g[0].data) for g in (a, b))
        later = ra["seeded_from"] + rb["seeded_count"]
        a, b = _renumbered(a, rb["id"], later), _renumbered(b, ra["id"], ra["seeded_from"])
    groups[first], groups[first + 1] = b, a
    flat = [line for group in groups for line in group]
    out = tmp_path / "swapped.jsonl"
    out.write_bytes(b"".join(signed(msgspec.structs.replace(line, position=i)) for i, line in enumerate(flat, 1)))
    return out


def _renumbered(group: list[Line], number: int, seeded_from: int) -> list[Line]:
    """`group`'s lines as command `number`, its seeded dice from die `seeded_from`."""
    out = []
    for k, line in enumerate(group):
        data = msgspec.json.decode(line.data)
        data["command"] = number
        if k == 0:
            data.update(id=number, seeded_from=seeded_from)
        out.append(msgspec.structs.replace(line, data=msgspec.Raw(msgspec.json.encode(data))))
    return out


def test_two_commands_swapped_as_they_were_numbered_are_refused(tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    groups = batches_of([line_of(raw) for raw in raw_lines(path)])
    first = next(i for i, g in enumerate(groups) if b'"command":"attack"' in bytes(g[0].data))
    assert "where #" in refused(swapped(path, tmp_path, first, renumber=False))


def test_two_attacks_swapped_and_renumbered_are_refused_as_they_decide_otherwise(tmp_path: Path) -> None:
    path = REPLAYS / "knife-vs-22.jsonl"
    groups = batches_of([line_of(raw) for raw in raw_lines(path)])
    first = next(i for i, g in enumerate(groups) if b'"command":"attack"' in bytes(g[0].data))
    assert "re-decide" in refused(swapped(path, tmp_path, first, renumber=True))


def test_two_rulings_swapped_and_renumbered_decide_the_same_and_are_accepted(tmp_path: Path) -> None:
    from engine.store.jsonl import write_log

    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", "scenarios/knife-vs-22.toml", "--seed", "5")
    from engine.session.live import LiveEncounter
    from engine.store.sqlite import SqliteStore

    with SqliteStore(ua.db) as store:
        live = LiveEncounter(store, "duel")
        live.execute(Ruling(note="the bar is dark"))
        live.execute(Ruling(note="the floor is wet"))
        log = tmp_path / "rulings.jsonl"
        write_log(log, store.read("duel"))
    groups = batches_of([line_of(raw) for raw in raw_lines(log)])
    moved = swapped(log, tmp_path, len(groups) - 2, renumber=True)
    assert outcome(moved).ok  # type: ignore[union-attr]
    notes = [e.note for _, e in read_replay(moved).records if hasattr(e, "note")]
    assert notes == ["the floor is wet", "the bar is dark"]
    assert "where #" in refused(swapped(log, tmp_path, len(groups) - 2, renumber=False))


def test_markers_and_records_are_what_the_module_calls_them() -> None:
    assert {str(kind.__struct_config__.tag) for kind in (*MARKERS, CommandRecorded)} == RECORD_TAGS
