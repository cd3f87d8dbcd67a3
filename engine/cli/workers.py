"""How many processes a batch starts here: `--oversubscribe`, and the note when `--workers` asks
for more than the usable CPUs (`engine.simulate.pool.clamp_workers` clamps them). Imports nothing
heavy: `ua session fork` shares it."""

from __future__ import annotations

from typing import Annotated

import typer

OversubscribeOpt = Annotated[
    bool,
    typer.Option(
        "--oversubscribe",
        help="Start every --workers process asked for, even more than this machine's usable CPUs "
        "(by default --workers is clamped to them: more only share the CPUs, each with its own memory).",
    ),
]


def note_clamp(workers: int | None, *, oversubscribe: bool, scheduler: str | None = None) -> None:
    """Say on stderr, in one line, when --workers asks for more processes here than usable CPUs
    (they are clamped to them unless --oversubscribe); a remote scheduler's workers are its own."""
    from engine.cli.common import err_console
    from engine.simulate.pool import usable_cpus

    cpus = usable_cpus()
    if workers is not None and workers > cpus and not oversubscribe and scheduler is None:
        err_console.print(
            f"note: --workers {workers} clamped to the {cpus} usable CPU{'s' if cpus > 1 else ''} "
            "(--oversubscribe to go beyond)",
            markup=False,
        )
