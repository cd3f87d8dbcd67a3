"""The `ua` application: registers commands; every error leaves as one line and an exit code."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from engine.cli import bench, character, checks, replay, session, simulate
from engine.cli.common import err_console, fail_from
from engine.errors import EngineError
from engine.logging import configure_logging


class OneLineErrors(TyperGroup):
    """Usage errors and engine errors become one line on stderr, never a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        standalone = kwargs.pop("standalone_mode", True)
        try:
            kwargs["standalone_mode"] = False
            rv = super().main(*args, **kwargs)
        except TyperException as exc:  # usage errors: bad option, missing value, unknown command
            ctx = getattr(exc, "ctx", None)
            command = ctx.command_path if ctx is not None else "ua"
            err_console.print(f"error: {command}: {exc.format_message()} (hint: {command} --help)", markup=False)
            rv = exc.exit_code
        except typer.Abort:
            err_console.print("error: aborted", markup=False)
            rv = 130
        except EngineError as exc:
            try:
                fail_from(exc)
            except typer.Exit as exit_:
                rv = exit_.exit_code
        if not standalone:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    name="ua",
    help="Unknown Armies encounter engine: exact odds, checks, fights, sessions.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _root(
    log_json: Annotated[bool, typer.Option("--log-json", help="Diagnostics on stderr as JSON lines.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show debug diagnostics on stderr.")] = False,
) -> None:
    configure_logging(json=log_json, verbose=verbose)


app.command("roll")(checks.roll)
app.command("odds")(checks.odds)
app.command("check")(checks.check)
app.add_typer(character.app, name="character")
app.command("simulate")(simulate.simulate)
app.command("fight")(simulate.fight)
app.command("bench")(bench.bench)
app.add_typer(simulate.scenario_app, name="scenario")
app.add_typer(session.app, name="session")
app.command("replay")(replay.replay)
app.command("audit")(replay.audit)


def main() -> None:
    app()
