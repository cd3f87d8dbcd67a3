"""Unknown Armies, 2nd edition, as one `Ruleset` value."""

from __future__ import annotations

from typing import Any

from engine.rules.ruleset import Ruleset
from engine.rules.ua2 import view
from engine.rules.ua2.apply import APPLIERS
from engine.rules.ua2.combat.turns import acting_now
from engine.rules.ua2.handlers import HANDLERS
from engine.rules.ua2.table import Table
from engine.rules.view import View
from engine.state.encounter import Encounter
from engine.tactics.script import SCRIPT


class Ua2(Ruleset[Table, Encounter]):
    """Seeds 000, 001, 003 and 004: sections S2, M2, I2, C2 and H2 of RULES.md."""

    def thaw(self, state: Encounter | None) -> Table:
        return Table(state)

    def acting_now(self, state: Encounter) -> str | None:
        return acting_now(Table(state))

    def view(self, state: Encounter, *, title: str = "") -> View:
        return view.state_view(state, self.acting_now(state), title=title)

    def state_json(self, state: Encounter) -> dict[str, Any]:
        return view.state_json(state, self.acting_now(state))

    def state_diff(self, before: Encounter, after: Encounter) -> list[str]:
        return view.state_diff(before, after)


RULESET = Ua2(
    name="ua2",
    title="Unknown Armies, 2nd edition",
    state_type=Encounter,
    appliers=APPLIERS,
    handlers=HANDLERS,
    script=SCRIPT,
)
