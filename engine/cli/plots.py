"""`--plot FILE.png`: pictures of a batch report, a comparison and a sweep. matplotlib is an
optional extra (`pip install 'ua-engine[plot]'`), imported only here and only when plotting."""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

from engine.cli.report import histogram, words_of
from engine.errors import InvalidInput
from engine.safefile import write_file
from engine.simulate.stats import Z95

INSTALL_HINT = "pip install 'ua-engine[plot]' (or pip install matplotlib)"
WIN, DEATH, DOWN, DRAW, GREY = "#2a7ab0", "#b03a2e", "#d68910", "#7f8c8d", "#555555"
FLED, OTHER = "#7d3c98", "#48c9b0"


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


def _save(fig: Any, path: Path, force: bool) -> None:
    """The figure as a PNG, written atomically (never over a file unless `force`)."""
    image = io.BytesIO()
    try:
        fig.savefig(image, format="png", dpi=110)
    finally:
        _pyplot().close(fig)
    write_file(path, image.getvalue(), force=force)


#: The most round labels the rounds panel shows (the others are thinned out, never overlapping).
ROUND_LABELS = 12
SHARE = "share of fights, %"


def report_titles(report: dict[str, Any]) -> dict[str, str]:
    """The titles of a report's four panels, in the words of its edition (madness meters in
    ua2, shock gauges in ua3)."""
    words = words_of(report)
    return {
        "wins": "per side: wins, someone dies, and how it went out of the fight (95% intervals)",
        "rounds": "rounds per fight",
        "wounds": f"taken per fight: {words.wounds_taken}",
        "minds": f"{words.mind}: fights with a failed notch, per {words.meter} (95% intervals)",
    }


def _as_percent(ax: Any, axis: str = "y") -> None:
    """Shares (0–1) labelled as percents, the axis named for them."""
    from matplotlib.ticker import PercentFormatter

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(1.0, decimals=0))
    (ax.set_ylabel if axis == "y" else ax.set_xlabel)(SHARE)


def mean_interval(distribution: dict[str, int]) -> tuple[float, float]:
    """The 95% interval's half-widths below and above the mean of a histogram (value → fights),
    from the normal approximation (n ≥ 2; one fight: no interval)."""
    n = sum(distribution.values())
    if n < 2:
        return 0.0, 0.0
    mean = sum(int(v) * c for v, c in distribution.items()) / n
    variance = sum(c * (int(v) - mean) ** 2 for v, c in distribution.items()) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return min(half, mean), half


def _wins_panel(ax: Any, report: dict[str, Any], title: str) -> None:
    sides = report["sides"]
    names = [f"{s} (players)" if s == report["players"] else s for s in sides]
    figures = (
        ("wins", WIN, ""),
        ("someone dies", DEATH, "someone_dies"),
        ("all down", DOWN, "all_down"),
        ("out, someone fled", FLED, "out_fled"),
        ("out, surrendered/frozen", OTHER, "out_other"),
    )
    width = 0.8 / len(figures)
    for k, (label, colour, key) in enumerate(figures):
        rates = [s[key] if key else s for s in sides.values()]
        x = [i + (k - (len(figures) - 1) / 2) * width for i in range(len(rates))]
        ax.bar(x, [r["rate"] for r in rates], width, yerr=_errors(rates), capsize=3, color=colour, label=label)
    draws = report["draws"]
    ax.bar([len(sides)], [draws["rate"]], width, yerr=_errors([draws]), capsize=3, color=DRAW, label="draw")
    ax.set_xticks(range(len(sides) + 1), [*names, "draw"])
    ax.set_ylim(0, 1.3)  # room above 100% for the legend, clear of the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    _as_percent(ax)
    ax.set_title(title)
    ax.legend(fontsize="small", ncols=3, loc="upper center")


def _rounds_panel(ax: Any, report: dict[str, Any], title: str) -> None:
    buckets = histogram(report["rounds"]["distribution"])
    ax.bar(range(len(buckets)), [count for _, count in buckets], color=GREY)
    step = max(1, math.ceil(len(buckets) / ROUND_LABELS))
    shown = list(range(0, len(buckets), step))
    ax.set_xticks(shown, [buckets[i][0] for i in shown])
    ax.set_title(title)
    ax.set_xlabel("rounds" + (" (bins)" if any("–" in label for label, _ in buckets) else ""))
    ax.set_ylabel("fights")


def _wounds_panel(ax: Any, report: dict[str, Any], title: str, unit: str) -> None:
    people = list(report["combatants"].items())
    ids = [name for name, _ in people]
    ax.barh(ids, [c["wounds_taken"]["p90"] for _, c in people], color="#f5b7b1", label="90th percentile")
    ax.barh(ids, [c["wounds_taken"]["median"] for _, c in people], color=DEATH, label="median")
    spreads = [mean_interval(c["wounds_taken"]["distribution"]) for _, c in people]
    ax.errorbar(
        [c["wounds_taken_mean"] for _, c in people],
        ids,
        xerr=[[low for low, _ in spreads], [high for _, high in spreads]],
        fmt="o",
        color="black",
        capsize=4,
        zorder=3,
        label="mean (95% interval)",
    )
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit} per fight")
    ax.set_title(title)
    ax.legend(fontsize="small")


