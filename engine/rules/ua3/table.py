"""The ua3 rules' working table: the encounter thawed into plain mutable rows, one per
character, with its conflicts and pending coercions (DESIGN: one rules implementation, two uses).

A fact (an event) is applied to it by one function (`engine.rules.ua3.apply`), which folding a
stored log uses too; `freeze` turns it back into the stored, immutable `Ua3Encounter`.
"""

from __future__ import annotations

from typing import Any

from engine.dice.checks import CheckResult, Shift
from engine.rules.sink import TableBase
from engine.rules.ua3.abilities import ability_value, wound_threshold
from engine.state.ua3.combat import Aim, Armor, Declared, Ua3Weapon
from engine.state.ua3.conflict import Conflict, PendingCoercion
from engine.state.ua3.encounter import FightResult, Phase, ReactionState, Status, Ua3Combatant, Ua3Encounter, Ua3Fight
from engine.state.ua3.settings import Reaction, Ua3Settings
from engine.state.ua3.sheet import Gauges, Ua3Sheet

ROW_FIELDS: tuple[str, ...] = Ua3Combatant.__struct_fields__


class Row:
    """One character as plain mutable fields (the names of `Ua3Combatant`). Values inside
    (sheet, gauges) stay frozen: a fact replaces them, never mutates them."""

    __slots__ = (*ROW_FIELDS, "memo")

    id: str
    side: str
    sheet: Ua3Sheet
    gauges: Gauges
    wounds: int
    status: Status
    reaction: ReactionState | None
    default_reaction: Reaction | None
    passions_spent: tuple[str, ...]
    last_check: CheckResult | None
    next_roll: tuple[Shift, ...]
    weapons: tuple[Ua3Weapon, ...]
    in_hand: str
    armor: Armor
    helmet_spent: bool
    declared: Declared | None
    aim: Aim | None
    jammed: bool
    suppressed_until: int
    suppressed_by: str
    dealt: int
    openings: tuple[str, ...]
    triggered: tuple[str, ...]
    loses_action: bool
    restrained_by: str
    believed_dead_by: str
    #: a batch's memo of the ratings the rules read again and again (U-18: they follow the
    #: gauges, so it holds the gauges it was made for and is made again when they change)
    memo: tuple[Gauges, dict[str, Any]] | None

    @classmethod
    def thaw(cls, combatant: Ua3Combatant) -> Row:
        row = cls()
        for name in ROW_FIELDS:
            setattr(row, name, getattr(combatant, name))
        row.memo = None
        return row

    def clone(self) -> Row:
        row = Row()
        for name in ROW_FIELDS:
            setattr(row, name, getattr(self, name))
        row.memo = None
        return row

    def combatant(self) -> Ua3Combatant:
        return Ua3Combatant(**{name: getattr(self, name) for name in ROW_FIELDS})

    @property
    def name(self) -> str:
        return self.sheet.name

    def ability(self, ability: str) -> int:
        """U-18: an ability's percentage now."""
        return ability_value(self.gauges, ability)

    def threshold(self, settings: Ua3Settings) -> int:
        """U-2, U-19: the wound threshold."""
        return wound_threshold(self.sheet, settings.wound_threshold)

    def burned_out(self, settings: Ua3Settings) -> bool:
        """U-24: hardened notches in all gauges at or above the setting."""
        return self.gauges.hardened_total >= settings.burnout_hardened


EMPTY = Ua3Encounter()


class Table(TableBase):
    """The ua3 encounter as the rules work on it: setup, rows in joining order, conflicts,
    coercions waiting for an answer, where a fight stands."""

    __slots__ = (
        "by_id",
        "coercions",
        "conflicts",
        "order",
        "phase",
        "result",
        "round",
        "rows",
        "ruleset",
        "scenario",
        "seed",
        "settings",
        "title",
        "turn",
    )

    def __init__(self, state: Ua3Encounter | None = None, *, copy_of: Table | None = None) -> None:
        if copy_of is not None:
            self._copy(copy_of)
            return
        state = EMPTY if state is None else state
        self.version = state.version
        self.ruleset = state.ruleset
        self.title = state.title
        self.seed = state.seed
        self.scenario = state.scenario
        self.settings: Ua3Settings = state.settings
        self.rows: list[Row] = [Row.thaw(c) for c in state.combatants]
        self.by_id: dict[str, Row] = {r.id: r for r in self.rows}
        self.conflicts: list[Conflict] = list(state.conflicts)
        self.coercions: list[PendingCoercion] = list(state.coercions)
        fight = state.fight
        self.phase: Phase = fight.phase
        self.round = fight.round
        self.order: tuple[str, ...] = fight.order
        self.turn = fight.turn
        self.result: FightResult | None = fight.result

    def _copy(self, other: Table) -> None:
        # field by field (a compiled class has no `__slots__` to walk)
        self.version, self.ruleset, self.title, self.seed = other.version, other.ruleset, other.title, other.seed
        self.scenario, self.settings, self.phase, self.round = other.scenario, other.settings, other.phase, other.round
        self.order, self.turn, self.result = other.order, other.turn, other.result
        self.rows = [r.clone() for r in other.rows]
        self.by_id = {r.id: r for r in self.rows}
        self.conflicts = list(other.conflicts)
        self.coercions = list(other.coercions)

    def clone(self) -> Table:
        """An independent copy (rows copied; the frozen values inside them shared)."""
        return Table(copy_of=self)

    def freeze(self) -> Ua3Encounter:
        """The stored, immutable state this table stands for."""
        return Ua3Encounter(
            version=self.version,
            ruleset=self.ruleset,
            title=self.title,
            seed=self.seed,
            scenario=self.scenario,
            settings=self.settings,
            combatants=tuple(r.combatant() for r in self.rows),
            conflicts=tuple(self.conflicts),
            coercions=tuple(self.coercions),
            fight=Ua3Fight(phase=self.phase, round=self.round, order=self.order, turn=self.turn, result=self.result),
        )

    def add(self, row: Row) -> None:
        self.rows.append(row)
        self.by_id[row.id] = row

    def conflict(self, conflict_id: str) -> Conflict | None:
        return next((c for c in self.conflicts if c.id == conflict_id), None)

    def replace_conflict(self, conflict: Conflict) -> None:
        self.conflicts = [conflict if c.id == conflict.id else c for c in self.conflicts]

    def coercion_of(self, target: str) -> PendingCoercion | None:
        return next((c for c in self.coercions if c.target == target), None)

    @property
    def current(self) -> str | None:
        """Whose turn it is in a fight, or None (no fight yet: combat comes with U-22)."""
        if self.phase != "acting" or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]
