"""Attacks (C2-1…C2-30): plan the attack, resolve each strike, apply damage, effects, cherries."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.commands.combat import Attack, ReactionChoice, RollPassion, Strike
from engine.dice.checks import CheckResult, CheckSpec, Prefer, Shift, roll_check
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events import combat as ev
from engine.rules.ua2.apply import attack_on, trigger_of
from engine.rules.ua2.combat import damage as dmg
from engine.rules.ua2.combat.aftermath import (
    hit_numbers,
    inflict,
    knock_down,
    left_fight,
    settle_wounds,
    violence_after_attack,
)
from engine.rules.ua2.combat.cherries import apply_cherry, cherry_damage
from engine.rules.ua2.combat.dodge import dodge_outcome, dodge_with_passion
from engine.rules.ua2.combat.situation import (
    OUT_OF_FIGHT,
    able_to_act,
    attack_spec,
    combatant,
    roll_shifts,
    stuck,
)
from engine.rules.ua2.combat.turns import end_turn, open_turn
from engine.rules.ua2.passion import RollPassionUse, passion_on_failure, require_passion
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import FISTS_ARM, Arm, Row, Table
from engine.state.encounter import Reaction
from engine.state.sheet import PassionKind
from engine.state.weapons import Weapon

MAX_ATTACKS_PER_ROUND: Final = 3  # C2-8
DISARM_MINIMUM: Final = 30  # C2-19
THROW_PERSON_MINIMUM: Final = 30  # C2-21
HELD_SHIFT: Final = 10  # C2-27
#: C2-1: the outcomes of an attack roll that hit (a major check has no weak success).
HITS: Final = frozenset({"crit", "matched_success", "success"})

#: (Final: a compiled build keeps them in C variables rather than looking them up by name per call)
replace: Final = msgspec.structs.replace
astuple: Final = msgspec.structs.astuple
UnsetType: Final = msgspec.UnsetType


class Plan:
    """A checked attack: who, with what, with which skill and shifts, against whom.

    `spec` holds the attacker's own shifts; `pool` is what C2-8 divides: `spec`'s target, plus,
    when every attack goes at one target, that target's shifts (it is focusing, it is held).
    With several targets each part gets its own target's shifts after dividing (a decision:
    they differ by target, so they cannot be added before). `kind` is the AttackResolved weapon
    kind. The command's fields
    the strikes read are kept here too, read once (a compiled build reads a struct's slowly)."""

    __slots__ = (
        "arm",
        "attacker",
        "flipped",
        "kind",
        "mode",
        "passion",
        "planned_at",
        "pool",
        "reactions",
        "roll_passion",
        "side",
        "single_target",
        "spec",
        "strikes",
        "weapon",
    )

    def __init__(
        self,
        attacker: Row,
        weapon: Weapon,
        mode: str,
        spec: CheckSpec,
        strikes: tuple[tuple[str, int | None], ...],
        single_target: bool,
        pool: int,
    ) -> None:
        self.attacker = attacker
        self.weapon = weapon
        #: the weapon's fields as the strikes read them
        self.arm = attacker.arm(weapon)
        self.mode = mode
        self.spec = spec
        self.strikes = strikes
        self.single_target = single_target
        self.pool = pool
        kind = self.arm.kind
        self.kind: str = kind
        self.passion: PassionKind | None = None
        #: C-10: a passion on a roll the attack makes someone roll (None: none)
        self.roll_passion: RollPassion | None = None
        self.flipped: bool | None = None
        #: M2-4: the reactions the command chose, by combatant (None: none chosen)
        self.reactions: dict[str, Reaction] | None = None
        #: the single target's own shifts as planned, and the table's version then (None: several
        #: targets); a strike made before anything changed uses them rather than working them out again
        self.side: list[Shift] | None = None
        self.planned_at = -1


def _weapon_for(t: Table, fighter: Row, named: str, mode: str) -> Weapon:
    actor = fighter.id
    weapon = fighter.held if not named else fighter.weapon(named)
    if weapon is None:
        raise Refused(f"{actor} does not carry a {named or fighter.in_hand}")
    arm = fighter.arm(weapon)
    name = arm.name
    if mode in ("disarm", "throw_person") and arm.firearm:
        raise Refused(f"a {mode.replace('_', ' ')} is a hand-to-hand attack, not with a gun (C2-19, C2-21)")
    if name != "fists":
        if weapon is not fighter.held and name.casefold() != fighter.in_hand.casefold():
            raise Refused(f"the {name} is not in {actor}'s hand", hint="draw it first (C2-3)")
        if fighter.drawn_round == t.round and t.phase != "ambush":
            raise Refused(f"the {name} was drawn this round and cannot be used until next round (C2-3)")
    if fighter.jammed and name in fighter.jammed:
        raise Refused(f"the {name} is jammed", hint="clear the jam first (C2-3)")
    if mode == "throw" and (name == "fists" or not arm.throwable):
        raise Refused(f"a {name} is not something to throw (C2-20)")
    return weapon


def _strikes(target: str, strikes: tuple[Strike, ...]) -> tuple[tuple[str, int | None], ...]:
    if strikes and target:
        raise Refused("give either a target or strikes, not both")
    if strikes:
        return tuple((s.target, s.share) for s in strikes)
    if not target:
        raise Refused("an attack needs a target")
    return ((target, None),)


#: Where each of the Attack command's fields is in `astuple(command)`: `plan_attack` reads them
#: all with one call (a compiled build reads a struct's fields one by one, slowly).
_FIELD = {name: i for i, name in enumerate(Attack.__struct_fields__)}
_ACTOR: Final = _FIELD["actor"]
_TARGET: Final = _FIELD["target"]
_STRIKES: Final = _FIELD["strikes"]
_WEAPON: Final = _FIELD["weapon"]
_MODE: Final = _FIELD["mode"]
_MINIMUM: Final = _FIELD["minimum"]
_SKILL: Final = _FIELD["skill"]
_SHIFTS: Final = _FIELD["shifts"]
_MONKEY_REDIRECT: Final = _FIELD["monkey_redirect"]
_FLIPPED: Final = _FIELD["flipped"]
_PASSION: Final = _FIELD["passion"]
_REACTIONS: Final = _FIELD["reactions"]
_ROLL_PASSION: Final = _FIELD["roll_passion"]


def plan_attack(t: Table, command: Attack) -> Plan:
    fields = astuple(command)
    actor: str = fields[_ACTOR]
    mode: str = fields[_MODE]
    passion: PassionKind | None = fields[_PASSION]
    attacker = combatant(t, actor)
    if attacker.held_by:
        raise Refused(f"{actor} is held by {attacker.held_by} and cannot attack", hint="break free (C2-27)")
    if attacker.holding:
        raise Refused(f"{actor} holds {attacker.holding} and can make no other attack (C2-27)")
    if attacker.suppressing:
        raise Refused(
            f"{actor} is keeping up suppressive fire: that is this round's action (C2-18)",
            hint="lay it down (suppress) or do nothing",
        )
    weapon = _weapon_for(t, attacker, fields[_WEAPON], mode)
    if passion is not None:
        require_passion(t, attacker, passion)
    chosen: tuple[ReactionChoice, ...] | msgspec.UnsetType = fields[_REACTIONS]
    reactions: dict[str, Reaction] | None = None
    if not isinstance(chosen, UnsetType):
        for choice in chosen:
            if choice.id not in t.by_id:
                raise Refused(
                    f"no combatant {choice.id!r} to choose a reaction for (M2-4)",
                    hint=f"combatants: {', '.join(r.id for r in t.rows)}",
                )
        reactions = {r.id: r.reaction for r in chosen}
    strikes = _strikes(fields[_TARGET], fields[_STRIKES])
    count = len(strikes)
    if count > MAX_ATTACKS_PER_ROUND:
        raise Refused(f"at most {MAX_ATTACKS_PER_ROUND} attacks a round (C2-8)")
    if attacker.extra_attack and count > 1:
        raise Refused("a Second Helping is one more attack, at the full skill (C2-30)")
    if attacker.attacks_this_round + count > MAX_ATTACKS_PER_ROUND and not attacker.extra_attack:
        raise Refused(f"{actor} has made {attacker.attacks_this_round} attacks this round; at most 3 (C2-8)")
    if mode != "strike" and count > 1:
        raise Refused("disarms and throws are single attacks")
    first = strikes[0][0]
    targets = (first,) if count == 1 else tuple(dict.fromkeys(target for target, _ in strikes))
    reaction = attacker.reaction
    for tid in targets:
        target = combatant(t, tid)
        if tid == actor:
            raise Refused(f"{actor} cannot attack itself")
        if target.status in ("dead", "fled"):
            raise Refused(f"{tid} is {target.status}")
        if reaction is not None and reaction.kind == "frenzy" and reaction.source in t.by_id:
            if tid.casefold() != reaction.source.casefold():
                raise Refused(f"{actor} is in a frenzy and attacks only {reaction.source} (M2-7)")
    monkey_redirect: str = fields[_MONKEY_REDIRECT]
    if monkey_redirect:
        redirect = combatant(t, monkey_redirect)
        if redirect.id == actor:
            raise Refused("a Monkey Dodge sends the next attack on the attacker elsewhere, not back to it (C2-28)")
    if mode == "disarm" and t.by_id[first].in_hand == "fists":
        raise Refused(f"{first} holds no weapon to take (C2-19)")
    shifts: list[Shift] = [*fields[_SHIFTS], *roll_shifts(t, actor)]
    single = len(targets) == 1
    focus = attacker.focus
    if single and focus is not None and focus.target == first:
        shifts.append(Shift(f"focus on {focus.target} (C2-5)", focus.amount))
    minimum: int | None = fields[_MINIMUM]
    if minimum is not None and not 1 <= minimum <= 100:
        raise Refused(f"a minimum roll is 1–100, not {minimum} (C-8)")
    if mode == "disarm":
        minimum = max(minimum or 0, DISARM_MINIMUM)
    elif mode == "throw_person":
        minimum = max(minimum or 0, THROW_PERSON_MINIMUM)
    spec, pool = attack_spec(attacker, weapon, mode, fields[_SKILL])
    if shifts or minimum is not None:
        for shift in shifts:
            pool += shift.amount
        spec = replace(spec, shifts=tuple(shifts), minimum=minimum)
    side = target_shifts(t, actor, first) if single else None
    if side is not None:
        for shift in side:
            pool += shift.amount
    _check_shares(pool, strikes)
    plan = Plan(attacker, weapon, mode, spec, strikes, single, pool)
    plan.side, plan.planned_at = side, t.version
    plan.passion, plan.flipped, plan.reactions = passion, fields[_FLIPPED], reactions
    roll_passion: RollPassion | msgspec.UnsetType = fields[_ROLL_PASSION]
    if not isinstance(roll_passion, UnsetType):
        plan.roll_passion = _checked_roll_passion(t, roll_passion, targets)
    return plan


def _checked_roll_passion(t: Table, use: RollPassion, targets: tuple[str, ...]) -> RollPassion:
    """C-10: a dodger is a target of this attack and dodging; that passion is unspent."""
    who = combatant(t, use.actor)
    if use.roll == "dodge":
        if who.id not in targets:
            raise Refused(f"{who.id} is not a target of this attack, so it makes no dodge in it (C-10)")
        if not who.dodging:
            raise Refused(f"{who.id} is not dodging, so it rolls no dodge to change (C2-15, C-10)")
    require_passion(t, who, use.passion)
    return msgspec.structs.replace(use, actor=who.id)


def frenzy_attack(t: Table, row: Row) -> Attack | None:
    """M2-7: the attack a frenzied fighter makes on its source, if it can make one now (the
    source stands and the attack passes every check `plan_attack` makes); else None."""
    reaction = row.reaction
    if reaction is None or reaction.kind != "frenzy":
        return None
    source = t.by_id.get(reaction.source)
    if source is None or source.id == row.id or source.status != "active":
        return None
    command = Attack(actor=row.id, target=source.id)
    try:
        plan_attack(t, command)
    except Refused:
        return None
    return command


def target_shifts(t: Table, attacker: str, target: str) -> list[Shift]:
    """Shifts an attack gets from its target: it is focusing (C2-5), it is held (C2-27)."""
    out = []
    target_fighter = t.by_id[target]
    if target_fighter.focus is not None:
        out.append(Shift(f"{target} is focusing (C2-5)", target_fighter.focus.amount))
    if target_fighter.held_by and target_fighter.held_by != attacker:
        out.append(Shift(f"{target} is held (C2-27)", HELD_SHIFT))
    return out


def _target_shifts(t: Table, plan: Plan, target: str) -> list[Shift]:
    """`target_shifts` for a strike: as planned when it goes at the planned single target and
    nothing has changed since (the table's version)."""
    planned = plan.side
    if planned is not None and t.version == plan.planned_at and target == plan.strikes[0][0]:
        return planned
    return target_shifts(t, plan.attacker.id, target)


def _check_shares(total: int, strikes: tuple[tuple[str, int | None], ...]) -> None:
    """C2-8: each part ≥ 1, and together no more than the target after shifts."""
    if len(strikes) == 1 and strikes[0][1] is None:
        return
    shares = _shares(total, strikes)
    if any(s < 1 for s in shares) or sum(shares) > total:
        raise Refused(
            f"cannot divide a target of {total} into {', '.join(map(str, shares))}",
            hint="each part at least 1, together at most the target (C2-8)",
        )


def _shares(total: int, strikes: tuple[tuple[str, int | None], ...]) -> list[int]:
    given = [s for _, s in strikes]
    if all(s is not None for s in given):
        return [int(s) for s in given if s is not None]
    free = [i for i, s in enumerate(given) if s is None]
    rest = total - sum(s for s in given if s is not None)
    out = [s or 0 for s in given]
    for n, i in enumerate(free):
        out[i] = rest // len(free) + (1 if n < rest % len(free) else 0)
    return out


def _strike_spec(
    t: Table, plan: Plan, target: str, share: int | None, part: int, parts: int, *, side_shifts: bool = True
) -> CheckSpec:
    """One part's check. A part's target is its share (C2-8), plus — with several targets — its
    own target's shifts, once per target (never once per part: the seed adds shifts before dividing)."""
    side = _target_shifts(t, plan, target) if side_shifts or plan.single_target else []
    spec = replace(plan.spec, shifts=(*plan.spec.shifts, *side)) if side else plan.spec
    if share is None:
        return spec
    undivided = spec.target if plan.single_target else plan.spec.target
    if share is not None and share != undivided:
        spec = CheckSpec(
            kind=spec.kind,
            rating=spec.rating,
            stat=spec.stat,
            untrained=spec.untrained,
            shifts=(
                *spec.shifts,
                Shift(f"divided, part {part} of {parts}: {share} of {undivided} (C2-8)", share - undivided),
            ),
            minimum=spec.minimum,
            flip=spec.flip,
            label=spec.label,
        )
    return spec


def roll_attack(spec: CheckSpec, weapon: Weapon, dice: DiceSource, flipped: bool | None, who: str = "") -> CheckResult:
    """C-11: a stated orientation, else the better outcome; ties → higher value for a gun."""
    prefer: Prefer = "high" if weapon.kind == "firearm" else "as_rolled"
    return roll_check(spec, dice, prefer=prefer, flipped=flipped, who=who, rule="C-1", what="attack")


def _roll_strike(spec: CheckSpec, arm: Arm, dice: DiceSource, flipped: bool | None, who: str) -> CheckResult:
    """`roll_attack` with the weapon as the strikes read it."""
    prefer: Prefer = "high" if arm.firearm else "as_rolled"
    return roll_check(spec, dice, prefer=prefer, flipped=flipped, who=who, rule="C-1", what="attack")


def attack(sink: Sink, command: Attack, dice: DiceSource) -> None:
    t = sink.table
    open_turn(sink, command.actor, dice=dice, helping=True)
    plan = plan_attack(t, command)
    shares: list[int | None] = (
        list(_shares(plan.pool, plan.strikes)) if len(plan.strikes) > 1 or plan.strikes[0][1] else [None]
    )
    parts = len(plan.strikes)
    aimed: set[str] = set()
    passion = PassionUse()
    rolls = RollPassionUse(plan.roll_passion) if plan.roll_passion is not None else None
    attacker = plan.attacker
    for i in range(parts):
        # A fighter put out of the fight, or frozen (M2-7), by an earlier part makes no more;
        # one who took a Kung Fu Grip makes no other attack (C2-27).
        if t.phase == "ended" or not able_to_act(attacker) or attacker.holding:
            break
        strike(sink, plan, command, plan.strikes[i][0], shares[i], i + 1, parts, dice, aimed, passion, rolls)
    if plan.mode == "throw":
        sink.emit(ev.WeaponLost(id=command.actor, weapon=plan.arm.name, rule="C2-20"))
    end_turn(sink, dice)


class PassionUse:
    """C-10 in an attack: the passion the command names is spent at most once, on the first
    failed roll it can change."""

    __slots__ = ("spent",)

    def __init__(self) -> None:
        self.spent = False


def strike(
    sink: Sink,
    plan: Plan,
    command: Attack,
    target: str,
    share: int | None,
    part: int,
    parts: int,
    dice: DiceSource,
    aimed: set[str],
    passion: PassionUse,
    rolls: RollPassionUse | None = None,
) -> None:
    """One attack roll against one target, with everything that follows from it. `aimed` holds the
    targets earlier parts of this attack went at (their own shifts count once)."""
    t = sink.table
    attacker_id = plan.attacker.id
    target_fighter = t.by_id[target]
    if target_fighter.monkey_dodge:
        redirect = target_fighter.monkey_redirect
        valid = (c := t.by_id.get(redirect)) is not None and c.status not in OUT_OF_FIGHT and redirect != attacker_id
        sink.emit(ev.MonkeyDodged(protected=target, attacker=attacker_id, redirected_to=redirect if valid else ""))
        if not valid:
            return
        target = redirect
        target_fighter = t.by_id[target]
    target_c = target_fighter
    if target_c.status in ("dead", "fled"):
        return
    first_at_target = target not in aimed
    aimed.add(target)
    spec = _strike_spec(t, plan, target, share, part, parts, side_shifts=first_at_target)
    arm = plan.arm
    result = _roll_strike(spec, arm, dice, plan.flipped, attacker_id)
    if plan.passion is not None and not passion.spent:
        spent = passion_on_failure(
            plan.attacker,
            plan.passion,
            command.passion_mode,
            result,
            dice,
            prefer_high=arm.firearm,
        )
        if spent is not None:  # C-10: once per attack, on the first failed roll it can change
            sink.emit(spent)
            passion.spent = True
            result = spent.after
    outcome = result.outcome
    note = ""
    if outcome == "matched_success" and plan.attacker.no_match_benefits:
        outcome = "success"  # C2-30 Turning Tide: no benefit from matches
        note = "Turning Tide: no benefit from the match (C2-30)"
    hand = not arm.firearm
    thrown = plan.mode == "throw"
    kind = plan.kind
    trigger = trigger_of(kind, result.outcome)  # M2-8: a jammed shot shoots at no one
    first_trigger = bool(trigger) and trigger not in target_c.triggered
    helpless = target_c.status != "active" or stuck(target_c) or bool(target_c.held_by)  # M2-8, C2-33
    was_alive = target_c.status != "dead"

    dodge = None
    if target_c.dodging and outcome in HITS:
        dodge = dodge_outcome(t, target, result, dice)
        use = rolls.due(target, "dodge") if rolls is not None and dodge is not None else None
        if dodge is not None and use is not None:
            changed = dodge_with_passion(t, dodge, result, use, dice)
            if changed is not None:  # C-10: once per attack, on the dodger's first failed dodge it can change
                sink.emit(changed[0])
                rolls.spent = True  # type: ignore[union-attr]
                dodge = changed[1]
    avoided = dodge is not None and dodge.effect == "full"
    cherry = None
    if outcome == "matched_success" and hand and not avoided and plan.mode != "disarm" and _cherries(plan, spec):
        cherry = command.cherry or t.settings.default_cherry  # C2-22

    recording = sink.recording
    hit: ev.Hit | None = None
    amount = injury = 0
    if outcome in HITS and not avoided:
        if plan.mode == "disarm":
            note = _join(note, "disarmed (C2-19)")
        elif outcome == "crit":
            note = _join(note, "crit (C2-10)")
        else:
            amount, text, rule = _damage(result, outcome, arm, thrown, plan.mode, cherry, dice, recording, attacker_id)
            if dodge is not None and dodge.effect == "half":
                amount, text, rule = dmg.halve((amount, text, rule))
            if amount > 0:
                injury, before, after, shift = hit_numbers(t, target, amount)
                if recording:
                    hit = ev.Hit(
                        amount=amount,
                        breakdown=text,
                        rule=rule,
                        injury_id=injury,
                        wounds_before=before,
                        wounds_after=after,
                        shift_after=shift,
                    )
            else:
                amount = 0
    round_ = t.round
    attack_on(t, plan.attacker, target_c, arm.name, kind, result.outcome, part, round_, amount, injury)
    sink.applied(
        ev.AttackResolved(
            round=round_,
            attacker=attacker_id,
            target=target,
            weapon=arm.name,
            mode=plan.mode,
            result=result,
            weapon_kind=kind,
            part=part,
            parts=parts,
            dodge=dodge,
            hit=hit,
            note=note,
        )
        if recording
        else None
    )
    if amount:
        settle_wounds(sink, target, amount, injury, cause=f"{attacker_id}'s attack" if recording else "")
    if not avoided:
        _special_effects(sink, plan, command, target, outcome, result, dice)
        if cherry is not None:
            apply_cherry(sink, attacker_id, target, cherry, command)
    _failure_effects(sink, plan, target, outcome)
    killed = was_alive and target_c.status == "dead"
    violence_after_attack(
        sink,
        attacker_id,
        target,
        weapon_kind=kind,
        first_trigger=first_trigger,
        killed=killed,
        helpless=helpless,
        dice=dice,
        reactions=plan.reactions,
        passions=rolls,
    )


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b


def _cherries(plan: Plan, spec: CheckSpec) -> bool:
    """C2-22: cherries come from the hand-to-hand skill, and only when it is the obsession skill
    (a throw made with an obsession General Athletics earns none)."""
    sheet = plan.attacker.sheet
    return sheet.is_obsession(sheet.hand_to_hand) and spec.label.casefold() == sheet.hand_to_hand.casefold()


def _damage(
    result: CheckResult,
    outcome: str,
    weapon: Arm,
    thrown: bool,
    mode: str,
    cherry: str | None,
    dice: DiceSource,
    describe: bool,
    attacker: str,
) -> dmg.Damage:
    roll = result.roll
    assert roll is not None
    if weapon.firearm:
        return dmg.firearm_damage(roll, weapon, describe=describe)
    if mode == "throw_person":
        base = dmg.digit_sum_damage(roll, FISTS_ARM, describe=describe)
    elif outcome == "matched_success" and weapon.bonus >= 6 and (not thrown or weapon.harmful_thrown):
        reason = f"matched success with a +{weapon.bonus} weapon" if describe else ""
        base = dmg.firearm_style_damage(roll, weapon, reason, thrown=thrown, describe=describe)
    else:
        base = dmg.digit_sum_damage(roll, weapon, thrown=thrown, describe=describe)
    if cherry is not None:
        return cherry_damage(base, roll, weapon, thrown, cherry, dice, describe=describe, attacker=attacker)
    return base


def _special_effects(
    sink: Sink,
    plan: Plan,
    command: Attack,
    target: str,
    outcome: str,
    result: CheckResult,
    dice: DiceSource,
) -> None:
    """Crits (C2-10), disarms (C2-19), throws (C2-21) on a successful attack."""
    attacker = plan.attacker.id
    weapon = plan.arm
    if outcome not in HITS:
        return
    if plan.mode == "disarm":
        taken = sink.table.by_id[target].weapon()
        if taken is None or taken.name == "fists":
            return
        sink.emit(
            ev.WeaponLost(
                id=target,
                weapon=taken.name,
                taken_by=attacker if command.take_weapon else "",
                rule="C2-19",
            )
        )
        if taken.penetrating and outcome not in ("crit", "matched_success"):
            inflict(sink, attacker, 3, f"taking {target}'s {taken.name}", "C2-19")
        return
    if outcome == "crit":
        knock_out = weapon.nonlethal or (not weapon.firearm and command.crit == "knock_out")
        choice = "to knock out" if knock_out else "to kill"
        how = "a crit with a gun kills" if weapon.firearm else f"a crit: {attacker} chooses {choice}"
        status: ev.StatusName = "unconscious" if knock_out else "dead"
        sink.emit(ev.StatusChanged(id=target, status=status, cause=how, rule="C2-10"))
        left_fight(sink, target)
        return
    if plan.mode == "throw_person":
        knock_down(sink, target)


def _failure_effects(sink: Sink, plan: Plan, target: str, outcome: str) -> None:
    """C2-11 fumbles, C2-13 matched failures, C2-14 knives cut."""
    attacker = plan.attacker.id
    weapon = plan.arm
    thrown = plan.mode == "throw"
    if outcome == "fumble":
        if weapon.firearm:
            sink.emit(ev.WeaponJammed(id=attacker, weapon=weapon.name))
        else:
            bonus = 0 if thrown else weapon.bonus
            inflict(
                sink,
                attacker,
                20 + bonus,
                f"a fumble with {'fists' if weapon.name == 'fists' else 'a ' + weapon.name}",
                "C2-11",
            )
        return
    if outcome == "matched_failure" and weapon.kind == "melee" and not thrown and weapon.bonus:
        inflict(sink, attacker, weapon.bonus, f"a matched failure with a {weapon.name}", "C2-13")
    if outcome in ("failure", "matched_failure") and weapon.kind == "melee" and weapon.penetrating and not thrown:
        if plan.mode in ("strike", "disarm"):
            c = sink.table.by_id.get(target)
            if c is not None and c.status != "dead":
                inflict(sink, target, 1, f"{attacker}'s {weapon.name} (knives cut)", "C2-14")