def _minds_panel(ax: Any, report: dict[str, Any], title: str) -> None:
    people = list(report["combatants"].items())
    ids = [name for name, _ in people]
    meters = list(next(iter(report["combatants"].values()))["meters"])
    used = [m for m in meters if any(c["meters"][m]["notches_mean"] for _, c in people)]
    ax.set_title(title)
    if not used:
        ax.text(0.5, 0.5, "no notches gained", transform=ax.transAxes, ha="center", va="center", fontsize="large")
        ax.set_xticks([])
        ax.set_yticks([])
        return
    width = 0.8 / len(used)
    for k, meter in enumerate(used):
        offsets = [i + (k - (len(used) - 1) / 2) * width for i in range(len(ids))]
        rates = [c["meters"][meter]["failed_at_least_once"] for _, c in people]
        ax.bar(offsets, [r["rate"] for r in rates], width, yerr=_errors(rates), capsize=3, label=meter)
    ax.set_xticks(range(len(ids)), ids)
    ax.set_ylim(0, 1.05)
    _as_percent(ax)
    ax.legend(fontsize="small")


def report_figure(report: dict[str, Any]) -> Any:
    """The report's figure: win rates and how each side went out of the fight, with intervals;
    the rounds distribution; wounds taken per combatant (median, 90th percentile, mean with its
    interval); failed notches per madness meter (ua2) or shock gauge (ua3) with intervals — in
    the words of the report's edition."""
    titles = report_titles(report)
    words = words_of(report)
    fig, axes = _pyplot().subplots(2, 2, figsize=(13, 8.5))
    wins, rounds, wounds, minds = axes.flat
    _wins_panel(wins, report, titles["wins"])
    _rounds_panel(rounds, report, titles["rounds"])
    _wounds_panel(wounds, report, titles["wounds"], words.wounds_taken.split(" (")[0])
    _minds_panel(minds, report, titles["minds"])
    partial = " (partial)" if report["partial"] else ""
    fig.suptitle(f"{report['scenario']} — {report['fights']:,} fights, seed {report['seed']}{partial}")
    fig.tight_layout()
    return fig


def plot_report(report: dict[str, Any], path: Path, *, force: bool = False) -> None:
    """`report_figure` as a PNG at `path`."""
    _save(report_figure(report), path, force)


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def plot_comparison(report: dict[str, Any], path: Path, *, force: bool = False) -> None:
    """A sweep: the players' win and death rates against the value, with 95% bands. A
    comparison: both rates per variant, and each difference from the first with its paired
    interval beside the wider one two separate runs would give."""
    plt = _pyplot()
    arms = report["variants"]
    if report["sweep"] is not None:
        fig, ax = plt.subplots(figsize=(9, 5.5))
        values = [a["value"] for a in arms]
        x = values if _numeric(values) else list(range(len(values)))
        for key, label, colour in (("win", "your side wins", WIN), ("someone_dies", "someone on it dies", DEATH)):
            rates = [a[key] for a in arms]
            ax.plot(x, [r["rate"] for r in rates], marker="o", color=colour, label=label)
            ax.fill_between(x, [r["ci95_low"] for r in rates], [r["ci95_high"] for r in rates], color=colour, alpha=0.2)
        if not _numeric(values):
            ax.set_xticks(x, [str(v) for v in values])
        ax.set_xlabel(report["sweep"])
        ax.set_ylim(0, 1)
        _as_percent(ax)
        ax.set_ylabel(f"{SHARE} (players: {arms[0]['players']})")
        ax.legend()
        ax.grid(alpha=0.3)
        ax.set_title(f"sweep of {report['sweep']} — {report['fights']:,} fights per value, same seeds")
        fig.tight_layout()
        _save(fig, path, force)
        return
    fig, (rates_ax, diff_ax) = plt.subplots(1, 2, figsize=(13, 5.5))
    names = [a["name"] for a in arms]
    for k, (key, label, colour) in enumerate((("win", "wins", WIN), ("someone_dies", "someone dies", DEATH))):
        rates = [a[key] for a in arms]
        x = [i + (k - 0.5) * 0.38 for i in range(len(arms))]
        rates_ax.bar(x, [r["rate"] for r in rates], 0.38, yerr=_errors(rates), capsize=4, color=colour, label=label)
    rates_ax.set_xticks(range(len(arms)), names)
    rates_ax.set_ylim(0, 1)
    _as_percent(rates_ax)
    rates_ax.legend(fontsize="small")
    rates_ax.set_title("the players' side in each variant (95% intervals)")
    rows = [(d["variant"], key, d[key]) for d in report["differences"] for key in ("win", "someone_dies")]
    y = list(range(len(rows)))
    for i, (_, key, d) in enumerate(rows):
        colour = WIN if key == "win" else DEATH
        diff_ax.plot([d["independent_ci95_low"], d["independent_ci95_high"]], [i, i], color=GREY, lw=6, alpha=0.35)
        diff_ax.plot([d["ci95_low"], d["ci95_high"]], [i, i], color=colour, lw=3)
        diff_ax.plot([d["difference"]], [i], "o", color=colour)
    diff_ax.axvline(0, color="black", lw=0.8)
    diff_ax.set_yticks(y, [f"{v}: {'wins' if k == 'win' else 'someone dies'}" for v, k, _ in rows])
    diff_ax.invert_yaxis()
    diff_ax.set_title(f"difference from {arms[0]['name']} (paired; grey: separate runs)")
    from matplotlib.ticker import FuncFormatter

    diff_ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{100 * x:+.0f}"))
    diff_ax.set_xlabel("difference in share of fights, percentage points")
    fig.suptitle(f"{report['fights']:,} fights per variant on the same seeds, seed {report['seed']}")
    fig.tight_layout()
    _save(fig, path, force)
