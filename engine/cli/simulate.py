"""`ua simulate`, `ua fight`, `ua scenario`: batch simulation, one narrated fight, scenario files."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from engine.cli.common import JsonOption, console, emit_json, err_console
from engine.cli.plots import plot_report, require_matplotlib
from engine.cli.report import render, to_csv
from engine.dice.source import derive_seed
from engine.session.live import stored_log
from engine.simulate.batch import Keep, default_workers, run_batch
from engine.simulate.fight import prepare, run_fight
from engine.simulate.overrides import load_with_overrides
from engine.simulate.stats import summary
from engine.store.jsonl import write_log

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario file (TOML, YAML or JSON).", show_default=False)]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Batch seed; fight i uses derive(seed, i).")]

SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PATH=VALUE",
        help="Change a scenario field for this run (repeatable): settings.max_rounds=20, "
        "combatants.Rosa.tactics=cautious, combatants.Rosa.stats.body=60.",
    ),
]


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
        Path | None, typer.Option("--plot", help="Draw the report as a PNG panel (needs matplotlib).")
    ] = None,
    keep: Annotated[int, typer.Option("--keep", min=0, max=1000, help="Save the logs of N fights as JSONL.")] = 0,
    keep_which: Annotated[
        Keep, typer.Option("--keep-which", help="Which fights --keep saves, judged for the players' side.")
    ] = "worst",
    keep_dir: Annotated[Path, typer.Option("--keep-dir", help="Where --keep writes replays.")] = Path("runs"),
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")] = None,
    reference: Annotated[
        bool,
        typer.Option(
            "--reference",
            help="Fight every fight on the event-sourced engine, not the fast kernel (slower; the same report).",
        ),
    ] = False,
    sets: SetOpt = None,
) -> None:
    """Run a scenario's fights in a batch and report who wins, how often, how fast, at what cost.

    --keep-which worst|best ranks fights for the players' side (the scenario's `players`, else the
    first side): lost before drawn before won, then more of the side dead, then more wounds taken."""
    loaded = load_with_overrides(scenario, sets or [])
    batch_seed = _seed(seed)
    count = default_workers() if workers is None else workers
    if plot is not None:
        require_matplotlib()
    show = sys.stderr.isatty() if progress is None else progress
    with _progress_bar(n, show) as advance:
        prep, tally, picks = run_batch(
            loaded, n, batch_seed, workers=count, keep=keep, progress=advance, fast=not reference
        )
    report = summary(prep, tally, seed=batch_seed, requested=n)
    if keep:
        report["kept"] = _save_kept(prep, batch_seed, picks.indices(keep_which), keep_dir, scenario)
    if plot is not None:
        plot_report(report, plot)
        report["plot"] = str(plot)
    if json:
        emit_json(report)
    elif as_csv:
        sys.stdout.write(to_csv(report))
    else:
        render(report)
    if plot is not None:
        (err_console if json or as_csv else console).print(f"plot written to {plot}", markup=False)


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


def _save_kept(prep: Any, batch_seed: int, indices: list[int], folder: Path, scenario: Path) -> list[dict[str, Any]]:
    folder.mkdir(parents=True, exist_ok=True)
    kept = []
    for i in indices:
        run = run_fight(prep, derive_seed(batch_seed, i), keep_log=True)
        path = folder / f"{scenario.stem}-seed{batch_seed}-fight{i}.jsonl"
        write_log(path, stored_log("fight", run.events))
        kept.append({"fight": i, "seed": run.seed, "file": str(path)})
    return kept


def fight(
    scenario: ScenarioArg,
    seed: SeedOpt = None,
    index: Annotated[int, typer.Option("--index", "-i", min=0, help="Which fight of the batch with --seed.")] = 0,
    save: Annotated[Path | None, typer.Option("--save", help="Write the fight's log to this JSONL file.")] = None,
    json: JsonOption = False,
    sets: SetOpt = None,
) -> None:
    """Run and narrate one fight: fight --index of `ua simulate --seed` (the same dice)."""
    loaded = load_with_overrides(scenario, sets or [])
    batch_seed = _seed(seed)
    run = run_fight(prepare(loaded), derive_seed(batch_seed, index), keep_log=True)
    if save is not None:
        write_log(save, stored_log("fight", run.events))
    result = run.state.fight.result
    if json:
        emit_json(
            {
                "scenario": loaded.scenario.title,
                "seed": batch_seed,
                "index": index,
                "fight_seed": run.seed,
                "winner": result.winner if result else None,
                "rounds": run.state.fight.round,
                "events": [
                    {
                        "position": i,
                        "type": type(e).__struct_config__.tag,
                        "explanation": e.explain(),
                        "event": msgspec.to_builtins(e),
                    }
                    for i, e in enumerate(run.events, start=1)
                ],
            }
        )
        return
    from engine.events.commands import CommandRecorded

    console.print(f"[bold]{loaded.scenario.title}[/bold] — fight {index} of seed {batch_seed} (dice seed {run.seed})")
    for e in run.events:
        if not isinstance(e, CommandRecorded):
            console.print(e.explain(), markup=False)
    if save is not None:
        console.print(f"log written to {save}")
