"""`--backend local|dask`, `--scheduler`, `--chunk-size` on `ua simulate` and `ua compare`: the
same seed gives the same `--json` bytes on the local pool and on Dask, for any worker count and
chunk size; every mistake (a missing extra, a bad or unreachable address, a worker of another
engine) is one line and exit code 2; Ctrl-C on a Dask batch prints the partial report (exit
130) and leaves no process behind."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from tests.cli.test_long_batches import interrupted_batch

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
KNIFE = str(ROOT / "scenarios" / "knife-vs-22.toml")
BRAWL = str(ROOT / "scenarios" / "bar-brawl.toml")


def _bytes(*args: str) -> str:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _one_line(args: list[str], code: int = 2) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture
def scheduler(dask_cluster: Any) -> str:
    address: str = dask_cluster.client.scheduler.address
    return address


@pytest.mark.parametrize(
    ("scenario", "n", "chunk"),
    [(BRAWL, "3000", ["--chunk-size", "150"]), (BRAWL, "3000", ["--chunk-size", "2000"]), (KNIFE, "6000", [])],
    ids=["brawl-150", "brawl-2000", "knife-sized"],
)
def test_the_same_seed_gives_the_same_json_bytes_on_the_local_pool_and_on_dask(
    scheduler: str, tmp_path: Path, scenario: str, n: str, chunk: list[str]
) -> None:
    batch = ["simulate", scenario, "-n", n, "--seed", "5", "--keep", "2", "--keep-dir", str(tmp_path), "--force"]
    alone = _bytes(*batch, "--workers", "1")
    assert _bytes(*batch, *chunk, "--workers", "2") == alone
    assert _bytes(*batch, *chunk, "--backend", "dask", "--scheduler", scheduler) == alone


def test_without_a_scheduler_dask_runs_on_a_cluster_of_workers_here_with_the_same_bytes() -> None:
    batch = ["simulate", KNIFE, "-n", "3000", "--seed", "8", "--chunk-size", "500"]
    assert _bytes(*batch, "--backend", "dask", "--workers", "1") == _bytes(*batch, "--workers", "2")


@pytest.mark.parametrize(
    "how",
    [["--variant", "tough Rosa:combatants.Rosa.stats.body=85"], ["--sweep", "combatants.Rosa.stats.body=40:60:10"]],
    ids=["variant", "sweep"],
)
def test_comparisons_and_sweeps_give_the_same_bytes_on_dask(scheduler: str, how: list[str]) -> None:
    compare = ["compare", KNIFE, *how, "-n", "2000", "--seed", "3"]
    local = _bytes(*compare, "--workers", "1")
    assert _bytes(*compare, "--backend", "dask", "--scheduler", scheduler, "--chunk-size", "300") == local


def test_dask_without_the_extra_is_one_line_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    line = _one_line(["simulate", KNIFE, "-n", "10", "--backend", "dask"])
    assert line == (
        "error: --backend: --backend dask needs Dask distributed, which is not installed "
        "(hint: pip install -e '.[distributed]' (or pip install 'ua-engine[distributed]'))"
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--scheduler", "tcp://127.0.0.1:8786"], "error: --scheduler: --scheduler is for a Dask cluster (hint: add"),
        (["--chunk-size", "0"], "error: --chunk-size: --chunk-size 0 is out of range"),
        (["--backend", "spark"], "error: ua simulate: Invalid value for '--backend'"),
    ],
)
def test_bad_backend_options_are_one_line(args: list[str], needle: str) -> None:
    assert _one_line(["simulate", KNIFE, "-n", "10", *args]).startswith(needle)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--scheduler", "10.0.0.5"], "error: --scheduler: '10.0.0.5' is not a scheduler address"),
        (["--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "error: --workers: --workers sizes a Dask cluster"),
    ],
)
def test_bad_dask_options_are_one_line(args: list[str], needle: str) -> None:
    pytest.importorskip("distributed", reason="needs Dask distributed: pip install -e '.[test,distributed]'")
    assert _one_line(["simulate", KNIFE, "-n", "10", "--backend", "dask", *args]).startswith(needle)


def test_an_unreachable_scheduler_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="needs Dask distributed: pip install -e '.[test,distributed]'")
    from engine.simulate import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    compare = ["compare", KNIFE, "--variant", "x:settings.max_rounds=5", "--backend", "dask"]
    line = _one_line([*compare, "--scheduler", "127.0.0.1:1"])
    assert line.startswith("error: --scheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:1 (")
    assert line.endswith(
        "(hint: start one with `dask scheduler` and give the address it prints; check the host, port and firewall)"
    )


def test_a_worker_of_another_engine_is_one_line_naming_it(scheduler: str, one_worker_of_another_engine: str) -> None:
    from engine.simulate.identity import engine_identity

    line = _one_line(["simulate", KNIFE, "-n", "100", "--backend", "dask", "--scheduler", scheduler])
    assert line == (
        f"error: worker {one_worker_of_another_engine}: runs ua-engine 0.0.9, sources 0000000000000000, "
        f"but the batch was made by {engine_identity()} (hint: install the same ua-engine (version and sources) "
        "here and on every worker, and restart the workers)"
    )


def _in_group(pgid: int) -> list[int]:
    """The processes of a process group (a local cluster's workers are in the command's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc").is_dir(), reason="needs POSIX signals and /proc")
def test_ctrl_c_on_a_dask_batch_prints_the_partial_report_and_leaves_no_process(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="needs Dask distributed: pip install -e '.[test,distributed]'")
    options = ("--backend", "dask", "--workers", "2", "--chunk-size", "200")  # short tasks: some finish
    # the cluster starts after the estimate (workers spawn and import the engine): on a loaded
    # machine (the suite runs on every CPU) that alone took more than 10 s, and a report of no
    # fights is not a partial one
    _, group, err = interrupted_batch(tmp_path, "interrupted-dask", *options, wait=20.0)
    assert "on 2 workers" in err
    deadline = time.monotonic() + 10
    while _in_group(group) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _in_group(group) == [], "the cluster's workers are gone"
