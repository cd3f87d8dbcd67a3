"""`ua compare`: two or more variants of a scenario — other files, or the first file with
`--variant NAME:PATH=VALUE,…` — or a `--sweep` of one value over a range, fought on the same
fight seeds; the players' win and death rates side by side, and each difference from the first
variant with its 95% interval from the paired fights."""

import csv
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from engine.cli.backend import BackendOpt, ChunkSizeOpt, SchedulerOpt
from engine.cli.common import JsonOption, console
from engine.cli.precision import PairedPrecisionOfOpt, PrecisionOpt
from engine.cli.simulate import (
    DEFAULT_FIGHTS,
    CsvOpt,
    FightsOpt,
    ForceOpt,
    PlotOpt,
    ProgressOpt,
    ReferenceOpt,
    SeedOpt,
    SetOpt,
    WorkersOpt,
    emit_report,
    seed_or_random,
    stopped_early,
)
from engine.cli.workers import OversubscribeOpt, note_clamp
from engine.errors import InvalidInput
from engine.safefile import check_target

if TYPE_CHECKING:
    from engine.simulate.compare import Variant

VariantOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        metavar="NAME:PATH=VALUE,…",
        help="The first scenario with these changes, as another variant (repeatable): "
        "'cautious Rosa:combatants.Rosa.tactics=cautious'.",
    ),
]
SweepOpt = Annotated[
    str | None,
    typer.Option(
        "--sweep",
        metavar="PATH=START:STOP:STEP",
        help="One variant per value (STOP included), or PATH=A,B,C: combatants.Rosa.stats.body=40:70:10.",
    ),
]


