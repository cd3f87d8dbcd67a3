"""The service is an optional extra: without Litestar, uvicorn, httpx and playwright installed
(hidden here by an import hook, in a process of its own), the engine, its library API and every
other command work and import none of them; `ua serve` says which extra it needs. These tests
need no extra, so they run in the default install too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "knife-vs-22.toml"
HEAVY = ("litestar", "uvicorn", "httpx", "playwright", "schemathesis", "anyio", "engine.service")

#: Run in a fresh interpreter: hide the serve extra, run `ua` commands as the console script does,
#: and report what was imported and how each command ended.
PROBE = """
import importlib.abc, json, sys
HIDDEN = ("litestar", "uvicorn", "httpx", "playwright", "schemathesis")

class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
import engine, engine.api
from engine.cli.app import main
codes = {}
for args in json.loads(sys.argv[1]):
    sys.argv = ["ua", *args]
    try:
        main()
        codes[" ".join(args)] = 0
    except SystemExit as exc:
        codes[" ".join(args)] = exc.code if isinstance(exc.code, int) else 0
print("\\n" + json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


def probe(tmp_path: Path, *commands: list[str]) -> tuple[dict[str, int], list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, msgspec.json.encode(list(commands)).decode()],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=True,
    )
    report = msgspec.json.decode(done.stdout.strip().splitlines()[-1])
    return report["codes"], report["modules"], done.stderr


def test_without_the_serve_extra_every_other_command_works_and_imports_none_of_it(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    codes, modules, _ = probe(
        tmp_path,
        ["--help"],
        ["odds", "--kind", "major", "--rating", "45"],
        ["roll", "-n", "2", "--seed", "1"],
        ["simulate", str(SCENARIO), "-n", "20", "--seed", "1"],
        ["session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "7", "--db", db],
        ["session", "roll", "duel", "--kind", "major", "--rating", "45", "--db", db],
        ["session", "log", "duel", "--db", db],
        ["replay", str(ROOT / "replays" / "knife-vs-22.jsonl")],
    )
    assert set(codes.values()) == {0}, codes
    assert not [m for m in modules if m.startswith(HEAVY)]


def test_ua_serve_without_the_extra_names_the_extra_to_install(tmp_path: Path) -> None:
    codes, modules, err = probe(tmp_path, ["serve"], ["serve-bench"])
    assert codes == {"serve": 2, "serve-bench": 2}, (codes, err)
    assert "needs the serve extra" in err and "pip install -e '.[serve]'" in err
    assert not [m for m in modules if m.startswith(("litestar", "uvicorn", "engine.service"))]


def _imports(folder: Path) -> dict[str, set[str]]:
    import ast

    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names = found.setdefault(str(path.relative_to(ROOT)), set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
    return found


def test_dependencies_point_one_way_the_service_and_the_session_layer_import_no_cli() -> None:
    """DESIGN: `cli, service → session, simulate → rules …`; the session layer knows no front end."""
    service = _imports(ROOT / "engine" / "service")
    assert not {f: sorted(n) for f, ns in service.items() if (n := {x for x in ns if x.startswith("engine.cli")})}
    lower = {**_imports(ROOT / "engine" / "session"), **_imports(ROOT / "engine" / "simulate")}
    front = ("engine.cli", "engine.service", "litestar", "uvicorn")
    assert not {f: sorted(n) for f, ns in lower.items() if (n := {x for x in ns if x.startswith(front)})}
