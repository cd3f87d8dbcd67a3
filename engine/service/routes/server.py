"""The service itself: whether it is up, and the viewer's page."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from litestar import Request, Router, get
from litestar.response import File

from engine.rules.registry import available
from engine.service import models
from engine.service.context import service_of

STATIC = Path(__file__).resolve().parents[1] / "static"


@get("/health", sync_to_thread=False, summary="Is the server up")
def health(request: Request[Any, Any, Any]) -> models.Health:
    """Whether the server is up, its version, the rulesets it knows, and whether it wants a token."""
    try:
        engine_version = version("ua-engine")
    except PackageNotFoundError:  # pragma: no cover
        engine_version = "0"
    token = service_of(request).config.token
    return models.Health(ok=True, version=engine_version, rulesets=list(available()), auth=token is not None)


@get("/", include_in_schema=False, sync_to_thread=False)
def index() -> File:
    return File(STATIC / "index.html", content_disposition_type="inline", media_type="text/html")


@get("/favicon.ico", include_in_schema=False, sync_to_thread=False, status_code=204)
def favicon() -> None:
    return None


ROUTER = Router(path="/", route_handlers=[health, index, favicon], tags=["service"])
