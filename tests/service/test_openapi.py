"""The OpenAPI document at /schema, and schemathesis against it in-process: no 5xx for anything
the schema allows, and every response matching the schema. Examples per operation:
UA_SCHEMATHESIS_EXAMPLES (default 25, bounded for CI)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from engine.commands import Attack, Command
from engine.service.app import create_app
from engine.service.models import Execute
from tests.service.conftest import config_for

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in the test extra")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

EXAMPLES = int(os.environ.get("UA_SCHEMATHESIS_EXAMPLES", "25"))


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


def test_the_schema_keeps_what_msgspec_knows(client: TestClient[Any]) -> None:
    doc = client.get("/schema").json()
    assert doc["openapi"].startswith("3.1")
    schemas = doc["components"]["schemas"]
    for ref in set(_refs(doc)):
        assert ref.removeprefix("#/components/schemas/") in schemas, ref
    _, expected = msgspec.json.schema_components([Execute, Attack], ref_template="#/components/schemas/{name}")
    # msgspec names a component by its class, by its module too when two share the name (ua3's Attack)
    attack = "Attack" if "Attack" in expected else f"{Attack.__module__}.Attack"
    assert schemas["Execute"]["additionalProperties"] is False
    assert schemas[attack]["additionalProperties"] is False
    assert schemas[attack]["properties"]["command"] == {"enum": ["attack"]}
    command = schemas["Execute"]["properties"]["command"]
    assert command["discriminator"]["propertyName"] == "command"
    assert set(command["discriminator"]["mapping"]) == {t.__struct_config__.tag for t in Command.__args__}
    assert schemas[attack] == msgspec.json.decode(msgspec.json.encode(expected[attack]))
    body = doc["paths"]["/sessions/{name}/commands"]["post"]
    assert body["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Execute"}
    assert {p["name"] for p in body["parameters"]} >= {"name", "Command-Id"}
    assert "409" in body["responses"] and "bearer" in doc["components"]["securitySchemes"]
    assert client.get("/schema/openapi.json").json() == doc
    stream = doc["paths"]["/sessions/{name}/events"]["get"]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"]
    ids = [op["operationId"] for item in doc["paths"].values() for op in item.values() if "operationId" in op]
    assert len(ids) == len(set(ids)) and {"listSessions", "sessionInfo", "execute", "sessionState"} <= set(ids)


def test_no_input_the_schema_allows_is_a_server_error(tmp_path: Path) -> None:
    """Every operation (but jobs, which spawn processes, and the endless stream: their own tests
    cover them) with EXAMPLES generated requests each: no 5xx, responses as documented."""
    db = tmp_path / "s.sqlite"
    with TestClient(create_app(config_for(db))) as c:  # a session to find, past the 404s
        c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7})
    app = create_app(config_for(db))
    loaded = schemathesis.openapi.from_asgi("/schema", app)
    failures: list[str] = []
    tried = 0
    for result in loaded.get_all_operations():
        operation = result.ok()
        if re.search(r"^/(simulations|sessions/\{name\}/(fork|events))$", operation.path):
            continue
        tried += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        def check(case: Any) -> None:
            if "name" in (case.path_parameters or {}) and case.method != "DELETE":
                case.path_parameters["name"] = "duel"
            # the document cannot say everything the engine checks ("one of name or document", a
            # rule's refusal): a schema-valid request may still be a 4xx, never a 5xx
            case.call_and_validate(excluded_checks=[positive_data_acceptance])

        try:
            check()
        except Exception as exc:  # collect them all, then fail once with every operation named
            failures.append(f"{operation.method.upper()} {operation.path}: {exc}"[:2000])
    assert tried >= 25
    assert not failures, "\n\n".join(failures)
