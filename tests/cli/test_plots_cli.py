"""`--plot FILE.png` on `ua simulate` and `ua compare`: a PNG is written and the command says
where; matplotlib stays optional (a missing one is one line with the install hint)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
FAST = ["-n", "200", "--seed", "3", "--workers", "1"]
needs_matplotlib = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")


def scenario(name: str) -> str:
    return str(ROOT / "scenarios" / f"{name}.toml")


@needs_matplotlib
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", scenario("bar-brawl")],
        ["simulate", scenario("the-thing-in-the-cellar")],
        ["compare", scenario("knife-vs-22"), "--variant", "c:combatants.Rosa.tactics=cautious"],
        ["compare", scenario("knife-vs-22"), "--sweep", "combatants.Rosa.stats.body=40:70:15"],
        ["compare", scenario("knife-vs-22"), "--sweep", "combatants.Rosa.tactics=aggressive,cautious,coward"],
    ],
    ids=["report", "madness", "comparison", "sweep", "sweep of words"],
)
def test_plot_writes_a_png_and_says_where(args: list[str], tmp_path: Path) -> None:
    target = tmp_path / "out.png"
    result = runner.invoke(app, [*args, *FAST, "--plot", str(target)])
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes()[:8] == PNG
    assert f"plot written to {target}" in result.stdout


@needs_matplotlib
def test_with_json_the_plot_is_named_on_stderr_and_in_the_report(tmp_path: Path) -> None:
    target = tmp_path / "out.png"
    result = runner.invoke(app, ["simulate", scenario("knife-duel"), *FAST, "--plot", str(target), "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["plot"] == str(target)
    assert f"plot written to {target}" in result.stderr


@needs_matplotlib
def test_a_plot_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", scenario("knife-duel"), *FAST, "--plot", str(tmp_path / "no" / "x.png")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "cannot write the plot" in lines[0]


def test_without_matplotlib_plot_is_one_line_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    for args in (["simulate", scenario("knife-duel")], ["compare", scenario("knife-duel"), scenario("knife-vs-22")]):
        result = runner.invoke(app, [*args, *FAST, "--plot", str(tmp_path / "p.png")])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert lines == [
            "error: --plot: --plot needs matplotlib (hint: pip install 'ua-engine[plot]' (or pip install matplotlib))"
        ]
        assert not (tmp_path / "p.png").exists()
