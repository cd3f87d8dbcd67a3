"""`ua simulate`, `ua fight`, `ua scenario`: batch simulation, one narrated fight, scenario files."""

from __future__ import annotations

import csv
import io
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from engine.cli.common import JsonOption, console, emit_json, emit_json_streaming, err_console
from engine.dice.source import derive_seed
from engine.errors import InvalidInput, OutputError
from engine.safefile import check_target, write_file
from engine.scenario.scenario import Scenario, load_scenario
from engine.session.encoding import stored_log
from engine.simulate.batch import Keep, default_workers, run_batch
from engine.simulate.fight import prepare, run_fight
from engine.simulate.stats import summary
from engine.store.jsonl import write_log
from engine.text import shown

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario file (TOML, YAML or JSON).", show_default=False)]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace existing files (never a database, a folder or a device).")
]
#: `ua fight` refuses a fight of more events than this unless told otherwise (--max-events).
MAX_NARRATED = 100_000
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Batch seed; fight i uses derive(seed, i).")]

scenario_app = typer.Typer(help="Scenario files: check them, print their JSON Schema.", no_args_is_help=True)


def _seed(seed: int | None) -> int:
    return seed if seed is not None else int.from_bytes(os.urandom(4), "little")


def simulate(
    scenario: ScenarioArg,
    n: Annotated[int, typer.Option("-n", "--fights", help="How many fights.")] = 10_000,
    seed: SeedOpt = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Processes (default: all cores).")] = None,
    json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV on stdout.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write histograms to this PNG (needs matplotlib).")
    ] = None,
    keep: Annotated[int, typer.Option("--keep", min=0, max=1000, help="Save the logs of N fights as JSONL.")] = 0,
    keep_which: Annotated[Keep, typer.Option("--keep-which", help="Which fights --keep saves.")] = "worst",
    keep_dir: Annotated[Path, typer.Option("--keep-dir", help="Where --keep writes replays.")] = Path("runs"),
    force: ForceOpt = False,
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")] = None,
    reference: Annotated[
        bool,
        typer.Option(
            "--reference",
            help="Fight every fight on the event-sourced engine, not the fast kernel (slower; the same report).",
        ),
    ] = False,
) -> None:
    """Run a scenario's fights in a batch and report who wins, how often, how fast, at what cost."""
    loaded = load_scenario(scenario)
    batch_seed = _seed(seed)
    count = default_workers() if workers is None else workers
    if plot is not None:
        _require_matplotlib()
        check_target(plot, force=force)
    show = sys.stderr.isatty() if progress is None else progress
    with _progress_bar(n, show) as advance:
        prep, tally, picks = run_batch(
            loaded, n, batch_seed, workers=count, keep=keep, progress=advance, fast=not reference
        )
    report = summary(prep, tally, seed=batch_seed)
    if keep:
        report["kept"] = _save_kept(prep, batch_seed, picks.indices(keep_which), keep_dir, scenario, force)
    if plot is not None:
        _plot(report, plot, force)
    if json:
        emit_json(report)
    elif as_csv:
        sys.stdout.write(to_csv(report))
    else:
        render(report)


