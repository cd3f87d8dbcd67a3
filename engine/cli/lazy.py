"""Command groups that build a command only when it is asked for.

A group lists its commands by name and where each one lives; `ua session state` imports and
builds that one command, not the group's fifty (building a command's options is most of the
start-up time), and `ua --help` builds each top-level command to show its help, but never the
commands inside a group. "Did you mean", `--help` and shell completion still see every name.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from importlib import import_module
from typing import Any, ClassVar

import typer
from typer.core import TyperGroup

#: The longest first sentence of a command's help that a group's command list shows (wrapped).
SHORT_HELP = 300


class FullHelpGroup(TyperGroup):
    """A group whose plain `--help` lists each command with the whole first sentence of its help,
    wrapped beside its name (click would cut it to the line, "Roll percentile dice: value...")."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=SHORT_HELP)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class LazyGroup(FullHelpGroup):
    """A typer group whose commands are `COMMANDS` (name → (module, attribute): the command's
    function, or the typer app of a group), in the order `--help` lists them; each is imported
    and built the first time it is asked for."""

    COMMANDS: ClassVar[Mapping[str, tuple[str, str]]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = LazyCommands(self.COMMANDS, self.commands)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with collector_paused():  # it builds every command it lists, and loads rich to draw them
            super().format_help(ctx, formatter)


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name: those of `where` built on first lookup, beside those `built`."""

    def __init__(self, where: Mapping[str, tuple[str, str]], built: MutableMapping[str, Any]) -> None:
        self._where = where
        self._built = built

    def __getitem__(self, name: str) -> Any:
        if name not in self._built and name in self._where:
            self._built[name] = build_command(name, *self._where[name])
        return self._built[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._where
        yield from (name for name in self._built if name not in self._where)

    def __len__(self) -> int:
        return len(self._where) + sum(name not in self._where for name in self._built)

    def __contains__(self, name: object) -> bool:
        return name in self._where or name in self._built

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while modules load and commands are built: what they make
    lives as long as the process, and no garbage worth a collection (the collector would walk it
    dozens of times meanwhile, about 5 % of a session command). Afterwards it is on again and
    what exists is frozen (`gc.freeze`): never walked again, though still freed when unused."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        resume_collector()


def resume_collector() -> None:
    """The collector on again, what exists now frozen (see `collector_paused`)."""
    gc.freeze()
    gc.enable()


def build_command(name: str, module: str, attr: str) -> Any:
    """The click command `name` made from `module.attr` (a function, or a typer app: a group)."""
    with collector_paused():
        found = getattr(import_module(module), attr)
        if isinstance(found, typer.Typer):
            group = typer.main.get_group(found)
            group.name = name
            return group
        one = typer.Typer(add_completion=False, rich_markup_mode=None)  # plain help: see engine.cli.app
        one.command(name)(found)
        return typer.main.get_command(one)
