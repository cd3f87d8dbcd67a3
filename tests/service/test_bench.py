"""`ua serve-bench`'s figures are measured as they say (not timed here: the numbers are the
machine's): rolled checks from concurrent clients are each in the log once, and `--against`
serves another checkout from its own process."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli.app import app
from engine.service.bench import HERE, running_server, throughput


def test_rolled_checks_from_concurrent_clients_are_each_in_the_log_once(tmp_path: Path) -> None:
    with running_server(tmp_path / "b.sqlite") as base:
        busy = throughput(base, clients=3, each=4)
    assert busy["acknowledged"] == 12 and busy["failed"] == 0 and busy["exactly_once"]
    assert busy["per_second"] > 0


def test_against_times_two_checkouts_and_refuses_a_folder_without_the_engine(tmp_path: Path) -> None:
    runner = CliRunner()
    small = ["--commands", "10", "--clients", "2", "--each", "3", "--rounds", "1", "--json"]
    done = runner.invoke(app, ["serve-bench", "--against", str(HERE), *small])
    assert done.exit_code == 0, done.output
    assert '"exactly_once":true' in done.output.replace(" ", "")
    wrong = runner.invoke(app, ["serve-bench", "--against", str(tmp_path)])
    assert wrong.exit_code != 0 and "no engine checkout" in wrong.output
