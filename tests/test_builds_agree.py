"""The compiled build and the pure-Python sources decide the same fights (README: "Compiled or
pure"). Each shipped scenario is simulated and one fight replayed in a child process run with
`UA_PURE_PYTHON=1`, and compared byte for byte with the same commands run as installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
#: Every shipped scenario that is fought (ua3's too: its combat is compiled with the rest).
SCENARIOS = [
    *sorted((ROOT / "scenarios").glob("*.toml")),
    *(p for p in sorted((ROOT / "scenarios" / "ua3").glob("*.toml")) if p.stem != "the-reading-room"),
]

UA = "import sys; from engine.cli.app import main; sys.argv[0] = 'ua'; main()"
PROBE = (
    "import engine.simulate.fight as m, engine.tactics.script as c, engine.tactics.ua3_script as u; "
    "print(m.__file__); print(c.__file__); print(u.__file__)"
)


def run(args: list[str], *, pure: bool, cwd: Path) -> str:
    """`python ARGS` in a child process, with or without `UA_PURE_PYTHON=1`; its stdout."""
    env = {k: v for k, v in os.environ.items() if k != "UA_PURE_PYTHON"}
    if pure:
        env["UA_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_pure_python_runs_the_sources(tmp_path: Path) -> None:
    for path in run(["-c", PROBE], pure=True, cwd=tmp_path).split():
        assert path.endswith(".py"), path


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_compiled_and_pure_report_the_same_batch(scenario: Path, tmp_path: Path) -> None:
    args = ["-c", UA, "simulate", str(scenario), "-n", "300", "--seed", "11", "-w", "1", "--json"]
    compiled, pure = (run(args, pure=flag, cwd=tmp_path) for flag in (False, True))
    assert json.loads(compiled)["fights"] == 300
    assert compiled == pure


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_compiled_and_pure_write_the_same_fight_log(scenario: Path, tmp_path: Path) -> None:
    logs = []
    for flag in (False, True):
        target = tmp_path / f"fight-{flag}.jsonl"
        args = ["-c", UA, "fight", str(scenario), "--seed", "5", "-i", "3", "--save", str(target)]
        run(args, pure=flag, cwd=tmp_path)
        logs.append(target.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0].count(b"\n") > 3
