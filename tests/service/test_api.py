"""The HTTP API through Litestar's test client: every endpoint, conflicts, retries, errors, the token."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import msgspec
from litestar.testing import TestClient

from engine.commands import Ruling
from engine.session.live import LiveEncounter
from engine.simulate.batch import MAX_FIGHTS
from engine.store.sqlite import SqliteStore
from tests.service.conftest import TOKEN, act_now, client_for, new_session, run


def test_a_session_made_from_a_shipped_scenario_is_listed_and_shown(client: TestClient[Any]) -> None:
    made = new_session(client)
    assert made["version"] == 6
    assert [s["name"] for s in client.get("/sessions").json()["sessions"]] == ["duel"]
    info = client.get("/sessions/duel").json()
    assert (info["title"], info["ruleset"], info["phase"]) == ("Knife against a .22", "ua2", "setup")


def test_a_session_from_a_posted_document_is_checked_like_a_file(client: TestClient[Any]) -> None:
    document = client.get("/scenarios/knife-vs-22").json()["document"]
    assert all("character" in c and "sheet" not in c for c in document["combatants"])
    r = client.post("/sessions", json={"name": "posted", "scenario": {"document": document}, "seed": 1})
    assert r.status_code == 201, r.text
    document["combatants"][0]["character"]["stats"]["body"] = "lots"
    r = client.post("/sessions", json={"name": "bad", "scenario": {"document": document}})
    assert r.status_code == 400
    assert r.json()["where"] == "$.combatants[0].character.stats.body"
    assert "Expected int, got str" in r.json()["message"]


def test_a_posted_scenario_cannot_name_a_file(client: TestClient[Any]) -> None:
    document = client.get("/scenarios/knife-vs-22").json()["document"]
    document["combatants"][0] = {**document["combatants"][0], "sheet": "/etc/passwd"}
    document["combatants"][0].pop("character")
    r = client.post("/sessions", json={"name": "x", "scenario": {"document": document}})
    assert r.status_code == 400
    assert r.json()["where"] == "$.combatants[0].sheet"
    assert client.get("/sessions").json()["sessions"] == []


def test_a_scenario_in_toml_text_is_read_as_a_file_would_be(client: TestClient[Any]) -> None:
    text = Path("scenarios/knife-vs-22.toml").read_text().replace('title = "', 'title = "Posted ', 1)
    r = client.post("/validate/scenario", json={"text": text, "format": "toml"})
    # the shipped file names sheet files: a posted one may not
    assert r.status_code == 200
    assert not r.json()["ok"]
    assert r.json()["findings"][0]["path"].endswith(".sheet")


def test_commands_run_in_order_and_the_state_follows(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(6):
        r = act_now(client)
        assert r.status_code == 200, r.text
    state = client.get("/sessions/duel/state").json()
    assert state["version"] == client.get("/sessions/duel").json()["version"]
    assert state["state"]["fight"]["phase"] != "setup"
    earlier = client.get("/sessions/duel/state", params={"at": 6}).json()
    assert earlier["at"] == 6 and earlier["state"]["fight"]["phase"] == "setup"
    assert client.get("/sessions/duel/state", params={"at": 0}).json()["state"]["combatants"] == []


def test_a_stale_expected_version_is_a_409_with_the_current_one(client: TestClient[Any]) -> None:
    new_session(client)
    r = run(client, "duel", {"command": "begin_fight"}, expected_version=3)
    assert r.status_code == 409
    body = r.json()
    assert body["version"] == 6 and body["error"] == "conflict" and body["hint"]
    assert run(client, "duel", {"command": "begin_fight"}, expected_version=6).status_code == 200


def test_a_retry_with_the_same_command_id_writes_nothing_new(client: TestClient[Any]) -> None:
    new_session(client)
    headers = {"Command-Id": "begin-1"}
    first = client.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}, headers=headers)
    again = client.post(
        "/sessions/duel/commands", json={"command": {"command": "begin_fight"}, "expected_version": 6}, headers=headers
    )
    assert first.status_code == again.status_code == 200
    assert again.json()["retry"] and again.json()["events"] == first.json()["events"]
    assert client.get("/sessions/duel").json()["version"] == first.json()["version"]
    other = run(client, "duel", {"command": "ruling", "note": "x"})
    reused = client.post(
        "/sessions/duel/commands", json={"command": {"command": "ruling", "note": "y"}}, headers=headers
    )
    assert other.status_code == 200 and reused.status_code == 409  # one id, two commands: never merged


def test_a_refused_command_is_a_422_and_writes_nothing(client: TestClient[Any]) -> None:
    new_session(client)
    run(client, "duel", {"command": "begin_fight"})
    version = client.get("/sessions/duel").json()["version"]
    r = run(client, "duel", {"command": "attack", "actor": "Nobody", "target": "Vic"})
    assert r.status_code == 422 and r.json()["error"] == "refused"
    assert client.get("/sessions/duel").json()["version"] == version


def test_bad_bodies_are_400s_naming_the_path(client: TestClient[Any]) -> None:
    new_session(client)
    cases = [
        (b"", "$"),
        (b"{not json", "$"),
        (b'{"command": {"command": "attack", "actor": "Vic", "bogus": 1}}', "$.command"),
        (b'{"command": {"command": "no_such"}}', "$.command.command"),
        (b'{"command": {"command": "attack", "actor": 5}}', "$.command.actor"),
        (b'{"command": {"command": "begin_fight"}, "expected_version": -1}', "$.expected_version"),
    ]
    for body, where in cases:
        r = client.post("/sessions/duel/commands", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (body, r.text)
        assert set(r.json()) >= {"message", "where", "hint"} and r.json()["where"] == where, r.text
    assert client.get("/sessions/duel/state", params={"at": "x"}).status_code == 400
    assert client.get("/sessions/duel/state", params={"at": 999}).status_code == 400


def test_unknown_things_are_404s_in_the_one_shape(client: TestClient[Any]) -> None:
    for path in ("/sessions/nope", "/sessions/nope/state", "/sessions/nope/log", "/jobs/nope", "/scenarios/nope", "/x"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert set(r.json()) >= {"error", "message", "where", "hint"}


def test_undo_redo_and_amend_say_what_changed(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(3):
        act_now(client)
    attack = next(e for e in act_now(client).json()["events"] if e["type"] == "command_recorded")
    undone = client.post("/sessions/duel/undo")
    assert undone.status_code == 200 and undone.json()["changes"]
    log = client.get("/sessions/duel/log").json()["lines"]
    assert any(line["struck"] and "undone" in line["note"] for line in log)
    redone = client.post("/sessions/duel/redo", json={})
    assert redone.status_code == 200 and redone.json()["changes"]
    issued = attack["event"]["issued"]
    corrected = {**issued, "shifts": [{"source": "GM", "amount": -30}]}
    amended = client.post("/sessions/duel/amend", json={"number": attack["command"], "command": corrected})
    assert amended.status_code == 200, amended.text
    assert amended.json()["superseded"]
    assert any(
        line["struck"] and "superseded" in line["note"] for line in client.get("/sessions/duel/log").json()["lines"]
    )
    assert client.post("/sessions/duel/amend", json={"number": 999, "command": corrected}).status_code == 422


def test_the_log_narrates_with_rule_ids_and_odds(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(4):
        act_now(client)
    lines = client.get("/sessions/duel/log").json()["lines"]
    attack = next(line for line in lines if line["type"] == "attack_resolved")
    assert "(C2-1)" in attack["explanation"] and "%" in attack["odds"]
    assert client.get("/sessions/duel/log", params={"combatant": "Vic", "round": 1}).status_code == 200


def test_export_and_import_give_the_same_session(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(4):
        act_now(client)
    exported = client.get("/sessions/duel/export")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
    imported = client.post("/sessions/copy/import", json={"log": exported.text})
    assert imported.status_code == 201, imported.text
    a = client.get("/sessions/duel/state").json()["state"]
    b = client.get("/sessions/copy/state").json()["state"]
    assert a == b
    raw = client.post(
        "/sessions/raw/import", content=exported.content, headers={"Content-Type": "application/x-ndjson"}
    )
    assert raw.status_code == 201
    assert client.post("/sessions/copy/import", json={"log": exported.text}).status_code == 409
    for garbage in ("{nope\n", "{}\n", "x", "\n:\u0098L"):  # a damaged log is bad input, never a 5xx
        r = client.post("/sessions/bad/import", json={"log": garbage})
        assert r.status_code == 400 and "/tmp" not in r.text, r.text
        assert client.post("/replays", json={"log": garbage}).status_code == 400


def test_a_session_can_be_deleted(client: TestClient[Any]) -> None:
    new_session(client)
    assert client.delete("/sessions/duel").status_code == 204
    assert client.get("/sessions/duel").status_code == 404
    assert client.delete("/sessions/duel").status_code == 404


def test_audit_and_timeline(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(4):
        act_now(client)
    audit = client.get("/sessions/duel/audit").json()
    assert audit["verified"] and set(audit["fairness"]) == {"table_dice", "all_dice"}
    timeline = client.get("/sessions/duel/timeline").json()
    assert [p["position"] for p in timeline["points"]] == list(range(timeline["version"] + 1))
    last = timeline["points"][-1]["combatants"]
    assert {c["id"] for c in last} == {"Rosa", "Vic"} and all(c["max_wounds"] for c in last)


def test_odds_and_checks_as_the_cli_gives_them(client: TestClient[Any]) -> None:
    odds = client.post("/odds", json={"kind": "major", "rating": 45}).json()
    assert odds["exact"]["matched_success"] == "4/100" and abs(odds["success"] - 0.45) < 1e-9
    rolled = client.post(
        "/checks", json={"spec": {"kind": "significant", "rating": 45, "stat": 60}, "dice": [5, 2]}
    ).json()
    assert rolled["outcome"] == "weak_success" and rolled["dice"] == [5, 2]
    seeded = client.post("/checks", json={"spec": {"kind": "major", "rating": 45}, "seed": 3}).json()
    assert seeded["seed"] == 3
    assert client.post("/odds", json={"kind": "significant", "rating": 45}).json()["where"] == "$.stat"
    assert client.post("/checks", json={"spec": {"kind": "major", "rating": 45}, "dice": [5, 12]}).status_code == 400


def test_sheets_and_scenarios_are_validated_with_their_paths(client: TestClient[Any]) -> None:
    for name in ("bar-brawl", "knife-vs-22"):
        assert client.post("/validate/scenario", json={"name": name}).json()["ok"]
    sheet = Path("scenarios/characters/cop.toml").read_text()
    good = client.post("/validate/sheet", json={"text": sheet, "format": "toml"}).json()
    assert good["kind"] == "sheet" and "findings" in good
    bad = client.post("/validate/sheet", json={"text": sheet.replace("body = ", "body = 'x' #", 1)}).json()
    assert not bad["ok"] and bad["findings"][0]["path"] == "$.stats.body"


def test_a_simulation_runs_as_a_job_and_can_be_cancelled(client: TestClient[Any]) -> None:
    job = client.post("/simulations", json={"scenario": {"name": "knife-vs-22"}, "n": 300, "seed": 7}).json()
    assert job["state"] == "running" and job["requested"] == 300
    assert client.get("/jobs").json()["jobs"][0]["id"] == job["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/jobs/{job['id']}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    result = client.get(f"/jobs/{job['id']}/result").json()
    assert result["job"]["state"] == "done" and result["report"]["fights"] == 300
    long = client.post("/simulations", json={"scenario": {"name": "bar-brawl"}, "n": 100_000_000}).json()
    time.sleep(1.5)
    cancelled = client.delete(f"/jobs/{long['id']}").json()
    while client.get(f"/jobs/{long['id']}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.get(f"/jobs/{long['id']}").json()["state"] == "cancelled", cancelled
    assert client.post("/simulations", json={"scenario": {"name": "knife-vs-22"}, "n": 0}).status_code == 400
    assert client.post("/simulations", json={"scenario": {"name": "knife-vs-22"}, "workers": 999}).status_code == 400
    too_many = client.post("/simulations", json={"scenario": {"name": "knife-vs-22"}, "n": MAX_FIGHTS + 1})
    assert too_many.status_code == 400 and too_many.json()["where"] == "$.n"  # ua simulate's own limits


def test_a_fork_fights_the_rest_as_a_job(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(4):
        act_now(client)
    assert client.post("/sessions/duel/fork", json={"at": 3, "simulate": 50}).status_code == 400  # before the fight
    version = client.get("/sessions/duel").json()["version"]
    job = client.post("/sessions/duel/fork", json={"at": version, "simulate": 50, "seed": 1})
    assert job.status_code == 202, job.text
    deadline = time.monotonic() + 60
    while client.get(f"/jobs/{job.json()['id']}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    result = client.get(f"/jobs/{job.json()['id']}/result").json()
    assert result["report"]["fights"] == 50


def test_a_dropped_log_becomes_a_replay_to_scrub(client: TestClient[Any]) -> None:
    log = Path("replays/knife-vs-22.jsonl").read_text()
    made = client.post("/replays", json={"log": log}).json()
    base = f"/replays/{made['session']}"
    assert client.get(f"{base}/state", params={"at": 5}).json()["at"] == 5
    assert client.get(f"{base}/log").json()["lines"]
    assert client.get(f"{base}/timeline").json()["points"]
    assert client.get("/replays/nope/state").status_code == 404


def test_the_token_is_needed_on_every_api_request(token_client: TestClient[Any]) -> None:
    assert token_client.get("/sessions").status_code == 401
    assert token_client.get("/sessions").headers["www-authenticate"].startswith("Bearer")
    assert token_client.get("/sessions", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert token_client.get("/schema").status_code == 401
    good = {"Authorization": f"Bearer {TOKEN}"}
    assert token_client.get("/sessions", headers=good).status_code == 200
    assert token_client.get("/").status_code == 200  # the viewer's own files hold no data
    assert token_client.get("/viewer/viewer.js").status_code == 200


def test_without_a_token_only_loopback_and_same_origin_requests_are_answered(client: TestClient[Any]) -> None:
    assert client.get("/sessions", headers={"Host": "evil.example"}).status_code == 403
    assert client.get("/sessions", headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.get("/sessions", headers={"Origin": "http://127.0.0.1:8787"}).status_code == 200


def test_a_body_too_large_is_a_413(tmp_path: Path) -> None:
    with client_for(tmp_path / "s.sqlite") as client:
        r = client.post("/odds", content=b" " * (3 * 1024 * 1024), headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_commands_the_cli_wrote_are_seen_by_the_api(client: TestClient[Any], tmp_path: Path) -> None:
    new_session(client)
    other = SqliteStore(tmp_path / "sessions.sqlite")  # another writer, as the CLI is
    LiveEncounter(other, "duel").execute(Ruling(note="from the CLI"))
    other.close()
    assert client.get("/sessions/duel").json()["version"] == 8
    assert run(client, "duel", {"command": "begin_fight"}, expected_version=8).status_code == 200


def test_command_ids_are_the_logs_own_so_a_retry_is_one_after_a_restart_and_across_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "sessions.sqlite"
    body = {"command": {"command": "ruling", "note": "the door is locked"}}
    with client_for(db) as client:
        new_session(client)
        first = client.post("/sessions/duel/commands", json=body, headers={"Command-Id": "door-1"})
        assert first.status_code == 200 and not first.json()["retry"]
    other = SqliteStore(db)  # the CLI, with its own --command-id
    LiveEncounter(other, "duel").execute(Ruling(note="from the CLI"), command_id="cli-7")
    other.close()
    with client_for(db) as client:  # a new server: nothing of the first one's memory
        again = client.post("/sessions/duel/commands", json=body, headers={"Command-Id": "door-1"})
        assert again.status_code == 200 and again.json()["retry"]
        assert [e["position"] for e in again.json()["events"]] == [e["position"] for e in first.json()["events"]]
        cli = client.post(
            "/sessions/duel/commands",
            json={"command": {"command": "ruling", "note": "from the CLI"}},
            headers={"Command-Id": "cli-7"},
        )
        assert cli.status_code == 200 and cli.json()["retry"]
        assert client.get("/sessions/duel").json()["version"] == 10  # 6 + 2 + 2: nothing written twice
        bad = client.post("/sessions/duel/commands", json=body, headers={"Command-Id": "no spaces"})
        assert bad.status_code == 400 and bad.json()["where"] == "Command-Id"


def test_a_new_session_undo_and_amend_are_retried_by_their_command_ids(client: TestClient[Any]) -> None:
    body = {"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}
    made = client.post("/sessions", json=body, headers={"Command-Id": "new-duel"})
    again = client.post("/sessions", json=body, headers={"Command-Id": "new-duel"})
    assert made.status_code == again.status_code == 201
    assert again.json()["retry"] and again.json()["events"] == made.json()["events"]
    assert client.post("/sessions", json=body).status_code == 409  # another intent: the name is taken
    for _ in range(4):
        act_now(client)
    undone = client.post("/sessions/duel/undo", headers={"Command-Id": "undo-1"})
    act_now(client)
    version = client.get("/sessions/duel").json()["version"]
    retried = client.post("/sessions/duel/undo", json={"expected_version": 1}, headers={"Command-Id": "undo-1"})
    assert retried.status_code == 200 and retried.json()["retry"]  # a retry is answered whatever the version now
    assert retried.json()["events"] == undone.json()["events"] and retried.json()["changes"] == undone.json()["changes"]
    assert client.get("/sessions/duel").json()["version"] == version
    lines = client.get("/sessions/duel/log").json()["lines"]
    number = next(
        line["command"] for line in reversed(lines) if line["type"] == "command_recorded" and not line["struck"]
    )
    issued = client.get("/sessions/duel/state", params={"at": 0}).json()  # any readable state
    assert issued["at"] == 0
    corrected = {"command": "ruling", "note": "instead"}
    amended = client.post(
        "/sessions/duel/amend", json={"number": number, "command": corrected}, headers={"Command-Id": "fix-1"}
    )
    assert amended.status_code == 200, amended.text
    once_more = client.post(
        "/sessions/duel/amend", json={"number": number, "command": corrected}, headers={"Command-Id": "fix-1"}
    )
    assert once_more.json()["retry"] and once_more.json()["events"] == amended.json()["events"]
    assert once_more.json()["changes"] == amended.json()["changes"]


def test_an_import_keeps_each_commands_id_and_re_decides_every_command(client: TestClient[Any]) -> None:
    new_session(client)
    client.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}, headers={"Command-Id": "go"})
    exported = client.get("/sessions/duel/export").text
    assert client.post("/sessions/copy/import", json={"log": exported}).status_code == 201
    ids = [msgspec.json.decode(line)["command_id"] for line in exported.splitlines()]
    copied = [msgspec.json.decode(line)["command_id"] for line in client.get("/sessions/copy/export").text.splitlines()]
    assert copied == ids and "go" in ids
    retry = client.post(
        "/sessions/copy/commands", json={"command": {"command": "begin_fight"}}, headers={"Command-Id": "go"}
    )
    assert retry.json()["retry"]
    cut = exported.splitlines(keepends=True)[:-1]  # a command cut short
    r = client.post("/sessions/torn/import", json={"log": "".join(cut)})
    assert r.status_code == 400 and "--" not in r.json()["hint"], r.text


def test_a_fork_of_a_posted_scenario_takes_the_tactics_the_session_stored(client: TestClient[Any]) -> None:
    document = client.get("/scenarios/knife-vs-22").json()["document"]
    assert (
        client.post("/sessions", json={"name": "posted", "scenario": {"document": document}, "seed": 3}).status_code
        == 201
    )
    for _ in range(4):
        act_now(client, "posted")
    version = client.get("/sessions/posted").json()["version"]
    job = client.post("/sessions/posted/fork", json={"at": version, "simulate": 20, "seed": 1})
    assert job.status_code == 202, job.text
    deadline = time.monotonic() + 60
    while client.get(f"/jobs/{job.json()['id']}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    result = client.get(f"/jobs/{job.json()['id']}/result")
    assert result.status_code == 200, result.text
    assert result.json()["report"]["fights"] == 20 and result.json()["job"]["done"] == 20


def test_the_session_list_gives_each_sessions_title_ruleset_phase_and_round(client: TestClient[Any]) -> None:
    new_session(client)
    client.post("/sessions", json={"name": "church", "scenario": {"name": "ua3/the-hollow-church"}, "seed": 3})
    act_now(client)  # the duel's fight begins
    listed = {s["name"]: s for s in client.get("/sessions").json()["sessions"]}
    for name in ("duel", "church"):
        assert listed[name] == client.get(f"/sessions/{name}").json()
    assert listed["duel"]["ruleset"] == "ua2" and listed["church"]["ruleset"] == "ua3"
    assert listed["duel"]["phase"] != "setup" and listed["duel"]["round"] >= 1 and listed["duel"]["title"]


def test_a_value_then_bytes_that_are_no_json_is_a_400_not_a_500(client: TestClient[Any]) -> None:
    """Found by schemathesis: `9` then control bytes was decoded as far as `9`, refused as no
    object, then read again as whole numbers, which raised past the handler (a 500)."""
    for path in ("/replays", "/sessions", "/odds"):
        r = client.post(path, content=b"9\x12J\xff\xfe1", headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["where"] == "$" and r.json()["message"].startswith("not JSON")
