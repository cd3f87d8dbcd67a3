"""The rules' working table: the encounter thawed into plain mutable rows, one per combatant.

`decide` and the batch simulator work on a table, never on the frozen state: a fact (an event)
is applied to it by one function (`engine.rules.ua2.apply`), which folding a stored log uses too.
The table is private to one decision or one fight; `freeze` turns it back into the stored,
immutable `Encounter` (DESIGN: one rules implementation, two uses).
"""

from __future__ import annotations

from typing import Final

from engine.dice.checks import CheckResult
from engine.rules.sink import TableBase
from engine.settings import Settings
from engine.state.encounter import Combatant, Encounter, Injury, ReactionState, Status
from engine.state.fight import Condition, Fight, Fighter, FightResult, Focus, Initiative, Phase, Suppression
from engine.state.sheet import Meters, Sheet, Skill
from engine.state.weapons import FISTS, Weapon

#: A combatant's fields (the character) and its fighter's (its situation in the fight), as stored.
COMBATANT_FIELDS: tuple[str, ...] = Combatant.__struct_fields__
FIGHTER_FIELDS: tuple[str, ...] = tuple(f for f in Fighter.__struct_fields__ if f != "id")
ROW_FIELDS: tuple[str, ...] = (*COMBATANT_FIELDS, *FIGHTER_FIELDS)


class Arm:
    """A weapon as the attack rules read it: its fields and derived values read once into plain
    fields (a compiled build reads a struct's fields slowly); `weapon` is the weapon itself."""

    __slots__ = (
        "bonus",
        "cap",
        "firearm",
        "harmful_thrown",
        "kind",
        "name",
        "nonlethal",
        "penetrating",
        "skill",
        "throwable",
        "weapon",
    )

    def __init__(self, weapon: Weapon) -> None:
        self.weapon = weapon
        self.name: str = weapon.name
        self.kind: str = weapon.kind
        self.firearm: bool = weapon.kind == "firearm"
        self.bonus: int = weapon.bonus
        self.cap: int | None = weapon.cap
        self.skill: str = weapon.skill
        self.penetrating: bool = weapon.penetrating
        self.harmful_thrown: bool = weapon.harmful_thrown
        self.throwable: bool = weapon.throwable
        self.nonlethal: bool = weapon.nonlethal


FISTS_ARM: Final = Arm(FISTS)


