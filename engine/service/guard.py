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

from engine.errors import InvalidInput
from engine.service.errors import encode_error, headers_for, http_error

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

#: Paths anyone may read: the viewer's own files (code, no data).
PUBLIC_PREFIXES = ("/viewer/",)
PUBLIC_PATHS = frozenset({"/", "/favicon.ico"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
#: A token at least this long, of at least this many different characters (`openssl rand -hex 16`
#: passes: 32 characters of 16): sixteen spaces or `aaaa…` would guard nothing.
TOKEN_LENGTH = 16
TOKEN_DISTINCT = 8
TOKEN_HINT = "make one with: openssl rand -hex 16"
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


def check_token(token: str, *, where: str) -> str:
    """`token` if it can guard the service; `InvalidInput` (never echoing it) otherwise. Only
    visible ASCII: an `Authorization` header carries nothing else, and whitespace is trimmed."""
    if len(token) < TOKEN_LENGTH:
        problem = f"a token needs at least {TOKEN_LENGTH} characters (this one has {len(token)})"
    elif not all("!" <= c <= "~" for c in token):
        problem = "a token may hold only visible ASCII characters: no spaces, tabs or line breaks"
    elif len(set(token)) < TOKEN_DISTINCT:
        problem = f"a token needs at least {TOKEN_DISTINCT} different characters (this one has {len(set(token))})"
    else:
        return token
    raise InvalidInput(problem, where=where, hint=TOKEN_HINT)


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
