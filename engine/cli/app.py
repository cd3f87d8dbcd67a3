"""The `ua` application: registers commands; every error leaves as one line and an exit code."""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from engine.cli.common import fail_from, warn
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
            warn(f"error: {command}: {exc.format_message()} (hint: {command} --help)")
            rv = exc.exit_code
        except typer.Abort:
            warn("error: aborted")
            rv = 130
        except EngineError as exc:
            try:
                fail_from(exc)
            except typer.Exit as exit_:
                rv = exit_.exit_code
        if not standalone:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


#: command name → (module, function); each module is imported only when its command runs.
COMMANDS: dict[str, tuple[str, str]] = {
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
    "stress-checks": ("engine.cli.session.ua3", "stress_checks"),
}
#: group name → (module, typer app).
GROUPS: dict[str, tuple[str, str]] = {
    "character": ("engine.cli.character", "app"),
    "scenario": ("engine.cli.scenario", "app"),
    "session": ("engine.cli.session", "app"),
}
ROOT_OPTIONS = ("--log-json", "--verbose", "-v")


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


def build_app(only: str | None = None, sub: str | None = None) -> typer.Typer:
    """The `ua` app with every command, or with just `only` (a faster start for one command); for
    a group, `sub` keeps just that one of its commands (building a command's options is most of
    the start-up time, and a session action builds one, not 35)."""
    ua = typer.Typer(
        cls=OneLineErrors,
        name="ua",
        help="Unknown Armies encounter engine: exact odds, checks, fights, sessions.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=True,  # ua --install-completion / --show-completion (bash, zsh, fish)
    )
    ua.callback()(_root)
    for name, (module, attr) in COMMANDS.items():
        if only in (None, name):
            ua.command(name)(getattr(importlib.import_module(module), attr))
    for name, (module, attr) in GROUPS.items():
        if only in (None, name):
            found = importlib.import_module(module)
            builder = getattr(found, "build", None)  # a group that builds just the command invoked
            group: typer.Typer = builder(sub) if builder is not None else getattr(found, attr)
            ua.add_typer(_just(group, sub) if sub and builder is None else group, name=name)
    return ua


def _just(group: typer.Typer, name: str) -> typer.Typer:
    """`group` with only its command `name` (the whole group if it has none of that name)."""
    found = [c for c in group.registered_commands if c.name == name]
    if not found:
        return group
    one = typer.Typer(help=group.info.help, no_args_is_help=True)
    one.registered_commands = found
    return one


def __getattr__(name: str) -> typer.Typer:
    """`from engine.cli.app import app`: the full app, built on first use."""
    if name != "app":
        raise AttributeError(name)
    full = build_app()
    globals()["app"] = full
    return full


def main() -> None:
    words = [arg for arg in sys.argv[1:] if arg not in ROOT_OPTIONS]
    first = words[0] if words else None
    sub = words[1] if first in GROUPS and len(words) > 1 else None
    build_app(first if first in COMMANDS or first in GROUPS else None, sub)()
