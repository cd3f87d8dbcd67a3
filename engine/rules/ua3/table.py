"""The ua3 rules' working table: the encounter thawed into plain mutable rows, one per
character, with its conflicts and pending coercions (DESIGN: one rules implementation, two uses).

A fact (an event) is applied to it by one function (`engine.rules.ua3.apply`), which folding a
stored log uses too; `freeze` turns it back into the stored, immutable `Ua3Encounter`.
"""

from __future__ import annotations

from typing import Any, Final

from engine.dice.checks import CheckResult, Shift
from engine.rules.sink import TableBase
from engine.rules.ua3.abilities import Option, ability_value, best, initiative, wound_threshold
from engine.state.ua3.combat import FISTS, Action, Aim, Armor, Declared, Ua3Weapon
from engine.state.ua3.conflict import Conflict, PendingCoercion, SideKey
from engine.state.ua3.encounter import FightResult, Phase, ReactionState, Status, Ua3Combatant, Ua3Encounter, Ua3Fight
from engine.state.ua3.settings import Reaction, Ua3Settings
from engine.state.ua3.sheet import Gauges, Ua3Sheet

ROW_FIELDS: tuple[str, ...] = Ua3Combatant.__struct_fields__
#: Distinct gauges a sheet keeps the ratings memo of (`SheetFacts.ratings_for`): memory stays bounded.
MAX_RATINGS: Final = 256
#: The ratings memo's entry for `Row.hardened_total` (no ability, identity or rating has this name).
HARDENED_TOTAL: Final = "\nhardened total"


class Arm:
    """A weapon as the rules read it again and again (U-4, U-5, U-7, U-11): its fields as plain
    native ones, read once (a compiled build reads a frozen struct's fields slowly), with the
    weapon itself. Made once per weapon carried and shared by every copy of the row."""

    __slots__ = ("bonus", "cap", "cleaves", "edged", "full_auto", "gun", "kind", "melee", "name", "weapon")

    def __init__(self, weapon: Ua3Weapon) -> None:
        self.weapon = weapon
        self.name: str = weapon.name
        self.kind: str = weapon.kind
        self.gun: bool = weapon.kind == "firearm"
        self.melee: bool = weapon.kind == "melee"
        self.cap: int | None = weapon.cap
        self.cleaves: bool = weapon.cleaves
        self.edged: bool = weapon.edged
        self.full_auto: bool = weapon.full_auto
        #: U-4: +3 for each of cleaves, big, heavy (0 for fists and guns; `Ua3Weapon.bonus`)
        self.bonus: int = weapon.bonus


#: Fists, as the rules read them (U-3).
FISTS_ARM: Final = Arm(FISTS)
#: `Row.carried`'s mark for a name not asked yet (no weapon is this one).
NOT_CARRIED: Final = Arm(Ua3Weapon(name="not carried", kind="unarmed"))


class Intent:
    """U-22: a combatant's declared action for the round and the rating that orders it, as the
    rules read it (`Declared`'s fields as native ones: read on every turn; the row keeps this,
    the stored combatant its `Declared`)."""

    __slots__ = ("action", "rated_by", "rating", "targets", "weapon")

    def __init__(self, action: Action, targets: tuple[str, ...], weapon: str, rating: int, rated_by: str) -> None:
        self.action: Action = action
        self.targets = targets
        self.weapon = weapon
        self.rating = rating
        self.rated_by = rated_by

    def stored(self) -> Declared:
        return Declared(
            action=self.action, targets=self.targets, weapon=self.weapon, rating=self.rating, rated_by=self.rated_by
        )


def intent_of(declared: Declared | None) -> Intent | None:
    if declared is None:
        return None
    return Intent(declared.action, declared.targets, declared.weapon, declared.rating, declared.rated_by)


class Armory:
    """What a row's `weapons` mean to the rules (derived, not stored): each one as an `Arm`, in
    order, and the weapon each name asked for means (`Row.carried`), for the `weapons` read."""

    __slots__ = ("arms", "known", "weapons")

    def __init__(self, weapons: tuple[Ua3Weapon, ...]) -> None:
        self.weapons = weapons
        self.arms: tuple[Arm, ...] = tuple(Arm(w) for w in weapons)
        self.known: dict[str, Arm | None] = {}


