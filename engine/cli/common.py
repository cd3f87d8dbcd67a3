"""What every CLI command shares: options, output (rich or JSON), and the one error path."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Annotated, Any, NoReturn, get_args

import msgspec
import typer

from engine.cli.output import Output
from engine.errors import EngineError
from engine.text import one_line

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT): a batch, its partial report printed.
INTERRUPTED = 130
#: The longest error or warning line printed (a long hint, such as a list of names, is cut there).
MAX_LINE = 4000

JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Seed of the dice source.")]
RecoverOpt = Annotated[
    bool,
    typer.Option("--recover", help="A log that ends inside a command: read the whole commands before it (warns)."),
]
UncheckedOpt = Annotated[
    bool, typer.Option("--unchecked", help="Read lines without checksums (logs from an older engine).")
]

def choices(names: Any) -> str:
    """The names a Literal allows, for an option's help (a metavar listing them all would not
    wrap, and runs past an 80-column terminal)."""
    return ", ".join(get_args(names))


console = Output()
err_console = Output(stderr=True)


def fail(message: str, *, code: int = 2, hint: str = "", where: str = "") -> NoReturn:
    """Print one clear line (what, where, hint) on stderr and exit non-zero. Whatever came from
    outside (a path, a name, a value) is shown escaped, and the line is cut short if very long."""
    text = f"error: {where}: {message}" if where else f"error: {message}"
    if hint:
        text += f" (hint: {hint})"
    warn(text)
    raise typer.Exit(code)


def warn(text: str) -> None:
    """One line on stderr (an error or a warning), escaped: no control character reaches the terminal."""
    err_console.print(one_line(text, limit=MAX_LINE), markup=False)


def fail_from(exc: EngineError) -> NoReturn:
    fail(exc.message, code=exc.exit_code, hint=exc.hint, where=exc.where)


def emit_json(value: Any) -> None:
    """Stable, sorted JSON on stdout."""
    sys.stdout.write(_formatted(value))
    sys.stdout.write("\n")


def emit_json_streaming(fields: dict[str, Any], key: str, items: Iterable[Any]) -> None:
    """`emit_json({**fields, key: list(items)})`, the same bytes, but `items` are written one by
    one as they come (a long log's narration is never held whole)."""
    keys = sorted([*fields, key])
    sys.stdout.write("{\n")
    for n, name in enumerate(keys):
        sys.stdout.write(f"  {msgspec.json.encode(name).decode()}: ")
        if name == key:
            _write_list(items)
        else:
            sys.stdout.write(_formatted(fields[name]).replace("\n", "\n  "))
        sys.stdout.write(",\n" if n < len(keys) - 1 else "\n")
    sys.stdout.write("}\n")


def _write_list(items: Iterable[Any]) -> None:
    first = True
    for item in items:
        sys.stdout.write("[\n    " if first else ",\n    ")
        sys.stdout.write(_formatted(item).replace("\n", "\n    "))
        first = False
    sys.stdout.write("[]" if first else "\n  ]")


def _formatted(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value, order="sorted"), indent=2).decode()
