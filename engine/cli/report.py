"""Rendering a batch report (`ua simulate`, `ua session fork`): rich tables and CSV, from the
dict `engine.simulate.stats.summary` builds (the `--json` output)."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from engine.cli.common import console
from engine.rules.words import Words
from engine.simulate.stats import TOP_ENDINGS, TOP_REASONS, percent

#: Most rows the rounds histogram shows; more distinct rounds are binned.
HISTOGRAM_ROWS = 20
BAR = 40


def show(table: Table) -> None:
    """Print a table; off a terminal (piped, redirected) at its full width, so no cell is cut."""
    shown_on = console.rich
    if shown_on.is_terminal:
        shown_on.print(table)
    else:
        natural = shown_on.measure(table, options=shown_on.options.update_width(10_000)).maximum
        Console(highlight=False, soft_wrap=True, emoji=False, width=max(shown_on.width, natural)).print(table)


def _pct(rate: dict[str, float]) -> str:
    return f"{rate['rate']:.1%} [{rate['ci95_low']:.1%}–{rate['ci95_high']:.1%}]"


def histogram(distribution: dict[str, int], rows: int = HISTOGRAM_ROWS) -> list[tuple[str, int]]:
    """Every bucket from the fewest to the most rounds (empty ones too), as (label, fights);
    in bins of equal width when there are more than `rows` of them."""
    if not distribution:
        return []
    counts = {int(k): v for k, v in distribution.items()}
    low, high = min(counts), max(counts)
    width = max(1, math.ceil((high - low + 1) / rows))
    out = []
    for start in range(low, high + 1, width):
        stop = min(high, start + width - 1)
        label = str(start) if stop == start else f"{start}–{stop}"
        out.append((label, sum(counts.get(r, 0) for r in range(start, stop + 1))))
    return out


def words_of(report: dict[str, Any]) -> Words:
    """How the report's edition names its figures (a report without a ruleset is ua2's)."""
    from engine.rules.registry import find_ruleset

    return find_ruleset(report.get("ruleset", "ua2")).words


def render(report: dict[str, Any]) -> None:
    """The report as a GM reads it: the sentence about the players' side first."""
    words = words_of(report)
    head = f"[bold]{escape(report['scenario'])}[/bold] — {report['fights']:,} fights, seed {report['seed']}"
    if report.get("from_event") is not None:
        head += f", from event {report['from_event']}"
    if report["partial"]:
        head += f" [bold yellow](partial: stopped after {report['fights']:,} of {report['requested']:,})[/bold yellow]"
    console.print(head)
    say_stop(report)
    console.print(report["headline"], markup=False)
    for text in report["warnings"]:
        console.print(f"warning: {text}", markup=False, style="yellow")
    _sides(report, words)
    _rounds(report)
    _combatants(report, words)
    _minds(report, words)
    _endings(report)
    _refusals(report)
    for note in report["notes"]:
        console.print(f"note: {note}", markup=False)
    for kept in report.get("kept", []):
        console.print(f"kept fight {kept['fight']} (seed {kept['seed']}): {kept['file']}", markup=False)


def say_stop(report: dict[str, Any]) -> None:
    """How a run with --precision stopped (nothing for one without)."""
    from engine.simulate.precision import stop_line

    line = stop_line(report)
    if line is not None:
        console.print(line, markup=False)


def _sides(report: dict[str, Any], words: Words) -> None:
    table = Table(
        title="who wins (95% confidence interval; out of the fight: all down, or with someone fled, "
        "or surrendered/frozen)"
    )
    permanent = bool(words.permanent_damage)
    columns: tuple[str, ...] = ("side", "wins", "rate", "someone dies", "all down", "fled", "surrendered/other")
    columns += ("permanent damage",) if permanent else ()
    for column in columns:
        table.add_column(column, justify="left" if column == "side" else "right", overflow="fold")
    for name, s in report["sides"].items():
        label = f"{name} (players)" if name == report["players"] else name
        cells = [escape(label), f"{s['wins']:,}", _pct(s), _pct(s["someone_dies"]), _pct(s["all_down"])]
        cells += [_pct(s["out_fled"]), _pct(s["out_other"])]
        table.add_row(*cells, *([_pct(s["permanent_damage"])] if permanent else []))
    table.add_row("draw", f"{report['draws']['count']:,}", _pct(report["draws"]), *[""] * (len(columns) - 3))
    show(table)


def _rounds(report: dict[str, Any]) -> None:
    r = report["rounds"]
    console.print(f"rounds: mean {r['mean']:.2f}, median {r['median']:g}, range {r['min']}–{r['max']}")
    total = report["fights"] or 1
    buckets = histogram(r["distribution"])
    width = max((len(label) for label, _ in buckets), default=1)
    for label, count in buckets:
        bar = "█" * max(1, round(BAR * count / total)) if count else ""
        console.print(f"  {label:>{width}} {bar} {count:,}", markup=False)


