"""The registry of rulesets: one explicit list, the only place a ruleset is found by name.
Nothing registers itself by being imported; HTTP and distributed workers rely on this list."""

from __future__ import annotations

from typing import Any

from engine.errors import Refused
from engine.rules.ruleset import Ruleset
from engine.rules.ua2 import RULESET as UA2
from engine.rules.ua3 import RULESET as UA3

RULESETS: dict[str, Ruleset[Any, Any]] = {r.name: r for r in (UA2, UA3)}
#: The ruleset of an encounter that has not started (an empty log).
DEFAULT = UA2.name


def available() -> tuple[str, ...]:
    return tuple(RULESETS)


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset of that name, or `Refused` listing the ones there are."""
    found = RULESETS.get(name)
    if found is None:
        raise Refused(f"unknown ruleset {name!r}", hint=f"available: {', '.join(RULESETS)}")
    return found


def ruleset_of(state: Any) -> Ruleset[Any, Any]:
    """The ruleset of a stored state (or a table)."""
    return find_ruleset(state.ruleset)
