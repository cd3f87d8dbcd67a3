"""`--plot FILE.png`: pictures of a batch report, a comparison and a sweep. matplotlib is an
optional extra (`pip install 'ua-engine[plot]'`), imported only here and only when plotting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.cli.report import histogram
from engine.errors import InvalidInput

INSTALL_HINT = "pip install 'ua-engine[plot]' (or pip install matplotlib)"
WIN, DEATH, DOWN, DRAW, GREY = "#2a7ab0", "#b03a2e", "#d68910", "#7f8c8d", "#555555"


def require_matplotlib(option: str = "--plot") -> None:
    """Fail at once (before any fight) when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InvalidInput("--plot needs matplotlib", where=option, hint=INSTALL_HINT) from None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    return plt


def _errors(rates: list[dict[str, float]]) -> list[list[float]]:
    return [[r["rate"] - r["ci95_low"] for r in rates], [r["ci95_high"] - r["rate"] for r in rates]]


def _save(fig: Any, path: Path) -> None:
    plt = _pyplot()
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise InvalidInput(f"cannot write the plot: {exc.strerror or exc}", where=str(path)) from None
    finally:
        plt.close(fig)


def plot_report(report: dict[str, Any], path: Path) -> None:
    """Win rates with intervals, the rounds distribution, wounds taken per combatant (median,
    90th percentile, mean) and madness per meter."""
    plt = _pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    wins, rounds, wounds, madness = axes.flat

    sides = report["sides"]
    names = [f"{s} (players)" if s == report["players"] else s for s in sides]
    figures = (("wins", WIN, ""), ("someone dies", DEATH, "someone_dies"), ("all down", DOWN, "all_down"))
    for k, (label, colour, key) in enumerate(figures):
        rates = [s[key] if key else s for s in sides.values()]
        x = [i + (k - 1) * 0.27 for i in range(len(rates))]
        wins.bar(x, [r["rate"] for r in rates], 0.27, yerr=_errors(rates), capsize=3, color=colour, label=label)
    draws = report["draws"]
    wins.bar([len(sides)], [draws["rate"]], 0.27, yerr=_errors([draws]), capsize=3, color=DRAW, label="draw")
    wins.set_xticks(range(len(sides) + 1), [*names, "draw"])
    wins.set_ylim(0, 1)
    wins.set_title("per side: wins, someone dies, everyone down (95% intervals)")
    wins.legend(fontsize="small")

    buckets = histogram(report["rounds"]["distribution"])
    rounds.bar([label for label, _ in buckets], [count for _, count in buckets], color=GREY)
    rounds.set_title("rounds per fight")
    rounds.set_xlabel("rounds")
    rounds.set_ylabel("fights")
    if len(buckets) > 12:
        rounds.tick_params(axis="x", labelrotation=60)

    people = list(report["combatants"].items())
    ids = [name for name, _ in people]
    p90 = [c["wounds_taken"]["p90"] for _, c in people]
    median = [c["wounds_taken"]["median"] for _, c in people]
    wounds.barh(ids, p90, color="#f5b7b1", label="90th percentile")
    wounds.barh(ids, median, color=DEATH, label="median")
    wounds.scatter([c["wounds_taken_mean"] for _, c in people], ids, color="black", zorder=3, label="mean")
    wounds.invert_yaxis()
    wounds.set_title("wounds taken per fight")
    wounds.legend(fontsize="small")

    meters = [m for m in next(iter(report["combatants"].values()))["meters"]]
    used = [m for m in meters if any(c["meters"][m]["notches_mean"] for _, c in people)] or meters[:1]
    width = 0.8 / len(used)
    for k, meter in enumerate(used):
        offsets = [i + (k - (len(used) - 1) / 2) * width for i in range(len(ids))]
        madness.bar(
            offsets, [c["meters"][meter]["failed_at_least_once"]["rate"] for _, c in people], width, label=meter
        )
    madness.set_xticks(range(len(ids)), ids)
    madness.set_ylim(0, 1)
    madness.set_title("madness: chance of at least one failed notch, per meter")
    madness.legend(fontsize="small")

    partial = " (partial)" if report["partial"] else ""
    fig.suptitle(f"{report['scenario']} — {report['fights']:,} fights, seed {report['seed']}{partial}")
    fig.tight_layout()
    _save(fig, path)
