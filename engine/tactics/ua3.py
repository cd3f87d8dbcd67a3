"""ua3 tactics as data (U-22's declared actions): an ordered list of rules, first match wins,
and the presets scenario files name. `choose` turns them into a round's declarations and each
declared action into its command; it decides nothing (the rules judge every command) and its
own random choices come from the AI stream."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from engine.commands.base import CommandBase
from engine.commands.ua3 import AnswerCoercion, Coerce
from engine.commands.ua3_combat import (
    Aim,
    Attack,
    ClearJam,
    Declaration,
    Declare,
    Dodge,
    DoNothing,
    Finish,
    Flee,
    FullAuto,
    Grapple,
    GrappleEnd,
    GrappleMove,
    Ready,
    Suppress,
    Surrender,
)
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.rules.ua3.abilities import gauge_in
from engine.rules.ua3.coercion import coercible
from engine.rules.ua3.combat.situation import (
    FRENZY,
    can_act,
    firearms,
    frozen,
    grapple_of,
    grapple_side,
    helpless,
    standing,
    struggle,
    threat_of,
)
from engine.rules.ua3.harm import at_percent
from engine.rules.ua3.people import best_coercion
from engine.rules.ua3.table import Arm, Row, Table
from engine.state.ua3.combat import AttackMode, Burst, Called, LimbEffect
from engine.state.ua3.conflict import Conflict, Demand
from engine.state.ua3.sheet import GaugeName
from engine.tactics.ua3_rules import LEVEL_PERCENT, PRESETS, Ua3Action, Ua3Profile, Ua3TacticRule, Ua3When

# -- reading the table ---------------------------------------------------------------------------


def _enemies(t: Table, row: Row) -> list[Row]:
    return [r for r in t.rows if r.side != row.side and standing(r)]


def _weapon(row: Row) -> Arm | None:
    """The weapon in hand (None: fists)."""
    return row.in_hand_arm()


def _believed_dead(row: Row, me: Row) -> bool:
    return row.believed_dead_by == me.side


def _helpless_enemies(t: Table, row: Row) -> list[Row]:
    return [
        r for r in t.rows if r.side != row.side and r.status != "dead" and helpless(r) and not _believed_dead(r, row)
    ]


class When:
    """A rule's `Ua3When`, its conditions read once into plain fields (None: not given; a
    compiled build reads a struct's fields slowly), tested by `holds`."""

    __slots__ = (
        "allies_down",
        "armed",
        "chance",
        "enemies_at_least",
        "enemies_at_most",
        "failed_at_least",
        "grapple_advantage",
        "grappled",
        "hardened_at_least",
        "helpless_enemies_at_least",
        "holding_gun",
        "jammed",
        "reaction",
        "round_at_least",
        "round_at_most",
        "suppressed",
        "wound_percent",
        "wounds_at_least",
        "wounds_below",
    )

    def __init__(self, w: Ua3When) -> None:
        self.wound_percent: int | None = None if w.wound_level is None else LEVEL_PERCENT[w.wound_level]
        self.wounds_at_least: float | None = w.wounds_at_least
        self.wounds_below: float | None = w.wounds_below
        self.enemies_at_least: int | None = w.enemies_at_least
        self.enemies_at_most: int | None = w.enemies_at_most
        self.allies_down: bool | None = w.allies_down
        self.armed: bool | None = w.armed
        self.holding_gun: bool | None = w.holding_gun
        self.jammed: bool | None = w.jammed
        self.round_at_least: int | None = w.round_at_least
        self.round_at_most: int | None = w.round_at_most
        self.reaction: str | None = w.reaction
        self.grappled: bool | None = w.grappled
        self.grapple_advantage: bool | None = w.grapple_advantage
        self.suppressed: bool | None = w.suppressed
        self.hardened_at_least: tuple[tuple[str, int], ...] = tuple(w.hardened_at_least.items())
        self.failed_at_least: tuple[tuple[str, int], ...] = tuple(w.failed_at_least.items())
        self.helpless_enemies_at_least: int | None = w.helpless_enemies_at_least
        #: `chance` in thousandths (None: no chance)
        self.chance: int | None = None if w.chance is None else round(w.chance * 1000)

    def holds(self, t: Table, row: Row, ai: DiceSource) -> bool:
        """Every condition given holds, tried in a fixed order (`chance`, drawing from the AI
        stream, last)."""
        if self.wound_percent is not None or self.wounds_at_least is not None or self.wounds_below is not None:
            threshold = row.threshold(t.settings)
            share = row.wounds / threshold
            if self.wound_percent is not None and row.wounds < at_percent(threshold, self.wound_percent):
                return False
            if self.wounds_at_least is not None and share < self.wounds_at_least:
                return False
            if self.wounds_below is not None and share >= self.wounds_below:
                return False
        if self.enemies_at_least is not None or self.enemies_at_most is not None:
            enemies = len(_enemies(t, row))
            if self.enemies_at_least is not None and enemies < self.enemies_at_least:
                return False
            if self.enemies_at_most is not None and enemies > self.enemies_at_most:
                return False
        if self.allies_down is not None:
            down = any(r.side == row.side and r.id != row.id and not standing(r) for r in t.rows)
            if down != self.allies_down:
                return False
        if self.armed is not None or self.holding_gun is not None:
            weapon = _weapon(row)
            if self.armed is not None and (weapon is not None) != self.armed:
                return False
            if self.holding_gun is not None and (weapon is not None and weapon.gun) != self.holding_gun:
                return False
        if self.jammed is not None and row.jammed != self.jammed:
            return False
        if self.round_at_least is not None and t.round < self.round_at_least:
            return False
        if self.round_at_most is not None and t.round > self.round_at_most:
            return False
        if self.reaction is not None:
            kind = row.reaction.kind if row.reaction is not None else "none"
            if kind != self.reaction:
                return False
        if self.grappled is not None or self.grapple_advantage is not None:
            grapple = grapple_of(t, row.id)
            if self.grappled is not None and (grapple is not None) != self.grappled:
                return False
            if self.grapple_advantage is not None:
                has = grapple is not None and grapple.token == (
                    ADVANTAGE_A if grapple_side(t, row.id)[0] == "a" else ADVANTAGE_B
                )
                if has != self.grapple_advantage:
                    return False
        if self.suppressed is not None and (t.round <= row.suppressed_until) != self.suppressed:
            return False
        for gauge, n in self.hardened_at_least:
            if gauge_in(row.gauges, gauge).hardened < n:
                return False
        for gauge, n in self.failed_at_least:
            if gauge_in(row.gauges, gauge).failed < n:
                return False
        least = self.helpless_enemies_at_least
        if least is not None and len(_helpless_enemies(t, row)) < least:
            return False
        chance = self.chance
        return chance is None or ai.choose(1000) < chance


