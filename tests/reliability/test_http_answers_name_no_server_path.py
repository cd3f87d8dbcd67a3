"""Issue 26: job reports over HTTP gave the server's absolute paths (`"file": "/…/scenarios/
knife-vs-22.toml"`). A shipped scenario is called by its name in reports and errors, and no answer
— a report, a failed job, a scenario's error, a locked database's — names where the server keeps
its files."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("litestar", reason="the service needs the serve extra: pip install -e '.[serve]'")

from litestar.testing import TestClient

from engine.service import bodies
from engine.service.app import create_app
from tests.service.conftest import BASE, client_for, config_for, new_session, run

REPOSITORY = bodies.SHIPPED.parent
#: An absolute file path as a JSON string ("/…/x.toml"): what no answer may hold.
ABSOLUTE_FILE = re.compile(r'"/[^"]*\.(?:toml|ya?ml|json|jsonl|sqlite)"')


def assert_no_server_path(text: str, *folders: Path) -> None:
    for folder in (REPOSITORY, *folders):
        assert str(folder) not in text, text[:2000]
    assert not ABSOLUTE_FILE.search(text), text[:2000]


def finished(client: TestClient[Any], job: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while job["state"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
        job = client.get(f"/jobs/{job['id']}").json()
    return job


@pytest.mark.parametrize("scenario", ["knife-vs-22", "ua3/quick-draw"])
def test_a_simulation_report_names_its_shipped_scenario_by_name(tmp_path: Path, scenario: str) -> None:
    with client_for(tmp_path / "s.sqlite") as client:
        started = client.post("/simulations", json={"scenario": {"name": scenario}, "n": 3, "seed": 1, "workers": 1})
        assert started.status_code == 202, started.text
        job = finished(client, started.json())
        assert job["state"] == "done", job
        result = client.get(f"/jobs/{job['id']}/result")
        assert result.json()["report"]["file"] == scenario
        for answer in (result.text, client.get("/jobs").text, client.get(f"/jobs/{job['id']}").text):
            assert_no_server_path(answer, tmp_path)


def test_a_fork_report_names_the_session_not_a_file(tmp_path: Path) -> None:
    with client_for(tmp_path / "s.sqlite") as client:
        new_session(client)
        begun = run(client, "duel", {"command": "begin_fight"}).json()
        at = begun["version"]
        started = client.post("/sessions/duel/fork", json={"at": at, "simulate": 3, "seed": 1, "workers": 1})
        assert started.status_code == 202, started.text
        job = finished(client, started.json())
        result = client.get(f"/jobs/{job['id']}/result")
        assert job["state"] == "done" and "duel" in result.json()["report"]["file"]
        assert_no_server_path(result.text, tmp_path)


def test_a_broken_shipped_scenario_is_named_not_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's scenarios folder holding a file that does not parse and one whose sheet is
    missing: every answer about them says their names, never the folder they are in."""
    shipped = tmp_path / "install" / "scenarios"
    shipped.mkdir(parents=True)
    (shipped / "broken.toml").write_text('title = "no end\n', encoding="utf-8")
    (shipped / "no-sheet.toml").write_text(
        (REPOSITORY / "scenarios" / "knife-vs-22.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )  # its sheets are not beside it
    monkeypatch.setattr(bodies, "SHIPPED", shipped)
    (tmp_path / "db").mkdir()
    with client_for(tmp_path / "db" / "s.sqlite") as client:
        for name in ("broken", "no-sheet"):
            answers = [
                client.post("/sessions", json={"name": "x", "scenario": {"name": name}}),
                client.post("/simulations", json={"scenario": {"name": name}, "n": 2}),
                client.get(f"/scenarios/{name}"),
            ]
            for r in answers:
                assert r.status_code == 400, (name, r.status_code, r.text)
                assert r.json()["where"] in (name, *(f"$.combatants[{i}].sheet" for i in range(4))), r.text
                assert_no_server_path(r.text, tmp_path)
            validated = client.post("/validate/scenario", json={"name": name})
            assert validated.json()["ok"] is False
            assert_no_server_path(validated.text, tmp_path)
        assert_no_server_path(client.get("/scenarios").text, tmp_path)
        assert client.get("/sessions").json()["sessions"] == []


def test_a_locked_database_is_named_by_its_file_name_only(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    app = create_app(config_for(db))
    app.state.service.store.timeout = 0.2  # the request threads' connections wait that long: a quick test
    with TestClient(app, base_url=BASE) as client:
        new_session(client)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process's long write
        try:
            r = client.post("/sessions/duel/commands", json={"command": {"command": "ruling", "note": "x"}})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert r.status_code >= 400 and "locked" in r.json()["message"], r.text
        assert r.json()["where"] == "s.sqlite"
        assert_no_server_path(r.text, tmp_path)
