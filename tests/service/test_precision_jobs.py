"""HTTP jobs with `precision` (issue 31): a simulation and a fork stop at a checkpoint once
precise enough, with the report `ua simulate --precision` gives; bad values are a 400 at their
`$.path`."""

from __future__ import annotations

import json
import time
from typing import Any

from litestar.testing import TestClient
from typer.testing import CliRunner

from engine.cli.app import app
from tests.service.conftest import act_now, new_session

SCENARIO = "scenarios/knife-vs-22.toml"


def finished(client: TestClient[Any], job: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while client.get(f"/jobs/{job['id']}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    result: dict[str, Any] = client.get(f"/jobs/{job['id']}/result").json()
    return result


def test_a_simulation_job_with_precision_stops_as_ua_simulate_does(client: TestClient[Any]) -> None:
    body = {"scenario": {"name": "knife-vs-22"}, "seed": 7, "precision": 0.02, "precision_of": ["win", "dies"]}
    job = client.post("/simulations", json=body)
    assert job.status_code == 202, job.text
    assert job.json()["requested"] == 1_000_000  # no n: the most a precise run fights
    result = finished(client, job.json())
    report = result["report"]
    assert result["job"]["state"] == "done" and result["job"]["done"] == report["fights"]
    assert report["fights"] % 1_000 == 0 and report["precision"]["reached"] and report["partial"] is False
    cli = CliRunner().invoke(app, ["simulate", SCENARIO, "--precision", "0.02", "--seed", "7", "-w", "1", "--json"])
    expected = json.loads(cli.stdout)
    assert {k: v for k, v in report.items() if k != "file"} == {k: v for k, v in expected.items() if k != "file"}


def test_a_fork_job_with_precision_stops_at_a_checkpoint(client: TestClient[Any]) -> None:
    new_session(client)
    for _ in range(4):
        act_now(client)
    version = client.get("/sessions/duel").json()["version"]
    job = client.post("/sessions/duel/fork", json={"at": version, "seed": 1, "precision": 0.04, "simulate": 50_000})
    assert job.status_code == 202, job.text
    report = finished(client, job.json())["report"]
    assert report["fights"] % 1_000 == 0 and report["precision"]["reached"] and report["requested"] == 50_000


def test_bad_precisions_are_a_400_at_their_path(client: TestClient[Any]) -> None:
    cases = [
        ({"precision": 0.5}, "$.precision"),
        ({"precision": 0}, "$.precision"),
        ({"precision": 0.01, "precision_of": ["fled"]}, "$.precision_of[0]"),
        ({"precision": 0.01, "precision_of": []}, "$.precision_of"),
        ({"precision_of": ["win"]}, "$.precision_of"),
    ]
    for extra, where in cases:
        answer = client.post("/simulations", json={"scenario": {"name": "knife-vs-22"}, **extra})
        assert answer.status_code == 400, (extra, answer.text)
        assert answer.json()["where"] == where, (extra, answer.json())