class Rule:
    """A `Ua3TacticRule` ready to be tried: its fields read once, its conditions compiled."""

    __slots__ = (
        "burst",
        "called",
        "demand",
        "do",
        "fists_crit",
        "gauge",
        "grapple_end",
        "grapple_move",
        "limb",
        "mode",
        "spare_helpless",
        "target",
        "threat",
        "two_targets",
        "weapon",
        "when",
    )

    def __init__(self, rule: Ua3TacticRule) -> None:
        self.do: Ua3Action = rule.do
        self.when = When(rule.when)
        self.target: str = rule.target
        self.two_targets: bool = rule.two_targets
        self.weapon: str = rule.weapon
        self.mode: AttackMode = rule.mode
        self.called: Called = rule.called
        self.limb: LimbEffect = rule.limb
        self.burst: Burst = rule.burst
        self.gauge: GaugeName | None = rule.gauge
        self.demand: Demand = rule.demand
        self.threat: str = rule.threat
        self.grapple_move: GrappleMove | None = rule.grapple_move
        self.grapple_end: GrappleEnd = rule.grapple_end
        self.fists_crit: Literal["unconscious", "dead"] = rule.fists_crit
        self.spare_helpless: bool = rule.spare_helpless


class Compiled:
    """Profiles' rules, compiled once each: found again by the profile's identity (a batch's
    few profiles, looked up on every declaration and action), at most `_COMPILED_MAX` kept."""

    def __init__(self) -> None:
        self.profiles: list[Ua3Profile] = []
        self.rules: list[tuple[Rule, ...]] = []

    def of(self, profile: Ua3Profile) -> tuple[Rule, ...]:
        profiles = self.profiles
        for i in range(len(profiles)):
            if profiles[i] is profile:
                return self.rules[i]
        if len(profiles) >= _COMPILED_MAX:
            self.profiles, self.rules = [], []
        compiled = tuple(Rule(rule) for rule in profile.rules)
        self.profiles.append(profile)
        self.rules.append(compiled)
        return compiled


