"""Issue 26: a page of another site drove the service through the browser — `Origin: null` (a
sandboxed frame on any site) wrote a ruling and deleted a session, and other loopback origins and
the test client's names were taken as the server's own. Only the server's own origin (scheme, host
and port as the request's `Host` names the server) may send a request; a request with no `Origin`
(curl, a program) still may. Every refusal is a 403 in the service's error shape, before anything
is written: the log is read before and after."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("litestar", reason="the service needs the serve extra: pip install -e '.[serve]'")

from litestar.testing import TestClient

from engine.service.app import ServiceConfig, create_app
from engine.service.bench import running_server
from tests.reliability.served import ua_serve
from tests.service.conftest import BASE, TOKEN, client_for

#: Origins of pages this server did not serve (the test client's server is http://127.0.0.1:8787).
FOREIGN = [
    "null",
    "http://localhost:9999",
    "http://127.0.0.2:3000",
    "http://[::1]:1234",
    "http://testserver.local",
    "http://testserver",
    "http://testclient",
    "http://localhost:8787",  # the same port under another name is another origin
    "http://127.0.0.1",  # port 80
    "http://127.0.0.1:8788",
    "https://127.0.0.1:8787",  # another scheme
    "http://127.0.0.1:8787.evil.example",
    "http://evil.example",
    "http://user@127.0.0.1:8787",
    "http://127.0.0.1:8787/viewer/",  # an origin has no path; browsers never send one
    "file://",
    "",
    "127.0.0.1:8787",
]
WRITING = ("POST", "PUT", "PATCH", "DELETE")


def ruling(note: str) -> dict[str, Any]:
    return {"command": {"command": "ruling", "note": note}}


def writes(log: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Requests that each write something when the server's own page (or curl) sends them."""
    return [
        ("POST", "/sessions", {"json": {"name": "other", "scenario": {"name": "knife-vs-22"}, "seed": 7}}),
        ("POST", "/sessions/duel/commands", {"json": ruling("written by another site")}),
        ("POST", "/sessions/duel/undo", {}),
        ("POST", "/sessions/copy/import", {"json": {"log": log}}),
        ("POST", "/replays", {"json": {"log": log}}),
        ("DELETE", "/sessions/duel", {}),
    ]


def stored(client: httpx.Client | TestClient[Any]) -> dict[str, bytes]:
    """Every session's log as it is exported (read with no Origin: as curl reads it)."""
    names = [s["name"] for s in client.get("/sessions").json()["sessions"]]
    return {name: client.get(f"/sessions/{name}/export").content for name in names}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with client_for(tmp_path / "s.sqlite") as c:
        assert c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}).is_success
        assert c.post("/sessions/duel/commands", json=ruling("the GM's own")).is_success
        yield c


def concrete(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "duel", template)


@pytest.mark.parametrize("origin", FOREIGN, ids=repr)
def test_a_page_of_another_origin_writes_nothing(client: TestClient[Any], origin: str) -> None:
    before = stored(client)
    log = before["duel"].decode()
    for method, path, body in writes(log):
        r = client.request(method, path, headers={"Origin": origin}, **body)
        assert r.status_code == 403, (origin, method, path, r.status_code, r.text)
        error = r.json()
        assert error["error"] == "forbidden" and error["where"] == "Origin" and error["hint"], error
        assert "\n" not in error["message"]
    assert stored(client) == before
    assert client.get("/replays/x/state").status_code == 404


@pytest.mark.parametrize("origin", ["null", "http://localhost:9999", "http://[::1]:1234"], ids=repr)
def test_every_writing_method_of_every_route_is_refused_to_another_origin(client: TestClient[Any], origin: str) -> None:
    before = stored(client)
    tried = 0
    for route in client.app.routes:
        for method in WRITING:
            r = client.request(method, concrete(route.path), headers={"Origin": origin}, json={})
            if method in route.methods:
                tried += 1
                assert r.status_code == 403, (method, route.path, r.status_code)
            else:
                assert r.status_code == 405, (method, route.path, r.status_code)
    assert tried >= 16  # every POST and DELETE route of the API
    assert stored(client) == before


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_a_browser_saying_the_request_is_from_another_site_is_refused(client: TestClient[Any], site: str) -> None:
    before = stored(client)
    for method, path, body in writes(before["duel"].decode()):
        r = client.request(method, path, headers={"Sec-Fetch-Site": site}, **body)
        assert r.status_code == 403 and r.json()["where"] == "Sec-Fetch-Site", (site, method, path)
        same = client.request(method, path, headers={"Sec-Fetch-Site": site, "Origin": BASE}, **body)
        assert same.status_code == 403, (site, method, path)  # the browser's word counts, whatever Origin says
    assert stored(client) == before


