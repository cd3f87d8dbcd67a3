"""The table over HTTP (RULES T-2…T-5): a command that needs a played character's die answers 202
with its requests and writes nothing; the requests are listed, answered (with retries) and
dropped; the event stream carries them as `request` events whose ids are never log positions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from litestar.testing import TestClient

from engine.service.bench import running_server
from tests.service.conftest import run


def table(client: TestClient[Any], played: dict[str, str]) -> None:
    r = client.post(
        "/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7, "played": played}
    )
    assert r.status_code == 201, r.text


def test_t3_a_command_that_needs_a_players_die_answers_202_and_writes_nothing(client: TestClient[Any]) -> None:
    table(client, {"Rosa": "Ana"})
    waiting = run(client, "duel", {"command": "begin_fight"})
    assert waiting.status_code == 202, waiting.text
    body = waiting.json()
    (request,) = body["requests"]
    assert (request["id"], request["owner"], request["kind"], request["rule"]) == (
        "Rosa.initiative",
        "Ana",
        "choice",
        "I2-1",
    )
    assert {o["value"] for o in request["options"]} == {"roll", "default"}
    version = client.get("/sessions/duel").json()["version"]
    listed = client.get("/sessions/duel/requests").json()
    assert listed["requests"] == body["requests"] and listed["waiting"]["command_id"] == body["command_id"]
    # another command while it waits: refused, naming what it waits on (T-3)
    other = run(client, "duel", {"command": "declare", "declarations": []})
    assert other.status_code == 422 and "Rosa.initiative" in other.json()["message"]
    rolled = client.post("/sessions/duel/requests/Rosa.initiative", json={"choose": "roll"})
    assert rolled.status_code == 202 and [r["id"] for r in rolled.json()["requests"]] == ["Rosa.1"]
    assert rolled.json()["requests"][0]["chance"] is not None
    assert client.get("/sessions/duel").json()["version"] == version  # nothing recorded yet
    done = client.post("/sessions/duel/requests/Rosa.1", json={"dice": [4, 5]})
    assert done.status_code == 200, done.text
    texts = [e["explanation"] for e in done.json()["events"]]
    assert any("Rosa rolls initiative against Speed" in t and "4,5 = 45" in t for t in texts)
    # the same answer sent again: the action's result, nothing new (a retry)
    again = client.post("/sessions/duel/requests/Rosa.1", json={"dice": [4, 5]})
    assert again.status_code == 200 and again.json()["retry"] is True
    assert client.get("/sessions/duel/requests").json() == {"session": "duel", "waiting": None, "requests": []}


def test_answers_are_checked_and_a_waiting_action_can_be_dropped(client: TestClient[Any]) -> None:
    table(client, {"Rosa": "Ana", "Vic": "Bo"})
    assert run(client, "duel", {"command": "begin_fight"}).status_code == 202
    bad = [
        ({"choose": "fly"}, "Rosa.initiative"),
        ({"dice": [1, 2]}, "Rosa.initiative"),
        ({"choose": "roll", "roll_for_me": True}, "Rosa.initiative"),
        ({"choose": "roll"}, "Nobody.1"),
    ]
    for body, rid in bad:
        r = client.post(f"/sessions/duel/requests/{rid}", json=body)
        assert r.status_code == 400, (body, r.text)
        assert set(r.json()) >= {"error", "message", "hint"}
    dropped = client.delete("/sessions/duel/requests")
    assert dropped.status_code == 200 and dropped.json()["session"] == "duel"
    assert client.get("/sessions/duel/requests").json()["waiting"] is None
    assert client.delete("/sessions/duel/requests").status_code == 422  # nothing waits now


def test_a_session_without_played_characters_never_waits(client: TestClient[Any]) -> None:
    table(client, {})
    assert run(client, "duel", {"command": "begin_fight"}).status_code == 200


def test_the_stream_carries_requests_as_their_own_events_with_no_ids(tmp_path: Path) -> None:
    with running_server(tmp_path / "s.sqlite") as base, httpx.Client(base_url=base, timeout=20) as c:
        r = c.post(
            "/sessions",
            json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7, "played": {"Rosa": "Ana"}},
        )
        r.raise_for_status()
        assert c.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}).status_code == 202
        # a client that connects while the action waits is sent the open requests first
        seen: list[tuple[str, str, Any]] = []
        with c.stream("GET", "/sessions/duel/events") as stream:
            kind, ident = "", ""
            for line in stream.iter_lines():
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("id:"):
                    ident = line[3:].strip()
                elif line.startswith("data:") and kind:
                    seen.append((kind, ident, json.loads(line[5:])))
                    kind, ident = "", ""
                    if seen[-1][0] == "event":
                        break
    first = seen[0]
    assert first[0] == "request" and first[1] == "" and first[2]["opened"][0]["id"] == "Rosa.initiative"
    assert seen[-1][0] == "event" and seen[-1][1] == "1"  # the log's own events keep their positions
