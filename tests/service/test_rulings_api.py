"""GM rulings with effects over HTTP (U-26, T-5): the command's JSON carries them, the state
shows them, a bad entry is a 400 or 422 naming it, and nothing is written then."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.service.conftest import new_session, run


def test_a_ruling_s_effects_in_its_json_are_decided_and_shown(client: TestClient[Any]) -> None:
    new_session(client)  # knife-vs-22: Rosa and Vic, ua2
    ruling = {
        "command": "ruling",
        "note": "Vic slips on the stairs",
        "wounds": [{"who": "Vic", "amount": 12}],
        "notches": [{"who": "Rosa", "meter": "violence", "kind": "hardened", "change": 1}],
        "conditions": [{"who": "Vic", "condition": "prone"}],
    }
    r = run(client, "duel", ruling)
    assert r.status_code == 200, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types[1:] == ["gm_ruling", "wounds_inflicted", "notch_marked", "condition_ruled"]
    healed = run(client, "duel", {"command": "ruling", "note": "first aid", "wounds": [{"who": "Vic", "amount": -12}]})
    assert healed.status_code == 200 and healed.json()["events"][-1]["type"] == "ruling_healed"


def test_a_bad_ruling_entry_is_refused_by_its_path_and_writes_nothing(client: TestClient[Any]) -> None:
    version = new_session(client)["version"]
    typed = run(client, "duel", {"command": "ruling", "note": "x", "wounds": [{"who": "Vic", "amount": "lots"}]})
    assert typed.status_code == 400 and typed.json()["where"].endswith("wounds[0].amount")
    ruled = run(client, "duel", {"command": "ruling", "note": "x", "falls": [{"who": "Vic", "wounds": 9}]})
    assert ruled.status_code == 422 and "U-13" in ruled.json()["message"]
    assert ruled.json()["where"] == "$.falls[0]"
    assert client.get("/sessions/duel").json()["version"] == version
