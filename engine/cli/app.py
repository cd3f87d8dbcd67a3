"""The `ua` application: registers commands; every error leaves as one line and an exit code.

A command is built when it is invoked (`engine.cli.lazy`), and `ua --help` builds each top-level
command to show its help: so a command's module imports at its top what its options need, and
what the command runs with (the simulator, the session service, the event types) in the
command's body, as it runs. The top-level commands' modules keep real annotations (no `from
__future__ import annotations`): typer reads the type of every option as it builds a command,
and string annotations would be compiled one by one."""

from __future__ import annotations

import gc
import sys
from typing import Annotated, Any, ClassVar

import typer
from typer.exceptions import TyperException

from engine.cli.common import INTERRUPTED, fail_from, warn
from engine.cli.lazy import LazyGroup
from engine.errors import EngineError
from engine.logging import configure_logging


class UaGroup(LazyGroup):
    """The `ua` group: usage errors and engine errors become one line on stderr, never a
    traceback."""

    #: command or group name → (module, function, or a group's typer app), in the order `ua --help`
    #: lists them; each module is imported only when its command runs (or `ua --help` shows it).
    COMMANDS: ClassVar[dict[str, tuple[str, str]]] = {
        "roll": ("engine.cli.checks", "roll"),
        "odds": ("engine.cli.checks", "odds"),
        "check": ("engine.cli.checks", "check"),
        "simulate": ("engine.cli.simulate", "simulate"),
        "fight": ("engine.cli.simulate", "fight"),
        "compare": ("engine.cli.compare", "compare"),
        "bench": ("engine.cli.bench", "bench"),
        "replay": ("engine.cli.replay", "replay"),
        "audit": ("engine.cli.replay", "audit"),
        "serve": ("engine.cli.serve", "serve"),
        "serve-bench": ("engine.cli.serve", "serve_bench"),
        "stress-checks": ("engine.cli.samples", "stress_checks"),
        "tactics": ("engine.cli.tactics", "tactics"),
        "character": ("engine.cli.character", "app"),
        "scenario": ("engine.cli.scenario", "app"),
        "session": ("engine.cli.session", "app"),
    }

    def main(self, *args: Any, **kwargs: Any) -> Any:
        standalone = kwargs.pop("standalone_mode", True)
        try:
            kwargs["standalone_mode"] = False
            rv = super().main(*args, **kwargs)
        except TyperException as exc:  # usage errors: bad option, missing value, unknown command
            ctx = getattr(exc, "ctx", None)
            command = ctx.command_path if ctx is not None else "ua"
            warn(f"error: {command}: {exc.format_message()} (hint: {command} --help)")
            rv = exc.exit_code
        except typer.Abort:
            warn("error: aborted")
            rv = INTERRUPTED
        except EngineError as exc:
            try:
                fail_from(exc)
            except typer.Exit as exit_:
                rv = exit_.exit_code
        if not standalone:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("ua-engine")
        except PackageNotFoundError:  # run from a checkout that is not installed
            found = "unknown"
        sys.stdout.write(f"ua {found}\n")
        raise typer.Exit(0)


def _root(
    log_json: Annotated[bool, typer.Option("--log-json", help="Diagnostics on stderr as JSON lines.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show debug diagnostics on stderr.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    configure_logging(json=log_json, verbose=verbose)


app = typer.Typer(
    cls=UaGroup,
    name="ua",
    help="Unknown Armies encounter engine: exact odds, checks, fights, sessions.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # click's plain help on every command: it wraps each option's help beside the option at any
    # width, where rich's panels cut it at 80 columns ("settings.max_roun…") and eat `[distributed]`
    rich_markup_mode=None,
    add_completion=True,  # ua --install-completion / --show-completion (bash, zsh, fish)
)
app.callback()(_root)


def main() -> None:
    # What the start-up made (this app, typer, rich, msgspec) lives as long as the process: frozen,
    # the cyclic collector no longer walks it at each collection, nor once more as the process ends.
    gc.freeze()
    app()
