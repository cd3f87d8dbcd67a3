"""A command imports only what it needs (issue 12: a session command starts in at most 150 ms;
the figure is a benchmark's, these tests guard the imports it depends on): `ua --help` builds
the top-level commands without the simulator, the sessions or the event types; `ua session
state` and `ua session log` read a ua2 session without the command flow, the simulator, the
tactics, the other edition's rules, events or commands, the service or the optional extras (and
a ua3 session without ua2's rules or its own events and commands)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "knife-vs-22.toml"
UA3_SCENARIO = ROOT / "scenarios" / "ua3" / "quick-draw.toml"

#: Run `ua ARGS` as the console script does, in a fresh interpreter, and print what it imported.
PROBE = """
import gc, json, sys
from engine.cli.entry import main
sys.argv = ["ua", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    code = exc.code
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules), "collecting": gc.isenabled()}))
"""

#: Never needed to show help or read a session.
EXTRAS = ("dask", "distributed", "litestar", "uvicorn", "httpx", "yaml", "matplotlib", "engine.service")
#: What a ua2 session's commands need none of: the other edition's rules, events and commands.
NOT_UA2 = (
    "engine.rules.ua3",
    "engine.events.ua3",
    "engine.commands.ua3",
    "engine.commands.ua3_combat",
    "engine.commands.ua3_all",
)
#: What a ua3 session's commands need none of: ua2's rules, and the events and commands that are
#: ua2's alone.
NOT_UA3 = (
    "engine.rules.ua2",
    "engine.events.ua2",
    "engine.events.madness",
    "engine.events.healing",
    "engine.commands.ua2",
    "engine.commands.checks",
    "engine.commands.madness",
    "engine.commands.healing",
)
#: What `ua session state` and `ua session log` need none of.
NOT_FOR_READING = (
    *EXTRAS,
    "engine.simulate",
    "engine.scenario",
    "engine.tactics",
    *NOT_UA2,
    "engine.state.ua3",
    "engine.session.service",
    "engine.store.jsonl",
    "engine.store.memory",
    "tomllib",
)
#: What `ua --help` needs none of (it shows each top-level command's options).
NOT_FOR_HELP = (
    *EXTRAS,
    "engine.events",
    "engine.commands",
    "engine.session",
    "engine.store",
    "engine.scenario",
    "engine.tactics",
    "engine.rules.registry",
    "engine.rules.ua3",
    "engine.simulate.batch",
    "engine.simulate.fight",
    "engine.simulate.stats",
)


def run_ua(cwd: Path, *args: str) -> dict[str, Any]:
    """What `ua ARGS` left behind: its exit code, the modules it imported, whether the cyclic
    collector was on."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, msgspec.json.encode(list(args)).decode()],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=True,
    )
    report: dict[str, Any] = msgspec.json.decode(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None), done.stderr
    return report


def imported(cwd: Path, *args: str) -> list[str]:
    modules: list[str] = run_ua(cwd, *args)["modules"]
    return modules


def among(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


@pytest.fixture(scope="module")
def session_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("startup") / "s.sqlite"
    imported(db.parent, "session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5", "--db", str(db))
    return db


def test_ua_help_builds_every_top_level_command_without_the_simulator_sessions_or_events(tmp_path: Path) -> None:
    modules = imported(tmp_path, "--help")
    assert not among(modules, NOT_FOR_HELP)


@pytest.mark.parametrize("command", ["state", "log"])
def test_reading_a_session_imports_its_own_rules_and_nothing_of_the_command_flow(
    session_db: Path, command: str
) -> None:
    modules = imported(session_db.parent, "session", command, "duel", "--db", str(session_db))
    assert "engine.rules.ua2.ruleset" in modules and "engine.events" in modules  # the log is read and folded
    assert not among(modules, NOT_FOR_READING)
    assert ("engine.session.audit" in modules) == (command == "log")  # narrating is log's alone
    assert not among(modules, ("rich",))  # lines and tables to a pipe are drawn plain (engine.cli.output, grid)


def test_a_session_action_builds_its_own_command_only(session_db: Path) -> None:
    roll = ("session", "roll", "duel", "--kind", "major", "--rating", "45", "--db", str(session_db))
    modules = imported(session_db.parent, *roll)
    other_commands = ("engine.cli.session.ua3", "engine.cli.session.setup", "engine.cli.session.history")
    assert not among(modules, ("dask", "litestar", "engine.service", "engine.simulate.batch", *other_commands))
    assert not among(modules, NOT_UA2)
    assert not among(modules, ("engine.scenario",))  # no NPC may respond: the stored scenario is not read
    assert "hashlib" not in modules  # the dice streams' keys are written out (engine.dice.source)
    assert not among(modules, ("rich",))  # its lines go to a pipe: printed plain (engine.cli.output)


def test_the_collector_is_on_again_when_the_command_runs(session_db: Path) -> None:
    """`ua` loads its modules with the cyclic collector off (engine.cli.entry), and turns it on
    before the command runs: a long batch collects its garbage as usual."""
    report = run_ua(session_db.parent, "session", "state", "duel", "--db", str(session_db))
    assert report["collecting"] is True


def test_an_editable_install_compiles_the_sources_to_bytecode() -> None:
    """setup.py's EditableBuildPy: `pip install -e .` writes each module's bytecode beside it, so
    that a start where writing bytecode is off (PYTHONDONTWRITEBYTECODE) compiles nothing."""
    import engine

    if Path(engine.__file__).resolve().parent != ROOT / "engine":
        pytest.skip("the engine is not installed from this checkout in editable mode")
    for module in ("engine/cli/entry.py", "engine/cli/app.py", "engine/events/__init__.py"):
        assert Path(importlib.util.cache_from_source(str(ROOT / module))).exists(), module


def test_listing_sessions_reads_them_without_the_command_flow(session_db: Path) -> None:
    modules = imported(session_db.parent, "session", "list", "--db", str(session_db))
    assert "engine.session.reader" in modules
    assert not among(modules, (*NOT_FOR_READING, "engine.cli.session.setup"))


def test_a_session_action_reads_its_stored_scenario_without_a_file_parser(session_db: Path, tmp_path: Path) -> None:
    """The NPCs' responses after a command read the scenario the session stored (a document
    already parsed): neither PyYAML nor the other edition's scenario reader is loaded."""
    db = tmp_path / "s.sqlite"
    shutil.copy(session_db, db)
    modules = imported(tmp_path, "session", "begin", "duel", "--db", str(db))
    assert "engine.session.roster" in modules and "engine.scenario.scenario" in modules
    file_parsers = ("yaml", "engine.scenario.yaml_loader")  # (tomllib reads the weapon catalog)
    assert not among(modules, (*file_parsers, "engine.scenario.ua3_scenario", *NOT_UA2))
    assert not among(modules, ("rich.table", "engine.cli.checks"))  # it narrates: no table, no check commands


@pytest.mark.parametrize("command", ["state", "log"])
def test_reading_a_ua3_session_imports_none_of_ua2s_rules_nor_its_events_and_commands(
    tmp_path: Path, command: str
) -> None:
    db = tmp_path / "s.sqlite"
    imported(tmp_path, "session", "new", "draw", "--scenario", str(UA3_SCENARIO), "--seed", "5", "--db", str(db))
    modules = imported(tmp_path, "session", command, "draw", "--db", str(db))
    assert "engine.rules.ua3.ruleset" in modules and "engine.events.ua3" in modules
    assert not among(modules, NOT_UA3)
