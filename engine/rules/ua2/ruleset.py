"""Unknown Armies, 2nd edition, as one `Ruleset` value."""

from __future__ import annotations

from engine.rules.ruleset import Ruleset
from engine.rules.ua2.apply import APPLIERS
from engine.rules.ua2.combat.turns import acting_now
from engine.rules.ua2.handlers import HANDLERS
from engine.rules.ua2.table import Table
from engine.state.encounter import Encounter
from engine.tactics.script import SCRIPT


class Ua2(Ruleset[Table, Encounter]):
    """Seeds 000, 001, 003 and 004: sections S2, M2, I2, C2 and H2 of RULES.md."""

    def thaw(self, state: Encounter | None) -> Table:
        return Table(state)

    def acting_now(self, state: Encounter) -> str | None:
        return acting_now(Table(state))


RULESET = Ua2(
    name="ua2",
    title="Unknown Armies, 2nd edition",
    state_type=Encounter,
    appliers=APPLIERS,
    handlers=HANDLERS,
    script=SCRIPT,
)
