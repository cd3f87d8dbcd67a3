"""Unknown Armies, 2nd edition (`ua2`): its table, appliers, rules and views, as `RULESET`.

`RULESET` loads on first use (PEP 562), as the registry loads it: importing one of the
edition"s modules (the tactics import its attack rules) never builds the whole ruleset.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "RULESET": "engine.rules.ua2.ruleset",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.rules.ua2' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = ["RULESET"]
