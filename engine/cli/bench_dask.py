"""`ua bench --backend dask`: the same batches on this machine's process pool and on a Dask
cluster, timed alternately for a few rounds (this machine may be shared: medians are reported,
every round is in `--json`); the cost of one task on each; and, with `--client-memory TASKS`,
the client's memory while it submits a batch of 10⁸ fights, stopped after that many tasks."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from engine.cli.bench import speed_table
from engine.cli.common import console, emit_json
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import default_workers, run_batch
from engine.simulate.costs import client_memory, rss_mib, seconds_per_task
from engine.simulate.executors import Executor, open_executor
from engine.simulate.pool import LocalPool

#: Empty tasks timed for the cost of a task.
EMPTY_TASKS = 300
#: The batch the client's memory is watched on, and its default task size (fights).
SOAK_FIGHTS = 100_000_000
SOAK_CHUNK = 200


def _timed(loaded: Any, n: int, seed: int, executor: Executor) -> tuple[float, Any]:
    started = time.perf_counter()
    _, tally, _ = run_batch(loaded, n, seed, executor=executor)
    return round(n / max(time.perf_counter() - started, 1e-9), 1), tally


def _alternately(rounds: int, runs: dict[str, Any]) -> dict[str, list[Any]]:
    """Each of `runs` once a round, the order swapped every round (drift on a shared machine
    falls on both alike)."""
    out: dict[str, list[Any]] = {name: [] for name in runs}
    names = list(runs)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            out[name].append(runs[name]())
    return out


def _scenario(path: Path, n: int, seed: int, rounds: int, pool: LocalPool, dask: Executor) -> dict[str, Any]:
    loaded = load_scenario(path)
    runs = _alternately(
        rounds, {"local_pool": lambda: _timed(loaded, n, seed, pool), "dask": lambda: _timed(loaded, n, seed, dask)}
    )
    speeds = {name: [speed for speed, _ in done] for name, done in runs.items()}
    medians = {name: statistics.median(values) for name, values in speeds.items()}
    tallies = [tally for done in runs.values() for _, tally in done]
    return {
        "scenario": loaded.scenario.title,
        "file": str(path),
        "local_pool": {"fights_per_s": medians["local_pool"], "rounds": speeds["local_pool"]},
        "dask": {"fights_per_s": medians["dask"], "rounds": speeds["dask"]},
        "ratio": round(medians["dask"] / medians["local_pool"], 3),
        "identical": all(t == tallies[0] for t in tallies),  # law 3: the executor changes nothing
    }


def bench_dask(
    paths: list[Path],
    *,
    n: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    oversubscribe: bool,
    rounds: int,
    memory_tasks: int,
    chunk_size: int | None,
    json: bool,
) -> None:
    started = time.perf_counter()
    with open_executor("dask", workers=workers, scheduler=scheduler, oversubscribe=oversubscribe) as dask:
        ready = round(time.perf_counter() - started, 2)
        pool = LocalPool(min(dask.slots, default_workers()))
        costs = _alternately(
            rounds,
            {
                "local_pool": lambda: seconds_per_task(pool, EMPTY_TASKS),
                "dask": lambda: seconds_per_task(dask, EMPTY_TASKS),
            },
        )
        report: dict[str, Any] = {
            "backend": "dask",
            "cluster": getattr(dask, "where", dask.name),
            "cluster_ready_s": ready,
            "dask_workers": dask.slots,
            "local_pool_workers": pool.slots,
            "fights": n,
            "seed": seed,
            "rounds": rounds,
            "task_seconds": {"local_pool": pool.task_seconds, "dask": dask.task_seconds},
            "task_overhead": {
                "empty_tasks": EMPTY_TASKS,
                **{f"{name}_s": round(statistics.median(values), 6) for name, values in costs.items()},
            },
            "scenarios": [_scenario(path, n, seed, rounds, pool, dask) for path in paths] if n else [],
        }
        if memory_tasks:
            report["client_memory"] = client_memory(
                load_scenario(paths[0]),
                dask,
                fights=SOAK_FIGHTS,
                chunk_size=chunk_size or SOAK_CHUNK,
                tasks=memory_tasks,
            )
    report["client_rss_mib"] = rss_mib()
    if json:
        emit_json(report)
    else:
        render(report)


def render(report: dict[str, Any]) -> None:
    console.print(
        f"ua bench --backend dask — {report['fights']:,} fights per scenario, seed {report['seed']}, "
        f"{report['rounds']} rounds alternately (medians): {report['cluster']} ({report['dask_workers']} workers, "
        f"ready in {report['cluster_ready_s']:.1f} s) against the local pool ({report['local_pool_workers']} workers)",
        markup=False,
    )
    if report["scenarios"]:
        speed_table(
            report["scenarios"],
            ("fights/s\nlocal pool", "fights/s\nDask", "Dask ÷\nlocal"),
            lambda row: (
                f"{row['local_pool']['fights_per_s']:,.0f}",
                f"{row['dask']['fights_per_s']:,.0f}",
                f"{row['ratio']:.2f}×",
            ),
            ways=("the local pool and Dask", "the local pool and on Dask"),
        )
    cost, task = report["task_overhead"], report["task_seconds"]["dask"]
    console.print(
        f"one task ({cost['empty_tasks']} that fight nothing): {1000 * cost['dask_s']:.1f} ms on Dask, "
        f"{1000 * cost['local_pool_s']:.2f} ms on the local pool; beside a task of {task:.0f} s on Dask "
        f"that is {100 * cost['dask_s'] / task:.2f}%",
        markup=False,
    )
    memory = report.get("client_memory")
    if memory:
        rss = ", ".join(f"{s['tasks']:,}: {s['rss_mib']:.1f}" for s in memory["samples"])
        console.print(
            f"client memory while submitting {memory['fights_submitted']:,} fights in tasks of "
            f"{memory['chunk_size']:,}, stopped after {memory['tasks_run']:,} tasks ({memory['seconds']:.0f} s): "
            f"MiB after each so many tasks — {rss}; growth after the first sample {memory['growth_mib']:+.1f} MiB",
            markup=False,
        )
    console.print(f"client RSS at the end: {report['client_rss_mib']:.1f} MiB", markup=False)
