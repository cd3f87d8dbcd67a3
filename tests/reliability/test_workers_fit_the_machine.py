"""Issue 26: `--workers 256` on 2 CPUs started 256 processes (6 GiB, and no sooner done). Workers
on this machine are clamped to the usable CPUs, with a one-line note, on every path — simulate,
compare and sweeps, session fork, bench, a local Dask cluster, HTTP jobs (silently) — unless
`--oversubscribe` (CLI only). The executor is watched, so no test starts 256 processes."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from engine.simulate import pool
from engine.simulate.executors import BackendError, InProcess
from engine.simulate.pool import LocalPool, clamp_workers
from tests.cli.test_session_cli import SCENARIO, Ua

ROOT = Path(__file__).resolve().parents[2]
KNIFE = str(ROOT / "scenarios" / "knife-vs-22.toml")
CPUS = 2
BATCH = ("-n", "400", "--seed", "1", "--chunk-size", "50", "--json")
NOTE = f"note: --workers 256 clamped to the {CPUS} usable CPUs (--oversubscribe to go beyond)"


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The slots of every local pool asked to run (it runs here, in this process, instead)."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(CPUS)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: CPUS)
    seen: list[int] = []

    def run(self: LocalPool, *args: Any) -> None:
        seen.append(self.slots)
        InProcess().run(*args)

    monkeypatch.setattr(LocalPool, "run", run)
    return seen


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note:")]


def test_the_clamp_is_the_usable_cpus(pools: list[int]) -> None:
    assert pool.usable_cpus() == CPUS
    assert [clamp_workers(w) for w in (1, 2, 3, 256)] == [1, 2, 2, 2]
    assert clamp_workers(256, oversubscribe=True) == 256
    assert LocalPool(256).slots == CPUS and LocalPool(256, oversubscribe=True).slots == 256


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", KNIFE, *BATCH),
        ("compare", KNIFE, "--variant", "long:settings.max_rounds=40", *BATCH),
        ("compare", KNIFE, "--sweep", "settings.max_rounds=10,20", *BATCH),
        ("bench", KNIFE, "-n", "400", "--json"),
    ],
    ids=["simulate", "compare", "sweep", "bench"],
)
def test_every_batch_command_clamps_with_one_note(tmp_path: Path, pools: list[int], args: tuple[str, ...]) -> None:
    ua = Ua(tmp_path)
    started = time.monotonic()
    clamped = ua(*args, "--workers", "256")
    assert clamped.exit_code == 0, clamped.stderr
    assert notes(clamped.stderr) == [NOTE]
    assert pools and set(pools) == {CPUS}, pools
    assert time.monotonic() - started < 60
    pools.clear()
    beyond = ua(*args, "--workers", "256", "--oversubscribe")
    assert beyond.exit_code == 0, beyond.stderr
    assert notes(beyond.stderr) == [] and set(pools) == {256}
    pools.clear()
    within = ua(*args, "--workers", str(CPUS))
    assert notes(within.stderr) == [] and set(pools) == {CPUS}
    assert clamped.stdout.split('"seconds"')[0] == within.stdout.split('"seconds"')[0] or args[0] == "bench"


def test_session_fork_clamps_with_one_note(tmp_path: Path, pools: list[int]) -> None:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "s", "--scenario", str(SCENARIO), "--seed", "5")
    ua.ok("session", "begin", "s")
    at = str(ua.ok("session", "list")["sessions"][0]["events"])
    result = ua("session", "fork", "s", at, "--simulate", "400", "--workers", "256", "--json")
    assert result.exit_code == 0, result.stderr
    assert notes(result.stderr) == [NOTE] and set(pools) == {CPUS}


def test_a_local_dask_cluster_is_clamped_too(tmp_path: Path, pools: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from engine.simulate import cluster

    asked: list[int] = []

    def local_cluster(**options: Any) -> None:
        asked.append(options["n_workers"])
        raise BackendError("no cluster in this test", where="--backend")

    monkeypatch.setattr(cluster, "LocalCluster", local_cluster)
    result = Ua(tmp_path)("simulate", KNIFE, "-n", "50", "--backend", "dask", "--workers", "256")
    assert result.exit_code == 2 and notes(result.stderr) == [NOTE] and asked == [CPUS]
    Ua(tmp_path)("simulate", KNIFE, "-n", "50", "--backend", "dask", "--workers", "256", "--oversubscribe")
    assert asked == [CPUS, 256]


def test_http_jobs_are_clamped_silently(tmp_path: Path, pools: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("litestar")
    from engine.service.jobs import Jobs
    from tests.service.conftest import client_for, new_session

    started: list[tuple[Any, ...]] = []
    monkeypatch.setattr(Jobs, "start", lambda self, kind, args, requested: started.append(args) or _job(kind))
    with client_for(tmp_path / "s.sqlite") as client:
        new_session(client)
        client.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}).raise_for_status()
        at = client.get("/sessions/duel").json()["version"]
        for url, body in (
            ("/simulations", {"scenario": {"name": "knife-vs-22"}, "n": 100, "workers": 256}),
            ("/sessions/duel/fork", {"at": at, "simulate": 100, "workers": 256}),
        ):
            reply = client.post(url, json=body)
            assert reply.status_code == 202, reply.text
    workers = [started[0][3], started[1][4]]
    assert workers == [CPUS, CPUS]


def _job(kind: str) -> Any:
    from engine.service.models import Job

    return Job(id="j", kind=kind, state="running", requested=100, done=0, started=0.0)  # type: ignore[arg-type]
