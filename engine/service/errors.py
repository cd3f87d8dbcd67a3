"""One error shape for every endpoint (`ErrorBody`: message, where, hint) and the status each
engine error gets. Bad input is a 4xx, always; a 5xx is a bug or a broken store."""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from engine.errors import (
    ConcurrencyConflict,
    CorruptLog,
    EngineError,
    InvalidInput,
    NotFound,
    Refused,
)
from engine.logging import get_logger
from engine.service.models import ErrorBody

log = get_logger(__name__)


class ServiceError(EngineError):
    """Raised by the service itself for what only HTTP has: a missing token, a body too large,
    too many jobs. Carries its HTTP status."""

    def __init__(self, status: int, error: str, message: str, *, where: str = "", hint: str = "") -> None:
        super().__init__(message, where=where, hint=hint)
        self.status = status
        self.error = error


#: engine error class → (HTTP status, error code); the first match in this order wins.
STATUSES: tuple[tuple[type[EngineError], int, str], ...] = (
    (ConcurrencyConflict, 409, "conflict"),
    (NotFound, 404, "not_found"),
    (Refused, 422, "refused"),
    (InvalidInput, 400, "invalid"),
    (CorruptLog, 500, "corrupt_log"),
)


def error_body(exc: EngineError) -> ErrorBody:
    """The body (and status) an engine error is answered with; a `VersionConflict` (a stale
    expected version, a race with another writer) carries the session's version now."""
    if isinstance(exc, ServiceError):
        status, code = exc.status, exc.error
    else:
        status, code = next(((s, c) for t, s, c in STATUSES if isinstance(exc, t)), (500, "engine_error"))
    version = getattr(exc, "version", None)
    return ErrorBody(
        error=code,
        message=exc.message,
        where=exc.where,
        hint=exc.hint,
        status=status,
        version=version if isinstance(version, int) else None,
    )


def http_error(status: int, message: str, *, hint: str = "") -> ErrorBody:
    """The body for an error Litestar raised itself (no route, wrong method, body too large)."""
    codes = {
        400: "invalid",
        401: "unauthorized",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        413: "too_large",
        415: "unsupported_media_type",
        429: "too_many",
    }
    return ErrorBody(error=codes.get(status, "http_error"), message=message, hint=hint, status=status)


def encode_error(body: ErrorBody) -> bytes:
    return msgspec.json.encode(body)


def unexpected(exc: BaseException, where: str) -> ErrorBody:
    """A bug: logged with its traceback (diagnostics on stderr), answered without one."""
    text = "".join(traceback.format_exception(exc))
    log.error("unexpected error", where=where, error=repr(exc), traceback=text)
    return ErrorBody(
        error="internal",
        message="the service failed unexpectedly; this is a bug",
        where=where,
        hint="the server's log has the details",
        status=500,
    )


def without_folders(body: ErrorBody, folders: Iterable[Path]) -> ErrorBody:
    """`body` with the server's own `folders` taken off every path it names
    (`/srv/ua/ua-sessions.sqlite` → `ua-sessions.sqlite`, `/srv/ua` → `.`): no answer shows where
    the server keeps its files, whatever error (a locked database's, a shipped file's) names one."""
    for folder in sorted({str(f) for f in folders if f.is_absolute() and f.parent != f}, key=len, reverse=True):
        inside = re.compile(re.escape(folder + "/"))
        itself = re.compile(re.escape(folder) + r"(?![\w.-])")
        body = msgspec.structs.replace(
            body,
            **{name: itself.sub(".", inside.sub("", getattr(body, name))) for name in ("message", "where", "hint")},
        )
    return body


def headers_for(body: ErrorBody) -> dict[str, Any]:
    if body.status == 401:
        return {"WWW-Authenticate": 'Bearer realm="ua"'}
    return {}
