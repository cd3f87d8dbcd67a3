"""State: the encounter"s immutable types. Never changes itself; reducers build new values.

The names below load on first use (PEP 562): importing one state module loads no other.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "Combatant": "engine.state.encounter",
    "Encounter": "engine.state.encounter",
    "Injury": "engine.state.encounter",
    "METERS": "engine.state.sheet",
    "Meter": "engine.state.sheet",
    "Meters": "engine.state.sheet",
    "Passion": "engine.state.sheet",
    "Sheet": "engine.state.sheet",
    "Skill": "engine.state.sheet",
    "Stats": "engine.state.sheet",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.state' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = ["METERS", "Combatant", "Encounter", "Injury", "Meter", "Meters", "Passion", "Sheet", "Skill", "Stats"]
