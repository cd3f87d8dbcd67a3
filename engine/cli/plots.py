"""`--plot FILE.png`: pictures of a batch report, a comparison and a sweep. matplotlib is an
optional extra (`pip install 'ua-engine[plot]'`), imported only here and only when plotting."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from engine.cli.report import histogram, words_of
from engine.errors import InvalidInput
from engine.safefile import write_file

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


def _save(fig: Any, path: Path, force: bool) -> None:
    """The figure as a PNG, written atomically (never over a file unless `force`)."""
    image = io.BytesIO()
    try:
        fig.savefig(image, format="png", dpi=110)
    finally:
        _pyplot().close(fig)
    write_file(path, image.getvalue(), force=force)


def report_titles(report: dict[str, Any]) -> dict[str, str]:
    """The titles of a report's four panels, in the words of its edition (madness meters in
    ua2, shock gauges in ua3)."""
    words = words_of(report)
    return {
        "wins": "per side: wins, someone dies, everyone down (95% intervals)",
        "rounds": "rounds per fight",
        "wounds": f"taken per fight: {words.wounds_taken}",
        "minds": f"{words.mind}: chance of at least one failed notch, per {words.meter}",
    }


def plot_report(report: dict[str, Any], path: Path, *, force: bool = False) -> None:
    """Win rates with intervals, the rounds distribution, wounds taken per combatant (median,
    90th percentile, mean) and failed notches per madness meter (ua2) or shock gauge (ua3), in
    the words of the report's edition."""
    titles = report_titles(report)
    plt = _pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    wins, rounds, wounds, minds = axes.flat

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
    wins.set_title(titles["wins"])
    wins.legend(fontsize="small")

    buckets = histogram(report["rounds"]["distribution"])
    rounds.bar([label for label, _ in buckets], [count for _, count in buckets], color=GREY)
    rounds.set_title(titles["rounds"])
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
    wounds.set_title(titles["wounds"])
    wounds.legend(fontsize="small")

    meters = [m for m in next(iter(report["combatants"].values()))["meters"]]
    used = [m for m in meters if any(c["meters"][m]["notches_mean"] for _, c in people)] or meters[:1]
    width = 0.8 / len(used)
    for k, meter in enumerate(used):
        offsets = [i + (k - (len(used) - 1) / 2) * width for i in range(len(ids))]
        minds.bar(offsets, [c["meters"][meter]["failed_at_least_once"]["rate"] for _, c in people], width, label=meter)
    minds.set_xticks(range(len(ids)), ids)
    minds.set_ylim(0, 1)
    minds.set_title(titles["minds"])
    minds.legend(fontsize="small")

    partial = " (partial)" if report["partial"] else ""
    fig.suptitle(f"{report['scenario']} — {report['fights']:,} fights, seed {report['seed']}{partial}")
    fig.tight_layout()
    _save(fig, path, force)


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
        ax.set_ylabel(f"share of fights (players: {arms[0]['players']})")
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
    diff_ax.set_xlabel("difference in share of fights")
    fig.suptitle(f"{report['fights']:,} fights per variant on the same seeds, seed {report['seed']}")
    fig.tight_layout()
    _save(fig, path, force)
