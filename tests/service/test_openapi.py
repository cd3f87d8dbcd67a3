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
#: Every check; a well-formed request the rules refuse in the session's state (422, as the
#: document says) is an accepted answer to schema-valid data, as a 404 or a 409 is.
CHECKS = schemathesis.config.SchemathesisConfig.from_str(
    """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
"""
)


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
    as_msgspec = msgspec.json.decode(msgspec.json.encode(expected_attack))
    as_msgspec["properties"]["dice"]["items"] = {"type": "integer", "minimum": 0, "maximum": 9}  # d10 faces
    assert msgspec.json.decode(unprefixed) == {**as_msgspec, "title": attack}
    body = doc["paths"]["/sessions/{name}/commands"]["post"]
    assert body["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Execute"}
    assert {p["name"] for p in body["parameters"]} >= {"name", "Command-Id"}
    assert "409" in body["responses"] and "bearer" in doc["components"]["securitySchemes"]
    assert client.get("/schema/openapi.json").json() == doc
    stream = doc["paths"]["/sessions/{name}/events"]["get"]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"]
    ids = [op["operationId"] for item in doc["paths"].values() for op in item.values() if "operationId" in op]
    assert len(ids) == len(set(ids)) and {"listSessions", "sessionInfo", "execute", "sessionState"} <= set(ids)


def _beyond_the_schema(case: Any, response: Any) -> bool:
    """Whether a schema-valid request was refused for what no schema can state: a posted log's,
    scenario's or sheet's content, checked by the engine's loader (TOML syntax, the creation
    rules), an event position past the session's end (`at`), a combatant it does not have, a
    control character in a text (refused wherever text is kept or shown)."""
    if response.status_code != 400:
        return False
    where = response.json().get("where", "")
    message = response.json()["message"]
    if (where in ("at", "$.at") and message.startswith("no event")) or message.startswith("no combatant"):
        return True
    # the table's bodies are each "exactly one of" their fields (an answer: dice, a choice or
    # roll-for-me; an invite: characters or viewer; a flip takes no dice), which the engine checks
    # and the descriptions say; and a request id, a character, a player must be the session's
    if str(getattr(case, "path", "")).endswith(("/passions", "/participants", "/requests/{request_id}")):
        return True
    plain = ("write plain text", "names are one line of printable text")
    if " contains U+" in message or response.json()["hint"] in plain:  # a control character (engine.text)
        return True
    body = case.body if isinstance(case.body, dict) else {}
    return "log" in body or any(
        isinstance(part, dict) and (part.get("document") is not None or part.get("text") is not None)
        for part in (body, body.get("scenario"))
    )


def test_no_input_the_schema_allows_is_a_server_error(tmp_path: Path) -> None:
    """Every operation (but jobs, which spawn processes, and the endless stream: their own tests
    cover them) with EXAMPLES generated requests each: no 5xx, responses as documented."""
    db = tmp_path / "s.sqlite"
    with TestClient(create_app(config_for(db))) as c:  # a session to find, past the 404s
        c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7})
    app = create_app(config_for(db))
    loaded = schemathesis.openapi.from_asgi("/schema", app, config=CHECKS)
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
            response = case.call()
            # every check; but what depends on more than the request's shape may be refused (400,
            # never a 5xx): a posted document's content, an event the session does not have yet
            excluded = [positive_data_acceptance] if _beyond_the_schema(case, response) else []
            case.validate_response(response, excluded_checks=excluded)

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


STEPS = int(os.environ.get("UA_SCHEMATHESIS_STEPS", "15"))


def test_stateful_runs_along_the_links_with_every_check(tmp_path: Path) -> None:
    """Schemathesis' state machine follows the document's links (a session made → its state,
    commands, undo, export, import, deletion …; a replay made → its views) with every check —
    use after free included. Sequences: UA_SCHEMATHESIS_STEPS (default 15, bounded for CI)."""
    app = create_app(config_for(tmp_path / "s.sqlite"))
    loaded = schemathesis.openapi.from_asgi("/schema", app, config=CHECKS)
    links = loaded.raw_schema["paths"]["/sessions"]["post"]["responses"]["201"]["links"]
    assert {"sessionState", "execute", "undo", "export", "deleteSession"} <= set(links) and "events" not in links

    followed: list[str] = []

    class Checked(loaded.as_state_machine()):  # type: ignore[misc]
        def call(self, case: Any, **kwargs: Any) -> Any:
            followed.append(case.operation.label)
            return super().call(case, **kwargs)

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            excluded = [positive_data_acceptance] if _beyond_the_schema(case, response) else []
            case.validate_response(response, excluded_checks=excluded)

    Checked.run(
        settings=settings(
            max_examples=STEPS,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        )
    )
    linked = {label for label in followed if "{name}" in label or "{replay_id}" in label}
    assert len(followed) > STEPS and len(linked) >= 5, sorted(set(followed))


def test_every_operation_is_summed_up_and_grouped_by_its_resource(client: TestClient[Any]) -> None:
    doc = client.get("/schema").json()
    operations = [op for item in doc["paths"].values() for op in item.values() if isinstance(op, dict)]
    assert len(operations) >= 34
    for op in operations:
        assert op["summary"] and "Asynccallable" not in op["summary"], op["operationId"]
        assert op["description"] and "thread pool" not in op["description"], op["operationId"]
    tags = {op["operationId"]: op["tags"] for op in operations}
    assert tags["execute"] == ["commands"] and tags["newSession"] == ["sessions"] and tags["job"] == ["simulations"]
    assert {t for ts in tags.values() for t in ts} == {
        "service", "scenarios", "validation", "sessions", "commands", "simulations", "replays",
        "requests", "participants", "passions",
    }  # fmt: skip


def test_a_whole_number_is_an_integer_as_json_schema_says(client: TestClient[Any]) -> None:
    """`45.0` is the integer 45 in JSON Schema, so a body the document allows is taken; `45.5` is not."""
    assert client.post("/odds", json={"kind": "minor", "rating": 45.0}).json()["target"] == 45
    refused = client.post("/odds", json={"kind": "minor", "rating": 45.5})
    assert refused.status_code == 400 and refused.json()["where"] == "$.rating"
