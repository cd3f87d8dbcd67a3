"""`--precision` and `--precision-of`, as `ua simulate`, `ua compare` and `ua session fork` take
them. Imports nothing heavy: `ua session fork` shares it."""

from __future__ import annotations

from typing import Annotated

import typer

PrecisionOpt = Annotated[
    float | None,
    typer.Option(
        "--precision",
        metavar="HALF-WIDTH",
        help="Stop once the 95% interval of every figure asked about is within ± this (0.01: ±1 point), "
        "tested every 1,000 fights; -n is then the most.",
    ),
]
PrecisionOfOpt = Annotated[
    str | None,
    typer.Option(
        "--precision-of",
        metavar="FIGURES",
        help="What --precision is about, comma-separated (default win,dies): win, dies (someone on the "
        "players' side dies), down (all of it is down), draw.",
    ),
]
PairedPrecisionOfOpt = Annotated[
    str | None,
    typer.Option(
        "--precision-of",
        metavar="FIGURES",
        help="Which paired differences --precision is about, comma-separated (default win,dies): win, dies.",
    ),
]