class Row:
    """One combatant and its fighter as plain mutable fields (the names of `Combatant` and
    `Fighter`, which share only `id`). Values inside (sheets, injuries, meters) stay frozen: a
    fact replaces them, never mutates them."""

    __slots__ = (*ROW_FIELDS, "armed", "cuts", "cuts_of", "dealt", "held", "memo", "ratings", "skills")

    id: str
    side: str
    sheet: Sheet
    wounds: int
    max_wounds: int
    meters: Meters
    injuries: tuple[Injury, ...]
    status: Status
    reaction: ReactionState | None
    passions_spent: tuple[str, ...]
    last_check: CheckResult | None
    arsenal: tuple[Weapon, ...]
    in_hand: str
    drawn_round: int
    jammed: tuple[str, ...]
    ambusher: bool
    initiative: Initiative | None
    reinitiative: str | None
    prone: bool
    dodging: bool
    continued_dodge: bool
    focus: Focus | None
    conditions: tuple[Condition, ...]
    held_by: str
    holding: str
    monkey_dodge: bool
    monkey_redirect: str
    no_match_benefits: bool
    attacks_this_round: int
    acted_round: int
    extra_attack: bool
    suppressing: int
    suppress_field: tuple[str, ...]
    dodged_last_round: bool
    triggered: tuple[str, ...]
    default_reaction: str | None
    suppressed_last_round: int
    bound: bool
    #: derived, not stored: the weapon in hand (kept by `rearm` whenever hand or arsenal change)
    held: Weapon | None
    #: derived, not stored: the sheet's skills by name, case-folded (shared by copies)
    skills: dict[str, Skill]
    #: derived, not stored: skill ratings by the name asked for, as `rating` found them (shared by copies)
    ratings: dict[str, int]
    #: derived, not stored: checks worked out from the sheet, by what they are for (shared by copies)
    memo: dict[object, object]
    #: derived, not stored: wounds dealt to others since the table was thawed (a batch's tally)
    dealt: int
    #: derived, not stored: the wound shift's cuts for this maximum (C2-31), worked out from the
    #: thresholds `cuts_of` (None: not yet)
    cuts: tuple[tuple[int, int], ...]
    cuts_of: object
    #: derived, not stored: the last weapon attacked with, as the rules read it (`arm`)
    armed: Arm

    @classmethod
    def thaw(cls, combatant: Combatant, fighter: Fighter) -> Row:
        row = cls()
        for name in COMBATANT_FIELDS:
            setattr(row, name, getattr(combatant, name))
        for name in FIGHTER_FIELDS:
            setattr(row, name, getattr(fighter, name))
        row.armed = FISTS_ARM
        row.rearm()
        row.skills = {}
        for skill in combatant.sheet.skills:  # the first of a name, as `Sheet.skill` finds it
            row.skills.setdefault(skill.name.casefold(), skill)
        row.ratings = {}
        row.memo = {}
        row.dealt = 0
        row.cuts, row.cuts_of = (), None
        return row

    def clone(self) -> Row:
        row = Row()
        row.id = self.id
        row.side = self.side
        row.sheet = self.sheet
        row.wounds = self.wounds
        row.max_wounds = self.max_wounds
        row.meters = self.meters
        row.injuries = self.injuries
        row.status = self.status
        row.reaction = self.reaction
        row.passions_spent = self.passions_spent
        row.last_check = self.last_check
        row.arsenal = self.arsenal
        row.in_hand = self.in_hand
        row.drawn_round = self.drawn_round
        row.jammed = self.jammed
        row.ambusher = self.ambusher
        row.initiative = self.initiative
        row.reinitiative = self.reinitiative
        row.prone = self.prone
        row.dodging = self.dodging
        row.continued_dodge = self.continued_dodge
        row.focus = self.focus
        row.conditions = self.conditions
        row.held_by = self.held_by
        row.holding = self.holding
        row.monkey_dodge = self.monkey_dodge
        row.monkey_redirect = self.monkey_redirect
        row.no_match_benefits = self.no_match_benefits
        row.attacks_this_round = self.attacks_this_round
        row.acted_round = self.acted_round
        row.extra_attack = self.extra_attack
        row.suppressing = self.suppressing
        row.suppress_field = self.suppress_field
        row.dodged_last_round = self.dodged_last_round
        row.triggered = self.triggered
        row.default_reaction = self.default_reaction
        row.suppressed_last_round = self.suppressed_last_round
        row.bound = self.bound
        row.held = self.held
        row.skills = self.skills
        row.ratings = self.ratings
        row.memo = self.memo
        row.dealt = self.dealt
        row.cuts, row.cuts_of = self.cuts, self.cuts_of
        row.armed = self.armed
        return row

    def arm(self, weapon: Weapon) -> Arm:
        """`weapon` as the attack rules read it (the last one asked for is kept)."""
        armed = self.armed
        if armed.weapon is not weapon:
            armed = self.armed = Arm(weapon)
        return armed

    def rearm(self) -> None:
        """After the hand or the arsenal changed: the weapon now in hand (and, when there is
        one, as the attack rules read it: copies of the row share it)."""
        held = self.held = self.find_weapon(self.in_hand)
        if held is not None:
            self.arm(held)

    def combatant(self) -> Combatant:
        return Combatant(**{name: getattr(self, name) for name in COMBATANT_FIELDS})

    def fighter(self) -> Fighter:
        return Fighter(id=self.id, **{name: getattr(self, name) for name in FIGHTER_FIELDS})

    @property
    def name(self) -> str:
        return self.sheet.name

    def skill(self, name: str) -> Skill | None:
        """The sheet's skill of that name (any case), if it has one."""
        return self.skills.get(name.casefold())

    def rating(self, name: str) -> int:
        """A skill's rating, or 0 when the sheet lacks it (found once per name: the sheet does
        not change)."""
        found = self.ratings.get(name)
        if found is None:
            skill = self.skills.get(name.casefold())
            found = self.ratings[name] = 0 if skill is None else skill.rating
        return found

    def weapon(self, name: str | None = None) -> Weapon | None:
        """The weapon of that name carried (the one in hand by default); fists always."""
        return self.held if not name else self.find_weapon(name)

    def find_weapon(self, name: str) -> Weapon | None:
        wanted = name.casefold()
        for w in self.arsenal:
            if w.name.casefold() == wanted:
                return w
        return FISTS if wanted == "fists" else None


EMPTY: Final = Encounter()
#: No suppressive fire this round (the value every round starts with).
NO_SUPPRESSION: Final = Suppression()


