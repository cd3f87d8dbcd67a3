"""A whole fight over HTTP by a client that knows only the OpenAPI document: operations found by
their `operationId`, every request body checked against the document's schema before it is sent
and every response against the schema of its status — on a real server (uvicorn on loopback), as
a client generated from `/schema` drives it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.service.bench import running_server

jsonschema_rs = pytest.importorskip("jsonschema_rs", reason="schemathesis (the test extra) brings jsonschema_rs")


class SchemaClient:
    """Calls operations by id, holding requests and responses to the served document."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.document: dict[str, Any] = self.http.get("/schema").raise_for_status().json()
        self.operations: dict[str, tuple[str, str, dict[str, Any]]] = {}
        for path, item in self.document["paths"].items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    self.operations[operation["operationId"]] = (method, path, operation)
        self.sent = 0

    def _validator(self, schema: dict[str, Any]) -> Any:
        return jsonschema_rs.validator_for({**schema, "components": self.document["components"]})

    def call(self, operation_id: str, body: Any = None, headers: dict[str, str] | None = None, **params: Any) -> Any:
        method, template, operation = self.operations[operation_id]
        path = re.sub(r"\{(\w+)\}", lambda m: str(params.pop(m.group(1))), template)
        known = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        assert set(params) <= known, (operation_id, params, known)
        if body is not None:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            errors = [e.message for e in self._validator(schema).iter_errors(body)]
            assert not errors, (operation_id, body, errors)  # the client would not send it
        r = self.http.request(method, path, json=body, params=params, headers=headers)
        self.sent += 1
        documented = operation["responses"].get(str(r.status_code))
        assert documented is not None, (operation_id, r.status_code, r.text)
        content = documented.get("content", {}).get("application/json")
        if content is not None:
            errors = [e.message for e in self._validator(content["schema"]).iter_errors(r.json())]
            assert not errors, (operation_id, r.status_code, errors[:3])
        return r


@pytest.fixture
def api(tmp_path: Path) -> Iterator[SchemaClient]:
    with running_server(tmp_path / "s.sqlite") as base:
        client = SchemaClient(base)
        yield client
        client.http.close()


def _next(info: dict[str, Any], sides: dict[str, str], state: dict[str, Any]) -> dict[str, Any]:
    if info["phase"] == "setup":
        return {"command": "begin_fight"}
    if info["turn"] is None:
        return {"command": "declare", "declarations": []}
    me = info["turn"]
    standing = [c["id"] for c in state["combatants"] if c["status"] == "active" and sides[c["id"]] != sides[me]]
    return {"command": "attack", "actor": me, "target": standing[0]}


def test_a_whole_fight_over_http_by_a_client_of_the_schema_alone(api: SchemaClient) -> None:
    execute = api._validator({"$ref": "#/components/schemas/Execute"})
    assert execute.is_valid({"command": {"command": "attack", "actor": "Vic", "target": "Rosa"}})
    for wrong in (
        {"command": {"command": "attack", "actor": "Vic", "target": "Rosa", "bogus": 1}},  # unknown field
        {"command": {"command": "no_such_command"}},
        {"command": {"command": "attack", "actor": 5}},
        {"command": {"command": "begin_fight"}, "expected_version": -1},
    ):
        assert not execute.is_valid(wrong), wrong  # what the engine refuses, the schema refuses first
    shipped = api.call("listScenarios").json()["scenarios"]
    assert "knife-vs-22" in [s["name"] for s in shipped]
    made = api.call("newSession", {"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 11})
    assert made.status_code == 201
    version = made.json()["version"]
    sides: dict[str, str] = {}
    for step in range(400):
        info = api.call("sessionInfo", name="duel").json()
        if info["phase"] == "ended":
            break
        state = api.call("sessionState", name="duel").json()["state"]
        sides = {c["id"]: c["side"] for c in state["combatants"]}
        command = _next(info, sides, state)
        body = {"command": command, "expected_version": version}
        r = api.call("execute", body, headers={"Command-Id": f"step-{step}-{uuid.uuid4().hex[:8]}"}, name="duel")
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    else:
        pytest.fail("the fight did not end in 400 commands")
    final = api.call("sessionState", name="duel").json()
    assert final["state"]["fight"]["phase"] == "ended" and final["version"] == version
    log = api.call("sessionLog", name="duel").json()["lines"]
    assert any("(C2-1)" in line["explanation"] for line in log)
    assert api.call("audit", name="duel").json()["verified"]
    halfway = api.call("sessionState", name="duel", at=version // 2).json()
    assert halfway["at"] == version // 2
    assert api.call("sessionTimeline", name="duel").json()["points"][-1]["position"] == version
    stale = api.call("execute", {"command": {"command": "ruling", "note": "late"}, "expected_version": 1}, name="duel")
    assert stale.status_code == 409 and stale.json()["version"] == version
    assert api.sent > 20
