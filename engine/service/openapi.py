"""The OpenAPI 3.1 document at `/schema`: Litestar's (paths, parameters, operations), corrected
with msgspec's own JSON Schema wherever Litestar's generator drops something a client needs.

Litestar writes a struct's properties but not `additionalProperties: false` for structs that
forbid unknown fields, nor the tag field and `discriminator` of a tagged union (the command
union), and it knows nothing of the bodies this service decodes itself. So every component that
is a msgspec struct is replaced by msgspec's schema of it, request bodies are added from each
route's `opt["body"]`, every operation lists the error responses (one `ErrorBody` shape), and the
bearer token is declared. A client generated from the result sends what the engine accepts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.openapi.plugins import OpenAPIRenderPlugin

from engine.scenario.scenario import Scenario
from engine.service import components
from engine.service.models import ErrorBody
from engine.state.sheet import Sheet

REF = components.REF
#: The error statuses every operation may answer with, and what each means.
ERRORS = {
    "400": "The request is not valid (its `where` names the field, `$.path` style).",
    "401": "A bearer token is needed (the server was started with one).",
    "403": "Refused: not from this machine, or from another web origin.",
    "404": "No such session, job, replay or shipped scenario.",
    "409": "A conflict: the session is not at the expected version (`version` is the current one).",
    "413": "The request body is too large.",
    "422": "The rules refuse the command in the current state (nothing was written).",
    "429": "Too many jobs are running.",
}
METHODS = ("get", "put", "post", "delete", "patch")
#: A session's log as bytes: JSON lines, as `ua session export` writes a replay file.
LOG = {
    "type": "string",
    "format": "binary",
    "contentMediaType": "application/x-ndjson",
    "description": (
        "A replay file: one JSON object per line (`stream`, `position`, `event_id`, `command_id`,"
        " `type`, `schema_version`, `recorded_at`, `commit`, `data` — the event, an `Event` —"
        " and `checksum`), as `ua session export` writes it and `ua session import` reads it."
    ),
}
#: A session's live stream: Server-Sent Events, not JSON (each message's `data` is an EventView).
STREAM = {
    "description": (
        "Server-Sent Events: one message per event, `id` its log position (send it back as"
        " `Last-Event-ID` to resume), `event: event`, `data` an `EventView` as JSON; comment lines"
        " keep an idle stream open."
    ),
    "content": {
        "text/event-stream": {
            "schema": {"type": "string"},
            "example": 'id: 7\nevent: event\ndata: {"position":7,"type":"round_started","command":7}\n\n',
        }
    },
}


def _openapi_path(litestar_path: str) -> str:
    """`/sessions/{name:str}` → `/sessions/{name}`."""
    return re.sub(r"\{(\w+):[^}]+\}", r"{\1}", litestar_path)


def bodies(app: Litestar) -> dict[tuple[str, str], tuple[type[Any], bool, tuple[str, ...], dict[str, Any]]]:
    """(path, method) → (body type, required, other media types, more of its schema) for every
    route with `opt["body"]`."""
    out = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            body = handler.opt.get("body")
            if body is None:
                continue
            for method in handler.http_methods:
                out[(_openapi_path(route.path), method.lower())] = (
                    body,
                    bool(handler.opt.get("body_required", True)),
                    tuple(handler.opt.get("body_media", ())),
                    dict(handler.opt.get("body_schema", {})),
                )
    return out


def response_media(app: Litestar) -> dict[tuple[str, str], tuple[str, ...]]:
    """(path, method) → the media types a route answers with (`opt["response_media"]`): one body
    (a log) served as JSON lines or, to a client accepting only it, as plain bytes."""
    out = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            media = handler.opt.get("response_media")
            for method in handler.http_methods if media else ():
                out[(_openapi_path(route.path), method.lower())] = tuple(media)
    return out


#: A parameter's bounds as its declaration states them → their JSON Schema keywords.
BOUNDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}


def parameter_bounds(app: Litestar) -> dict[tuple[str, str, str], dict[str, Any]]:
    """(path, method, parameter) → the bounds its declaration gives (`ge=0`: `minimum: 0`), which
    Litestar's document leaves out of an optional parameter's schema."""
    out = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            for name, parameter in handler.parsed_fn_signature.parameters.items():
                declared = parameter.kwarg_definition
                bounds = {
                    key: getattr(declared, attr)
                    for attr, key in BOUNDS.items()
                    if getattr(declared, attr, None) is not None
                }
                called = getattr(declared, "name", None) or getattr(declared, "header", None) or name
                for method in handler.http_methods if bounds else ():
                    out[(_openapi_path(route.path), method.lower(), called)] = bounds
    return out


def _parameter(schema: dict[str, Any], bounds: dict[str, Any]) -> dict[str, Any]:
    """An optional parameter's schema as a client needs it: its own type (absent is `required:
    false`, never null: a header or a query value is text) with every bound."""
    kinds = [s for s in schema.get("oneOf", []) if s != {"type": "null"}]
    if len(kinds) == 1:
        schema = {**{k: v for k, v in schema.items() if k != "oneOf"}, **kinds[0]}
    return {**schema, **bounds}


#: Operations that make a resource → (the path parameter naming it, where their answer says it).
CREATES = {
    "newSession": ("name", "$response.body#/session"),
    "importLog": ("name", "$response.body#/session"),
    "newReplay": ("replay_id", "$response.body#/session"),
}
#: What no link leads to: the endless event stream (a client follows it on purpose).
UNLINKED = {"events"}


def links(document: dict[str, Any]) -> None:
    """OpenAPI links from each operation that makes a session or replay to every operation on it
    (a session made → its state, commands, export, deletion …): how a client, or a stateful
    tester, goes from one answer to the next request."""
    operations = {
        op["operationId"]: (path, op)
        for path, item in document["paths"].items()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for source, (parameter, expression) in CREATES.items():
        _, op = operations[source]
        created = next(status for status in op["responses"] if status.startswith("2"))
        op["responses"][created]["links"] = {
            target: {"operationId": target, "parameters": {parameter: expression}}
            for target, (path, _) in operations.items()
            if target not in UNLINKED and re.findall(r"\{(\w+)\}", path) == [parameter]
        }


def operation_ids(app: Litestar) -> dict[tuple[str, str], str]:
    """(path, method) → the handler's own name in camel case (`list_sessions` → `listSessions`):
    what a generated client names its functions after."""
    out = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            first, *rest = (handler.name or handler.handler_name).split("_")
            for method in handler.http_methods:
                out[(_openapi_path(route.path), method.lower())] = first + "".join(w.title() for w in rest)
    return out


def _no_boolean_items(schema: Any) -> Any:
    """msgspec writes a fixed-length tuple as `prefixItems` with `items: false`; many client
    generators take no boolean schema there, so say the same with `maxItems` (equivalent)."""
    if isinstance(schema, dict):
        out = {k: _no_boolean_items(v) for k, v in schema.items()}
        if out.get("items") is False and isinstance(out.get("prefixItems"), list):
            del out["items"]
            out["maxItems"] = min(len(out["prefixItems"]), out.get("maxItems", len(out["prefixItems"])))
        return out
    if isinstance(schema, list):
        return [_no_boolean_items(v) for v in schema]
    return schema


def response_types(app: Litestar) -> list[type[Any]]:
    """The structs the routes answer with (their return annotations)."""
    out = []
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            returned = handler.parsed_fn_signature.return_type.annotation
            if isinstance(returned, type) and issubclass(returned, msgspec.Struct):
                out.append(returned)
    return out


def correct(app: Litestar, document: dict[str, Any], types: Iterable[type[Any]] = ()) -> dict[str, Any]:
    """Litestar's document with msgspec's schemas, under unique names, for every struct the
    routes take and answer with (and `types`)."""
    routes = bodies(app)
    names = operation_ids(app)
    answers = response_media(app)
    bounds = parameter_bounds(app)
    wanted = [*response_types(app), *types, *(found[0] for found in routes.values()), Scenario, Sheet, ErrorBody]
    schemas, renamed = components.schemas(dict.fromkeys(wanted))
    document = components.rewrite_refs(document, renamed)
    document.setdefault("components", {})["schemas"] = _no_boolean_items(schemas)
    document["components"]["securitySchemes"] = {
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "Needed on every request when the server was started with --token.",
        }
    }
    document["security"] = [{}, {"bearer": []}]
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            if (path, method) in names:
                operation["operationId"] = names[(path, method)]
            for parameter in operation.get("parameters", ()):
                found_bounds = bounds.get((path, method, parameter["name"]), {})
                parameter["schema"] = _parameter(parameter.get("schema", {}), found_bounds)
            found = routes.get((path, method))
            if found is not None:
                body, required, media, more = found
                ref = {"$ref": REF.format(name=body.__name__), **more}
                content: dict[str, Any] = {"application/json": {"schema": ref}}
                for other in media:
                    content[other] = {"schema": LOG}
                operation["requestBody"] = {"required": required, "content": content}
            responses = operation.setdefault("responses", {})
            if method == "get" and path.endswith("/events"):
                responses["200"] = STREAM
            if (path, method) in answers:
                responses["200"]["content"] = {media: {"schema": LOG} for media in answers[(path, method)]}
            for status, text in ERRORS.items():
                responses[status] = (  # Litestar's own 400 has another shape: ours replaces it
                    {
                        "description": text,
                        "content": {"application/json": {"schema": {"$ref": REF.format(name="ErrorBody")}}},
                    }
                )
    links(document)
    return document


class CorrectedSchema(OpenAPIRenderPlugin):
    """Serves the corrected document as JSON at `/schema` and `/schema/openapi.json`."""

    def __init__(self, types: Iterable[type[Any]] = ()) -> None:
        super().__init__(path=["/", "/openapi.json"], media_type="application/json")  # type: ignore[arg-type]
        self.types = list(types)
        self._cached: bytes | None = None

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        if self._cached is None:
            self._cached = msgspec.json.encode(correct(request.app, openapi_schema, self.types))
        return self._cached
