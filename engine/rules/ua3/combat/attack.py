"""Attacks in ua3: fists (U-3), melee weapons (U-4), guns (U-5), two targets (U-6), full auto
(U-7), suppressive fire (U-8), tactical options (U-9), disarming (U-11), against dodgers (U-12)
and armor (U-13), with the stress checks they raise (U-25) and the suppressed one's (U-8)."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.commands.ua3_combat import Attack, FullAuto, Suppress
from engine.dice.checks import CheckResult, Shift, roll_check
from engine.dice.faces import digit_sum, read_value
from engine.dice.percentile import Percentile, face_value
from engine.dice.rolls import value_of
from engine.dice.source import DiceSource
from engine.dice.spec import Prefer
from engine.errors import Refused
from engine.events.ua3 import PenaltyTaken, StatusChanged
from engine.events.ua3 import combat as ev
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import Option
from engine.rules.ua3.combat.apply import attack_rolled
from engine.rules.ua3.combat.harm import d10, d10s, stress, total, wound
from engine.rules.ua3.combat.rounds import end_turn, suppressed_may_act, turn_of
from engine.rules.ua3.combat.situation import (
    ability,
    firearms,
    gun_rating,
    held,
    standing,
    struggle,
)
from engine.rules.ua3.people import check_flip, require_passion, spec_for, with_passion
from engine.rules.ua3.table import FISTS_ARM, Arm, Row, Table
from engine.state.ua3.combat import Armor
from engine.state.ua3.encounter import Status

HITS = frozenset({"crit", "matched_success", "success"})
MISSES = frozenset({"failure", "matched_failure"})
#: U-9: called shots and throwing a person.
CALLED = {"limb": -20, "head": -30}
THROW_PERSON = -20
#: U-7: the burst's shift to hit and its wounds beyond the roll.
BURSTS = {"three_round": (10, 0), "long": (10, 5), "clip": (20, 10)}
#: U-3 (Decision): "up to 5 wounds" is 1d10 halved, rounded up.
FUMBLE_FISTS = "a fumble with fists: 1d10 halved, rounded up (U-3)"
FUMBLE_MELEE = 20  # U-4
CLEAVE_MISS = 1  # U-4
EDGED_DISARM = 1  # U-11
FULL_AUTO_CRIT = 100  # U-7

#: (Final: a compiled build calls it from a C variable) reads a struct's fields with one call,
#: where a compiled build reads them one by one, slowly
astuple: Final = msgspec.structs.astuple
#: Where each of the Attack command's fields is in `astuple(command)`: `attack` reads them all
#: with one call.
_FIELD = {name: i for i, name in enumerate(Attack.__struct_fields__)}
_ACTOR: Final = _FIELD["actor"]
_TARGETS: Final = _FIELD["targets"]
_WEAPON: Final = _FIELD["weapon"]
_MODE: Final = _FIELD["mode"]
_CALLED: Final = _FIELD["called"]
_LIMB: Final = _FIELD["limb"]
_SHIFTS: Final = _FIELD["shifts"]
_FLIPPED: Final = _FIELD["flipped"]
_FISTS_MISS: Final = _FIELD["fists_miss"]
_FISTS_CRIT: Final = _FIELD["fists_crit"]
_PASSION: Final = _FIELD["passion"]
_PASSION_MODE: Final = _FIELD["passion_mode"]
#: Where a FullAuto command's fields are in `astuple(command)`: `full_auto` reads them with one call.
_FULL_AUTO = {name: i for i, name in enumerate(FullAuto.__struct_fields__)}
_FA_ACTOR: Final = _FULL_AUTO["actor"]
_FA_TARGETS: Final = _FULL_AUTO["targets"]
_FA_BURST: Final = _FULL_AUTO["burst"]
_FA_SHIFTS: Final = _FULL_AUTO["shifts"]
_FA_FLIPPED: Final = _FULL_AUTO["flipped"]
if CheckResult.__struct_fields__ != ("spec", "roll", "outcome"):
    raise ImportError("CheckResult's fields moved: update `strike` in engine.rules.ua3.combat.attack")
if Armor.__struct_fields__ != ("bulletproof", "helmet", "thick"):
    raise ImportError("Armor's fields moved: update `_gun_wounds` in engine.rules.ua3.combat.attack")
if Percentile.__struct_fields__ != ("tens", "ones", "flipped"):
    raise ImportError("Percentile's fields moved: update `_faces` in engine.rules.ua3.combat.attack")


def dodge_shift(target: Row, rating: int, round_: int) -> Shift | None:
    """U-12: −10 when the dodger's Dodge is below the attacker's rating, −20 when equal or higher;
    none from a dodger since frozen or in a frenzy (U-23, as M2-7: they cannot dodge)."""
    declared = target.declared
    if declared is None or declared.action != "dodge" or target.status != "active":
        return None
    reaction = target.reaction
    if reaction is not None and reaction.kind in ("freeze", "frenzy"):
        return None
    dodge = ability(target, "dodge").rating
    amount = -20 if dodge >= rating else -10
    return Shift(f"{target.id} dodges, Dodge {dodge} {'≥' if amount == -20 else '<'} {rating} (U-12)", amount)


def target_shifts(attacker: Row, target: Row, rating: int, round_: int) -> list[Shift]:
    """What an attack gets from its target: a dodge (U-12), an aim at it (U-9), an opening (U-3)."""
    out = []
    dodged = dodge_shift(target, rating, round_)
    if dodged is not None:
        out.append(dodged)
    aim = attacker.aim
    if aim is not None and aim.target == target.id:
        out.append(Shift(f"aimed {aim.rounds} round{'s' * (aim.rounds > 1)} (U-9)", 10 * min(2, aim.rounds)))
    if attacker.id in target.openings:
        out.append(Shift(f"{target.id}'s opening (U-3)", 10))
    return out


def first_weapon_checks(sink: Sink[Table], attacker: str, target: Row, seen: tuple[str, ...], dice: DiceSource) -> None:
    """U-25: attacked with a weapon for the first time this fight (violence 1), shot at (2) —
    raised when the attack's fact marked the target so for the first time (`seen`: its marks
    before; a gun that jammed or turned on its own side marks no one, `AttackRolled.shot_at`)."""
    marks = target.triggered
    if "shot_at" in marks and "shot_at" not in seen:
        stress(sink, target, sink.table.limits.shot_at_rank, attacker, "shot at (U-25)", dice)
    elif "weapon" in marks and "weapon" not in seen:
        rank = sink.table.limits.attacked_with_weapon_rank
        stress(sink, target, rank, attacker, "attacked with a weapon (U-25)", dice)


def killed_checks(sink: Sink[Table], attacker: Row, killed: list[Row], dice: DiceSource) -> None:
    """U-25: killing someone in a fight: violence 3, for each one killed (the reaction lasts
    until the body is gone: the round's end, U-23 Decision)."""
    for victim in killed:
        cause = f"killed {victim.id} in a fight (U-25)"
        stress(sink, attacker, sink.table.limits.kill_rank, victim.id, cause, dice)


def _rating(row: Row, weapon: Arm, mode: str) -> Option:
    if mode == "throw":
        return ability(row, "fitness")  # U-9
    if weapon.gun:
        return gun_rating(row, "shoot")  # U-5
    return struggle(row)  # U-3, U-4, U-9, U-11


def _gun_wounds(sink: Sink[Table], target: Row, amount: int, result: CheckResult, called: str) -> tuple[int, str]:
    """U-13: bulletproof turns gun wounds (a full-auto target's share, U-7) into melee wounds, the
    digit sum (D-5) — never more than the gun's (Decision: armor never adds wounds); a helmet
    does once, then is spent; a limb shot ignores armor (U-9); a head shot is the helmet's
    alone (Decision: bulletproof armor is a vest, the head is not under it)."""
    if called == "limb":
        return amount, "a limb shot ignores armor (U-9)"
    bulletproof, helmet, _ = astuple(target.armor)
    if not bulletproof and not helmet:
        return amount, ""
    roll = result.roll
    assert roll is not None
    if bulletproof and called != "head":
        return _melee_wounds(amount, roll.tens, roll.ones, "bulletproof", "")
    if helmet and not target.helmet_spent:
        sink.emit(ev.HelmetSpent(actor=target.id))
        return _melee_wounds(amount, roll.tens, roll.ones, "the helmet", ", once")
    return amount, ""


def _melee_wounds(amount: int, tens: int, ones: int, armor: str, once: str) -> tuple[int, str]:
    """U-13 (Decision): the digit sum in place of the gun's wounds, unless the gun's are fewer."""
    melee = face_value(tens) + face_value(ones)
    faces = f"{face_value(tens)}+{face_value(ones)}"
    if melee <= amount:
        return melee, f"{armor}: melee wounds, {faces}{once} (U-13)"
    return amount, f"{armor}: the gun's {amount}, fewer than melee wounds {faces} = {melee}{once} (U-13)"


def attack(sink: Sink[Table], command: Attack, dice: DiceSource) -> None:
    """A declared attack on its turn: one target, or two with the target halved (U-6)."""
    fields = astuple(command)
    actor: str = fields[_ACTOR]
    targets: tuple[str, ...] = fields[_TARGETS]
    mode: str = fields[_MODE]
    called: str = fields[_CALLED]
    flipped: bool | None = fields[_FLIPPED]
    passion: str | None = fields[_PASSION]
    t = sink.table
    row = turn_of(t, actor, "attack")
    declared = row.declared
    assert declared is not None
    named: str = fields[_WEAPON]
    weapon = held(row, named or declared.weapon)
    if not 1 <= len(targets) <= 2 or (len(targets) == 2 and targets[0] == targets[1]):
        raise Refused("an attack names one target, or two (U-6)")
    aimed_at = declared.targets
    for target_id in targets:
        if target_id not in aimed_at:
            raise Refused(f"{row.id} declared an attack on {', '.join(aimed_at)}, not {target_id}")
        status = t.by_id[target_id].status
        if status in ("dead", "fled"):
            raise Refused(f"{target_id} is {status}")
    if mode != "strike" and len(targets) > 1:
        raise Refused(f"a {mode.replace('_', ' ')} goes at one target (U-9, U-11)")
    gun = weapon.gun
    if mode in ("throw_person", "disarm", "throw") and gun:
        raise Refused(f"a {mode.replace('_', ' ')} is done with the hands, not a gun")
    if called and not gun:
        raise Refused("limb and head shots are gun attacks (U-9)")
    if fields[_LIMB] != "drop" and called != "limb":
        raise Refused("halving movement is what a limb shot may do (U-9)", hint="call a limb shot, or leave it out")
    if mode == "disarm" and t.by_id[targets[0]].in_hand == "fists":
        raise Refused(f"{targets[0]} holds no weapon to take (U-11)")
    if gun and row.jammed:
        raise Refused(f"{row.id}'s {weapon.name} is jammed", hint="clear the jam (U-5)")
    spent = require_passion(t, row, passion) if passion is not None else None
    check_flip(_rating(row, weapon, mode), flipped)
    if not suppressed_may_act(sink, row, dice):
        return
    check_flip(_rating(row, weapon, mode), flipped)  # again: the check may have changed the best rating
    if mode in ("throw", "throw_person", "disarm"):
        weapon = FISTS_ARM  # done with the hands: a throw deals wounds like a punch (U-9), a disarm too (U-11)
    shifts: list[Shift] = list(fields[_SHIFTS])
    if mode == "throw_person":
        shifts.append(Shift("throwing a person (U-9)", THROW_PERSON))
    if called:
        shifts.append(Shift(f"{called} shot (U-9)", CALLED[called]))
    carried = row.next_roll  # read once: with two targets both rolls take it, halved alike (U-6)
    prefer: Prefer = "high" if gun else "as_rolled"  # a gun still (the hands' modes refused it)
    blow = Blow(mode, called, fields[_FISTS_MISS], fields[_FISTS_CRIT], fields[_LIMB])
    for i, target_id in enumerate(targets):
        if t.phase == "ended" or row.status != "active" or not _still_armed(row, weapon):
            break  # U-6: the second roll needs the first to leave the attacker able, its weapon working in hand
        target = t.by_id[target_id]
        if target.status in ("dead", "fled"):
            continue
        # the shifts carried into the attack, on every roll (the first roll's applied fact clears
        # them on the row); a penalty the first roll brings (U-3) falls on the second, its next roll
        pending = carried if i == 0 else (*carried, *row.next_roll)
        # read at each roll, after the suppressed one's check (U-8) or the first roll's kill check
        # (U-25): a notch either marked counts at once (U-18)
        option = _rating(row, weapon, mode)
        halved = _halved(option, shifts, carried) if len(targets) == 2 else ()
        extra = target_shifts(row, target, option.rating, t.round)
        spec = spec_for(None, option, shifts=(*shifts, *halved, *extra), carried=pending)
        result = roll_check(spec, dice, prefer=prefer, flipped=flipped, who=row.id, what="attack")
        if spent is not None and not result.success:
            passions, result = with_passion(row, spent, fields[_PASSION_MODE], result, dice)
            sink.emit_all(passions)
            spent = None
        strike(sink, row, target, weapon, blow, result, dice)
    end_turn(sink, row.id, dice)


def _halved(option: Option, shifts: list[Shift], carried: tuple[Shift, ...]) -> tuple[Shift]:
    """U-6: two targets without full auto split the attack's target in half, rounded down."""
    whole = option.rating + sum(s.amount for s in shifts) + sum(s.amount for s in carried)
    return (Shift(f"two targets: half of {whole}, rounded down (U-6)", whole // 2 - whole),)


class Blow:
    """How an attack roll strikes (an `Attack`'s fields, read once): its mode (U-9, U-11), a called
    shot and what a limb shot does (U-9), and the attacker's choices for a fist's matched failure
    and crit (U-3)."""

    __slots__ = ("called", "fists_crit", "fists_miss", "limb", "mode")

    def __init__(
        self,
        mode: str,
        called: str = "",
        fists_miss: str = "penalty",
        fists_crit: str = "unconscious",
        limb: str = "drop",
    ) -> None:
        self.mode = mode
        self.called = called
        self.fists_miss = fists_miss
        self.fists_crit = fists_crit
        self.limb = limb


#: A plain strike (a grappler's shot, U-17): no called shot, the automated fist choices.
STRIKE: Final = Blow("strike")


def _still_armed(row: Row, weapon: Arm) -> bool:
    """Whether `weapon` can still attack: not a gun that jammed (U-5), not a weapon the attacker
    lost (U-4's matched failure)."""
    if weapon.gun and row.jammed:
        return False
    name = weapon.name
    return name == "fists" or name == row.in_hand


def strike(
    sink: Sink[Table],
    row: Row,
    target: Row,
    weapon: Arm,
    blow: Blow,
    result: CheckResult,
    dice: DiceSource,
) -> None:
    """One attack roll's consequences (U-3, U-4, U-5, U-9, U-11, U-13, U-25)."""
    t = sink.table
    _, roll, outcome = astuple(result)  # one call (a compiled build reads a struct's fields slowly)
    assert roll is not None
    tens, ones, flipped = _faces(roll)
    mode = blow.mode
    kind = weapon.kind
    seen = target.triggered
    alive = target.status != "dead"
    helmet = target.helmet_spent
    amount, parts, rule, note = 0, "", "U-3", ""
    if mode == "disarm":
        rule = "U-11"
    elif mode in ("throw", "throw_person"):
        rule = "U-9"
    elif kind == "melee":
        rule = "U-4"
    elif kind == "firearm":
        rule = "U-5"
    recording = sink.recording  # the breakdown, the note and the event: only for a log
    if outcome in HITS and mode != "disarm":
        if kind == "firearm":
            cap = weapon.cap
            value = read_value(tens, ones, flipped)
            amount = cap if outcome == "crit" and cap is not None else min(value, cap or value)
            amount, armor = _gun_wounds(sink, target, amount, result, blow.called)
            if recording:
                parts = (
                    f"crit: the cap, {cap}"
                    if outcome == "crit"
                    else f"the roll {value}" + (f", cap {cap}" if cap else "")
                )
                parts = f"{parts}; {armor}" if armor else parts
        elif outcome == "crit" and mode in ("strike", "throw", "throw_person") and kind == "melee":
            note = "crit: the opponent dies"  # the event names the rule once
        elif outcome == "crit":
            note = f"crit: {target.id} is {blow.fists_crit}" if recording else ""
        elif outcome == "matched_success" and kind == "melee" and not target.armor.thick:
            amount = read_value(tens, ones, flipped)  # U-4: the roll alone, the bonuses are the digit sum's
            if recording:
                parts = f"matched success: the roll {amount}" + (" (U-4: no weapon bonus)" if weapon.bonus else "")
        else:
            amount = digit_sum(tens, ones) + weapon.bonus
            if recording:
                parts = _digits_breakdown(weapon, outcome, kind, tens, ones)
    elif outcome in MISSES and kind == "melee" and weapon.cleaves and mode == "strike":
        amount, parts = CLEAVE_MISS, "a cleaving weapon's miss (U-4)"
    attack_rolled(t, row.id, (target.id,), result, outcome, amount, kind, mode)
    sink.applied(
        ev.AttackRolled(
            round=t.round,
            attacker=row.id,
            targets=(target.id,),
            weapon=weapon.name if mode != "throw" else "a heavy object",
            kind=kind,
            mode=mode,
            result=result,
            wounds=(amount,),
            breakdown=parts,
            rule=rule,
            note=note,
        )
        if recording
        else None
    )
    cause = f"{row.id}'s {weapon.name if mode != 'throw' else 'throw'}" if recording else ""  # the event's text
    wound(sink, target, amount, cause, rule)
    turned = target.helmet_spent and not helmet
    _effects(sink, row, target, weapon, blow, outcome, tens, ones, dice, turned)
    first_weapon_checks(sink, row.id, target, seen, dice)
    if alive and target.status == "dead":
        killed_checks(sink, row, [target], dice)


def _faces(roll: Percentile) -> tuple[int, int, bool]:
    """A roll's faces and whether it was read flip-flopped, with one call (`astuple`)."""
    tens, ones, flipped = astuple(roll)
    return tens, ones, flipped


def _digits_breakdown(weapon: Arm, outcome: str, kind: str, tens: int, ones: int) -> str:
    """A hit's wounds as the digit sum of its roll and the weapon's bonus (U-3, U-4), shown."""
    tags = f" +{weapon.bonus} ({', '.join(t for t in weapon.weapon.tags if t != 'edged')})" if weapon.bonus else ""
    thick = (
        "; a thick jacket stops the matched success (U-13)" if outcome == "matched_success" and kind == "melee" else ""
    )
    return f"{face_value(tens)}+{face_value(ones)}{tags}{thick}"


def _effects(
    sink: Sink[Table],
    row: Row,
    target: Row,
    weapon: Arm,
    blow: Blow,
    outcome: str,
    tens: int,
    ones: int,
    dice: DiceSource,
    helmet_turned: bool,
) -> None:
    """Crits, fumbles, matched failures, disarms, throws, called shots (U-3…U-5, U-9, U-11)."""
    kind = weapon.kind
    mode = blow.mode
    if outcome in HITS:
        if mode == "disarm":
            taken = target.in_hand
            edged = any(w.edged for w in target.weapons if w.name == taken)
            holds = row.id if outcome in ("crit", "matched_success") else ""
            sink.emit(ev.WeaponDropped(actor=target.id, weapon=taken, taken_by=holds, rule="U-11"))
            if outcome == "crit":
                wound(sink, target, digit_sum(tens, ones), f"{row.id} takes the {taken} with a punch", "U-11")
            elif edged and not holds:
                wound(sink, row, EDGED_DISARM, f"taking {target.id}'s {taken}: pointy or edged", "U-11")
            return
        if outcome == "crit" and kind != "firearm":
            status: Status = "dead" if kind == "melee" or blow.fists_crit == "dead" else "unconscious"
            rule = "U-4" if kind == "melee" else "U-9" if mode in ("throw", "throw_person") else "U-3"
            # a crit that kills kills the unconscious too; one that knocks out only the standing
            if target.status == "active" or (status == "dead" and target.status != "dead"):
                sink.emit(StatusChanged(actor=target.id, status=status, cause=f"{row.id}'s crit", rule=rule))
        if mode == "throw_person" and target.status == "active":
            sink.emit(ev.ThrownDown(actor=target.id))
        called = blow.called
        if called == "limb" and target.status == "active":  # U-9: the shooter's choice
            if blow.limb == "halve_movement":
                sink.emit(ev.MovementHalved(actor=target.id, by=row.id))
            elif target.in_hand != "fists":
                sink.emit(ev.WeaponDropped(actor=target.id, weapon=target.in_hand, rule="U-9"))
        if called == "head" and target.status == "active":
            if helmet_turned:  # U-13 (Decision): the helmet that turned this shot keeps it conscious
                return
            sink.emit(StatusChanged(actor=target.id, status="unconscious", cause=f"{row.id}'s head shot", rule="U-9"))
        return
    if outcome == "fumble":
        if kind == "firearm":
            sink.emit(ev.WeaponJammed(actor=row.id, weapon=weapon.name, rule="U-5"))
        elif kind == "melee" and mode == "strike":
            wound(sink, row, FUMBLE_MELEE, f"a fumble with the {weapon.name}: it hits itself", "U-4")
        else:
            face = d10(dice, row.id, "fumble die", "U-3")
            wound(sink, row, -(-face_value(face) // 2), FUMBLE_FISTS, "U-3", faces=(face,))
        return
    if outcome == "matched_failure":
        if kind == "melee" and mode == "strike":
            sink.emit(ev.WeaponDropped(actor=row.id, weapon=weapon.name, rule="U-4"))
        elif kind != "firearm":
            if blow.fists_miss == "opening":
                sink.emit(ev.OpeningGiven(actor=row.id, to=target.id))
            else:
                sink.emit(
                    PenaltyTaken(actor=row.id, shift=Shift("a matched failure with fists (U-3)", -10), rule="U-3")
                )


def full_auto(sink: Sink[Table], command: FullAuto, dice: DiceSource) -> None:
    """U-7: one roll against one or two targets, no cap, the burst's shift and wounds."""
    fields = astuple(command)
    targets: tuple[str, ...] = fields[_FA_TARGETS]
    burst: str = fields[_FA_BURST]
    flipped: bool | None = fields[_FA_FLIPPED]
    t = sink.table
    row = turn_of(t, fields[_FA_ACTOR], "full_auto")
    declared = row.declared
    assert declared is not None
    weapon = held(row, declared.weapon)
    if (
        not 1 <= len(targets) <= 2
        or any(x not in declared.targets for x in targets)
        or len(set(targets)) != len(targets)
    ):
        raise Refused(f"full auto goes at the one or two targets declared: {', '.join(declared.targets)} (U-7)")
    if row.jammed:
        raise Refused(f"{row.id}'s {weapon.name} is jammed", hint="clear the jam (U-5)")
    live = [t.by_id[x] for x in targets if t.by_id[x].status not in ("dead", "fled")]
    if not live:
        raise Refused("no one left to shoot at among the targets")
    check_flip(gun_rating(row, "fire full auto"), flipped)
    if not suppressed_may_act(sink, row, dice):
        return
    option = gun_rating(row, "fire full auto")  # read after the check, as `attack` (U-18)
    to_hit, extra = BURSTS[burst]
    shifts: list[Shift] = [*fields[_FA_SHIFTS], Shift(f"{burst.replace('_', '-')} burst (U-7)", to_hit)]
    # one roll against both (Decision): the hardest target's dodge counts; an aim at either and
    # each one's opening count too, as the attack on them spends them all (U-9, U-3)
    per_target = [target_shifts(row, x, option.rating, t.round) for x in live]
    dodges = [s for group in per_target for s in group if "dodges" in s.source]
    if dodges:
        shifts.append(min(dodges, key=lambda s: s.amount))
    shifts += [s for group in per_target for s in group if "dodges" not in s.source]
    spec = spec_for(row, option, shifts=tuple(shifts))
    result = roll_check(spec, dice, prefer="high", flipped=flipped, who=row.id, rule="U-7", what="full-auto attack")
    outcome: str = result.outcome
    roll = result.roll
    assert roll is not None
    wounds = [0] * len(live)
    parts = ""
    if outcome == "crit":
        wounds[0], parts = FULL_AUTO_CRIT, f"crit: {FULL_AUTO_CRIT} wounds to {live[0].id}, none to any other"
    elif outcome in ("success", "matched_success"):
        # a matched success: the cap, or the roll if higher; the burst's wounds come on top either way
        value = value_of(roll)
        base, parts = value, f"the roll {value}, no cap"
        cap = weapon.cap
        if outcome == "matched_success" and cap is not None and cap > value:
            base, parts = cap, f"matched success: the cap {cap}"
        whole = base + extra
        parts += f", +{extra} ({burst} burst)" if extra else ""
        share, rest = divmod(whole, len(live))
        wounds = [share + (1 if i < rest else 0) for i in range(len(live))]
        if len(live) > 1:
            parts += f", divided {'/'.join(map(str, wounds))}"
    armored = _armored(sink, live, wounds, result)
    seen = [x.triggered for x in live]
    alive = [x.status != "dead" for x in live]
    ids = tuple(x.id for x in live)
    attack_rolled(t, row.id, ids, result, outcome, sum(wounds), "firearm", "full_auto")
    sink.applied(
        ev.AttackRolled(
            round=t.round,
            attacker=row.id,
            targets=ids,
            weapon=weapon.name,
            kind="firearm",
            mode="full_auto",
            result=result,
            wounds=tuple(wounds),
            breakdown="; ".join([parts, *armored]) if parts else "",
            rule="U-7",
        )
        if sink.recording
        else None
    )
    cause = f"{row.id}'s full auto"
    for i in range(len(live)):
        wound(sink, live[i], wounds[i], cause, "U-7")
    if outcome == "fumble":
        _friendly_fire(sink, row, 3, "U-7", result, dice)
    elif outcome == "matched_failure":
        sink.emit(ev.WeaponJammed(actor=row.id, weapon=weapon.name, rule="U-7"))
    _volley_checks(sink, row, live, seen, alive, dice)
    end_turn(sink, row.id, dice)


def _volley_checks(
    sink: Sink[Table], row: Row, targets: list[Row], seen: list[tuple[str, ...]], alive: list[bool], dice: DiceSource
) -> None:
    """U-25 after full auto or suppressive fire: each target's first weapon check (`seen`: its
    marks before), then the attacker's for those it killed (`alive` before)."""
    n = len(targets)
    for i in range(n):
        first_weapon_checks(sink, row.id, targets[i], seen[i], dice)
    killed_checks(sink, row, [targets[i] for i in range(n) if alive[i] and targets[i].status == "dead"], dice)


def _armored(sink: Sink[Table], targets: list[Row], wounds: list[int], result: CheckResult) -> list[str]:
    """U-13 on the gun wounds each target takes (`wounds`, changed in place): the notes of the
    armor that turned them, by target."""
    notes = []
    for i, x in enumerate(targets):
        if wounds[i]:
            wounds[i], note = _gun_wounds(sink, x, wounds[i], result, "")
            if note:
                notes.append(f"{x.id}: {note}")
    return notes


def _friendly_fire(
    sink: Sink[Table], row: Row, dice_of_wounds: int, rule: str, result: CheckResult, dice: DiceSource
) -> None:
    """U-7, U-8 fumbles: the attacker and its side each roll 1d10; the lowest (all tied lowest)
    take the wounds — gun wounds, that bulletproof armor turns (U-13: the fumble's digit sum)."""
    t = sink.table
    side = [r for r in t.rows if r.side == row.side and standing(r)]
    rolled = [(r, d10(dice, r.id, "friendly-fire die", rule)) for r in side]
    low = min(face_value(f) for _, f in rolled)
    shown = ", ".join(f"{r.id} {face_value(f)}" for r, f in rolled)
    for r, f in rolled:
        if face_value(f) == low:
            faces = d10s(dice, dice_of_wounds, row.id, rule=rule)
            amount, armor = _gun_wounds(sink, r, total(faces), result, "")
            cause = f"{row.id}'s fumble hits its own side (1d10 each: {shown}{'; ' + armor if armor else ''})"
            wound(sink, r, amount, cause, rule, faces=faces)


def _random(dice: DiceSource, n: int, who: str) -> tuple[int, tuple[int, ...]]:
    """A die `who` rolls picks one of `n` (≤ 10): faces above the largest multiple of n are rolled again."""
    faces = []
    while True:
        face = d10(dice, who, "die that picks who is hit", "U-8")
        faces.append(face)
        value = face_value(face) - 1
        if value < n * (10 // n):
            return value % n, tuple(faces)


def suppress(sink: Sink[Table], command: Suppress, dice: DiceSource) -> None:
    """U-8: at least three bullets at a group, with a firearms identity or with Struggle."""
    t = sink.table
    row = turn_of(t, command.actor, "suppress")
    declared = row.declared
    assert declared is not None
    weapon = held(row, declared.weapon)
    if weapon.kind != "firearm":
        raise Refused("suppressive fire needs a gun (U-8)")
    if row.jammed:
        raise Refused(f"{row.id}'s {weapon.name} is jammed", hint="clear the jam (U-5)")
    group = [t.by_id[x] for x in command.targets if x in declared.targets and t.by_id[x].status not in ("dead", "fled")]
    if not group or len(group) != len(command.targets):
        raise Refused(f"suppressive fire goes at the group declared: {', '.join(declared.targets)} (U-8)")
    check_flip(firearms(row) or struggle(row), command.flipped)
    if not suppressed_may_act(sink, row, dice):
        return
    option = firearms(row) or struggle(row)  # read after the check, as `attack` (U-18)
    check_flip(option, command.flipped)
    spec = spec_for(row, option, shifts=command.shifts)
    result = roll_check(
        spec, dice, prefer="high", flipped=command.flipped, who=row.id, rule="U-8", what="suppressive fire"
    )
    outcome = result.outcome
    roll = result.roll
    assert roll is not None
    wounds = [0] * len(group)
    parts = ""
    if outcome == "matched_success":
        index, picked = _random(dice, len(group), row.id)
        faces = d10s(dice, 1, row.id, rule="U-8")
        wounds[index] = total(faces)
        parts = f"matched success: {group[index].id} (picked by a die, {picked}) takes 1d10"
    elif outcome == "crit":
        faces = d10s(dice, 3, row.id, rule="U-8")
        wounds[0] = total(faces)
        parts = f"crit: center mass on {group[0].id}, 3d10 ({'+'.join(str(face_value(f)) for f in faces)})"
    armored = _armored(sink, group, wounds, result)  # U-13: the suppression's hits are gun wounds
    seen = [x.triggered for x in group]
    alive = [x.status != "dead" for x in group]
    ids = tuple(x.id for x in group)
    attack_rolled(t, row.id, ids, result, outcome, sum(wounds), "firearm", "suppress")
    sink.applied(
        ev.AttackRolled(
            round=t.round,
            attacker=row.id,
            targets=ids,
            weapon=weapon.name,
            kind="firearm",
            mode="suppress",
            result=result,
            wounds=tuple(wounds),
            breakdown="; ".join([parts, *armored]) if parts else "",
            rule="U-8",
        )
        if sink.recording
        else None
    )
    cause = f"{row.id}'s suppressive fire"
    for i in range(len(group)):
        wound(sink, group[i], wounds[i], cause, "U-8")
    if outcome == "fumble":
        _friendly_fire(sink, row, 2, "U-8", result, dice)
    elif outcome == "matched_failure":
        sink.emit(ev.WeaponJammed(actor=row.id, weapon=weapon.name, rule="U-8"))
    else:
        standing_group = tuple(x.id for x in group if standing(x))
        if standing_group:
            sink.emit(ev.SuppressionLaid(attacker=row.id, targets=standing_group, until=t.round + 1))
    _volley_checks(sink, row, group, seen, alive, dice)
    end_turn(sink, row.id, dice)
