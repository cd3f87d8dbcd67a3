"""How long a session command takes, process start to exit (the figure of issue 12): `ua bench
--startup N`. Each command runs N times in a fresh interpreter, the commands taking turns (so a
busy machine slows them alike); a command that writes runs on a fresh copy of the session. The
environment is this process's own (a bytecode cache as configured)."""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.errors import EngineError

#: The console script's entry point, run as `ua` would run it.
_UA = "import sys; from engine.cli.entry import main; sys.argv[0] = 'ua'; main()"

#: What is timed: (name, arguments with DB for the database, whether it writes).
COMMANDS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("ua --help", ("--help",), False),
    ("ua session state", ("session", "state", "s", "--db", "DB"), False),
    ("ua session log", ("session", "log", "s", "--db", "DB"), False),
    ("ua session attack", ("session", "attack", "s", "Vic", "Rosa", "--dice", "4,5", "--db", "DB"), True),
    ("ua session nothing", ("session", "nothing", "s", "Vic", "--db", "DB"), True),
)


def _ua(args: tuple[str, ...], db: Path, cwd: Path) -> tuple[float, float]:
    """Run `ua ARGS` once: (wall seconds, CPU seconds: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _UA, *(str(db) if a == "DB" else a for a in args)],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise EngineError(f"ua {' '.join(args[:2])} failed while timed: {last[0]}", where="ua bench --startup")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup_benchmark(runs: int, scenario: Path) -> dict[str, float]:
    """Median wall and CPU milliseconds of each command over `runs` runs, on a session of
    `scenario` (knife-vs-22: Vic acts first) begun with seed 5."""
    with tempfile.TemporaryDirectory(prefix="ua-startup-") as tmp:
        folder = Path(tmp)
        session, scratch = folder / "session.sqlite", folder / "scratch.sqlite"
        _ua(("session", "new", "s", "--scenario", str(scenario), "--seed", "5", "--db", "DB"), session, folder)
        _ua(("session", "begin", "s", "--db", "DB"), session, folder)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in COMMANDS}
        for run in range(runs + 1):  # the first round is not counted (caches warm up)
            for name, args, writes in COMMANDS:
                if writes:
                    shutil.copy(session, scratch)
                once = _ua(args, scratch if writes else session, folder)
                if run:
                    times[name].append(once)
    figures: dict[str, float] = {"runs": runs}
    for name, timed in times.items():
        key = name.removeprefix("ua ").replace(" ", "_").replace("--", "")
        figures[f"{key}_wall_ms"] = round(statistics.median([wall for wall, _cpu in timed]) * 1000, 1)
        figures[f"{key}_cpu_ms"] = round(statistics.median([cpu for _wall, cpu in timed]) * 1000, 1)
    return figures