def _combatants(report: dict[str, Any], words: Words) -> None:
    permanent = words.permanent_damage
    perm = f"; perm: {permanent.replace(' (', ', ').rstrip(')')}" if permanent else ""
    table = Table(
        title=f"combatants (down = {words.down}; taken: {words.wounds_taken}, median and 90th percentile{perm})"
    )
    columns = ("who", "side", "dies", "down", "fled", "surr.", "frozen", "dealt", "taken", "taken p50/p90")
    for column in (*columns, *(("perm",) if permanent else ())):
        table.add_column(column, justify="left" if column in ("who", "side") else "right", overflow="fold")
    for name, c in report["combatants"].items():
        w = c["wounds_taken"]
        table.add_row(
            escape(name),
            escape(c["side"]),
            f"{c['dead']['rate']:.1%}",
            f"{c['incapacitated']['rate']:.1%}",
            f"{c['fled']['rate']:.1%}",
            f"{c['surrendered']['rate']:.1%}",
            f"{c['frozen_at_end']['rate']:.1%}",
            f"{c['wounds_dealt_mean']:.1f}",
            f"{c['wounds_taken_mean']:.1f}",
            f"{w['median']:g} / {w['p90']}",
            *([f"{c['permanent_damage']['rate']:.1%}"] if permanent else []),
        )
    show(table)


def _minds(report: dict[str, Any], words: Words) -> None:
    """Madness meters (ua2) or shock gauges (ua3): the notches each combatant gained."""
    rows = [
        (name, meter, m)
        for name, c in report["combatants"].items()
        for meter, m in c["meters"].items()
        if m["notches_mean"]
    ]
    if not rows:
        console.print(f"{words.mind}: no notches gained")
        return
    table = Table(title=f"{words.mind} (per {words.meter}: fights with a failed notch; mean notches gained)")
    for column in ("who", words.meter, "failed ≥ 1", "+hardened", "+failed"):
        table.add_column(column, justify="left" if column in ("who", words.meter) else "right", overflow="fold")
    for name, meter, m in rows:
        table.add_row(
            escape(name),
            meter,
            _pct(m["failed_at_least_once"]),
            f"{m['hardened_notches_mean']:.2f}",
            f"{m['failed_notches_mean']:.2f}",
        )
    show(table)


def _endings(report: dict[str, Any]) -> None:
    endings = report["endings"]
    more = len(endings) - TOP_ENDINGS
    title = "endings" + (f" (the {TOP_ENDINGS} most common; {more:,} more in --json)" if more > 0 else "")
    table = Table(title=title)
    table.add_column("rate", justify="right")
    table.add_column("fights", justify="right")
    table.add_column("ending", overflow="fold")
    for e in endings[:TOP_ENDINGS]:
        table.add_row(percent(e["rate"]), f"{e['count']:,}", escape(e["ending"]))
    show(table)


def _refusals(report: dict[str, Any]) -> None:
    refused = report["refusals"]
    if not refused["fights"]:
        console.print("refused commands: none")
        return
    table = Table(title=f"refused commands: {refused['commands']:,} in {refused['fights']:,} fights ({_pct(refused)})")
    table.add_column("fights", justify="right")
    table.add_column("reason", overflow="fold")
    for r in refused["reasons"][:TOP_REASONS]:
        table.add_row(f"{r['fights']:,}", escape(r["reason"]))
    show(table)


def to_csv(report: dict[str, Any]) -> str:
    """One row per figure: section, name, metric, value, 95% interval."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["section", "name", "metric", "value", "ci95_low", "ci95_high"])

    def rate_row(section: str, name: str, metric: str, r: dict[str, float]) -> None:
        w.writerow([section, name, metric, r["rate"], r["ci95_low"], r["ci95_high"]])

    w.writerow(["batch", "", "fights", report["fights"], "", ""])
    w.writerow(["batch", "", "partial", str(report["partial"]).lower(), "", ""])
    w.writerow(["batch", "", "players", report["players"], "", ""])
    for name, s in report["sides"].items():
        rate_row("side", name, "win_rate", s)
        for metric in ("someone_dies", "all_down", "out_fled", "out_other", "permanent_damage"):
            rate_row("side", name, metric, s[metric])
    rate_row("side", "draw", "rate", report["draws"])
    for metric in ("mean", "median", "min", "max"):
        w.writerow(["rounds", "", metric, report["rounds"][metric], "", ""])
    for rounds, count in report["rounds"]["distribution"].items():
        w.writerow(["rounds", rounds, "fights", count, "", ""])
    for name, c in report["combatants"].items():
        for metric, value in c.items():
            if metric == "wounds_taken":
                for stat in ("median", "p90", "max"):
                    w.writerow(["combatant", name, f"wounds_taken_{stat}", value[stat], "", ""])
            elif metric == "meters":
                for meter, m in value.items():
                    rate_row("combatant", name, f"{meter}_failed_at_least_once", m["failed_at_least_once"])
                    for stat in ("hardened_notches_mean", "failed_notches_mean", "notches_mean"):
                        w.writerow(["combatant", name, f"{meter}_{stat}", m[stat], "", ""])
            elif isinstance(value, dict):
                rate_row("combatant", name, metric, value)
            elif metric != "side":
                w.writerow(["combatant", name, metric, value, "", ""])
    for e in report["endings"]:
        rate_row("ending", e["ending"], "rate", e)
    refused = report["refusals"]
    rate_row("refusals", "", "fights", refused)
    w.writerow(["refusals", "", "commands", refused["commands"], "", ""])
    for r in refused["reasons"]:
        rate_row("refusal", r["reason"], "fights", r)
    return out.getvalue()