_COMPILED_MAX: Final = 256
ADVANTAGE_A: Final = "advantage_a"
ADVANTAGE_B: Final = "advantage_b"
_COMPILED: Final = Compiled()


def rules_of(profile: Ua3Profile) -> tuple[Rule, ...]:
    """The profile's rules, compiled (once)."""
    return _COMPILED.of(profile)


def holds(t: Table, row: Row, when: Ua3When, ai: DiceSource) -> bool:
    """Every condition of `when` holds (`chance` draws from the AI stream, last)."""
    return When(when).holds(t, row, ai)


def _danger(row: Row) -> tuple[int, int]:
    weapon = _weapon(row)
    kind = 2 if weapon is not None and weapon.gun else 1 if weapon is not None else 0
    gun = firearms(row)
    return kind, gun.rating if gun is not None and kind == 2 else struggle(row).rating


def select(t: Table, row: Row, rule: Rule, ai: DiceSource, count: int = 1) -> tuple[str, ...]:
    """The rule's targets: standing enemies (helpless ones for `helpless`), ordered by its selector."""
    if rule.target == "helpless":
        pool = _helpless_enemies(t, row)
    else:
        pool = _enemies(t, row)
        if rule.spare_helpless:
            pool = [r for r in pool if not helpless(r)]
    threat = threat_of(row.reaction.source) if row.reaction is not None else ""
    if row.reaction is not None and row.reaction.kind == "frenzy" and threat in t.by_id:
        pool = [r for r in pool if r.id == threat]
    if not pool:
        return ()
    selector = rule.target
    if selector == "weakest":
        settings = t.settings
        pool = _sorted(pool, [(r.threshold(settings) - r.wounds, 0) for r in pool])
    elif selector == "strongest":
        pool = _sorted(pool, [(-struggle(r).rating, 0) for r in pool])
    elif selector == "most_dangerous":
        pool = _sorted(pool, [_danger(r) for r in pool], descending=True)
    elif selector == "random":
        first = pool.pop(ai.choose(len(pool)))
        pool.insert(0, first)
    if count == 1:  # most rules aim at one (no slice, no list for the tuple)
        return (pool[0].id,)
    return tuple(r.id for r in pool[:count])


def _sorted(pool: list[Row], keys: list[tuple[int, int]], *, descending: bool = False) -> list[Row]:
    """`pool` in the order of `keys` (lowest first, or highest with `descending`), a tie keeping
    the order of the pool (as a stable sort by each one's key would: an insertion sort)."""
    n = len(pool)
    if n < 2:
        return pool
    sign = -1 if descending else 1
    order = list(pool)
    firsts = [sign * a for a, _ in keys]
    seconds = [sign * b for _, b in keys]
    for i in range(1, n):
        row, a, b, j = order[i], firsts[i], seconds[i], i - 1
        while j >= 0 and (firsts[j] > a or (firsts[j] == a and seconds[j] > b)):
            order[j + 1], firsts[j + 1], seconds[j + 1] = order[j], firsts[j], seconds[j]
            j -= 1
        order[j + 1], firsts[j + 1], seconds[j + 1] = row, a, b
    return order


def _feasible(t: Table, row: Row, rule: Rule, weapon: Arm | None, grapple: Conflict | None) -> bool:
    """Whether the rules would take this declaration now (so a rule that cannot apply is
    skipped); `weapon`: the one in hand (`_weapon`), `grapple`: the one it is in."""
    if grapple is not None:  # U-17: its action is its grapple, whatever else a rule would do
        return rule.do == "grapple"
    action = rule.do
    if row.reaction is not None and row.reaction.kind == "flee":
        return action == "flee"
    if row.reaction is not None and row.reaction.kind == "frenzy" and threat_of(row.reaction.source) in t.by_id:
        if action not in FRENZY and action != "nothing":  # U-23: a frenzy only attacks its threat
            return False
    if action == "grapple":
        return True
    if action in ("attack", "aim") and rule.mode == "strike" and weapon is not None and weapon.gun:
        return firearms(row) is not None and not (row.jammed and action == "attack")
    if action in ("attack",) and rule.mode in ("throw_person", "disarm", "throw"):
        return weapon is None or not weapon.gun
    if action == "full_auto":
        return weapon is not None and weapon.full_auto and not row.jammed and firearms(row) is not None
    if action == "suppress":
        return weapon is not None and weapon.gun and not row.jammed
    if action == "ready":
        return _best_weapon(row) is not None
    if action == "clear_jam":
        return row.jammed
    return True


