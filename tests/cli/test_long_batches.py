"""Long batches: Ctrl-C stops cleanly with the report of the fights finished, marked partial,
exit code 130, workers gone and no traceback (a real SIGINT to a real `ua` process); an
estimate first when a batch will take more than a minute."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.cli.progress import duration
from engine.simulate import batch, executors

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
KNIFE = ROOT / "scenarios" / "knife-duel.toml"


def _processes_naming(token: str) -> list[int]:
    """Processes whose command line holds `token` (a batch's workers share it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _wait_for_line(stream, needle: str, limit: float = 60.0) -> str:  # type: ignore[no-untyped-def]
    """Read stderr lines until one holds `needle` (a guard against hanging, not a measurement)."""
    deadline = time.monotonic() + limit
    seen = ""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            line = stream.readline()
            if not line:
                break
            seen += line
            if needle in line:
                return seen
    raise AssertionError(f"no {needle!r} on stderr; saw {seen!r}")


def interrupted_batch(tmp_path: Path, name: str, *options: str, wait: float = 3.0) -> tuple[Path, int, str]:
    """`ua simulate` of 10⁷ fights of the knife duel (a copy named `name`) in a process group of
    its own, given Ctrl-C as a terminal gives it (SIGINT to the whole group) `wait` seconds after
    it said its estimate; the report it printed is checked as a partial one. Returns the copy
    (its path names the command's processes), the process group and stderr."""
    shutil.copytree(ROOT / "scenarios" / "characters", tmp_path / "characters")
    path = tmp_path / f"{name}.toml"
    path.write_text(KNIFE.read_text())
    command = [sys.executable, "-c", "from engine.cli.app import main; main()", "simulate", str(path)]
    command += ["-n", "10000000", "--seed", "1", *options, "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp_path
    )
    try:
        said = _wait_for_line(proc.stderr, "estimate: about")  # the batch is starting
        assert "Ctrl-C stops it" in said
        time.sleep(wait)  # let some chunks finish
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err
    report = json.loads(out)
    assert report["partial"] is True and report["requested"] == 10_000_000
    assert 0 < report["fights"] < 10_000_000
    assert sum(s["wins"] for s in report["sides"].values()) + report["draws"]["count"] == report["fights"]
    last = err.strip().splitlines()[-1]
    assert last == f"stopped: the report is of the {report['fights']:,} fights finished of 10,000,000"
    return path, proc.pid, said + err


@pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc").is_dir(), reason="needs POSIX signals and /proc")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_the_partial_report_and_exits_130_with_no_traceback(workers: str, tmp_path: Path) -> None:
    path, _, _ = interrupted_batch(tmp_path, f"interrupted-{workers}", "--workers", workers)
    assert _processes_naming(str(path)) == [], "the workers are gone"


def test_a_stopped_batch_reports_the_chunks_finished_marked_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    real = batch.run_chunk
    calls = []

    def stopping(fights, seed, start, stop, keep):  # type: ignore[no-untyped-def]
        if stop - start == 2500:  # a chunk, not the timed sample's first fights
            calls.append(1)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return real(fights, seed, start, stop, keep)

    monkeypatch.setattr(batch, "run_chunk", stopping)
    args = ["simulate", str(KNIFE), "-n", "20000", "--seed", "2", "--workers", "1", "--chunk-size", "2500"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 130
    report = json.loads(result.stdout)
    assert (report["partial"], report["fights"], report["requested"]) == (True, 5000, 20000)
    calls.clear()
    code = runner.invoke(app, args)
    assert code.exit_code == 130 and "partial: stopped after 5,000 of 20,000" in code.stdout


def test_a_batch_stopped_before_any_fight_finished_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopping(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "run_chunk", stopping)
    result = runner.invoke(app, ["simulate", str(KNIFE), "-n", "300", "--seed", "2", "--workers", "1"])
    assert result.exit_code == 130
    assert result.stderr.strip() == "error: stopped before any fight finished (hint: let it run a little longer)"


def test_a_batch_that_will_take_over_a_minute_says_its_estimate_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "seconds_per_index", lambda *a, **k: 0.01)  # as if 100 fights/s
    result = runner.invoke(app, ["simulate", str(KNIFE), "-n", "10000", "--seed", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0
    assert result.stderr.startswith("estimate: about 1 min 40 s for 10,000 fights on 1 worker (about 100 fights/s")
    monkeypatch.setattr(executors, "seconds_per_index", lambda *a, **k: 0.001)  # 10 s: nothing to say
    result = runner.invoke(app, ["simulate", str(KNIFE), "-n", "10000", "--seed", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0 and "estimate" not in result.stderr


def test_durations_read_as_a_person_says_them() -> None:
    assert [duration(s) for s in (45, 100, 3600 * 2 + 300)] == ["45 s", "1 min 40 s", "2 h 5 min"]
