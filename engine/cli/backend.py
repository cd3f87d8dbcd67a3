"""Where a batch runs, as `ua simulate`, `ua compare` and `ua bench` choose it: `--backend
local|dask`, `--scheduler`, `--chunk-size` (the executor is opened by `open_executor`, which
imports Dask only for `--backend dask`)."""

from __future__ import annotations

from typing import Annotated

import typer

from engine.simulate.executors import Backend

BackendOpt = Annotated[
    Backend,
    typer.Option(
        "--backend",
        help="Where the fights run: local (this machine's processes) or dask (a Dask cluster: the one at "
        "--scheduler, else one of --workers processes here; needs the distributed extra: "
        "pip install -e '.[distributed]').",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="With --backend dask: the scheduler of a running cluster, as `dask scheduler` prints it.",
    ),
]
ChunkSizeOpt = Annotated[
    int | None,
    typer.Option(
        "--chunk-size",
        metavar="FIGHTS",
        help="Fights per task (default: sized from a timed sample, about 3 s a task on Dask).",
    ),
]
