"""The service's tests need the `serve` extra; without it they are skipped, saying so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("litestar", reason="the service needs the serve extra: pip install -e '.[serve]'")

from litestar.testing import TestClient

from engine.service.app import ServiceConfig, create_app

TOKEN = "a-token-of-sixteen-chars"
#: What Litestar's and schemathesis' in-process clients call themselves and the server: no network
#: at all, so the tests answer them as this machine (the served app knows no such names).
IN_PROCESS = frozenset({"testclient", "testserver", "testserver.local"})
#: Where the test client sends its requests: what the service's own pages' origin is.
BASE = "http://127.0.0.1:8787"


def config_for(db: Path, token: str | None = None) -> ServiceConfig:
    return ServiceConfig(db=db, token=token, in_process=IN_PROCESS)


def client_for(db: Path, token: str | None = None) -> TestClient[Any]:
    return TestClient(create_app(config_for(db, token)), base_url=BASE)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with client_for(tmp_path / "sessions.sqlite") as c:
        yield c


@pytest.fixture
def token_client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with client_for(tmp_path / "sessions.sqlite", TOKEN) as c:
        yield c


def new_session(client: TestClient[Any], name: str = "duel", scenario: str = "knife-vs-22", seed: int = 7) -> Any:
    r = client.post("/sessions", json={"name": name, "scenario": {"name": scenario}, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def run(client: TestClient[Any], name: str, command: dict[str, Any], **extra: Any) -> Any:
    return client.post(f"/sessions/{name}/commands", json={"command": command, **extra})


def act_now(client: TestClient[Any], name: str = "duel") -> Any:
    """The next sensible command: declarations at a round's start, else the one who acts attacks."""
    info = client.get(f"/sessions/{name}").json()
    if info["phase"] == "setup":
        return run(client, name, {"command": "begin_fight"})
    if info["turn"] is None:
        return run(client, name, {"command": "declare", "declarations": []})
    target = "Rosa" if info["turn"] == "Vic" else "Vic"
    return run(client, name, {"command": "attack", "actor": info["turn"], "target": target})
