"""`ua bench`: how fast batches run here — fights/s and events/s on one worker and on all of
them, the scaling between the two, and the peak memory (RSS) of the run; with `--backend dask`,
the local pool against a Dask cluster (`bench_dask.py`)."""

import os
import platform
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from engine.cli.backend import BackendOpt, ChunkSizeOpt, SchedulerOpt
from engine.cli.common import JsonOption, console, emit_json
from engine.cli.workers import OversubscribeOpt, note_clamp
from engine.errors import InvalidInput, NotFound

#: The scenarios shipped with the engine, when run from a checkout.
SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"

ScenariosArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Scenario files (default: every scenario in ./scenarios and ./scenarios/ua3, else the shipped ones).",
        show_default=False,
    ),
]


def shipped_scenarios() -> list[Path]:
    """`./scenarios/*.toml` (and the third edition's, `ua3/*.toml`) when there is such a folder
    here, else the checkout's own."""
    for folder in (Path("scenarios"), SHIPPED):
        found = [*sorted(folder.glob("*.toml")), *sorted(folder.glob("ua3/*.toml"))] if folder.is_dir() else []
        if found:
            return found
    raise NotFound("no scenarios to run", where="ua bench", hint="name scenario files: ua bench FILE…")


def build_name() -> str:
    """Which build of the rules runs here: compiled (mypyc) or the Python sources."""
    from engine.dice.splitmix import COMPILED

    return "compiled" if COMPILED else "pure Python"


def peak_rss_mib() -> dict[str, float]:
    """Peak resident memory so far: this process, and the largest finished worker process."""
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    main = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale
    return {"main": round(main / 2**20, 1), "workers": round(workers / 2**20, 1)}


def _timed(
    loaded: Any, n: int, seed: int, workers: int, fast: bool, oversubscribe: bool = False
) -> tuple[dict[str, Any], Any]:
    from engine.simulate.batch import run_batch
    from engine.simulate.executors import local_executor

    started = time.perf_counter()
    executor = local_executor(workers, oversubscribe=oversubscribe)
    _, tally, _ = run_batch(loaded, n, seed, workers=workers, fast=fast, executor=executor)
    seconds = max(time.perf_counter() - started, 1e-9)
    return {
        "workers": workers,
        "seconds": round(seconds, 4),
        "fights_per_s": round(n / seconds, 1),
        "events_per_s": round(tally.events / seconds, 1),
    }, tally


def measure(
    path: Path, n: int, seed: int, workers: int, fast: bool = True, oversubscribe: bool = False
) -> dict[str, Any]:
    """One scenario: the same batch on one worker, then on `workers` (clamped to the usable CPUs
    unless `oversubscribe`). Events are those a log of these fights holds (a batch applies and
    counts them without building them)."""
    from engine.scenario.scenario import load_scenario

    loaded = load_scenario(path)
    one, tally_one = _timed(loaded, n, seed, 1, fast)
    many, tally_many = _timed(loaded, n, seed, workers, fast, oversubscribe)
    return {
        "scenario": loaded.scenario.title,
        "file": str(path),
        "fights": n,
        "events": tally_one.events,
        "events_per_fight": round(tally_one.events / n, 2),
        "one_worker": one,
        "all_workers": many,
        "scaling": round(many["fights_per_s"] / one["fights_per_s"], 3),
        "identical": tally_one == tally_many,  # law 3: the worker count changes nothing
        "peak_rss_mib": peak_rss_mib(),
    }


