"""Third-edition (ua3) sessions over HTTP, as ua2 ones: made from a shipped ua3 scenario (a name
in the ruleset's folder) or a posted ua3 document, ua3 commands decoded from the engine's union,
state at N, the narrated log, undo, audit, export and import — and ua3 scenarios simulated in
batches (ua3 combat)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from engine.service import stream
from engine.store.sqlite import SqliteStore
from tests.service.conftest import run

CHURCH = "ua3/the-hollow-church"


def _church(client: TestClient[Any], name: str = "church") -> Any:
    r = client.post("/sessions", json={"name": name, "scenario": {"name": CHURCH}, "seed": 3})
    assert r.status_code == 201, r.text
    return r.json()


def _gauge(state: Any, who: str, gauge: str) -> dict[str, int]:
    (c,) = [c for c in state["state"]["combatants"] if c["id"] == who]
    g: dict[str, int] = c["gauges"][gauge]
    return g


def test_shipped_ua3_scenarios_are_listed_by_their_folder_and_name(client: TestClient[Any]) -> None:
    listed = {s["name"]: s for s in client.get("/scenarios").json()["scenarios"]}
    assert listed[CHURCH]["ruleset"] == "ua3"
    assert "Dana" in listed[CHURCH]["combatants"]
    assert "ua3/the-reading-room" in listed
    assert not any(n.startswith(("characters", "ua3/characters")) for n in listed)  # sheets are no scenarios
    doc = client.get(f"/scenarios/{CHURCH}")
    assert doc.status_code == 200, doc.text
    assert doc.json()["document"]["ruleset"] == "ua3"
    assert all(c["character"] and c.get("sheet") is None for c in doc.json()["document"]["combatants"])
    assert client.get("/scenarios/ua3/no-such").status_code == 404
    r = client.post("/sessions", json={"name": "x", "scenario": {"name": "../ua3/the-hollow-church"}})
    assert r.status_code == 400 and r.json()["where"] == "$.scenario.name"


def test_a_ua3_session_runs_a_stress_check_and_undoes_it(client: TestClient[Any]) -> None:
    made = _church(client)
    info = client.get("/sessions/church").json()
    assert info["ruleset"] == "ua3" and info["version"] == made["version"]
    before = client.get("/sessions/church/state").json()
    assert before["ruleset"] == "ua3"
    start = _gauge(before, "Dana", "violence")

    r = run(
        client,
        "church",
        {"command": "ua3_stress_check", "actor": "Dana", "gauge": "violence", "rank": 4, "dice": [3, 5]},
        expected_version=made["version"],
    )
    assert r.status_code == 200, r.text
    body = r.json()
    check = [e for e in body["events"] if e["type"] == "ua3_stress_check"]
    assert check and "U-23" in check[0]["explanation"] and "Dana had" in check[0]["odds"]
    after = client.get("/sessions/church/state").json()
    assert _gauge(after, "Dana", "violence") == {**start, "hardened": start["hardened"] + 1}  # 35 under 55
    # the state at N: before the check, as it was
    at = client.get("/sessions/church/state", params={"at": made["version"]}).json()
    assert at["at"] == made["version"] and _gauge(at, "Dana", "violence") == start

    log = client.get("/sessions/church/log").json()["lines"]
    assert any(line["type"] == "ua3_stress_check" and "U-23" in line["explanation"] for line in log)
    timeline = client.get("/sessions/church/timeline").json()
    assert timeline["ruleset"] == "ua3"
    last = {c["id"]: c for c in timeline["points"][-1]["combatants"]}
    assert last["Dana"]["gauges"]["gauges.violence.hardened"] == start["hardened"] + 1
    assert last["Dana"]["max_wounds"] > 0  # the wound threshold (U-2)
    audit = client.get("/sessions/church/audit").json()
    assert audit["verified"] is True and audit["luck"]["Dana"]["checks"] == 1

    undone = client.post("/sessions/church/undo")
    assert undone.status_code == 200, undone.text
    assert any("violence" in change for change in undone.json()["changes"])
    assert _gauge(client.get("/sessions/church/state").json(), "Dana", "violence") == start
    struck = [line for line in client.get("/sessions/church/log").json()["lines"] if line["struck"]]
    assert any(line["type"] == "ua3_stress_check" for line in struck)


def test_a_ua3_command_is_checked_against_the_union_and_the_rules(client: TestClient[Any]) -> None:
    _church(client)
    bad = run(client, "church", {"command": "ua3_stress_check", "actor": "Dana", "gauge": "violence", "rank": "4"})
    assert bad.status_code == 400 and "rank" in bad.json()["where"]
    refused = run(client, "church", {"command": "ua3_stress_check", "actor": "Nobody", "gauge": "violence", "rank": 4})
    assert refused.status_code in (404, 422), refused.text
    ua2_in_ua3 = run(client, "church", {"command": "madness_check", "actor": "Dana", "meter": "violence", "rank": 4})
    assert 400 <= ua2_in_ua3.status_code < 500, ua2_in_ua3.text


def test_the_schema_has_the_ua3_commands(client: TestClient[Any]) -> None:
    text = client.get("/schema").text
    for tag in ("ua3_stress_check", "ua3_coerce", "ua3_gridiron_roll", "ua3_add_character"):
        assert tag in text


def test_a_posted_ua3_document_makes_a_session(client: TestClient[Any]) -> None:
    document = client.get(f"/scenarios/{CHURCH}").json()["document"]
    document["title"] = "<b>Posted</b> church"
    r = client.post("/sessions", json={"name": "posted", "scenario": {"document": document}, "seed": 1})
    assert r.status_code == 201, r.text
    assert client.get("/sessions/posted").json()["title"] == "<b>Posted</b> church"
    checked = client.post("/validate/scenario", json={"document": document}).json()
    assert checked["ok"] and checked["summary"]["ruleset"] == "ua3"
    document["combatants"][0]["sheet"] = "/etc/passwd"
    r = client.post("/sessions", json={"name": "paths", "scenario": {"document": document}})
    assert r.status_code in (400, 422) and r.json()["where"] == "$.combatants[0].sheet"


def test_a_ua3_scenario_is_simulated_in_batches_and_a_fork_before_its_fight_is_refused(client: TestClient[Any]) -> None:
    """U-22: ua3 combat fights a ua3 scenario out (the ua3 Script), as `ua simulate` does."""
    job = client.post("/simulations", json={"scenario": {"name": CHURCH}, "n": 10, "seed": 1})
    assert job.status_code == 202, job.text
    jid = job.json()["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/jobs/{jid}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    result = client.get(f"/jobs/{jid}/result").json()
    assert result["job"]["state"] == "done" and result["report"]["fights"] == 10
    made = _church(client)
    r = client.post("/sessions/church/fork", json={"at": made["version"], "simulate": 10, "seed": 1})
    assert r.status_code == 400, r.text  # the fight has not begun at the table


def test_the_ua3_golden_replay_is_exported_and_imported_the_same(client: TestClient[Any]) -> None:
    log = Path("replays/ua3/the-hollow-church.jsonl").read_text()
    r = client.post("/sessions/golden/import", json={"log": log})
    assert r.status_code == 201, r.text
    state = client.get("/sessions/golden/state").json()
    assert state["ruleset"] == "ua3"
    exported = client.get("/sessions/golden/export")
    assert exported.status_code == 200
    again = client.post(
        "/sessions/again/import", content=exported.content, headers={"Content-Type": "application/x-ndjson"}
    )
    assert again.status_code == 201, again.text
    assert client.get("/sessions/again/state").json()["state"] == state["state"]
    assert client.get("/sessions/golden/audit").json()["verified"] is True
    replay = client.post("/replays", json={"log": log})
    assert replay.status_code in (200, 201), replay.text
    rid = replay.json()["session"]
    assert client.get(f"/replays/{rid}/state").json()["state"] == state["state"]


def test_the_npcs_of_a_ua3_fight_declare_first_and_act_by_their_tactics_over_http(client: TestClient[Any]) -> None:
    """U-22 over HTTP, as `ua session npc`: the crew (NPCs) declare as the round opens, the police
    (players) after, then the NPCs act until a player's turn; a stale version is a 409."""
    r = client.post("/sessions", json={"name": "amb", "scenario": {"name": "ua3/full-auto-ambush"}, "seed": 3})
    assert r.status_code == 201, r.text
    assert run(client, "amb", {"command": "ua3_begin_fight"}).status_code == 200
    stale = client.post("/sessions/amb/npc", json={"expected_version": 1})
    assert stale.status_code == 409, stale.text
    out = client.post("/sessions/amb/npc", json={}).json()
    declared = [
        e["event"]["actor"]
        for t in out["turns"]
        for c in t["commands"]
        for e in c["events"]
        if e["type"] == "ua3_action_declared"
    ]
    assert out["turns"][0]["npc"] == "" and sorted(declared) == ["Dink", "Vasquez"]
    police = {
        "command": "ua3_declare",
        "declarations": [
            {"actor": "Dana", "action": "attack", "targets": ["Vasquez"]},
            {"actor": "Sam", "action": "dodge"},
        ],
    }
    assert run(client, "amb", police).status_code == 200
    state = client.get("/sessions/amb/state").json()["state"]
    assert state["fight"]["phase"] == "acting" and state["fight"]["order"][0] == "Dana"
    mine = client.post("/sessions/amb/npc", json={})
    assert mine.status_code == 422 and "Dana's turn, a player's" in mine.json()["message"]
    assert run(client, "amb", {"command": "ua3_attack", "actor": "Dana", "targets": ["Vasquez"]}).status_code == 200
    out = client.post("/sessions/amb/npc", json={"all": True}).json()
    assert out["turns"][0]["npc"] == "Vasquez" and out["turn"] in ("Sam", None)  # Vasquez, Dink; then Sam