class SheetFacts:
    """What the rules read of a sheet again and again, worked out once: the wound threshold
    (U-2, U-19, for the settings it was asked with), the initiative identity (U-22) and the best
    firearms identity (U-5) — None when the sheet has none."""

    __slots__ = ("_ratings", "_settings", "_sheet", "_threshold", "firearms", "initiative", "initiative_option")

    def __init__(self, sheet: Ua3Sheet) -> None:
        self.initiative: int | None = initiative(sheet)
        own = self.initiative
        #: the rating an initiative identity gives any action (U-19, U-22), None without one
        self.initiative_option: Option | None = (
            Option("identity", next(i.name for i in sheet.identities if i.initiative and i.rating == own), own)
            if own is not None
            else None
        )
        options = [Option("identity", i.name, i.rating, i.obsession) for i in sheet.identities if i.firearms]
        self.firearms: Option | None = best(options) if options else None
        self._sheet = sheet
        self._settings: Ua3Settings | None = None
        self._threshold = 0
        self._ratings: dict[Gauges, dict[str, Any]] = {}

    def threshold(self, settings: Ua3Settings) -> int:
        """The wound threshold with `settings`' default (worked out again for other settings)."""
        if settings is not self._settings:
            self._threshold, self._settings = wound_threshold(self._sheet, settings.wound_threshold), settings
        return self._threshold

    def ratings_for(self, gauges: Gauges) -> dict[str, Any]:
        """The memo of the ratings the sheet gives with `gauges` (pure functions of the two):
        one per distinct gauges, shared by every row of this sheet (a batch's fights), up to
        `MAX_RATINGS` of them (past it, a fresh one each time)."""
        found = self._ratings.get(gauges)
        if found is None:
            found = {}
            if len(self._ratings) < MAX_RATINGS:
                self._ratings[gauges] = found
        return found