def _best_weapon(row: Row) -> Arm | None:
    """The weapon to ready: a gun when it may shoot one (U-5), else the best melee weapon."""
    arms = row.arms()
    if not arms:
        return None
    choice = None  # the first gun, else the first melee weapon of the highest bonus
    if firearms(row) is not None:
        for w in arms:
            if w.gun:
                choice = w
                break
    if choice is None:
        for w in arms:
            if w.melee and (choice is None or w.bonus > choice.bonus):
                choice = w
    if choice is None or choice.name == row.in_hand:
        return None
    return choice


def declaration(t: Table, row: Row, profile: Ua3Profile, ai: DiceSource) -> Declaration:
    """U-22: the first rule that holds and can be declared (nothing when none; in a grapple,
    U-17, its grapple)."""
    if not can_act(row):
        return Declaration(actor=row.id, action="nothing")
    weapon, grapple = _weapon(row), grapple_of(t, row.id)  # the declaration changes neither
    for rule in rules_of(profile):
        if not _feasible(t, row, rule, weapon, grapple) or not rule.when.holds(t, row, ai):
            continue
        action = rule.do
        if action in ("attack", "full_auto", "suppress", "aim", "finish", "coerce"):
            count = 2 if (rule.two_targets and action in ("attack", "full_auto")) else 1
            if action == "suppress":
                count = 16
            targets = select(t, row, rule, ai, count)
            if not targets:
                continue
            gauge = _gauge(row, rule, t.by_id[targets[0]]) if action == "coerce" else ""
            return Declaration(actor=row.id, action=action, targets=targets, weapon=rule.weapon, gauge=gauge)
        if action == "grapple":
            if grapple is not None:
                return Declaration(actor=row.id, action="grapple")
            targets = tuple(x for x in select(t, row, rule, ai, 16) if grapple_of(t, x) is None)[:1]
            if not targets:
                continue
            return Declaration(actor=row.id, action="grapple", targets=targets)
        if action == "ready":
            best = _best_weapon(row)
            assert best is not None
            return Declaration(actor=row.id, action="ready", weapon=best.name)
        return Declaration(actor=row.id, action=action)
    return Declaration(actor=row.id, action="nothing" if grapple is None else "grapple")


def profile_of(profiles: Mapping[str, Ua3Profile], actor: str) -> Ua3Profile | None:
    """`actor`'s profile: a dict's (a batch's) looked up directly (a compiled build calls a
    mapping's `get` by name)."""
    if isinstance(profiles, dict):
        found: Ua3Profile | None = profiles.get(actor)
        return found
    return profiles.get(actor)


def declarations(t: Table, profiles: Mapping[str, Ua3Profile], ai: DiceSource) -> Declare:
    """U-22: every scripted combatant able to act that has not declared yet declares (nothing,
    too); the round closes once everyone able to act has (the players, in a session, after)."""
    out = []
    for row in t.rows:
        profile = profile_of(profiles, row.id)
        if profile is not None and can_act(row) and row.declared is None:
            out.append(declaration(t, row, profile, ai))
    return Declare(declarations=tuple(out))


def _gauge(row: Row, rule: Rule, target: Row) -> GaugeName:
    """U-15: the rule's gauge, else the one the coercer's best coercing rating against `target`
    works on (U-19 `coerces`, U-20 a relationship with the target)."""
    return rule.gauge if rule.gauge is not None else best_coercion(row, target)[0]


def _coercion(t: Table, row: Row, rule: Rule, target: Row) -> CommandBase:
    """U-15: the rule's coercion of `target` — demanding what the rule says, else surrender —
    as the rules would take it (`coercible`: never one they refuse, such as an unconscious
    target); nothing when they would take neither."""
    demands: tuple[Demand, ...] = (rule.demand, "surrender")
    for demand in demands:
        try:
            coercible(t, row.id, target.id, demand)
        except Refused:
            continue
        gauge, threat = _gauge(row, rule, target), rule.threat or "a credible threat"
        return Coerce(coercer=row.id, target=target.id, gauge=gauge, threat=threat, demand=demand)
    return DoNothing(actor=row.id)


