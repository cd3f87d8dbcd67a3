"""Whether a request comes from a web page this server did not serve. A page the server served
sends `Origin: SCHEME://HOST[:PORT]` with HOST and PORT as its request's `Host` names the server;
any other origin — another port or loopback name, `null` (a sandboxed frame on any site, a file),
anything malformed — is another site's page. A request with no `Origin` (curl, a program; a
browser's same-origin GET) is not refused for it, unless the browser says `Sec-Fetch-Site` is
another site."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from engine.text import one_line

#: (scheme, host in lowercase without brackets, port): an origin as browsers compare them.
Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}
#: What a browser's `Sec-Fetch-Site` says of a page of another origin.
OTHER_SITES = frozenset({"cross-site", "same-site"})


def parse_origin(text: str) -> Origin | None:
    """The origin `SCHEME://HOST[:PORT]` names, exactly that (no path, user or query); None for
    `null` and anything else."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path or parts.query or parts.fragment or text.endswith(("?", "#")):
        return None
    return scheme, parts.hostname, port if port is not None else DEFAULT_PORTS[scheme]


def own_origin(scheme: str, host: str) -> Origin | None:
    """The origin of this server's own pages, as a request with `Host: host` over `scheme` sees it."""
    web = "https" if scheme in ("https", "wss") else "http"
    return parse_origin(f"{web}://{host}") if host else None


def other_site(scheme: str, headers: Mapping[str, str]) -> tuple[str, str, str] | None:
    """(message, header, hint) when the request comes from another site's page, else None.
    `headers` are the request's, by lowercase name."""
    if headers.get("sec-fetch-site", "").strip().lower() in OTHER_SITES:
        return (
            f"requests from another site are refused (Sec-Fetch-Site: {one_line(headers['sec-fetch-site'], 40)})",
            "Sec-Fetch-Site",
            "open the viewer from this server, or send the request from a program",
        )
    origin = headers.get("origin")
    if origin is None:
        return None
    own = own_origin(scheme, headers.get("host", ""))
    if own is not None and parse_origin(origin.strip()) == own:
        return None
    return (
        f"requests from another web origin are refused (Origin: {one_line(origin, 80)})",
        "Origin",
        "only pages this server serves may send requests: open the viewer from this server",
    )
