"""Unknown Armies, 3rd edition, as one `Ruleset` value."""

from __future__ import annotations

from typing import Any

from engine.rules.ruleset import Ruleset
from engine.rules.ua3 import view
from engine.rules.ua3.apply import APPLIERS
from engine.rules.ua3.handlers import HANDLERS
from engine.rules.ua3.table import Table
from engine.rules.view import View
from engine.rules.words import Words
from engine.state.ua3.encounter import Ua3Encounter


class Ua3(Ruleset[Table, Ua3Encounter]):
    """Seed 002: section U of RULES.md (characters, stress, coercion, the gridiron, combat)."""

    def thaw(self, state: Ua3Encounter | None) -> Table:
        return Table(state)

    def acting_now(self, state: Ua3Encounter) -> str | None:
        return Table(state).current

    def view(self, state: Ua3Encounter, *, title: str = "") -> View:
        return view.state_view(state, title=title)

    def state_json(self, state: Ua3Encounter) -> dict[str, Any]:
        return view.state_json(state, self.acting_now(state))

    def state_diff(self, before: Ua3Encounter, after: Ua3Encounter) -> list[str]:
        return view.state_diff(before, after)


RULESET = Ua3(
    name="ua3",
    title="Unknown Armies, 3rd edition",
    state_type=Ua3Encounter,
    appliers=APPLIERS,
    handlers=HANDLERS,
    script_module="engine.tactics.ua3_script",
    words=Words(
        mind="shock gauges",
        meter="gauge",
        down="unconscious",
        wounds_taken="wounds toward the wound threshold (U-2)",
        wounds="wounds toward the wound threshold",
        wounds_axis="wounds taken",
        wound_line="wound threshold (U-2)",
        permanent_damage="",  # U-2: wounds count up to a threshold; no C2-32 injuries
    ),
)
