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
    # msgspec names a component by its class, by its module too when two share the name (ua3's
    # Attack); the document names each edition's by its ruleset's prefix
    attack = "Ua2Attack"
    expected_attack = expected["Attack" if "Attack" in expected else f"{Attack.__module__}.Attack"]
    assert schemas["Execute"]["additionalProperties"] is False
    assert schemas[attack]["additionalProperties"] is False
    assert schemas[attack]["properties"]["command"] == {"enum": ["attack"]}
    command = schemas["Execute"]["properties"]["command"]
    assert command["discriminator"]["propertyName"] == "command"
    assert set(command["discriminator"]["mapping"]) == {t.__struct_config__.tag for t in Command.__args__}
    # msgspec's schema, but for the names: what ua2's Attack holds has ua2's names too
    unprefixed = re.sub(
        r"#/components/schemas/Ua2", "#/components/schemas/", msgspec.json.encode(schemas[attack]).decode()
    )
    assert msgspec.json.decode(unprefixed) == {
        **msgspec.json.decode(msgspec.json.encode(expected_attack)),
        "title": attack,
    }
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


def test_every_component_title_is_unique_and_each_editions_is_prefixed(client: TestClient[Any]) -> None:
    """Generators name models by title: two editions' `Attack`s are `Ua2Attack` and `Ua3Attack`
    (each ruleset's `schema_prefix`), and nothing else shares a title either (issue 31)."""
    from engine.rules.registry import PLUGINS

    schemas = client.get("/schema").json()["components"]["schemas"]
    titles = [s.get("title", key) for key, s in schemas.items()]
    assert len(titles) == len(set(titles)), sorted(t for t in titles if titles.count(t) > 1)
    assert all(s.get("title", key) == key for key, s in schemas.items())
    assert all("." not in key for key in schemas)  # no module paths left
    for plugin, tag in ((PLUGINS["ua2"], "attack"), (PLUGINS["ua3"], "ua3_attack")):
        attack = schemas[f"{plugin.schema_prefix}Attack"]
        assert attack["properties"]["command"] == {"enum": [tag]}
    assert {"Ua2Gauge", "Ua3Gauge"} & set(schemas) == {"Ua3Gauge"} and "Gauge" in schemas  # the API's own


def test_the_document_types_what_a_client_reads_and_sends(client: TestClient[Any]) -> None:
    doc = client.get("/schema").json()
    schemas = doc["components"]["schemas"]
    # the state: each ruleset's, told apart by `ruleset`
    state = schemas["StateView"]["properties"]["state"]
    assert state["$ref"] == "#/components/schemas/State"
    assert schemas["State"]["discriminator"]["mapping"] == {
        "ua2": "#/components/schemas/Ua2Encounter",
        "ua3": "#/components/schemas/Ua3Encounter",
    }
    assert schemas["StateView"]["properties"]["at"]["minimum"] == 0
    # an event: every event type, by `type`; a recorded command holds any command
    assert len(schemas["Event"]["discriminator"]["mapping"]) == len(schemas["Event"]["oneOf"]) > 50
    assert schemas["CommandRecorded"]["properties"]["issued"] == {"$ref": "#/components/schemas/Command"}
    assert "CommandBase" not in schemas
    # exactly one of a scenario's name, document or text; of a sheet's document or text
    assert [v["$ref"].rsplit("/", 1)[1] for v in schemas["ScenarioSource"]["oneOf"]] == [
        "ScenarioSourceName",
        "ScenarioSourceDocument",
        "ScenarioSourceText",
    ]
    assert schemas["ScenarioSourceText"]["required"] == ["text"]
    assert schemas["ScenarioSourceText"]["properties"]["name"] == {"type": "null", "default": None}
    assert len(schemas["SheetSource"]["oneOf"]) == 2
    # the Command-Id header: anchored, as the store checks it (a whole match)
    execute = doc["paths"]["/sessions/{name}/commands"]["post"]
    header = next(p for p in execute["parameters"] if p["name"] == "Command-Id")
    pattern = header["schema"].get("pattern") or next(s["pattern"] for s in header["schema"]["oneOf"] if "pattern" in s)
    assert pattern.startswith("^") and pattern.endswith("$")
    assert re.fullmatch(pattern, "cmd-1") and not re.search(pattern, "cmd 1; x")
