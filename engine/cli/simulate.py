"""`ua simulate` and `ua fight`: a batch of fights and its report, one narrated fight; the options
they share with `ua compare` and `ua scenario check`."""

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from engine.cli.backend import BackendOpt, ChunkSizeOpt, SchedulerOpt
from engine.cli.common import INTERRUPTED, JsonOption, console, emit_json, emit_json_streaming, err_console, fail
from engine.cli.output import safe
from engine.cli.precision import PrecisionOfOpt, PrecisionOpt
from engine.cli.workers import OversubscribeOpt, note_clamp
from engine.errors import InvalidInput, OutputError
from engine.safefile import check_target
from engine.simulate.picks import Keep
from engine.text import shown

ScenarioArg = Annotated[Path, typer.Argument(help="A scenario file (TOML, YAML or JSON).", show_default=False)]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace existing files (never a database, a folder or a device).")
]
#: `ua fight` refuses a fight of more events than this unless told otherwise (--max-events).
MAX_NARRATED = 100_000
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


def seed_or_random(seed: int | None) -> int:
    return seed if seed is not None else int.from_bytes(os.urandom(4), "little")


FightsOpt = Annotated[
    int | None,
    typer.Option(
        "-n", "--fights", help="How many fights (default 10,000); with --precision, the most (default 1,000,000)."
    ),
]
#: -n without --precision.
DEFAULT_FIGHTS = 10_000
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", "-w", help="Processes, here or in a local Dask cluster (default: all cores)."),
]
CsvOpt = Annotated[bool, typer.Option("--csv", help="CSV on stdout.")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Draw the report as a PNG (needs matplotlib).")]
ProgressOpt = Annotated[
    bool | None, typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: when a terminal).")
]
ReferenceOpt = Annotated[
    bool,
    typer.Option(
        "--reference",
        help="Build every event of every fight, as its log would hold it (slower; the same report).",
    ),
]


def simulate(
    scenario: ScenarioArg,
    n: FightsOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    precision: PrecisionOpt = None,
    precision_figures: PrecisionOfOpt = None,
    json: JsonOption = False,
    as_csv: CsvOpt = False,
    plot: PlotOpt = None,
    keep: Annotated[int, typer.Option("--keep", min=0, max=1000, help="Save the logs of N fights as JSONL.")] = 0,
    keep_which: Annotated[
        Keep, typer.Option("--keep-which", help="Which fights --keep saves, judged for the players' side.")
    ] = "worst",
    keep_dir: Annotated[Path, typer.Option("--keep-dir", help="Where --keep writes replays.")] = Path("runs"),
    progress: ProgressOpt = None,
    reference: ReferenceOpt = False,
    sets: SetOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    chunk_size: ChunkSizeOpt = None,
    force: ForceOpt = False,
    oversubscribe: OversubscribeOpt = False,
) -> None:
    """Run a scenario's fights in a batch and report who wins, how often, how fast, at what cost.

    The report opens with a sentence about the players' side (the scenario's `players`, else the
    first side). --keep-which worst|best ranks fights for that side: lost before drawn before won,
    then more of the side dead, then more wounds taken. Ctrl-C stops a batch and prints the report
    of the fights finished so far, marked partial (exit code 130). --backend dask runs them on a
    Dask cluster, with the same report byte for byte. --precision 0.01 fights until the players'
    win and death rates are known to ±1 point and says how many fights that took."""
    from engine.cli.plots import plot_report, require_matplotlib
    from engine.cli.progress import progress_bar, say_estimate
    from engine.cli.report import render, to_csv
    from engine.simulate.batch import batch_precision, check_size, default_workers, run_batch
    from engine.simulate.executors import open_executor
    from engine.simulate.overrides import load_with_overrides
    from engine.simulate.precision import BATCH_FIGURES, most_fights, precision_of
    from engine.simulate.spans import check_chunk_size
    from engine.simulate.stats import summary

    precise = precision_of(precision, precision_figures, BATCH_FIGURES)
    n = most_fights(n, precise, DEFAULT_FIGHTS)
    loaded = load_with_overrides(scenario, sets or [])
    batch_seed = seed_or_random(seed)
    check_size(n, default_workers() if workers is None else workers)
    check_chunk_size(chunk_size)
    if plot is not None:
        require_matplotlib()
        check_target(plot, force=force)
    show = sys.stderr.isatty() if progress is None else progress
    note_clamp(workers, oversubscribe=oversubscribe, scheduler=scheduler)
    with (
        open_executor(backend, workers=workers, scheduler=scheduler, oversubscribe=oversubscribe) as executor,
        progress_bar(n, show) as advance,
    ):
        prep, tally, picks = run_batch(
            loaded,
            n,
            batch_seed,
            keep=keep,
            progress=advance,
            fast=not reference,
            interruptible=True,
            executor=executor,
            chunk_size=chunk_size,
            sampled=None if precise else lambda per_fight: say_estimate(n, executor.slots, per_fight),
            precision=precise,
        )
    stopped_early(tally.fights, n)
    stop = None if precise is None else batch_precision(prep, tally, precise, n)
    report = summary(prep, tally, seed=batch_seed, requested=n, precision=stop)
    if keep:
        report["kept"] = _save_kept(prep, batch_seed, picks.indices(keep_which), keep_dir, scenario, force)
    emit_report(report, json=json, as_csv=as_csv, plot=plot, draw=plot_report, force=force, text=render, table=to_csv)