def test_a_ua3_logs_rounds_are_the_timelines_and_filter_by_round(
    client: TestClient[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """U-22: each ua3 log line, `?round=N` and the event stream say the round the timeline is in
    (they all said round 0)."""
    log = Path("replays/ua3/back-alley-brawl.jsonl").read_text()
    assert client.post("/sessions/brawl/import", json={"log": log}).status_code == 201
    timeline = {p["position"]: p["round"] for p in client.get("/sessions/brawl/timeline").json()["points"]}
    lines = client.get("/sessions/brawl/log").json()["lines"]
    assert lines and all(line["round"] == timeline[line["position"]] for line in lines)
    for n in (0, 1, 3):
        picked = client.get("/sessions/brawl/log", params={"round": n}).json()["lines"]
        assert picked and [line["position"] for line in picked] == [
            line["position"] for line in lines if timeline[line["position"]] == n
        ]
    monkeypatch.setattr(stream, "BATCH", 40)
    store = SqliteStore(tmp_path / "sessions.sqlite")
    try:
        streamed: dict[int, int] = {}
        after, round_now = 0, None
        while True:  # in batches, as `follow` sends them: the first from the log's start
            messages, after, round_now = stream._messages(store, "brawl", after, round_now)
            if not messages:
                break
            streamed.update((int(m.id), json.loads(str(m.data))["round"]) for m in messages)  # type: ignore[arg-type]
        resumed, _, _ = stream._messages(store, "brawl", 100, None)  # a follower resuming mid-log
    finally:
        store.close()
    assert streamed == {p: r for p, r in timeline.items() if p}
    assert all(json.loads(str(m.data))["round"] == timeline[int(m.id)] for m in resumed)  # type: ignore[arg-type]


def test_the_timeline_carries_its_editions_words_for_the_viewers_charts(client: TestClient[Any]) -> None:
    _church(client)
    ua3 = client.get("/sessions/church/timeline").json()["words"]
    assert (ua3["mind"], ua3["meter"], ua3["permanent_damage"]) == ("shock gauges", "gauge", "")
    assert "wound threshold" in ua3["wounds"] and "madness" not in json.dumps(ua3)
    made = client.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7})
    assert made.status_code == 201, made.text
    ua2 = client.get("/sessions/duel/timeline").json()["words"]
    assert (ua2["mind"], ua2["wounds"]) == ("madness", "wound points") and "C2-32" in ua2["permanent_damage"]
