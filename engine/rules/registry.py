"""The registry of rulesets: one explicit list, the only place a ruleset is found by name.
Nothing registers itself by being imported; HTTP and distributed workers rely on this list.

The list names each ruleset's modules: its rules (its `RULESET`), the event types its logs hold
and the commands it decides. Each is imported when first asked for, so a command on a ua2
session never loads ua3's rules, events or commands, and one that only checks a name loads none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.errors import Refused

if TYPE_CHECKING:
    from engine.commands.base import CommandBase
    from engine.events.base import EventBase
    from engine.rules.ruleset import Ruleset


class Plugin(NamedTuple):
    """Where one ruleset's parts are, by module name."""

    #: the module whose `RULESET` it is
    ruleset: str
    #: the module whose `EVENTS` are every event type its logs hold (the shared ones too)
    events: str
    #: the module whose `COMMANDS` are every command type it decides (the shared ones too)
    commands: str
    #: what the names of its own types start with where names of every ruleset meet (the HTTP
    #: API's OpenAPI components: `Ua2Attack`, `Ua3Attack`)
    schema_prefix: str


#: Every ruleset: its name → its modules.
PLUGINS: dict[str, Plugin] = {
    "ua2": Plugin(
        ruleset="engine.rules.ua2.ruleset",
        events="engine.events.ua2",
        commands="engine.commands.ua2",
        schema_prefix="Ua2",
    ),
    "ua3": Plugin(
        ruleset="engine.rules.ua3.ruleset",
        events="engine.events.ua3",
        commands="engine.commands.ua3_all",
        schema_prefix="Ua3",
    ),
}
#: The ruleset of an encounter that has not started (an empty log).
DEFAULT = "ua2"


@cache
def _load(name: str) -> Ruleset[Any, Any]:
    ruleset: Ruleset[Any, Any] = import_module(PLUGINS[name].ruleset).RULESET
    return ruleset


class Registry(Mapping[str, "Ruleset[Any, Any]"]):
    """Name → ruleset, over `PLUGINS`: each one imported on its first lookup."""

    def __getitem__(self, name: str) -> Ruleset[Any, Any]:
        if name not in PLUGINS:
            raise KeyError(name)
        return _load(name)

    def __iter__(self) -> Iterator[str]:
        return iter(PLUGINS)

    def __len__(self) -> int:
        return len(PLUGINS)


RULESETS = Registry()


def available() -> tuple[str, ...]:
    return tuple(PLUGINS)


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset of that name, or `Refused` listing the ones there are."""
    if name not in PLUGINS:
        raise Refused(f"unknown ruleset {name!r}", hint=f"available: {', '.join(PLUGINS)}")
    return _load(name)


def ruleset_of(state: Any) -> Ruleset[Any, Any]:
    """The ruleset of a stored state (or a table)."""
    return find_ruleset(state.ruleset)


@cache
def event_types(name: str | None = None) -> tuple[type[EventBase], ...]:
    """Every event type a log of ruleset `name` holds (of every ruleset: None)."""
    return _listed(name, lambda plugin: import_module(plugin.events).EVENTS)


@cache
def command_types(name: str | None = None) -> tuple[type[CommandBase], ...]:
    """Every command type ruleset `name` decides (of every ruleset: None)."""
    return _listed(name, lambda plugin: import_module(plugin.commands).COMMANDS)


def _listed(name: str | None, listing: Callable[[Plugin], Iterable[Any]]) -> tuple[Any, ...]:
    """What ruleset `name`'s plug-in lists; for None, what every one lists (in the registry's
    order, each type once)."""
    plugins = PLUGINS.values() if name is None else (PLUGINS[name],)
    return tuple(dict.fromkeys(kind for plugin in plugins for kind in listing(plugin)))