def _rule_for(profile: Ua3Profile, action: Ua3Action) -> Rule:
    for rule in rules_of(profile):
        if rule.do == action:
            return rule
    return Rule(Ua3TacticRule(do=action))


def answer(t: Table, profiles: Mapping[str, Ua3Profile]) -> CommandBase | None:
    """U-15: a scripted target's answer to a coercion waiting for it."""
    for pending in t.coercions:
        profile = profiles.get(pending.target)
        if profile is None:
            continue
        row = t.by_id[pending.target]
        choice = profile.coerced
        if choice == "auto":
            choice = "refuse" if gauge_in(row.gauges, pending.gauge).hardened >= pending.rank else "acquiesce"
        return AnswerCoercion(target=row.id, answer="refuse" if choice == "refuse" else "acquiesce")
    return None


def act(t: Table, actor: str, profiles: Mapping[str, Ua3Profile], ai: DiceSource) -> CommandBase:
    """The command carrying out `actor`'s declared action (nothing when its targets are gone)."""
    row = t.by_id[actor]
    profile = profile_of(profiles, actor) or Ua3Profile(rules=PRESETS["aggressive"])
    grapple = grapple_of(t, actor)
    declared = row.declared
    action = declared.action if declared is not None else "nothing"
    if grapple is not None:
        rule = _rule_for(profile, "grapple")
        key, opponent = grapple_side(t, actor)
        move: GrappleMove = "roll"
        if grapple.token == (ADVANTAGE_A if key == "a" else ADVANTAGE_B):
            if rule.grapple_move is not None:
                move = rule.grapple_move
            elif key == "a":
                move = "wounds"  # U-17 Decision: automated, the attacker with advantage deals the wounds
        other = t.by_id[opponent]
        if move == "disarm" and other.in_hand == "fists":
            move = "wounds" if key == "a" else "roll"
        if move == "shoot":
            gun = _weapon(row)
            if gun is None or not gun.gun or row.jammed or firearms(row) is None:
                move = "roll"
        if move in ("wounds", "disarm") and key != "a":
            move = "roll"
        if move == "swap" and key != "b":
            move = "roll"
        return Grapple(actor=actor, move=move, end=rule.grapple_end)
    if declared is None:
        return DoNothing(actor=actor)
    rule = _rule_for(profile, action)
    live = tuple(x for x in declared.targets if t.by_id[x].status not in ("dead", "fled"))
    if not live and action in ("attack", "full_auto", "suppress", "aim", "finish", "grapple", "coerce"):
        return DoNothing(actor=actor)
    if action == "attack":
        return Attack(
            actor=actor, targets=live, mode=rule.mode, called=rule.called, limb=rule.limb, fists_crit=rule.fists_crit
        )
    if action == "full_auto":
        return FullAuto(actor=actor, targets=live, burst=rule.burst)
    if action == "suppress":
        return Suppress(actor=actor, targets=live)
    if action == "aim":
        return Aim(actor=actor, target=live[0])
    if action == "finish":
        target = t.by_id[live[0]]
        if not helpless(target) or target.status == "dead":
            return DoNothing(actor=actor)
        return Finish(actor=actor, target=live[0])
    if action == "grapple":
        if grapple_of(t, live[0]) is not None or not standing(t.by_id[live[0]]):
            return DoNothing(actor=actor)
        return Grapple(actor=actor, target=live[0], end=rule.grapple_end)
    if action == "coerce":
        return _coercion(t, row, rule, t.by_id[live[0]])
    if action == "ready":
        return Ready(actor=actor, weapon=declared.weapon)
    if action == "clear_jam":
        return ClearJam(actor=actor)
    if action == "dodge":
        return Dodge(actor=actor)
    if action == "flee":
        return Flee(actor=actor)
    if action == "surrender":
        return Surrender(actor=actor)
    return DoNothing(actor=actor)


__all__ = ["PRESETS", "Ua3Profile", "Ua3TacticRule", "Ua3When", "act", "answer", "declarations", "frozen"]
