"""Scripted combatants: tactics are data (rules, first match wins) turned into commands.

A tactic is a pure function of the state; its random choices come from the AI stream of the
dice source (`choose`), so they never shift the dice.

The ua2 names below load on first use (PEP 562), so that importing one edition's tactics
(`engine.tactics.ua3`) never runs the other's imports half-way through a ruleset's own.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "Profile": "engine.tactics.choose",
    "choose_command": "engine.tactics.choose",
    "declarations": "engine.tactics.choose",
    "PRESETS": "engine.tactics.rules",
    "TacticRule": "engine.tactics.rules",
    "When": "engine.tactics.rules",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.tactics' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = ["PRESETS", "Profile", "TacticRule", "When", "choose_command", "declarations"]
