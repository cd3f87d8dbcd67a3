"""Character creation (S2-1…S2-6): what a new ua2 character may spend, as pure functions.

`check_sheet(sheet, tier)` returns every `Finding` (error or warning, `$.path`, a message with
the numbers, the rule id); `spending(sheet, tier)` gives the accounts the findings are made from;
`check_weapons(sheet, catalog)` warns about carried weapons a scenario must define or whose skill
the sheet lacks.

How points are charged (S2-2…S2-4):

- Stat points: Body + Speed + Mind + Soul ≤ the tier's budget (220 / 240 / 260). Spending more is
  an error; spending less a warning (points left on the table).
- Each skill costs `max(0, rating − start)`, where `start` is what the skill has for nothing:
  15 for a free skill, half Speed rounded down for Initiative (`max` of both if both), else 0.
- A stat's skills are paid from that stat's points (as many as the stat); the bonus points
  (15 / 70 / 125) pay for any skill.

Decisions where RULES.md is silent (each says so in its finding):

- **Overflow is pooled.** For each stat, overflow = max(0, points spent on its skills − the stat).
  The overflow of all stats together must be ≤ the bonus points (an error otherwise, naming each
  stat's spent/available). Points a stat leaves unspent never pay for another stat's skills —
  only bonus points cross stats.
- Unspent skill points (a stat's or the bonus) are a warning, not an error.
- A skill rated above its tied stat is a warning (S2-3: the GM may allow it), Initiative included.
- Initiative is recognised by name (`Initiative`, any case) and must be tied to Speed (an error;
  tied elsewhere it gets no free start). Rated below half Speed, it is a warning (nothing is
  refunded).
- A free skill rated below 15 is a warning (nothing is refunded). The number of free skills is not
  limited: the GM grants them.
- Stats outside the human range 30–70 are not flagged (S2-1 calls it a range, not a limit).
- S2-6: wound points maximum other than Body is a warning (the GM may have a reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

from engine.errors import InvalidInput
from engine.state.sheet import Sheet, Skill, Stats
from engine.state.weapons import Weapon

Tier = Literal["beginner", "seasoned", "experienced"]
Severity = Literal["error", "warning"]
TIERS: tuple[Tier, ...] = ("beginner", "seasoned", "experienced")
STATS: tuple[str, ...] = ("body", "speed", "mind", "soul")
#: S2-4: a free skill's starting rating, at no cost.
FREE_SKILL_START = 15
#: S2-4: the skill that starts at half Speed, at no cost.
INITIATIVE = "initiative"


class Budget(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """S2-2: what a tier has to spend."""

    stat_points: int
    bonus_points: int


#: S2-2: stat points 220 / 240 / 260, bonus skill points 15 / 70 / 125.
BUDGETS: dict[str, Budget] = {
    "beginner": Budget(stat_points=220, bonus_points=15),
    "seasoned": Budget(stat_points=240, bonus_points=70),
    "experienced": Budget(stat_points=260, bonus_points=125),
}


class Finding(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One result of a creation check: an error breaks a rule; a warning is legal but unusual
    (the GM may allow it)."""

    severity: Severity
    path: str
    message: str
    rule: str

    def line(self) -> str:
        return f"{self.severity}: {self.path}: {self.message}"