class _progress_bar:
    """A rich progress bar on stderr, or nothing (off when stderr is not a terminal)."""

    def __init__(self, total: int, show: bool) -> None:
        self.total = total
        self.show = show
        self.bar: Progress | None = None

    def __enter__(self) -> Any:
        if not self.show:
            return None
        self.bar = Progress(
            TextColumn("fights"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err_console
        )
        self.bar.start()
        task = self.bar.add_task("fights", total=self.total)
        bar = self.bar
        return lambda done: bar.update(task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _save_kept(
    prep: Any, batch_seed: int, indices: list[int], folder: Path, scenario: Path, force: bool
) -> list[dict[str, Any]]:
    """Write the picked fights' logs into `folder`; every target is checked before any is written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot make the folder: {exc.strerror or exc}", where=str(folder)) from None
    paths = {i: check_target(folder / f"{scenario.stem}-seed{batch_seed}-fight{i}.jsonl", force=force) for i in indices}
    kept = []
    for i, path in paths.items():
        run = run_fight(prep, derive_seed(batch_seed, i), keep_log=True)
        write_log(path, stored_log("fight", run.events, seed=run.seed), force=force)
        kept.append({"fight": i, "seed": run.seed, "file": str(path)})
    return kept


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InvalidInput("--plot needs matplotlib", where="--plot", hint="pip install 'ua-engine[plot]'") from None


def _plot(report: dict[str, Any], path: Path, force: bool) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    dist = report["rounds"]["distribution"]
    left.bar([int(r) for r in dist], list(dist.values()), color="#555")
    left.set_title("rounds per fight")
    left.set_xlabel("rounds")
    left.set_ylabel("fights")
    sides = report["sides"]
    names = [*sides, "draw"]
    rates = [sides[s]["rate"] for s in sides] + [report["draws"]["rate"]]
    errors = [
        [
            r - lo
            for r, lo in zip(rates, [sides[s]["ci95_low"] for s in sides] + [report["draws"]["ci95_low"]], strict=True)
        ],
        [
            hi - r
            for r, hi in zip(
                rates, [sides[s]["ci95_high"] for s in sides] + [report["draws"]["ci95_high"]], strict=True
            )
        ],
    ]
    right.bar(names, rates, yerr=errors, capsize=4, color="#933")
    right.set_ylim(0, 1)
    right.set_title("win rate (95% CI)")
    fig.suptitle(f"{report['scenario']} — {report['fights']} fights, seed {report['seed']}")
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png")
    plt.close(fig)
    write_file(path, image.getvalue(), force=force)


def _pct(rate: dict[str, float]) -> str:
    return f"{rate['rate']:.1%} [{rate['ci95_low']:.1%}–{rate['ci95_high']:.1%}]"


def render(report: dict[str, Any]) -> None:
    console.print(f"[bold]{_safe(report['scenario'])}[/bold] — {report['fights']:,} fights, seed {report['seed']}")
    sides = Table(title="who wins (95% confidence interval)")
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("rate", justify="right")
    for name, s in report["sides"].items():
        sides.add_row(_safe(name), f"{s['wins']:,}", _pct(s))
    sides.add_row("draw", f"{report['draws']['count']:,}", _pct(report["draws"]))
    console.print(sides)
    r = report["rounds"]
    console.print(f"rounds: mean {r['mean']:.2f}, median {r['median']:g}, range {r['min']}–{r['max']}")
    total = report["fights"] or 1
    for rounds, count in list(r["distribution"].items())[:15]:
        console.print(f"  {rounds:>3} {'█' * max(1, round(40 * count / total)) if count else ''} {count:,}")
    people = Table(title="combatants (down = incapacitated; dealt, taken: mean wounds; +hard, +fail: notches)")
    for column in ("who", "side", "lives", "dies", "down", "fled", "dealt", "taken", "+hard", "+fail"):
        people.add_column(column, justify="right" if column not in ("who", "side") else "left")
    for name, c in report["combatants"].items():
        people.add_row(
            _safe(name),
            _safe(c["side"]),
            f"{c['survival']['rate']:.1%}",
            f"{c['dead']['rate']:.1%}",
            f"{c['incapacitated']['rate']:.1%}",
            f"{c['fled']['rate']:.1%}",
            f"{c['wounds_dealt_mean']:.1f}",
            f"{c['wounds_taken_mean']:.1f}",
            f"{c['hardened_notches_mean']:.2f}",
            f"{c['failed_notches_mean']:.2f}",
        )
    console.print(people)
    ending = report["most_common_ending"]
    if ending:
        console.print(f"most common ending ({ending['rate']:.1%}): {_safe(ending['ending'])}")
    for kept in report.get("kept", []):
        console.print(f"kept fight {kept['fight']} (seed {kept['seed']}): {_safe(kept['file'])}")


def _safe(text: str) -> str:
    """Text from a scenario, fit for rich markup: control characters escaped, brackets too."""
    return escape(shown(text))


def to_csv(report: dict[str, Any]) -> str:
    """One row per figure: section, name, metric, value, 95% interval."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["section", "name", "metric", "value", "ci95_low", "ci95_high"])
    for name, s in report["sides"].items():
        w.writerow(["side", name, "win_rate", s["rate"], s["ci95_low"], s["ci95_high"]])
    d = report["draws"]
    w.writerow(["side", "draw", "rate", d["rate"], d["ci95_low"], d["ci95_high"]])
    for metric in ("mean", "median", "min", "max"):
        w.writerow(["rounds", "", metric, report["rounds"][metric], "", ""])
    for rounds, count in report["rounds"]["distribution"].items():
        w.writerow(["rounds", rounds, "fights", count, "", ""])
    for name, c in report["combatants"].items():
        for metric, value in c.items():
            if isinstance(value, dict):
                w.writerow(["combatant", name, metric, value["rate"], value["ci95_low"], value["ci95_high"]])
            elif metric != "side":
                w.writerow(["combatant", name, metric, value, "", ""])
    return out.getvalue()


def fight(
    scenario: ScenarioArg,
    seed: SeedOpt = None,
    index: Annotated[int, typer.Option("--index", "-i", min=0, help="Which fight of the batch with --seed.")] = 0,
    save: Annotated[Path | None, typer.Option("--save", help="Write the fight's log to this JSONL file.")] = None,
    force: ForceOpt = False,
    max_events: Annotated[
        int,
        typer.Option(
            "--max-events", min=1, help="Refuse a fight of more events than this (what one fight builds and prints)."
        ),
    ] = MAX_NARRATED,
    json: JsonOption = False,
) -> None:
    """Run and narrate one fight: fight --index of `ua simulate --seed` (the same dice). The fight is
    first fought without keeping its log, to count its events: one of more than --max-events is
    refused before anything is built or printed."""
    if save is not None:
        check_target(save, force=force)
    loaded = load_scenario(scenario)
    batch_seed = _seed(seed)
    prep, fight_seed = prepare(loaded), derive_seed(batch_seed, index)
    counted = run_fight(prep, fight_seed).event_count
    if counted > max_events:
        raise InvalidInput(
            f"fight {index} of seed {batch_seed} has {counted:,} events, more than --max-events {max_events:,}",
            where=str(scenario),
            hint="raise --max-events, or `ua simulate` for what many fights come to",
        )
    run = run_fight(prep, fight_seed, keep_log=True)
    if save is not None:
        write_log(save, stored_log("fight", run.events, seed=run.seed), force=force)
    result = run.state.fight.result
    if json:
        from engine.cli.views import events_json

        fields = {
            "scenario": loaded.scenario.title,
            "seed": batch_seed,
            "index": index,
            "fight_seed": run.seed,
            "winner": result.winner if result else None,
            "rounds": run.state.fight.round,
        }
        emit_json_streaming(fields, "events", events_json(run.events, 1))
        return
    from engine.events.commands import CommandRecorded

    title = _safe(loaded.scenario.title)
    console.print(f"[bold]{title}[/bold] — fight {index} of seed {batch_seed} (dice seed {run.seed})")
    for e in run.events:
        if not isinstance(e, CommandRecorded):
            console.print(shown(e.explain()), markup=False)
    if save is not None:
        console.print(f"log written to {_safe(str(save))}")


@scenario_app.command("check")
def scenario_check(scenario: ScenarioArg, json: JsonOption = False) -> None:
    """Load a scenario and every sheet it names; report what it sets up."""
    loaded = load_scenario(scenario)
    info = {
        "title": loaded.scenario.title,
        "sides": list(loaded.sides),
        "combatants": [
            {"id": f.id, "side": f.side, "name": f.sheet.name, "in_hand": f.in_hand, "rules": len(f.rules)}
            for f in loaded.fighters
        ],
        "valid": True,
    }
    if json:
        emit_json(info)
        return
    console.print(shown(f"{scenario}: valid — {loaded.scenario.title}"), markup=False)
    for f in loaded.fighters:
        line = f"  {f.id} ({f.sheet.name}), side {f.side}, {f.in_hand} in hand, {len(f.rules)} tactic rules"
        console.print(shown(line), markup=False)


@scenario_app.command("schema")
def scenario_schema() -> None:
    """Print the JSON Schema of scenario files."""
    emit_json(msgspec.json.schema(Scenario))