class Row:
    """One character as plain mutable fields (the names of `Ua3Combatant`). Values inside
    (sheet, gauges) stay frozen: a fact replaces them, never mutates them."""

    __slots__ = (*ROW_FIELDS, "armory", "facts", "memo")

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
    #: the `Declared` of the stored combatant, as the rules read it
    declared: Intent | None
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
    movement_halved: bool
    #: a batch's memo of the ratings the rules read again and again (U-18: they follow the
    #: gauges, so it holds the gauges it was made for and is made again when they change)
    memo: tuple[Gauges, dict[str, Any]] | None
    #: derived, not stored: what the rules read of the sheet again and again (`SheetFacts`,
    #: made when first asked; the sheet never changes, so copies share it)
    facts: SheetFacts | None
    #: derived, not stored: the weapons carried as the rules read them (`arms`, `carried`)
    armory: Armory | None

    @classmethod
    def thaw(cls, combatant: Ua3Combatant) -> Row:
        row = cls()
        for name in ROW_FIELDS:
            if name != "declared":
                setattr(row, name, getattr(combatant, name))
        row.declared = intent_of(combatant.declared)
        row.memo = None
        row.facts = None
        row.armory = None
        return row

    def clone(self) -> Row:
        """A copy (field by field: a batch copies every row for every fight; the memos, pure
        functions of the sheet and the gauges they were made for, are shared)."""
        row = Row()
        row.id = self.id
        row.side = self.side
        row.sheet = self.sheet
        row.gauges = self.gauges
        row.wounds = self.wounds
        row.status = self.status
        row.reaction = self.reaction
        row.default_reaction = self.default_reaction
        row.passions_spent = self.passions_spent
        row.last_check = self.last_check
        row.next_roll = self.next_roll
        row.weapons = self.weapons
        row.in_hand = self.in_hand
        row.armor = self.armor
        row.helmet_spent = self.helmet_spent
        row.declared = self.declared
        row.aim = self.aim
        row.jammed = self.jammed
        row.suppressed_until = self.suppressed_until
        row.suppressed_by = self.suppressed_by
        row.dealt = self.dealt
        row.openings = self.openings
        row.triggered = self.triggered
        row.loses_action = self.loses_action
        row.restrained_by = self.restrained_by
        row.believed_dead_by = self.believed_dead_by
        row.movement_halved = self.movement_halved
        # the memos are made on this row first, so that every copy of it shares them (a batch
        # copies the prepared table's rows for each fight)
        self.ratings()
        row.memo = self.memo
        row.facts = self.sheet_facts()
        row.armory = self.arms_carried()
        return row

    def arms_carried(self) -> Armory:
        """The weapons carried now, as the rules read them (made again when they change)."""
        armory = self.armory
        if armory is None or armory.weapons is not self.weapons:
            armory = self.armory = Armory(self.weapons)
        return armory

    def arms(self) -> tuple[Arm, ...]:
        """The weapons carried (`weapons`), each as an `Arm`."""
        return self.arms_carried().arms

    def carried(self, name: str) -> Arm | None:
        """The weapon `name` means (any case): fists, else the first carried of that name, else
        None (remembered by the name as asked, for the weapons carried now)."""
        armory = self.arms_carried()
        known = armory.known
        found = known.get(name, NOT_CARRIED)
        if found is NOT_CARRIED:  # not asked yet
            wanted = name.casefold()
            found = FISTS_ARM if wanted == "fists" else None
            if found is None:
                for arm in armory.arms:
                    if arm.name.casefold() == wanted:
                        found = arm
                        break
            known[name] = found
        return found

    def in_hand_arm(self) -> Arm | None:
        """The carried weapon whose name is the one in hand (None for fists)."""
        hand = self.in_hand
        for arm in self.arms_carried().arms:
            if arm.name == hand:
                return arm
        return None

    def ratings(self) -> dict[str, Any]:
        """The memo of the ratings read with the gauges now (`memo`; made again when they change)."""
        memo = self.memo
        gauges = self.gauges
        if memo is None or memo[0] is not gauges:
            memo = self.memo = (gauges, self.sheet_facts().ratings_for(gauges))
        return memo[1]

    def sheet_facts(self) -> SheetFacts:
        facts = self.facts
        if facts is None:
            facts = self.facts = SheetFacts(self.sheet)
        return facts

    def combatant(self) -> Ua3Combatant:
        fields = {name: getattr(self, name) for name in ROW_FIELDS}
        declared = self.declared
        fields["declared"] = declared.stored() if declared is not None else None
        return Ua3Combatant(**fields)

    @property
    def name(self) -> str:
        return self.sheet.name

    def ability(self, ability: str) -> int:
        """U-18: an ability's percentage now."""
        return ability_value(self.gauges, ability)

    def threshold(self, settings: Ua3Settings) -> int:
        """U-2, U-19: the wound threshold."""
        return self.sheet_facts().threshold(settings)

    def burned_out(self, settings: Ua3Settings) -> bool:
        """U-24: hardened notches in all gauges at or above the setting."""
        return self.hardened_total() >= settings.burnout_hardened

    def hardened_total(self) -> int:
        """U-24: the hardened notches in all gauges (`Gauges.hardened_total`, an interpreted
        property: read once for these gauges, remembered with the ratings)."""
        ratings = self.ratings()
        found: int | None = ratings.get(HARDENED_TOTAL)
        if found is None:
            found = ratings[HARDENED_TOTAL] = self.gauges.hardened_total
        return found


EMPTY = Ua3Encounter()


class Limits:
    """The settings the rules read on every attack and every round (U-22's round limit, U-25's
    and U-8's check ranks), as plain fields (read once when the table's settings are set: a
    compiled build reads a struct's fields slowly)."""

    __slots__ = ("attacked_with_weapon_rank", "kill_rank", "max_rounds", "shot_at_rank", "suppression_rank")

    def __init__(self, settings: Ua3Settings) -> None:
        self.max_rounds: int = settings.max_rounds
        self.attacked_with_weapon_rank: int = settings.attacked_with_weapon_rank
        self.shot_at_rank: int = settings.shot_at_rank
        self.kill_rank: int = settings.kill_rank
        self.suppression_rank: int = settings.suppression_rank