def bench(
    scenarios: ScenariosArg = None,
    n: Annotated[
        int | None,
        typer.Option(
            "-n", "--fights", help="Fights per scenario and worker count (default 20,000; with --precision 100,000)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Batch seed (the same batch is timed both ways).")] = 1,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="The 'all workers' count (default: every core).")
    ] = None,
    log: Annotated[
        int, typer.Option("--log", min=0, max=5_000_000, help="Instead: time appends and folds on a log of N events.")
    ] = 0,
    startup: Annotated[
        int,
        typer.Option(
            "--startup",
            metavar="RUNS",
            min=0,
            max=1000,
            help="Instead: time session commands, process start to exit, RUNS times each (medians).",
        ),
    ] = 0,
    reference: Annotated[
        bool, typer.Option("--reference", help="Build every event, as a log of each fight would hold it.")
    ] = False,
    json: JsonOption = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, max=99, help="With --backend dask: rounds timed alternately.")
    ] = 3,
    client_memory: Annotated[
        int,
        typer.Option(
            "--client-memory",
            metavar="TASKS",
            min=0,
            max=10_000_000,
            help="With --backend dask: also submit 10⁸ fights and watch this process's memory over TASKS tasks.",
        ),
    ] = 0,
    chunk_size: ChunkSizeOpt = None,
    oversubscribe: OversubscribeOpt = False,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision",
            metavar="HALF-WIDTH",
            help="Instead: each scenario with --precision against the fixed -n, in the same process.",
        ),
    ] = None,
) -> None:
    """Time batches on one worker and on all workers: fights/s, events/s, scaling, peak RSS.
    With --log N: command append latency on SQLite, fold throughput, opening an N-event session,
    and decoding a combat log of N events (the first scenario's kept fights) with and without
    folding it. With --startup RUNS: how long session commands take, process start to exit.
    With --backend dask: the local pool against the cluster (fights/s, the cost of a task), and
    with --client-memory TASKS the client's memory over a batch of 10⁸ fights. With --precision P:
    the fights a batch with --precision P takes, the half-widths it reached, its estimates against
    the fixed batch of -n fights, and the time saved."""
    n = (20_000 if precision is None else 100_000) if n is None else n
    if log or startup:
        if startup:
            from engine.cli.startupbench import startup_benchmark

            figures: dict[str, Any] = startup_benchmark(startup, SHIPPED / "knife-vs-22.toml")
        else:
            from engine.session.logbench import log_benchmark, replay_benchmark

            combat = scenarios[0] if scenarios else SHIPPED / "knife-vs-22.toml"
            figures = log_benchmark(log) | replay_benchmark(log, combat)
        if json:
            emit_json(figures)
        else:
            for key, value in figures.items():
                shown = f"{value:,}" if isinstance(value, int) else value
                console.print(f"{key.replace('_', ' ')}: {shown}")
        return
    from engine.simulate.batch import check_size, default_workers
    from engine.simulate.pool import clamp_workers
    from engine.simulate.spans import check_chunk_size

    check_size(n, default_workers() if workers is None else workers)
    note_clamp(workers, oversubscribe=oversubscribe, scheduler=scheduler if backend == "dask" else None)
    count = default_workers() if workers is None else clamp_workers(workers, oversubscribe=oversubscribe)
    check_chunk_size(chunk_size)
    paths = list(scenarios) if scenarios else shipped_scenarios()
    if not paths:
        raise InvalidInput("no scenarios given", where="ua bench")
    if backend == "dask":
        from engine.cli.bench_dask import bench_dask

        bench_dask(
            paths,
            n=n,
            seed=seed,
            workers=workers,
            scheduler=scheduler,
            oversubscribe=oversubscribe,
            rounds=rounds,
            memory_tasks=client_memory,
            chunk_size=chunk_size,
            json=json,
        )
        return
    if precision is not None:
        from engine.cli import precisionbench
        from engine.simulate.precision import BATCH_FIGURES, precision_of

        precision_of(precision, None, BATCH_FIGURES)  # checked: one line
        figures = precisionbench.precision_benchmark(paths, precision, n, seed, count)
        if json:
            emit_json(figures)
        else:
            precisionbench.render(figures)
        return
    if scheduler is not None or client_memory:
        option = "--scheduler" if scheduler is not None else "--client-memory"
        raise InvalidInput(f"{option} is for a Dask cluster", where=option, hint="add --backend dask")
    rows = [measure(path, n, seed, count, fast=not reference, oversubscribe=oversubscribe) for path in paths]
    report = {
        "engine": "recording every event" if reference else "counting",
        "build": build_name(),
        "fights": n,
        "seed": seed,
        "workers": count,
        "cpus": os.cpu_count() or 1,
        "python": platform.python_version(),
        "scenarios": rows,
        "peak_rss_mib": peak_rss_mib(),
    }
    if json:
        emit_json(report)
    else:
        render(report)


def speed_table(
    rows: list[dict[str, Any]],
    heads: Sequence[str],
    cells: Callable[[dict[str, Any]], Sequence[str]],
    *,
    ways: tuple[str, str],
) -> None:
    """One row per scenario (its name, then `cells(row)` under `heads`), then whether the two
    ways timed gave the same results (law 3): `ways` names them after "between" and after "on"."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("scenario", no_wrap=True, min_width=22)
    for head in heads:
        table.add_column(head, justify="right")
    for row in rows:
        table.add_row(Path(row["file"]).stem, *cells(row))
    console.print(table)
    different = [Path(r["file"]).stem for r in rows if not r["identical"]]
    if different:
        console.print(f"[red]results differ between {ways[0]}: {', '.join(different)}[/red]")
    else:
        console.print(f"results identical on {ways[1]} (law 3)")


def render(report: dict[str, Any]) -> None:
    w = report["workers"]
    console.print(
        f"[bold]ua bench[/bold] — {report['fights']:,} fights per scenario, seed {report['seed']}, "
        f"1 worker vs {w} ({report['cpus']} CPUs, Python {report['python']}, {report['build']}); "
        f"engine: {report['engine']}"
    )
    speed_table(
        report["scenarios"],
        ("fights/s\n1 worker", f"fights/s\n{w} workers", "events/s\n1 worker", "scaling"),
        lambda row: (
            f"{row['one_worker']['fights_per_s']:,.0f}",
            f"{row['all_workers']['fights_per_s']:,.0f}",
            f"{row['one_worker']['events_per_s']:,.0f}",
            f"{row['scaling']:.2f}×",
        ),
        ways=(f"1 and {w} workers", f"1 and {w} workers"),
    )
    rss = report["peak_rss_mib"]
    console.print(f"peak RSS: {rss['main']:.1f} MiB (this process), {rss['workers']:.1f} MiB (largest worker)")
