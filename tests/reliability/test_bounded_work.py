"""Issue 10, bounded work and memory: a log is streamed from its file when it is large (the same
answers as when it is small), its size has a documented limit, and what one fight builds and
prints is bounded."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from engine.cli import common
from engine.session import replayfile
from tests.cli.test_session_cli import Ua
from tests.golden import REPLAYS

SESSION_LOG = REPLAYS / "session-undo-amend.jsonl"  # markers: undo, redo, amend
FIGHT_LOG = REPLAYS / "gunfight.jsonl"


def test_json_written_item_by_item_is_the_same_bytes_as_written_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    value = {"b": 1, "state": {"x": [1, 2], "y": {}}, "a": "é\x1b"}
    for items in ([], [{"k": 1}], [{"k": 1, "l": [3, {"m": None}]}, 2, "three"]):
        outputs = []
        for streaming in (False, True):
            buffer = io.StringIO()
            monkeypatch.setattr(sys, "stdout", buffer)
            if streaming:
                common.emit_json_streaming(value, "lines", iter(items))
            else:
                common.emit_json({**value, "lines": items})
            outputs.append(buffer.getvalue())
        assert outputs[0] == outputs[1]


@pytest.mark.parametrize("log", [SESSION_LOG, FIGHT_LOG], ids=lambda p: p.name)
def test_a_log_streamed_from_its_file_gives_what_it_gives_in_memory(
    log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ua = Ua(tmp_path)
    answers = []
    for in_memory in (10**12, 0):
        monkeypatch.setattr(replayfile, "IN_MEMORY_BYTES", in_memory)
        replayed = ua.ok("replay", str(log), "--verify")
        audited = ua.ok("audit", "--file", str(log))
        name = f"copy{in_memory}"
        assert ua("session", "import", str(log), name).exit_code == 0
        answers.append((replayed, audited, ua.ok("session", "state", name), ua.ok("session", "log", name)["lines"]))
    assert answers[0] == answers[1]
    assert answers[0][0]["verified"]["ok"]


def test_a_streamed_log_names_its_bad_line_as_a_small_one_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replayfile, "IN_MEMORY_BYTES", 0)
    lines = SESSION_LOG.read_bytes().splitlines(keepends=True)
    lines[20] = lines[20].replace(b'"command":', b'"command": ', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    assert Ua(tmp_path).fails("replay", str(bad), code=2).startswith(f"error: {bad}:21: line 21 was changed")


def test_a_log_larger_than_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UA_MAX_LOG_BYTES", "1000")
    ua = Ua(tmp_path)
    line = ua.fails("replay", str(SESSION_LOG), code=2)
    assert "more than the 1,000-byte limit" in line and "UA_MAX_LOG_BYTES" in line
    assert "more than" in ua.fails("session", "import", str(SESSION_LOG), "s", code=2)
    monkeypatch.setenv("UA_MAX_LOG_BYTES", "lots")
    assert "UA_MAX_LOG_BYTES must be a positive number" in ua.fails("replay", str(SESSION_LOG), code=2)
    assert json.loads(SESSION_LOG.read_bytes().splitlines()[0])["position"] == 1


# -- one fight ------------------------------------------------------------------------------------

MANY_DODGERS = """title = "everyone dodges"
[settings]
max_rounds = {rounds}
""" + "".join(
    f'[[combatants]]\nid = "c{i}"\nside = "s{i % 2}"\ncharacter = {{ name = "C {i}", stats = {{ body = 50, speed = 50, '
    'mind = 50, soul = 50 }, passions = [{ kind = "rage", trigger = "a" }, { kind = "fear", trigger = "b" }, '
    '{ kind = "noble", trigger = "c" }] }\ntactics = [{ do = "dodge" }]\n'
    for i in range(8)
)


def test_a_fight_of_more_events_than_fight_narrates_is_refused_before_it_is_built(tmp_path: Path) -> None:
    path = tmp_path / "dodgers.toml"
    path.write_text(MANY_DODGERS.replace("{rounds}", "200"))
    ua = Ua(tmp_path)
    line = ua.fails("fight", str(path), "--seed", "1", "--max-events", "500", "--save", str(tmp_path / "f.jsonl"))
    assert "more than --max-events 500" in line and "ua simulate" in line
    assert not (tmp_path / "f.jsonl").exists()
    fought = ua.ok("fight", str(path), "--seed", "1", "--max-events", "100000")
    assert fought["rounds"] == 200 and 500 < len(fought["events"]) <= 2 * 100_000


def test_max_rounds_past_ten_thousand_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "dodgers.toml"
    path.write_text(MANY_DODGERS.replace("{rounds}", "10001"))
    assert "$.settings.max_rounds" in Ua(tmp_path).fails("fight", str(path), code=1)
