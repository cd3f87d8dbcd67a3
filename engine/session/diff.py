"""What changed between two states, per combatant and for the fight: the lines an amend, an
undo or a redo leads with (DESIGN: the audit shows what changed and by how much), as the
states' ruleset words them."""

from __future__ import annotations

from typing import Any

from engine.rules.registry import ruleset_of


def state_diff(before: Any, after: Any) -> list[str]:
    """What differs between two states, one line each."""
    return ruleset_of(after).state_diff(before, after)