class SkillCost(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """What one skill costs (S2-3, S2-4): `rating − start`, never below 0."""

    index: int
    name: str
    stat: str
    rating: int
    start: int
    cost: int


class StatAccount(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Skill points of one stat (S2-3): `available` = the stat; `over` is paid by bonus points."""

    stat: str
    available: int
    spent: int

    @property
    def over(self) -> int:
        return max(0, self.spent - self.available)

    @property
    def unspent(self) -> int:
        return max(0, self.available - self.spent)


class Spending(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A sheet's accounts for one tier (S2-2…S2-4)."""

    tier: str
    stat_points_available: int
    stat_points_spent: int
    accounts: tuple[StatAccount, ...]
    bonus_available: int
    skills: tuple[SkillCost, ...]

    @property
    def bonus_needed(self) -> int:
        """The pooled overflow of every stat (the decision above)."""
        return sum(a.over for a in self.accounts)


def budget(tier: str) -> Budget:
    """S2-2: the budget of a tier, `InvalidInput` for an unknown one."""
    try:
        return BUDGETS[tier]
    except KeyError:
        raise InvalidInput(f"unknown tier {tier!r}", where="tier", hint=f"use one of {', '.join(TIERS)}") from None


def skill_start(skill: Skill, stats: Stats) -> int:
    """S2-4: the rating a skill has at no cost — 15 if free, half Speed for Initiative tied to
    Speed (the larger if both), else 0."""
    start = FREE_SKILL_START if skill.free else 0
    if is_initiative(skill) and skill.stat == "speed":
        start = max(start, stats.speed // 2)
    return start


def skill_cost(skill: Skill, stats: Stats) -> int:
    """S2-3, S2-4: points a skill costs — its rating above its free start, never negative."""
    return max(0, skill.rating - skill_start(skill, stats))


def is_initiative(skill: Skill) -> bool:
    return skill.name.strip().casefold() == INITIATIVE


def spending(sheet: Sheet, tier: str) -> Spending:
    """The accounts of `sheet` as a new character of `tier` (S2-2…S2-4)."""
    tier_budget = budget(tier)
    stats = sheet.stats
    costs = tuple(
        SkillCost(
            index=i,
            name=skill.name,
            stat=skill.stat,
            rating=skill.rating,
            start=skill_start(skill, stats),
            cost=skill_cost(skill, stats),
        )
        for i, skill in enumerate(sheet.skills)
    )
    accounts = tuple(
        StatAccount(
            stat=stat,
            available=stats.of(stat),
            spent=sum(c.cost for c in costs if c.stat == stat),
        )
        for stat in STATS
    )
    return Spending(
        tier=tier,
        stat_points_available=tier_budget.stat_points,
        stat_points_spent=sum(stats.of(stat) for stat in STATS),
        accounts=accounts,
        bonus_available=tier_budget.bonus_points,
        skills=costs,
    )


def check_sheet(sheet: Sheet, tier: str) -> list[Finding]:
    """Every error and warning of `sheet` as a new character of `tier` (S2-1…S2-6)."""
    account = spending(sheet, tier)
    return [
        *check_stats(sheet),
        *check_stat_points(account),
        *check_skills(sheet),
        *check_skill_points(account),
        *check_obsession(sheet),
        *check_passions(sheet),
        *check_wounds(sheet),
    ]


def _error(path: str, message: str, rule: str) -> Finding:
    return Finding(severity="error", path=path, message=f"{message} ({rule})", rule=rule)


def _warning(path: str, message: str, rule: str) -> Finding:
    return Finding(severity="warning", path=path, message=f"{message} ({rule})", rule=rule)


def check_stats(sheet: Sheet) -> list[Finding]:
    """S2-1: each stat 1–99 (a loaded sheet already is; a sheet built in code may not be)."""
    return [
        _error(f"$.stats.{stat}", f"{stat.title()} is {value}, must be 1–99", "S2-1")
        for stat in STATS
        if not 1 <= (value := sheet.stats.of(stat)) <= 99
    ]


def check_stat_points(account: Spending) -> list[Finding]:
    """S2-2: the four stats together spend the tier's stat points — more is an error, fewer a
    warning."""
    spent, available = account.stat_points_spent, account.stat_points_available
    text = f"stat points: {spent} spent, {available} available for {_a(account.tier)}"
    if spent > available:
        return [_error("$.stats", f"{spent - available} stat points over budget: {text}", "S2-2")]
    if spent < available:
        return [_warning("$.stats", f"{text} — {available - spent} unspent", "S2-2")]
    return []


def check_skills(sheet: Sheet) -> list[Finding]:
    """S2-3, S2-4 skill by skill: Initiative tied to Speed and not below half Speed; free skills
    not below 15; no skill above its tied stat (a warning: the GM may allow it)."""
    findings: list[Finding] = []
    stats = sheet.stats
    for i, skill in enumerate(sheet.skills):
        where = f"$.skills[{i}]"
        tied = stats.of(skill.stat)
        if is_initiative(skill):
            if skill.stat != "speed":
                findings.append(
                    _error(
                        f"{where}.stat",
                        f"{skill.name} is tied to {skill.stat.title()}; Initiative is a Speed "
                        "skill and starts at half Speed",
                        "S2-4",
                    )
                )
            elif skill.rating < stats.speed // 2:
                findings.append(
                    _warning(
                        f"{where}.rating",
                        f"{skill.name} {skill.rating} is below its start, half Speed "
                        f"{stats.speed} = {stats.speed // 2} (nothing is refunded)",
                        "S2-4",
                    )
                )
        if skill.free and skill.rating < FREE_SKILL_START:
            findings.append(
                _warning(
                    f"{where}.rating",
                    f"free skill {skill.name} {skill.rating} is below its start of "
                    f"{FREE_SKILL_START} (nothing is refunded)",
                    "S2-4",
                )
            )
        if skill.rating > tied:
            findings.append(
                _warning(
                    f"{where}.rating",
                    f"{skill.name} {skill.rating} is above its tied stat "
                    f"{skill.stat.title()} {tied}; the GM may allow it",
                    "S2-3",
                )
            )
    return findings


def check_skill_points(account: Spending) -> list[Finding]:
    """S2-3: each stat pays its skills; the pooled overflow must fit in the bonus points (an
    error naming every overflowing stat); points left unspent are a warning."""
    over = [a for a in account.accounts if a.over]
    needed, bonus = account.bonus_needed, account.bonus_available
    if needed > bonus:
        stats = "; ".join(
            f"{a.stat.title()}'s skills cost {a.spent}, {a.over} more than {a.stat.title()} {a.available}"
            for a in over
        )
        return [
            _error(
                "$.skills",
                f"{needed - bonus} skill points over budget: {stats}; those {needed} come from bonus "
                f"points, and {_a(account.tier)} has {bonus}",
                "S2-3",
            )
        ]
    unspent = [f"{a.stat.title()} {a.unspent}" for a in account.accounts if a.unspent]
    if needed < bonus:
        unspent.append(f"bonus {bonus - needed} of {bonus}")
    if unspent:
        return [_warning("$.skills", f"skill points unspent: {', '.join(unspent)}", "S2-3")]
    return []


def check_obsession(sheet: Sheet) -> list[Finding]:
    """S2-5 (C-9): exactly one obsession skill, one the sheet has."""
    if not sheet.obsession.strip():
        return [_error("$.obsession", "no obsession skill: name one of the sheet's skills", "S2-5")]
    if sheet.skill(sheet.obsession) is None:
        names = ", ".join(s.name for s in sheet.skills) or "none"
        return [
            _error(
                "$.obsession",
                f"the obsession {sheet.obsession!r} is not one of the sheet's skills ({names})",
                "S2-5",
            )
        ]
    return []


def check_passions(sheet: Sheet) -> list[Finding]:
    """S2-5 (C-10): three passions, one each of rage, fear and noble."""
    kinds = [p.kind for p in sheet.passions]
    if sorted(kinds) == sorted(("rage", "fear", "noble")):
        return []
    missing = [k for k in ("rage", "fear", "noble") if k not in kinds]
    repeated = sorted({k for k in kinds if kinds.count(k) > 1})
    parts = [f"{', '.join(missing)} missing"] if missing else []
    parts += [f"{k} {kinds.count(k)} times" for k in repeated]
    return [
        _error(
            "$.passions",
            f"{len(kinds)} passions given; need one each of rage, fear and noble — " + "; ".join(parts),
            "S2-5, C-10",
        )
    ]


def check_wounds(sheet: Sheet) -> list[Finding]:
    """S2-6: wound points maximum = Body (a warning otherwise)."""
    if sheet.wounds is not None and sheet.wounds.maximum != sheet.stats.body:
        return [
            _warning(
                "$.wounds.maximum",
                f"maximum wound points {sheet.wounds.maximum}, Body is {sheet.stats.body}",
                "S2-6",
            )
        ]
    return []


def _a(tier: str) -> str:
    return f"an {tier}" if tier[:1] in "aeiou" else f"a {tier}"


def check_weapons(sheet: Sheet, catalog: Mapping[str, Weapon]) -> list[Finding]:
    """Warnings for carried weapons that a scenario must define (not in `catalog`, keyed by
    case-folded name) or whose attack skill the sheet lacks (rolled untrained, C-7; C2-1)."""
    findings: list[Finding] = []
    for i, name in enumerate(sheet.weapons):
        weapon = catalog.get(name.casefold())
        if weapon is None:
            findings.append(
                _warning(
                    f"$.weapons[{i}]",
                    f"{name!r} is not in the weapon catalog; a scenario must define it",
                    "C2-1",
                )
            )
            continue
        skill = sheet.hand_to_hand if weapon.skill == "hand_to_hand" else weapon.skill
        if sheet.skill(skill) is None:
            findings.append(
                _warning(
                    f"$.weapons[{i}]",
                    f"{weapon.name} attacks with {skill}, which the sheet lacks: it is rolled untrained",
                    "C2-1, C-7",
                )
            )
    return findings
