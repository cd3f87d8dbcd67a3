"""Safe by default: without a token the service answers loopback clients only, and only requests
addressed to a loopback name; with a token, every request but the pages' static files needs
`Authorization: Bearer TOKEN`, the server's (the GM's) or a participant's invite token (held to
its scope by `access`; on loopback too). Either way a request from another site's page is refused (see
`origins`), so a web page cannot drive the service through the browser."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import msgspec

from engine.errors import InvalidInput
from engine.service.errors import encode_error, headers_for, http_error
from engine.service.origins import other_site

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

#: Paths anyone may read: the viewer's own files (code, no data).
PUBLIC_PREFIXES = ("/viewer/", "/gm/", "/play/")
PUBLIC_PATHS = frozenset({"/", "/favicon.ico"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
#: A token at least this long, of at least this many different characters (`openssl rand -hex 16`
#: passes: 32 characters of 16): sixteen spaces or `aaaa…` would guard nothing.
TOKEN_LENGTH = 16
TOKEN_DISTINCT = 8
TOKEN_HINT = "make one with: openssl rand -hex 16"


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and the name localhost."""
    host = host.strip("[]")
    if host.lower() in LOOPBACK_NAMES:
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


#: Where a participant (`engine.store.participants.Participant`) is kept in the request's scope;
#: the GM's requests have none.
PARTICIPANT = "ua.participant"
#: Set on a request the service makes of itself; no client can set a scope key.
INTERNAL = "ua.internal"


def bearer_of(headers: Mapping[str, str]) -> str | None:
    """The bearer token of an `Authorization` header, if there is one."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def refuse(send: Callable[[Any], Awaitable[None]], refusal: Refusal) -> None:
    """Answer `refusal` in the service's error shape, no handler having run."""
    status, message, where, hint = refusal
    body = msgspec.structs.replace(http_error(status, message, hint=hint), where=where)
    headers = [
        (b"content-type", b"application/json"),
        *((k.lower().encode(), v.encode()) for k, v in headers_for(body).items()),
    ]
    payload = encode_error(body)
    headers.append((b"content-length", str(len(payload)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


#: Why a request may not go on: (status, message, where — the header at fault —, hint).
Refusal = tuple[int, str, str, str]


class Guard:
    """ASGI middleware in front of the whole app. `in_process`: what an in-process test client
    calls itself and the server (no network at all) — the tests' own names; `ua serve` has none."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        in_process: frozenset[str] = frozenset(),
        identify: Callable[[str], Any | None] | None = None,
    ) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.in_process = in_process
        #: a participant's token → the participant (None: no such token, or revoked)
        self.identify = identify

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
        await refuse(send, refusal)

    def refusal(self, scope: Scope) -> Refusal | None:
        """Why the request may not go on, or None. Checked before any handler runs."""
        path = str(scope.get("path", ""))
        public = path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if self.token is None:
            refused = self.elsewhere(scope, headers)
            if refused is not None:
                return refused
        if public:  # the viewer's own files, code and no data: a link from anywhere may open it
            return None
        foreign = other_site(str(scope.get("scheme", "http")), headers)
        if foreign is not None:
            return (403, *foreign)
        if scope.get(INTERNAL):  # a request the service made of itself (see `access`)
            return None
        bearer = bearer_of(headers)
        if bearer is not None and self.token is not None and hmac.compare_digest(bearer.encode(), self.token):
            return None
        participant = None if bearer is None or self.identify is None else self.identify(bearer)
        if participant is not None:  # held to that participant's scope (`access`), here or on loopback
            scope[PARTICIPANT] = participant
            return None
        if bearer is not None and (self.token is not None or self.identify is not None):
            return (
                401,
                "this token is not known (revoked, or mistyped)",
                "Authorization",
                "ask the GM for a new link" if self.token is None else "send the server's token or an invite's",
            )
        if self.token is not None:
            return (
                401,
                "a bearer token is needed",
                "Authorization",
                "send Authorization: Bearer TOKEN (the one `ua serve` was given)",
            )
        return None

    def local(self, host: str) -> bool:
        return host.lower() in self.in_process or is_loopback(host)

    def elsewhere(self, scope: Scope, headers: dict[str, str]) -> Refusal | None:
        """Without a token: a client of another machine, or a request addressed to another name
        (a DNS-rebound page's), is refused."""
        client = scope.get("client") or ("", 0)
        if not self.local(str(client[0])):
            return (
                403,
                "this server answers this machine only",
                "client",
                "start it with --token to serve other machines",
            )
        if not self.local(_host_name(headers.get("host", "localhost"))):
            return (
                403,
                "requests must be addressed to a loopback name",
                "Host",
                "use http://127.0.0.1:PORT or localhost",
            )
        return None
