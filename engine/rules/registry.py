"""The registry of rulesets: one explicit list, the only place a ruleset is found by name.
Nothing registers itself by being imported; HTTP and distributed workers rely on this list.

The list names each ruleset's module; a ruleset's modules (its rules, tables, tactics) are
imported when it is first looked up, so a command on a ua2 session never loads ua3's rules, and
one that only checks a name loads none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from engine.errors import Refused

if TYPE_CHECKING:
    from engine.rules.ruleset import Ruleset

#: Every ruleset: its name → the module whose `RULESET` it is.
MODULES: dict[str, str] = {
    "ua2": "engine.rules.ua2.ruleset",
    "ua3": "engine.rules.ua3.ruleset",
}
#: The ruleset of an encounter that has not started (an empty log).
DEFAULT = "ua2"


@cache
def _load(name: str) -> Ruleset[Any, Any]:
    ruleset: Ruleset[Any, Any] = import_module(MODULES[name]).RULESET
    return ruleset


class Registry(Mapping[str, "Ruleset[Any, Any]"]):
    """Name → ruleset, over `MODULES`: each one imported on its first lookup."""

    def __getitem__(self, name: str) -> Ruleset[Any, Any]:
        if name not in MODULES:
            raise KeyError(name)
        return _load(name)

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


RULESETS = Registry()


def available() -> tuple[str, ...]:
    return tuple(MODULES)


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset of that name, or `Refused` listing the ones there are."""
    if name not in MODULES:
        raise Refused(f"unknown ruleset {name!r}", hint=f"available: {', '.join(MODULES)}")
    return _load(name)


def ruleset_of(state: Any) -> Ruleset[Any, Any]:
    """The ruleset of a stored state (or a table)."""
    return find_ruleset(state.ruleset)