@pytest.mark.parametrize(
    "headers",
    [{}, {"Origin": BASE}, {"Origin": BASE, "Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}],
    ids=["no Origin (curl)", "own origin", "own origin, same-origin", "typed by the user"],
)
def test_the_servers_own_pages_and_programs_write_as_before(client: TestClient[Any], headers: dict[str, str]) -> None:
    before = stored(client)
    expected = {"POST": {200, 201}, "DELETE": {204}}
    for method, path, body in writes(before["duel"].decode()):
        r = client.request(method, path, headers=headers, **body)
        assert r.status_code in expected[method], (headers, method, path, r.status_code, r.text)
    after = stored(client)
    assert set(after) == {"other", "copy"}  # made, imported; duel deleted
    assert after["copy"].count(b"\n") == before["duel"].count(b"\n")


def test_with_a_token_another_origin_is_refused_even_with_the_token(tmp_path: Path) -> None:
    good = {"Authorization": f"Bearer {TOKEN}"}
    with client_for(tmp_path / "s.sqlite", TOKEN) as c:
        assert c.post("/sessions", headers=good, json={"name": "duel", "scenario": {"name": "knife-vs-22"}}).is_success
        for origin in ("null", "http://localhost:9999", "http://evil.example"):
            r = c.post("/sessions/duel/commands", headers={**good, "Origin": origin}, json=ruling("x"))
            assert r.status_code == 403 and r.json()["where"] == "Origin"
            assert c.delete("/sessions/duel", headers={**good, "Origin": origin}).status_code == 403
        assert c.get("/sessions/duel", headers=good).json()["version"] == 6
        assert c.post("/sessions/duel/commands", headers={**good, "Origin": BASE}, json=ruling("x")).is_success
        assert c.get("/viewer/viewer.js", headers={"Origin": "null"}).status_code == 200  # code, no data


def test_the_served_app_knows_no_test_client_names(tmp_path: Path) -> None:
    """Without the tests' own configuration, Litestar's test client ("testclient", addressing
    "testserver.local") is another machine, as it would be for `ua serve`."""
    with TestClient(create_app(ServiceConfig(db=tmp_path / "s.sqlite"))) as c:
        r = c.get("/sessions")
        assert r.status_code == 403 and r.json()["where"] == "client"
    with running_server(tmp_path / "s.sqlite") as base, httpx.Client(base_url=base) as c:
        for name in ("testserver.local", "testserver", "testclient"):
            r = c.post("/sessions/duel/commands", headers={"Host": name}, json=ruling("x"))
            assert r.status_code == 403 and r.json()["where"] == "Host", name


def test_a_real_ua_serve_refuses_other_origins_and_answers_its_own(tmp_path: Path) -> None:
    with ua_serve(tmp_path / "s.sqlite") as base, httpx.Client(base_url=base, timeout=30) as c:
        port = base.rsplit(":", 1)[1]
        assert c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}).is_success
        before = stored(c)
        for origin in (
            "null",
            "http://localhost:9999",
            "http://127.0.0.2:3000",
            "http://[::1]:1234",
            f"http://localhost:{port}",
        ):
            assert c.post("/sessions/duel/commands", headers={"Origin": origin}, json=ruling("x")).status_code == 403
            assert c.delete("/sessions/duel", headers={"Origin": origin}).status_code == 403
        assert stored(c) == before
        assert c.post("/sessions/duel/commands", headers={"Origin": base}, json=ruling("own page")).is_success
        by_name = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}  # the viewer opened as localhost
        assert c.post("/sessions/duel/commands", headers=by_name, json=ruling("own page, by name")).is_success
        assert c.delete("/sessions/duel", headers={"Origin": base}).status_code == 204
        assert c.get("/sessions").json()["sessions"] == []