def split_changes(text: str) -> list[str]:
    """`a.b=1,c.d=[1, 2]` → ["a.b=1", "c.d=[1, 2]"]: commas inside brackets or quotes stay."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def parse_variant(text: str) -> tuple[str, list[str]]:
    """`NAME:PATH=VALUE,…` → (NAME, changes); without a name, the changes name it."""
    name, sep, rest = text.partition(":")
    if not sep or "=" in name:
        name, rest = text, text
    changes = split_changes(rest)
    if not changes:
        raise InvalidInput(f"{text!r} changes nothing", where="--variant", hint="NAME:PATH=VALUE,PATH=VALUE")
    return name.strip(), changes


def variants_of(
    scenarios: list[Path], sets: list[str], variants: list[str], sweep: str | None
) -> tuple[list["Variant"], str | None]:
    """The variants to compare: each file (with `--set`), each `--variant` of the first, or one
    per value of the sweep."""
    from engine.simulate.compare import Variant
    from engine.simulate.overrides import Override, load_with_overrides, parse_override, sweep_values

    first = scenarios[0]
    if sweep is not None:
        if len(scenarios) > 1 or variants:
            raise InvalidInput(
                "a sweep varies one scenario", where="--sweep", hint="give one scenario and no --variant"
            )
        keys, values = sweep_values(sweep)
        path = sweep.partition("=")[0].strip()
        out = []
        for value in values:
            change = Override(text=f"{path}={value}", keys=keys, value=value)
            out.append(
                Variant(
                    name=f"{path}={value}",
                    loaded=load_with_overrides(first, [*sets, change]),
                    changes=(*sets, change.text),
                    value=value,
                )
            )
        return out, path
    out = [Variant(name=p.stem, loaded=load_with_overrides(p, sets), changes=tuple(sets)) for p in scenarios]
    for text in variants:
        name, changes = parse_variant(text)
        for text_change in changes:
            parse_override(text_change, option="--variant")  # a bad one is named as a --variant
        out.append(Variant(name=name, loaded=load_with_overrides(first, [*sets, *changes]), changes=tuple(changes)))
    names = [v.name for v in out]
    if len(out) < 2:
        raise InvalidInput(
            "a comparison needs two variants",
            where="ua compare",
            hint="give two scenarios, or --variant 'NAME:PATH=VALUE', or --sweep PATH=START:STOP:STEP",
        )
    if len(set(names)) < len(names):
        raise InvalidInput(f"two variants are named alike: {', '.join(names)}", where="--variant", hint="name them")
    return out, None


def compare(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario files; the first is the baseline.")],
    variant: VariantOpt = None,
    sweep: SweepOpt = None,
    sets: SetOpt = None,
    n: FightsOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    precision: PrecisionOpt = None,
    precision_figures: PairedPrecisionOfOpt = None,
    json: JsonOption = False,
    as_csv: CsvOpt = False,
    plot: PlotOpt = None,
    progress: ProgressOpt = None,
    reference: ReferenceOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    chunk_size: ChunkSizeOpt = None,
    force: ForceOpt = False,
    oversubscribe: OversubscribeOpt = False,
) -> None:
    """Compare variants or sweep a value on the same fight seeds: the players' win and deaths.

    Fight i of every variant uses derive(seed, i). Each variant's difference from the first comes
    with a 95% interval from the paired fights (narrower than two separate runs could give).
    --backend dask runs them on a Dask cluster, with the same report byte for byte. --precision
    0.01 fights until every difference is known to ±1 point."""
    from engine.cli.plots import plot_comparison, require_matplotlib
    from engine.cli.progress import progress_bar, say_estimate
    from engine.simulate.batch import check_size, default_workers
    from engine.simulate.compare import COMPARE_FIGURES, compare_precision, comparison, run_compare
    from engine.simulate.executors import open_executor
    from engine.simulate.precision import most_fights, precision_of
    from engine.simulate.spans import check_chunk_size

    precise = precision_of(precision, precision_figures, COMPARE_FIGURES)
    n = most_fights(n, precise, DEFAULT_FIGHTS)
    arms, swept = variants_of(scenarios, sets or [], variant or [], sweep)
    batch_seed = seed_or_random(seed)
    check_size(n, default_workers() if workers is None else workers)
    check_chunk_size(chunk_size)
    if plot is not None:
        require_matplotlib()
        check_target(plot, force=force)
    show_bar = sys.stderr.isatty() if progress is None else progress
    note_clamp(workers, oversubscribe=oversubscribe, scheduler=scheduler)
    with (
        open_executor(backend, workers=workers, scheduler=scheduler, oversubscribe=oversubscribe) as executor,
        progress_bar(n, show_bar, what="fights (each variant)") as advance,
    ):
        tallies, paired = run_compare(
            arms,
            n,
            batch_seed,
            fast=not reference,
            progress=advance,
            interruptible=True,
            executor=executor,
            chunk_size=chunk_size,
            sampled=None if precise else lambda per_fight: say_estimate(n, executor.slots, per_fight),
            precision=precise,
        )
    stopped_early(tallies[0].fights, n)
    stop = None if precise is None else compare_precision(arms, paired, precise, tallies[0].fights, n)
    report = comparison(arms, tallies, paired, seed=batch_seed, requested=n, sweep=swept, precision=stop)
    emit_report(
        report, json=json, as_csv=as_csv, plot=plot, draw=plot_comparison, force=force, text=render, table=to_csv
    )


def _pct(r: dict[str, float]) -> str:
    return f"{r['rate']:.1%} [{r['ci95_low']:.1%}–{r['ci95_high']:.1%}]"


def _diff(d: dict[str, float]) -> str:
    from engine.simulate.compare import points

    return f"{points(d['difference'])} [{points(d['ci95_low'])} to {points(d['ci95_high'])}]"


def render(report: dict[str, Any]) -> None:
    from engine.cli.report import say_stop, show
    from engine.simulate.compare import points

    arms = report["variants"]
    kind = f"sweep of {report['sweep']}" if report["sweep"] else "comparison"
    head = f"[bold]{kind}[/bold] — {report['fights']:,} fights per variant on the same seeds, seed {report['seed']}"
    if report["partial"]:
        head += f" [bold yellow](partial: {report['fights']:,} of {report['requested']:,})[/bold yellow]"
    console.print(head)
    say_stop(report)
    for line in report["headlines"]:
        console.print(line, markup=False)
    for text in report["warnings"]:
        console.print(f"warning: {text}", markup=False, style="yellow")
    table = Table(title="the players' side in each variant (95% intervals)")
    first = report["sweep"] or "variant"
    for column in (first, "players", "wins", "someone dies", "all down", "draws", "rounds"):
        table.add_column(column, justify="left" if column in (first, "players") else "right", overflow="fold")
    for arm in arms:
        table.add_row(
            escape(str(arm["value"]) if report["sweep"] else arm["name"]),
            escape(arm["players"]),
            _pct(arm["win"]),
            _pct(arm["someone_dies"]),
            _pct(arm["all_down"]),
            _pct(arm["draws"]),
            f"{arm['rounds_mean']:.2f}",
        )
    show(table)
    diffs = Table(
        title=f"difference from {arms[0]['name']}, in points (95% interval from paired fights; separate runs: wider)"
    )
    for column in ("variant", "wins", "someone dies", "wins, separate runs"):
        diffs.add_column(column, justify="left" if column == "variant" else "right", overflow="fold")
    for d in report["differences"]:
        win = d["win"]
        separate = f"[{points(win['independent_ci95_low'])} to {points(win['independent_ci95_high'])}]"
        diffs.add_row(escape(d["variant"]), _diff(win), _diff(d["someone_dies"]), separate)
    show(diffs)


def to_csv(report: dict[str, Any]) -> str:
    """One row per figure: section, name, metric, value, 95% interval."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["section", "name", "metric", "value", "ci95_low", "ci95_high"])
    w.writerow(["batch", "", "fights", report["fights"], "", ""])
    w.writerow(["batch", "", "partial", str(report["partial"]).lower(), "", ""])
    for arm in report["variants"]:
        w.writerow(["variant", arm["name"], "value", "" if arm["value"] is None else arm["value"], "", ""])
        for metric in ("win", "someone_dies", "all_down", "draws"):
            r = arm[metric]
            w.writerow(["variant", arm["name"], metric, r["rate"], r["ci95_low"], r["ci95_high"]])
        w.writerow(["variant", arm["name"], "rounds_mean", arm["rounds_mean"], "", ""])
    for d in report["differences"]:
        for metric in ("win", "someone_dies"):
            x = d[metric]
            w.writerow(["difference", d["variant"], metric, x["difference"], x["ci95_low"], x["ci95_high"]])
            w.writerow(
                [
                    "difference",
                    d["variant"],
                    f"{metric}_separate_runs",
                    x["difference"],
                    x["independent_ci95_low"],
                    x["independent_ci95_high"],
                ]
            )
    return out.getvalue()
