"""Unknown Armies, 3rd edition (`ua3`): its table, appliers, rules and views, as `RULESET`.

`RULESET` loads on first use (PEP 562), as the registry loads it: importing one of the
edition"s modules never builds the whole ruleset.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "RULESET": "engine.rules.ua3.ruleset",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.rules.ua3' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = ["RULESET"]
