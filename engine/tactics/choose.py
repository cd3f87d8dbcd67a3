"""Turning tactic rules into commands: conditions, target selectors, the action's command."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.commands.base import CommandBase
from engine.commands.combat import (
    Attack,
    BreakFree,
    ClearJam,
    Declaration,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    Flee,
    Squeeze,
    StandUp,
    Strike,
    SuppressiveFire,
    Surrender,
)
from engine.dice.source import DiceSource
from engine.rules.ua2.combat.attack import frenzy_attack
from engine.rules.ua2.combat.situation import hand_to_hand_rating, helpless
from engine.rules.ua2.table import Row, Table
from engine.state.weapons import Weapon
from engine.tactics.conditions import Condition, compile_when
from engine.tactics.rules import TacticRule


class Compiled:
    """A tactic rule ready to be tried: its fields read once, its conditions compiled."""

    __slots__ = (
        "attacks",
        "cherry",
        "condition",
        "do",
        "focus",
        "keep_dodging",
        "mode",
        "rule",
        "shots",
        "spare_helpless",
        "target",
        "weapon",
    )

    def __init__(self, rule: TacticRule, at_range: bool) -> None:
        self.rule = rule
        self.condition: Condition = compile_when(rule.when, at_range)
        self.do: str = rule.do
        self.target: str = rule.target
        self.focus: int = rule.focus
        self.attacks: int = rule.attacks
        self.mode: str = rule.mode
        self.weapon: str = rule.weapon
        self.shots: int = rule.shots
        self.cherry: str | None = rule.cherry
        self.keep_dodging: bool = rule.keep_dodging
        self.spare_helpless: bool = rule.spare_helpless


@dataclass(frozen=True)
class Profile:
    """What a scripted combatant knows of itself: its rules, preferred cherry, position; and
    each rule compiled (`compiled`, worked out once)."""

    rules: tuple[TacticRule, ...]
    cherry: str | None = None
    at_range: bool = False
    compiled: tuple[Compiled, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", tuple(Compiled(rule, self.at_range) for rule in self.rules))


def _enemies(t: Table, me: Row) -> list[Row]:
    return [c for c in t.rows if c.side != me.side and c.status == "active"]


def threat(c: Row) -> int:
    """How dangerous an enemy looks: its attack rating times what its weapon in hand can do
    (read from the row: its skills and its weapon as compiled code reads them)."""
    held = c.held
    if held is None:
        return 0
    arm = c.arm(held)
    if arm.firearm:
        return c.rating(arm.skill) * (arm.cap or 100)
    return hand_to_hand_rating(c) * (11 + arm.bonus)


def select_target(
    t: Table, me: Row, selector: str, profiles: Mapping[str, Profile], ai: DiceSource, *, spare_helpless: bool = False
) -> Row | None:
    """An enemy standing, by `selector` (see `pick_target`); a frenzied combatant's source first
    (M2-7); with `spare_helpless`, never a helpless one (C2-33): None when no one is left."""
    enemies = _enemies(t, me)
    reaction = me.reaction
    if reaction is not None and reaction.kind == "frenzy":  # M2-7: only the source
        forced = [c for c in enemies if c.id.casefold() == reaction.source.casefold()]
        if forced:
            return forced[0]
    if spare_helpless:
        enemies = [c for c in enemies if not helpless(c)]
    if not enemies:
        return None
    return pick_target(enemies, selector, me, profiles, ai)


def pick_target(enemies: Sequence[Row], selector: str, me: Row, profiles: Mapping[str, Profile], ai: DiceSource) -> Row:
    """A target selector over enemies that can be attacked (at least one), in scenario order:
    nearest: the first not at range, else the first; weakest/strongest: fewest/most wound
    points (the first on a tie); random: an AI choice; most_dangerous: highest threat;
    focusing_on_me: the first whose focus is on me; helpless: the first frozen or held (C2-33);
    those last two, else nearest."""
    if selector == "weakest" or selector == "strongest":
        best = enemies[0]
        for c in enemies:
            if (c.wounds < best.wounds) if selector == "weakest" else (c.wounds > best.wounds):
                best = c
        return best
    if selector == "random":
        return enemies[ai.choose(len(enemies))]
    if selector == "most_dangerous":
        best, most = enemies[0], threat(enemies[0])
        for c in enemies:
            danger = threat(c)
            if danger > most:
                best, most = c, danger
        return best
    if selector == "focusing_on_me":
        for c in enemies:
            if c.focus is not None and c.focus.target == me.id:
                return c
    elif selector == "helpless":
        for c in enemies:
            if helpless(c):
                return c
    for c in enemies:
        profile = profiles.get(c.id)
        if profile is None or not profile.at_range:
            return c
    return enemies[0]


def draw_choice(me: Row, named: str) -> Weapon | None:
    """The weapon a `draw` rule takes: the one it names, else the first carried that is not in hand."""
    if named:
        w = me.find_weapon(named)
        return w if w is not None and w.name != me.in_hand else None
    for w in me.arsenal:
        if w.name != "fists" and w.name != me.in_hand:
            return w
    return None


def _frenzied(me: Row) -> bool:
    return me.reaction is not None and me.reaction.kind == "frenzy"


#: M2-7: a frenzied combatant attacks its source every action; it may still do what attacking
#: needs (clear a jam, stand up, break free), never dodge, flee, surrender or lay down fire.
FRENZY_ACTIONS: Final = frozenset({"attack", "clear_jam", "stand_up", "break_free", "squeeze"})


def mode_fits(mode: str, weapon: Weapon) -> bool:
    """Whether an attack in this mode can be made with this weapon (C2-19, C2-20, C2-21)."""
    if mode == "throw":
        return weapon.name != "fists" and weapon.throwable
    if mode in ("disarm", "throw_person"):
        return weapon.kind != "firearm"
    return True


def _command_for(
    rule: Compiled,
    t: Table,
    me: Row,
    profile: Profile,
    profiles: Mapping[str, Profile],
    ai: DiceSource,
) -> CommandBase | None:
    """The command a rule asks for, or None when it cannot apply now (the next rule is tried)."""
    actor = me.id
    f = me
    weapon = f.weapon()
    frenzied = _frenzied(me)
    if rule.do == "attack":
        if f.held_by or f.holding:
            return None
        if rule.weapon and (w := f.weapon(rule.weapon)) is not None and w.name != f.in_hand:
            return Draw(actor=actor, weapon=w.name)
        if weapon is None or weapon.name in f.jammed:
            return None
        if weapon.name != "fists" and f.drawn_round == t.round:
            return None
        if not mode_fits(rule.mode, weapon):
            return None
        target = _attack_target(t, me, rule, profiles, ai)
        if target is None:
            return None
        if rule.mode == "disarm" and target.in_hand == "fists":
            return None  # C2-19: nothing to take
        cherry = rule.cherry or profile.cherry
        if rule.attacks > 1 and not f.extra_attack:  # a Second Helping is one attack (C2-30)
            strikes = tuple(Strike(target=target.id) for _ in range(rule.attacks))
            return Attack(actor=actor, strikes=strikes, mode=rule.mode, cherry=cherry)  # type: ignore[arg-type]
        return Attack(actor=actor, target=target.id, mode=rule.mode, cherry=cherry)  # type: ignore[arg-type]
    if frenzied and rule.do not in FRENZY_ACTIONS:
        return None  # M2-7: a frenzied combatant attacks its source
    gripped = bool(f.held_by or f.holding)
    if rule.do == "dodge":
        return None if f.held_by or f.holding else Dodge(actor=actor)
    if rule.do == "suppress":
        if weapon is None or weapon.kind != "firearm" or weapon.name in f.jammed or gripped:
            return None
        if f.drawn_round == t.round:
            return None  # C2-3: drawn this round
        field = tuple(c.id for c in _enemies(t, me))
        return SuppressiveFire(actor=actor, shots=rule.shots, field=field) if field else None
    if rule.do == "draw":
        choice = None if gripped else draw_choice(f, rule.weapon)
        return Draw(actor=actor, weapon=choice.name) if choice else None
    if rule.do == "clear_jam":
        return ClearJam(actor=actor) if weapon is not None and weapon.name in f.jammed else None
    if rule.do == "stand_up":
        return StandUp(actor=actor) if f.prone else None
    if rule.do == "break_free":
        return BreakFree(actor=actor) if f.held_by else None
    if rule.do == "squeeze":
        return Squeeze(actor=actor) if f.holding else None
    if rule.do == "flee":
        return None if f.held_by else Flee(actor=actor)
    if rule.do == "surrender":
        return Surrender(actor=actor)
    return DoNothing(actor=actor)


def _attack_target(t: Table, me: Row, rule: Compiled, profiles: Mapping[str, Profile], ai: DiceSource) -> Row | None:
    if me.reaction is not None and me.reaction.kind == "frenzy":
        # M2-7: only the source, whatever the rule's selector or a focus declared before says
        # (the focus may predate the frenzy); a source that is not a combatant forces nothing.
        source = t.by_id.get(me.reaction.source)
        if source is not None:
            return source if source.status == "active" and source.id != me.id else None
    if me.focus is not None:  # keep to the declared focus while its target stands (C2-5)
        focused = t.by_id.get(me.focus.target)
        if focused is not None and focused.status == "active" and not (rule.spare_helpless and helpless(focused)):
            return focused
    return select_target(t, me, rule.target, profiles, ai, spare_helpless=rule.spare_helpless)


def choose_command(t: Table, actor: str, profiles: Mapping[str, Profile], ai: DiceSource) -> CommandBase:
    """The first applicable rule's command; held → break free, holding → squeeze, else nothing."""
    me = t.by_id[actor]
    profile = profiles[actor]
    for rule in profile.compiled:
        if rule.condition.holds(t, me, ai):
            command = _command_for(rule, t, me, profile, profiles, ai)
            if command is not None:
                return command
    if me.held_by:
        return BreakFree(actor=actor)
    if me.holding:
        return Squeeze(actor=actor)
    forced = frenzy_attack(t, me)  # M2-7: no rule applies, but a frenzy attacks its source
    if forced is not None:
        return Attack(actor=actor, target=forced.target, cherry=profile.cherry)  # type: ignore[arg-type]
    return DoNothing(actor=actor)


def declarations(t: Table, profiles: Mapping[str, Profile], ai: DiceSource) -> Declare:
    """C2-4: focus shifts and continued dodges, from the rule each combatant would act on now."""
    out = []
    for fid in t.order:
        me = t.by_id.get(fid)
        if me is None or me.status != "active" or (me.reaction is not None and me.reaction.kind == "freeze"):
            continue
        f = me
        profile = profiles[fid]
        frenzied = _frenzied(me)
        for rule in profile.compiled:
            if frenzied and rule.do not in FRENZY_ACTIONS:
                continue  # M2-7: it would not act on this rule (see _command_for)
            if not rule.condition.holds(t, me, ai):
                continue
            if rule.do == "attack" and rule.focus and rule.attacks == 1 and not (f.held_by or f.holding):
                target = select_target(t, me, rule.target, profiles, ai, spare_helpless=rule.spare_helpless)
                if target is not None:
                    out.append(Declaration(id=fid, focus_target=target.id, focus=rule.rule.focus))
            elif rule.do == "dodge" and rule.keep_dodging and f.dodged_last_round and not (f.held_by or f.holding):
                out.append(Declaration(id=fid, continue_dodge=True))
            break
    return Declare(declarations=tuple(out))
