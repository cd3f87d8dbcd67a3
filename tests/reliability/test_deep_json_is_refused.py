"""Issue 26: JSON nested past `MAX_DEPTH` (32) levels is refused in one line before any decoder
sees it — in logs (replay, import, play), files, options and every HTTP body — where 1,000 levels
raised `RecursionError` (a traceback, a 500). Real data is far shallower, and still reads.
UA_RELIABILITY_DEPTH=100000 for a deeper attack (1,000 by default)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.nesting import MAX_DEPTH, depth, too_deep
from tests.cli.test_session_cli import SCENARIO, Ua

ROOT = Path(__file__).resolve().parents[2]
DEEP = int(os.environ.get("UA_RELIABILITY_DEPTH", "1000"))


def nested(levels: int, inner: str = "1") -> str:
    """`levels` lists and objects inside each other, alternately."""
    opens = "".join('{"a":' if i % 2 else "[" for i in range(levels))
    closes = "".join("}" if i % 2 else "]" for i in reversed(range(levels)))
    return opens + inner + closes


def real_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(real_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(real_depth, value), default=0)
    return 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n\u00e9'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\x'), inner, max_size=3),
    max_leaves=30,
)


@given(JSON)
def test_the_byte_scan_measures_what_a_parser_would_nest(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert depth(text) == depth(text.encode()) == real_depth(value)
    assert too_deep(text, limit=2) == (real_depth(value) > 2)


@given(st.text(alphabet="[]{}", max_size=60), st.integers(0, 8))
def test_the_quick_check_agrees_with_the_running_depth_even_unbalanced(brackets: str, limit: int) -> None:
    """Cut short, a document is refused as its running depth says (a decoder recurses on unclosed
    brackets before it sees the end); with a close too many it may be refused sooner, never later."""
    refused, deeper = too_deep(brackets, limit=limit), depth(brackets) > limit
    running = [brackets[: i + 1].count("[") + brackets[: i + 1].count("{") for i in range(len(brackets))]
    closes_too_many = any(2 * opens < i + 1 for i, opens in enumerate(running))
    assert refused == deeper or (closes_too_many and refused)


def test_brackets_inside_strings_are_text() -> None:
    assert depth(json.dumps({"note": "[[[[" * 50, "q": '\\"[[[' * 50})) == 1


# --- the CLI ---------------------------------------------------------------------------------


def deep_line(levels: int) -> str:
    return '{"stream":"s","position":1,"event_id":"e","type":"gm_ruling","data":' + nested(levels - 1) + "}\n"


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    table = Ua(tmp_path)
    table.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    return table


def test_a_deep_log_is_one_line_from_replay_verify_and_import(ua: Ua) -> None:
    log = ua.dir / "deep.jsonl"
    log.write_text(deep_line(DEEP))
    before = ua.ok("session", "list")
    for args in (("replay", str(log)), ("replay", str(log), "--verify"), ("session", "import", "x", str(log))):
        line = ua.fails(*args, code=2)
        assert f"nested deeper than {MAX_DEPTH} levels" in line and f"{log}:1" in line, line
    assert ua.ok("session", "list") == before


def test_a_log_line_at_the_limit_is_read_as_a_line_past_it_is_not(ua: Ua) -> None:
    log = ua.dir / "edge.jsonl"
    log.write_text(deep_line(MAX_DEPTH))
    assert "nested deeper" not in ua.fails("replay", str(log))  # read, then refused for what it is
    log.write_text(deep_line(MAX_DEPTH + 1))
    assert "nested deeper" in ua.fails("replay", str(log))


def test_deep_json_in_files_commands_and_options_is_one_line(ua: Ua) -> None:
    knife = str(ROOT / "scenarios" / "knife-vs-22.toml")
    scenario, script = ua.dir / "deep.json", ua.dir / "deep-commands.jsonl"
    scenario.write_text(nested(DEEP))
    script.write_text('{"command":"ruling","note":"a"}\n' + nested(DEEP) + "\n")
    before = ua.count("s")
    cases = (
        (("scenario", "check", str(scenario)), str(scenario), 1),
        (("character", "check", str(scenario)), str(scenario), 1),
        (("session", "play", "s", str(script)), f"{script}:2", 2),
        (("session", "amend", "s", "1", "--command", nested(DEEP)), "--command", 2),
        (("simulate", knife, "-n", "5", "--set", f"settings.max_rounds={nested(DEEP)}"), "--set", 2),
        (("compare", knife, "-n", "5", "--sweep", f"settings.max_rounds={nested(DEEP)}"), "--sweep", 2),
    )
    for args, where, code in cases:
        line = ua.fails(*args, code=code)
        assert f"nested deeper than {MAX_DEPTH} levels" in line and where in line, line
    assert ua.count("s") == before  # nothing of the script was played


def test_real_logs_are_far_below_the_limit_and_read(ua: Ua, tmp_path: Path) -> None:
    """The golden replays, and a session of every shipped scenario exported (its deepest line is
    the start command's record, the whole scenario inside): each nests at most 10 levels."""
    scenarios = sorted((ROOT / "scenarios").glob("*.toml")) + sorted((ROOT / "scenarios" / "ua3").glob("*.toml"))
    logs = sorted((ROOT / "replays").rglob("*.jsonl"))
    for i, path in enumerate(scenarios):
        ua.ok("session", "new", f"n{i}", "--scenario", str(path), "--seed", "3")
        out = tmp_path / f"n{i}.jsonl"
        assert ua("session", "export", f"n{i}", str(out)).exit_code == 0
        logs.append(out)
    deepest = max(depth(line) for log in logs for line in log.read_bytes().splitlines())
    assert deepest <= 10 < MAX_DEPTH // 2, deepest  # the limit leaves a margin of 3x
    for log in logs[-3:]:
        assert ua("replay", str(log), "--verify").exit_code == 0


# --- HTTP ------------------------------------------------------------------------------------


def test_every_http_body_refuses_deep_json_with_a_400(tmp_path: Path) -> None:
    pytest.importorskip("litestar")
    from tests.service.conftest import client_for, new_session

    deep = nested(DEEP)
    bodies: list[tuple[str, str, dict[str, str]]] = [
        ("/sessions", f'{{"name":"x","scenario":{{"document":{deep}}}}}', {}),
        ("/sessions/duel/commands", f'{{"command":{deep}}}', {}),
        ("/sessions/duel/amend", f'{{"number":1,"command":{deep}}}', {}),
        ("/sessions/duel/npc", deep, {}),
        ("/validate/scenario", f'{{"document":{deep}}}', {}),
        ("/validate/sheet", f'{{"document":{deep}}}', {}),
        ("/odds", deep, {}),
        ("/simulations", f'{{"n":5,"scenario":{deep}}}', {}),
        ("/sessions/duel/fork", deep, {}),
        ("/replays", json.dumps({"log": deep_line(DEEP)}), {}),
        ("/replays", deep_line(DEEP), {"content-type": "application/x-ndjson"}),
        ("/sessions/copy/import", json.dumps({"log": deep_line(DEEP)}), {}),
        ("/sessions/copy/import", deep_line(DEEP), {"content-type": "application/x-ndjson"}),
    ]
    with client_for(tmp_path / "s.sqlite") as client:
        new_session(client)
        before = client.get("/sessions/duel/log").json()
        for url, body, headers in bodies:
            reply = client.post(url, content=body, headers={"content-type": "application/json", **headers})
            assert reply.status_code == 400, (url, reply.text)
            error = reply.json()
            assert error["error"] == "invalid" and error["status"] == 400, (url, error)
            assert error["message"] == f"nested deeper than {MAX_DEPTH} levels" or "nested deeper" in error["message"]
        assert client.get("/sessions/duel/log").json() == before
        assert [s["name"] for s in client.get("/sessions").json()["sessions"]] == ["duel"]
        at_limit = client.post("/odds", content=nested(MAX_DEPTH), headers={"content-type": "application/json"})
        assert at_limit.status_code == 400 and "nested deeper" not in at_limit.json()["message"]