class Table(TableBase):
    """The ua3 encounter as the rules work on it: setup, rows in joining order, conflicts,
    coercions waiting for an answer, where a fight stands."""

    __slots__ = (
        "_settings",
        "by_id",
        "coercions",
        "conflicts",
        "grapplers",
        "grappling",
        "limits",
        "order",
        "phase",
        "result",
        "round",
        "rows",
        "ruleset",
        "scenario",
        "seed",
        "title",
        "turn",
    )

    #: derived, not stored: the running grapple each grappler is in (`_index`)
    grappling: dict[str, Conflict]
    #: derived, not stored: each grappler's side in that grapple and its opponent (`_index`)
    grapplers: dict[str, tuple[SideKey, str]]
    _settings: Ua3Settings
    #: derived, not stored: the settings read on every attack and round (set with `settings`)
    limits: Limits

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
        self.settings = state.settings
        self.rows: list[Row] = [Row.thaw(c) for c in state.combatants]
        self.by_id: dict[str, Row] = {r.id: r for r in self.rows}
        self.conflicts: list[Conflict] = list(state.conflicts)
        self._index()
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
        self.scenario, self.phase, self.round = other.scenario, other.phase, other.round
        self._settings, self.limits = other._settings, other.limits
        self.order, self.turn, self.result = other.order, other.turn, other.result
        self.rows = [r.clone() for r in other.rows]
        self.by_id = {r.id: r for r in self.rows}
        self.conflicts = list(other.conflicts)
        self.grappling = other.grappling
        self.grapplers = other.grapplers
        self.coercions = list(other.coercions)

    def clone(self) -> Table:
        """An independent copy (rows copied; the frozen values inside them shared)."""
        return Table(copy_of=self)

    @property
    def settings(self) -> Ua3Settings:
        return self._settings

    @settings.setter
    def settings(self, settings: Ua3Settings) -> None:
        self._settings = settings
        self.limits = Limits(settings)

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
        for c in self.conflicts:
            if c.id == conflict_id:
                return c
        return None

    def add_conflict(self, conflict: Conflict) -> None:
        self.conflicts.append(conflict)
        self._index()

    def replace_conflict(self, conflict: Conflict) -> None:
        """The conflict of the same id becomes `conflict` (the list is this table's own)."""
        conflicts, wanted = self.conflicts, conflict.id
        grapples = conflict.kind == "grapple"
        for i in range(len(conflicts)):
            old = conflicts[i]
            if old.id == wanted:
                grapples = grapples or old.kind == "grapple"
                conflicts[i] = conflict
        if grapples:
            self._index()

    def moved(self, old: Conflict, new: Conflict) -> None:
        """`old` (one of the conflicts) becomes `new`, the same conflict moved on — its sides'
        rolls or token, not its kind, grapplers or result: the index keeps who is in it (a new
        dict, so copies may share the old one), nothing to read again (nor who faces whom)."""
        conflicts = self.conflicts
        for i in range(len(conflicts)):
            if conflicts[i] is old:
                conflicts[i] = new
        self.grappling = {actor: new if c is old else c for actor, c in self.grappling.items()}

    def _index(self) -> None:
        """After the conflicts changed: the running grapple (U-17) each grappler is in, the
        first one listed, its side there and its opponent (derived, not stored; new dicts each
        time, so copies may share them)."""
        grappling: dict[str, Conflict] = {}
        grapplers: dict[str, tuple[SideKey, str]] = {}
        for conflict in self.conflicts:
            if conflict.kind == "grapple" and conflict.result is None:
                a, b = conflict.sides
                if a.actor not in grappling:
                    grappling[a.actor] = conflict
                    grapplers[a.actor] = ("a", b.actor)
                if b.actor not in grappling:
                    grappling[b.actor] = conflict
                    grapplers[b.actor] = ("b", a.actor)
        self.grappling = grappling
        self.grapplers = grapplers

    def coercion_of(self, target: str) -> PendingCoercion | None:
        return next((c for c in self.coercions if c.target == target), None)

    @property
    def current(self) -> str | None:
        """Whose turn it is in a fight, or None (no fight yet: combat comes with U-22)."""
        if self.phase != "acting" or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]
