"""`ua bench --precision P`: what stopping at a precision saves. For each scenario, a batch with
`--precision P` (its fights, the half-widths it reached) against the fixed batch of `-n` fights in
the same process: whether the fixed batch's estimate of each figure lies inside the precise
batch's 95% interval, and the time saved."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from engine.cli.common import console
from engine.cli.report import show


def _figures(prep: Any, tally: Any, precision: Any) -> dict[str, dict[str, float]]:
    from engine.simulate.batch import batch_intervals
    from engine.simulate.stats import players_counts

    counts = players_counts(prep, tally)
    intervals = batch_intervals(prep, tally, precision)
    return {
        f: {"rate": counts[f] / tally.fights, "ci95_low": low, "ci95_high": high}
        for f, (low, high) in intervals.items()
    }


def compare_one(path: Path, precision: Any, n: int, seed: int, workers: int) -> dict[str, Any]:
    """One scenario: the precise batch, then the fixed batch of `n`, both timed on `workers`."""
    from engine.scenario.scenario import load_scenario
    from engine.simulate.batch import batch_precision, run_batch
    from engine.simulate.executors import local_executor

    loaded = load_scenario(path)
    started = time.perf_counter()
    prep, precise, _ = run_batch(loaded, n, seed, executor=local_executor(workers), precision=precision)
    precise_s = time.perf_counter() - started
    started = time.perf_counter()
    _, fixed, _ = run_batch(loaded, n, seed, executor=local_executor(workers))
    fixed_s = time.perf_counter() - started
    estimate, reference = _figures(prep, precise, precision), _figures(prep, fixed, precision)
    return {
        "scenario": loaded.scenario.title,
        "file": str(path),
        "fights": precise.fights,
        "precision": batch_precision(prep, precise, precision, n),
        "estimate": estimate,
        "fixed": reference,
        "within": all(e["ci95_low"] <= reference[f]["rate"] <= e["ci95_high"] for f, e in estimate.items()),
        "precise_seconds": round(precise_s, 3),
        "fixed_seconds": round(fixed_s, 3),
        "saved": round(1 - precise_s / fixed_s, 3) if fixed_s else 0.0,
    }


def precision_benchmark(paths: list[Path], target: float, n: int, seed: int, workers: int) -> dict[str, Any]:
    from engine.simulate.precision import Precision

    precision = Precision(target=target)
    rows = [compare_one(path, precision, n, seed, workers) for path in paths]
    return {"precision": target, "fights": n, "seed": seed, "workers": workers, "scenarios": rows}


def render(report: dict[str, Any]) -> None:
    from engine.simulate.precision import points

    console.print(
        f"[bold]ua bench --precision {report['precision']:g}[/bold] — against -n {report['fights']:,}, "
        f"seed {report['seed']}, {report['workers']} worker{'s' if report['workers'] > 1 else ''}"
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    heads = (
        "fights",
        "win ±",
        "dies ±",
        "win: precise / fixed",
        "dies: precise / fixed",
        "in interval",
        "s",
        "fixed s",
    )
    table.add_column("scenario", no_wrap=True)
    for head in (*heads, "saved"):
        table.add_column(head, justify="right")
    for row in report["scenarios"]:
        widths = {f["figure"]: f["half_width"] for f in row["precision"]["figures"]}
        est, fixed = row["estimate"], row["fixed"]
        table.add_row(
            Path(row["file"]).stem,
            f"{row['fights']:,}" + ("" if row["precision"]["reached"] else " (not reached)"),
            points(widths["win"]),
            points(widths["dies"]),
            f"{est['win']['rate']:.1%} / {fixed['win']['rate']:.1%}",
            f"{est['dies']['rate']:.1%} / {fixed['dies']['rate']:.1%}",
            "yes" if row["within"] else "no",
            f"{row['precise_seconds']:.2f}",
            f"{row['fixed_seconds']:.2f}",
            f"{row['saved']:.0%}",
        )
    show(table)
