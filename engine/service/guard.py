"""Safe by default: without a token the service answers loopback clients only (and only requests
addressed to a loopback name, from no other web origin — so a web page cannot drive it through
the browser); with a token, every request but the viewer's static files needs
`Authorization: Bearer TOKEN`."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from engine.service.errors import encode_error, headers_for, http_error

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

#: Paths anyone may read: the viewer's own files (code, no data).
PUBLIC_PREFIXES = ("/viewer/",)
PUBLIC_PATHS = frozenset({"/", "/favicon.ico"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
#: What an in-process test client (Litestar's, schemathesis') calls itself: no network at all.
IN_PROCESS = frozenset({"testclient", "testserver", "testserver.local"})


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and the name localhost."""
    host = host.strip("[]")
    if host.lower() in LOOPBACK_NAMES or host.lower() in IN_PROCESS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """The host of a `Host` header (`127.0.0.1:8787`, `[::1]:8787`, `localhost`)."""
    return urlsplit(f"//{value}").hostname or value


class Guard:
    """ASGI middleware in front of the whole app."""

    def __init__(self, app: ASGIApp, *, token: str | None) -> None:
        self.app = app
        self.token = token.encode() if token else None

    async def __call__(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message, hint = refusal
        body = http_error(status, message, hint=hint)
        headers = [
            (b"content-type", b"application/json"),
            *((k.lower().encode(), v.encode()) for k, v in headers_for(body).items()),
        ]
        payload = encode_error(body)
        headers.append((b"content-length", str(len(payload)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """(status, message, hint) when the request may not go on."""
        path = str(scope.get("path", ""))
        public = path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if self.token is not None:
            if public:
                return None
            given = headers.get("authorization", "")
            scheme, _, value = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.token):
                return (
                    401,
                    "a bearer token is needed",
                    "send Authorization: Bearer TOKEN (the one `ua serve` was given)",
                )
            return None
        client = scope.get("client") or ("", 0)
        if not is_loopback(str(client[0])):
            return 403, "this server answers this machine only", "start it with --token to serve other machines"
        if not is_loopback(_host_name(headers.get("host", "localhost"))):
            return 403, "requests must be addressed to a loopback name", "use http://127.0.0.1:PORT or localhost"
        origin = headers.get("origin")
        if origin is not None and origin != "null" and not is_loopback(urlsplit(origin).hostname or ""):
            return 403, "requests from other web origins are refused", "open the viewer from this server"
        return None