class Limits:
    """The settings the rules read on every attack and every round, as plain fields (read once
    when the table's settings are set: a compiled build reads a struct's fields slowly)."""

    __slots__ = (
        "dead_at",
        "incapacitated_at",
        "max_rounds",
        "violence_ally_killed",
        "violence_first_shot_at",
        "violence_first_weapon_attack",
        "violence_kill",
        "violence_kill_helpless",
        "wound_cuts",
        "wound_shift_thresholds",
    )

    def __init__(self, settings: Settings) -> None:
        self.max_rounds: int = settings.max_rounds
        self.dead_at: int = settings.dead_at
        self.incapacitated_at: int = settings.incapacitated_at
        self.wound_shift_thresholds: tuple[tuple[float, int], ...] = settings.wound_shift_thresholds
        self.violence_first_weapon_attack: int = settings.violence_first_weapon_attack
        self.violence_first_shot_at: int = settings.violence_first_shot_at
        self.violence_kill: int = settings.violence_kill
        self.violence_ally_killed: int = settings.violence_ally_killed
        self.violence_kill_helpless: int = settings.violence_kill_helpless
        #: the wound shift's cuts by maximum wound points, as the rules work them out from these
        #: thresholds (C2-31; kept here, where every copy of a table shares them, for its next fight)
        self.wound_cuts: dict[int, tuple[tuple[int, int], ...]] = {}


class Table(TableBase):
    """The encounter as the rules work on it: its setup, the rows in joining order (also each
    fighter's order in the fight), and where the fight stands."""

    __slots__ = (
        "_settings",
        "by_id",
        "limits",
        "next_injury_id",
        "order",
        "ordered",
        "phase",
        "result",
        "round",
        "rows",
        "ruleset",
        "scenario",
        "seed",
        "suppression",
        "title",
        "turn",
    )

    _settings: Settings
    #: the settings' values the rules read most, kept with `settings`
    limits: Limits
    #: derived, not stored: the last round order worked out (`full_order`) and the initiatives
    #: it was worked out from (None: none yet)
    ordered: tuple[tuple[str, ...], tuple[Initiative | None, ...]] | None

    def __init__(self, state: Encounter | None = None, *, copy_of: Table | None = None) -> None:
        if copy_of is not None:  # a copy: the same fields, the rows copied
            self._copy(copy_of)
            return
        state = EMPTY if state is None else state
        self.version = state.version
        self.ruleset = state.ruleset
        self.title = state.title
        self.seed = state.seed
        self.scenario = state.scenario
        self.settings = state.settings
        self.next_injury_id = state.next_injury_id
        fight = state.fight
        self.phase: Phase = fight.phase
        self.round = fight.round
        self.order: tuple[str, ...] = fight.order
        self.ordered = None
        self.turn = fight.turn
        self.suppression: Suppression = fight.suppression
        self.result: FightResult | None = fight.result
        fighters = {f.id: f for f in fight.fighters}
        self.rows: list[Row] = [Row.thaw(c, fighters.get(c.id) or Fighter(id=c.id)) for c in state.combatants]
        self.by_id: dict[str, Row] = {r.id: r for r in self.rows}

    def _copy(self, other: Table) -> None:
        self.version = other.version
        self.ruleset = other.ruleset
        self.title = other.title
        self.seed = other.seed
        self.scenario = other.scenario
        self._settings = other._settings
        self.limits = other.limits
        self.next_injury_id = other.next_injury_id
        self.phase = other.phase
        self.round = other.round
        self.order = other.order
        self.ordered = other.ordered
        self.turn = other.turn
        self.suppression = other.suppression
        self.result = other.result
        self.rows = [r.clone() for r in other.rows]
        self.by_id = {r.id: r for r in self.rows}

    def clone(self) -> Table:
        """An independent copy (rows copied; the frozen values inside them shared)."""
        return Table(copy_of=self)

    @property
    def settings(self) -> Settings:
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings
        self.limits = Limits(settings)

    def freeze(self) -> Encounter:
        """The stored, immutable state this table stands for."""
        return Encounter(
            version=self.version,
            ruleset=self.ruleset,
            title=self.title,
            seed=self.seed,
            scenario=self.scenario,
            settings=self.settings,
            combatants=tuple(r.combatant() for r in self.rows),
            next_injury_id=self.next_injury_id,
            fight=Fight(
                phase=self.phase,
                round=self.round,
                order=self.order,
                turn=self.turn,
                fighters=tuple(r.fighter() for r in self.rows),
                suppression=self.suppression,
                result=self.result,
            ),
        )

    def row(self, combatant_id: str) -> Row | None:
        return self.by_id.get(combatant_id)

    def add(self, row: Row) -> None:
        self.rows.append(row)
        self.by_id[row.id] = row

    @property
    def current(self) -> str | None:
        """Whose turn it is, or None outside the acting phases."""
        if self.phase not in ("acting", "ambush") or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]
