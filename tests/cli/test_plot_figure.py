"""What the `--plot` figure shows (issue 31), read off its artists rather than its pixels:
labelled share axes in percent, intervals on the wounds and madness/gauge panels, round labels
that never overlap, "no notches gained" said in its panel, and the edition's own words."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

pytestmark = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")
runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def report(name: str, *more: str) -> dict[str, Any]:
    path = str(ROOT / "scenarios" / f"{name}.toml")
    result = runner.invoke(app, ["simulate", path, "-n", "300", "--seed", "3", "-w", "1", "--json", *more])
    assert result.exit_code == 0, result.stderr
    decoded: dict[str, Any] = json.loads(result.stdout)
    return decoded


def panels(r: dict[str, Any]) -> dict[str, Any]:
    """The figure's panels by name, and the figure."""
    from engine.cli.plots import report_figure

    fig = report_figure(r)
    return {"figure": fig, **dict(zip(("wins", "rounds", "wounds", "minds"), fig.axes, strict=False))}


def errorbars(ax: Any) -> list[Any]:
    from matplotlib.container import ErrorbarContainer

    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


def texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_share_axes_are_labelled_in_percent_and_counts_have_units() -> None:
    p = panels(report("bar-brawl"))
    for ax in (p["wins"], p["minds"]):
        assert ax.get_ylabel() == "share of fights, %"
        assert ax.yaxis.get_major_formatter()(0.5, 0) == "50%"
    assert p["rounds"].get_xlabel().startswith("rounds") and p["rounds"].get_ylabel() == "fights"
    assert p["wounds"].get_xlabel() == "wounds per fight"


def test_wounds_and_madness_panels_carry_95_percent_intervals() -> None:
    r = report("bar-brawl")
    p = panels(r)
    (means,) = errorbars(p["wounds"])
    assert len(means.lines[0].get_xdata()) == len(r["combatants"])  # one mean with its interval each
    assert "mean (95% interval)" in [t.get_text() for t in p["wounds"].get_legend().get_texts()]
    assert errorbars(p["minds"]), "each meter's failed-notch share has its interval"
    assert "95% intervals" in p["minds"].get_title()
    labels = [t.get_text() for t in p["wins"].get_legend().get_texts()]
    assert "out, someone fled" in labels and len(errorbars(p["wins"])) == len(labels)


def test_a_batch_without_notches_says_so_in_the_panel() -> None:
    minds = panels(report("ua3/quick-draw"))["minds"]
    assert texts(minds) == ["no notches gained"]
    assert not minds.patches and not minds.get_legend()


def test_round_labels_are_thinned_and_never_overlap() -> None:
    from engine.cli.plots import ROUND_LABELS

    r = report("knife-duel")
    r["rounds"]["distribution"] = {str(k): 5 + k % 7 for k in range(1, 95)}  # a long tail, binned
    p = panels(r)
    p["figure"].canvas.draw()
    shown = [t for t in p["rounds"].get_xticklabels() if t.get_text()]
    assert 2 <= len(shown) <= ROUND_LABELS and shown[0].get_text() == "1–5"
    boxes = [t.get_window_extent() for t in shown]
    assert all(a.x1 < b.x0 for a, b in itertools.pairwise(boxes))
    assert p["rounds"].get_xlabel() == "rounds (bins)"


def test_each_edition_speaks_its_own_words() -> None:
    ua2, ua3 = panels(report("knife-duel")), panels(report("ua3/back-alley-brawl"))
    assert ua2["minds"].get_title().startswith("madness:") and "per meter" in ua2["minds"].get_title()
    assert ua3["minds"].get_title().startswith("shock gauges:") and "per gauge" in ua3["minds"].get_title()
    assert ua2["wounds"].get_xlabel() == "wounds per fight"
    assert ua3["wounds"].get_xlabel() == "wounds toward the wound threshold per fight"
