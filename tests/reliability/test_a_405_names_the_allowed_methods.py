"""Issue 26: a `405` from the service says which methods its route does allow (`Allow`, RFC 9110
§15.5.6), for every route the app serves — read off the app itself, not a list kept by hand."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("litestar", reason="the service needs the serve extra: pip install -e '.[serve]'")

from litestar import Litestar

from tests.service.conftest import TOKEN, client_for

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def concrete(template: str) -> str:
    """A path the route's template matches: each `{param:type}` filled in."""
    return re.sub(r"\{[^}]+\}", "x", template)


def wrong_methods(app: Litestar) -> list[tuple[str, str, set[str]]]:
    """(method, path, the route's methods) for every method each route does not take."""
    return [
        (method, concrete(route.path), set(route.methods))
        for route in app.routes
        for method in METHODS
        if method not in route.methods
    ]


@pytest.mark.parametrize("token", [None, TOKEN], ids=["loopback", "token"])
def test_every_route_answers_a_method_it_does_not_take_with_405_and_allow(tmp_path: Path, token: str | None) -> None:
    with client_for(tmp_path / "s.sqlite", token) as client:
        cases = wrong_methods(client.app)
        assert len({path for _, path, _ in cases}) >= 30  # every route of the API, the viewer, the schema
        for method, path, allowed in cases:
            r = client.request(method, path)
            assert r.status_code == 405, (method, path, r.status_code)
            assert "allow" in r.headers, (method, path)
            assert set(re.split(r",\s*", r.headers["allow"])) == allowed, (method, path, r.headers["allow"])
            if method != "HEAD":
                body: dict[str, Any] = r.json()
                assert body["error"] == "method_not_allowed" and body["status"] == 405


def test_the_methods_allow_names_are_the_ones_the_route_answers(tmp_path: Path) -> None:
    with client_for(tmp_path / "s.sqlite") as client:
        allowed = client.request("PATCH", "/sessions").headers["allow"]
        assert set(re.split(r",\s*", allowed)) == {"GET", "POST", "OPTIONS"}
        assert client.get("/sessions").status_code == 200
        assert client.request("OPTIONS", "/sessions").status_code == 204