def stopped_early(done: int, requested: int) -> None:
    """After Ctrl-C: nothing finished is an error (exit 130); else the partial report follows."""
    if done == 0 and requested > 0:
        fail("stopped before any fight finished", code=INTERRUPTED, hint="let it run a little longer")


def emit_report(
    report: dict[str, Any],
    *,
    json: bool,
    as_csv: bool,
    text: Callable[[dict[str, Any]], None],
    table: Callable[[dict[str, Any]], str],
    plot: Path | None = None,
    draw: Callable[..., None] | None = None,
    force: bool = False,
) -> None:
    """The report as JSON, CSV or rich text, the plot if asked (`draw(report, plot, force=)`);
    exit 130 if it is partial."""
    if plot is not None and draw is not None:
        draw(report, plot, force=force)
        report["plot"] = str(plot)
    if json:
        emit_json(report)
    elif as_csv:
        sys.stdout.write(table(report))
    else:
        text(report)
    if plot is not None:
        (err_console if json or as_csv else console).print(f"plot written to {plot}", markup=False)
    if report["partial"]:
        err_console.print(
            f"stopped: the report is of the {report['fights']:,} fights finished of {report['requested']:,}",
            markup=False,
        )
        raise typer.Exit(INTERRUPTED)


def _save_kept(
    prep: Any, batch_seed: int, indices: list[int], folder: Path, scenario: Path, force: bool
) -> list[dict[str, Any]]:
    """Write the picked fights' logs into `folder`; every target is checked before any is written."""
    from engine.dice.source import derive_seed
    from engine.session.encoding import stored_log
    from engine.simulate.fight import run_fight
    from engine.store.jsonl import write_log

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
    sets: SetOpt = None,
) -> None:
    """Run and narrate one fight: fight --index of `ua simulate --seed` (the same dice). The fight is
    first fought without keeping its log, to count its events: one of more than --max-events is
    refused before anything is built or printed."""
    from engine.dice.source import derive_seed
    from engine.session.encoding import stored_log
    from engine.simulate.fight import prepare, run_fight
    from engine.simulate.overrides import load_with_overrides
    from engine.store.jsonl import write_log

    if save is not None:
        check_target(save, force=force)
    loaded = load_with_overrides(scenario, sets or [])
    batch_seed = seed_or_random(seed)
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

    title = safe(loaded.scenario.title)
    console.print(f"[bold]{title}[/bold] — fight {index} of seed {batch_seed} (dice seed {run.seed})")
    for e in run.events:
        if not isinstance(e, CommandRecorded):
            console.print(shown(e.explain()), markup=False)
    if save is not None:
        console.print(f"log written to {safe(str(save))}")
