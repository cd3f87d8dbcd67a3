"""What every CLI command shares: options, output (rich or JSON), and the one error path."""

from __future__ import annotations

import sys
from typing import Annotated, Any, NoReturn

import msgspec
import typer
from rich.console import Console

from engine.errors import EngineError

JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Seed of the dice source.")]
RecoverOpt = Annotated[
    bool,
    typer.Option("--recover", help="A log that ends inside a command: read the whole commands before it (warns)."),
]
UncheckedOpt = Annotated[
    bool, typer.Option("--unchecked", help="Read lines without checksums (logs from an older engine).")
]

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, *, code: int = 2, hint: str = "", where: str = "") -> NoReturn:
    """Print one clear line (what, where, hint) on stderr and exit non-zero."""
    text = f"error: {where}: {message}" if where else f"error: {message}"
    if hint:
        text += f" (hint: {hint})"
    err_console.print(text, markup=False)
    raise typer.Exit(code)


def fail_from(exc: EngineError) -> NoReturn:
    fail(exc.message, code=exc.exit_code, hint=exc.hint, where=exc.where)


def emit_json(value: Any) -> None:
    """Stable, sorted JSON on stdout."""
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value, order="sorted"), indent=2).decode())
    sys.stdout.write("\n")
