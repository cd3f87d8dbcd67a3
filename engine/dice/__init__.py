"""Dice: the percentile model (D-*), the counter-based dice source, exact odds.

The names below load on first use (PEP 562): importing one dice module loads no other.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "Percentile": "engine.dice.percentile",
    "DiceSource": "engine.dice.source",
    "SeededDice": "engine.dice.source",
    "TableDice": "engine.dice.source",
    "derive_seed": "engine.dice.source",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.dice' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = ["DiceSource", "Percentile", "SeededDice", "TableDice", "derive_seed"]
