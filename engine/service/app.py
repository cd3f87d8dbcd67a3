"""The application: `create_app(config)` builds the Litestar app of `ua serve` from the routers of
`engine.service.routes` (one per resource), the shared `Service`, and the error handlers that
answer every error as one `ErrorBody`.

Every handler decodes its body with the engine's own types (`bodies.decode_body`), makes one call
of the session service (`SessionService`, the CLI's too, with the API's `Front`) or of
`engine.simulate` through `Jobs`, and answers with a struct from `models` (made by
`engine.service.sessions`). Blocking work runs in worker threads."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar, Request, Response, Router
from litestar.exceptions import HTTPException
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.static_files import create_static_files_router

from engine.errors import EngineError
from engine.scenario.files import FileError
from engine.service import access, pages, participants, passions, table
from engine.service.context import HEADERS, Service, ServiceConfig, body_of, run, service_of
from engine.service.errors import (
    ServiceError,
    error_body,
    headers_for,
    http_error,
    unexpected,
    without_folders,
)
from engine.service.guard import Guard
from engine.service.openapi import CorrectedSchema
from engine.service.routes import ROUTERS
from engine.service.routes.server import STATIC
from engine.session.seats import WaitsOn
from engine.store.participants import participants_of


def _engine_error(request: Request[Any, Any, Any], exc: EngineError) -> Response[Any]:
    body = without_folders(error_body(exc), service_of(request).folders)
    if isinstance(exc, FileError) and exc.json_path:
        body = msgspec.structs.replace(body, where=exc.json_path)
    return Response(body, status_code=body.status, headers=headers_for(body))


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if status >= 500:
        return _other_error(request, exc)
    message = str(exc.detail or "")
    where = ""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if extra and isinstance(extra[0], dict):  # Litestar's parameter validation: which one, and why
        first = extra[0]
        where = HEADERS.get(str(first.get("key", "")), str(first.get("key", "")))
        message = f"{message}: {first.get('message', '')}".strip(": ")
    body = msgspec.structs.replace(http_error(status, message or "the request was refused"), where=where)
    # Litestar's own headers stay: a 405's `Allow` (RFC 9110 §15.5.6) names the route's methods
    return Response(body, status_code=status, headers={**(exc.headers or {}), **headers_for(body)})


def _other_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    body = unexpected(exc, str(request.url.path))
    return Response(body, status_code=500)


def create_app(config: ServiceConfig) -> Litestar:
    """The `ua serve` application over the SQLite file `config.db`."""
    service = Service(config)
    book = participants_of(service.store)

    async def started(app: Litestar) -> None:
        service.closed = False
        service.changes.start()

    async def stopped(app: Litestar) -> None:
        service.closed = True
        service.close()

    app = Litestar(
        route_handlers=[
            *ROUTERS,
            Router(path="/", route_handlers=table.routes(service_of, run, body_of), tags=["requests"]),
            Router(path="/", route_handlers=participants.ROUTES),
            Router(path="/", route_handlers=passions.ROUTES),
            *pages.ROUTES,
            create_static_files_router(path="/viewer", directories=[STATIC], include_in_schema=False),
        ],
        exception_handlers={
            WaitsOn: lambda _, exc: table.waits_response(exc),
            EngineError: _engine_error,
            HTTPException: _http_error,
            Exception: _other_error,
        },
        middleware=[
            DefineMiddleware(Guard, token=config.token, in_process=config.in_process, identify=book.by_token),  # type: ignore[arg-type]
            DefineMiddleware(access.Access, book=book),  # type: ignore[arg-type]
        ],
        openapi_config=OpenAPIConfig(
            title="Unknown Armies encounter engine",
            version="1",
            description="Sessions, commands, live event streams, odds, validation and batch simulations.",
            path="/schema",
            render_plugins=[CorrectedSchema([*participants.DOCUMENTED, *passions.DOCUMENTED])],
            use_handler_docstrings=True,
        ),
        request_max_body_size=config.max_body,
        on_startup=[started],
        on_shutdown=[stopped],
        debug=False,
    )
    app.state.service = service
    return app


__all__ = ["ServiceConfig", "ServiceError", "create_app"]
