"""`ua bench`: the shape of its report, on this machine and against a Dask cluster (no timing
assertions: speeds depend on the machine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def test_bench_json_has_speeds_scaling_and_peak_rss_for_each_scenario() -> None:
    files = [str(ROOT / "scenarios" / "knife-duel.toml"), str(ROOT / "scenarios" / "one-shot-duel.toml")]
    result = runner.invoke(app, ["bench", *files, "-n", "20", "--workers", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["fights"] == 20 and report["workers"] == 2
    assert [row["file"] for row in report["scenarios"]] == files
    for row in report["scenarios"]:
        assert row["one_worker"]["workers"] == 1 and row["all_workers"]["workers"] == 2
        for run in (row["one_worker"], row["all_workers"]):
            assert run["fights_per_s"] > 0 and run["events_per_s"] > run["fights_per_s"] and run["seconds"] > 0
        assert row["scaling"] > 0 and row["identical"] is True
        assert row["events"] > 0 and row["events_per_fight"] == pytest.approx(row["events"] / 20, abs=0.01)
    assert report["peak_rss_mib"]["main"] > 0


def test_bench_log_times_appends_folds_opening_and_a_combat_log() -> None:
    file = str(ROOT / "scenarios" / "bar-brawl.toml")
    result = runner.invoke(app, ["bench", file, "--log", "3000", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["events"] == 3000 and report["open_from_sqlite_seconds"] > 0
    assert report["open_from_sqlite_cpu_seconds"] > 0
    assert report["command_append_ms_median"] <= report["command_append_ms_p99"]
    assert report["combat_scenario"] == "bar-brawl.toml" and report["combat_events"] >= 3000
    assert report["decode_events_per_s"] > 0 and report["decode_and_fold_events_per_s"] > 0
    ratio = report["decode_and_fold_events_per_s"] / report["decode_events_per_s"]
    assert report["decode_and_fold_vs_decode"] == pytest.approx(ratio, abs=0.01)


def test_bench_startup_times_session_commands_from_process_start_to_exit() -> None:
    result = runner.invoke(app, ["bench", "--startup", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    commands = ("help", "session_state", "session_log", "session_attack", "session_nothing")
    assert report["runs"] == 1
    for command in commands:
        assert report[f"{command}_wall_ms"] > 0 and report[f"{command}_cpu_ms"] > 0


def test_bench_reference_times_batches_that_build_every_event() -> None:
    file = str(ROOT / "scenarios" / "knife-vs-22.toml")
    result = runner.invoke(app, ["bench", file, "-n", "20", "--workers", "1", "--reference", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["engine"] == "recording every event"
    assert report["scenarios"][0]["identical"] is True


def test_bench_text_lists_every_shipped_scenario_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["bench", "-n", "5", "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    for path in [*(ROOT / "scenarios").glob("*.toml"), *(ROOT / "scenarios").glob("ua3/*.toml")]:
        assert path.stem[:20] in result.stdout  # ua3 scenarios too
    assert "fights/s" in result.stdout and "events/s" in result.stdout and "scaling" in result.stdout
    assert "peak RSS" in result.stdout and "MiB" in result.stdout


def test_bench_refuses_a_bad_size_in_one_line() -> None:
    result = runner.invoke(app, ["bench", "-n", "0"])
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: -n") and "Traceback" not in result.stderr


def test_bench_on_dask_times_the_local_pool_against_the_cluster_with_the_cost_of_a_task(dask_cluster: Any) -> None:
    file = str(ROOT / "scenarios" / "knife-duel.toml")
    scheduler = dask_cluster.client.scheduler.address
    args = ["bench", file, "-n", "300", "--backend", "dask", "--scheduler", scheduler, "--rounds", "2"]
    result = runner.invoke(app, [*args, "--client-memory", "30", "--chunk-size", "10", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["backend"] == "dask" and report["dask_workers"] == 2 and report["rounds"] == 2
    [row] = report["scenarios"]
    assert row["identical"] is True and len(row["local_pool"]["rounds"]) == len(row["dask"]["rounds"]) == 2
    assert row["ratio"] == pytest.approx(row["dask"]["fights_per_s"] / row["local_pool"]["fights_per_s"], abs=0.001)
    assert report["task_overhead"]["dask_s"] > 0 and report["task_overhead"]["local_pool_s"] > 0
    memory = report["client_memory"]
    assert (memory["fights_submitted"], memory["chunk_size"], memory["tasks_run"]) == (100_000_000, 10, 30)
    assert [s["tasks"] for s in memory["samples"]] == list(range(3, 31, 3))
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.stderr
    assert "results identical on the local pool and on Dask (law 3)" in text.stdout
    assert "one task (300 that fight nothing)" in text.stdout and "ms on Dask" in text.stdout


def test_bench_refuses_dask_options_without_dask_in_one_line() -> None:
    result = runner.invoke(app, ["bench", "-n", "5", "--client-memory", "10"])
    assert result.exit_code == 2
    line = "error: --client-memory: --client-memory is for a Dask cluster (hint: add --backend dask)"
    assert result.stderr.strip() == line
