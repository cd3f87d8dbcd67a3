"""Actions other than attacks: dodge, draw, clear a jam, stand up, do nothing, suppressive fire,
the Kung Fu Grip's turns, flee, surrender (C2-3, C2-15, C2-18, C2-27, I2-5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands.combat import (
    BreakFree,
    ClearJam,
    Dodge,
    DoNothing,
    Draw,
    Flee,
    Squeeze,
    StandUp,
    SuppressiveFire,
    Surrender,
)
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.base import EventBase
from engine.rules.batch import Batch
from engine.rules.decide import handles
from engine.rules.ua2.combat.aftermath import inflict, left_fight, violence_after_attack
from engine.rules.ua2.combat.attack import roll_attack
from engine.rules.ua2.combat.dodge import dodge_outcome
from engine.rules.ua2.combat.situation import (
    OUT_OF_FIGHT,
    can_dodge,
    combatant,
    hand_to_hand_rating,
    roll_shifts,
    skill_spec,
    suppression_shift,
)
from engine.rules.ua2.combat.turns import end_turn, open_turn
from engine.state.encounter import Encounter
from engine.state.weapons import FISTS

GRIP_DAMAGE = 5  # C2-27
GRIP_DAMAGE_ARMED = 8


def _act(state: Encounter, actor: str, dice: DiceSource, *, helping: bool = False) -> Batch:
    batch = Batch(state)
    open_turn(batch, actor, dice=dice, helping=helping)
    return batch


def _not_frenzied(state: Encounter, actor: str, what: str) -> None:
    c = combatant(state, actor)
    if c.reaction is not None and c.reaction.kind == "frenzy":
        raise Refused(f"{actor} is in a frenzy: attacks {c.reaction.source}, cannot {what} (M2-7)")


@handles(Dodge)
def dodge(state: Encounter, command: Dodge, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    c = combatant(batch.state, command.actor)
    _not_frenzied(batch.state, command.actor, "dodge")
    if not can_dodge(batch.state, c):
        raise Refused(f"{command.actor} cannot dodge while holding or held (C2-27)")
    batch.emit(ev.DodgeDeclared(id=command.actor, round=batch.state.fight.round))
    end_turn(batch, dice)
    return batch


@handles(Draw)
def draw(state: Encounter, command: Draw, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    fighter = batch.state.fighter(command.actor)
    if fighter.held_by or fighter.holding:
        raise Refused(f"{command.actor} is in a grip and cannot draw (C2-27)")
    weapon = fighter.weapon(command.weapon)
    if weapon is None:
        raise Refused(f"{command.actor} does not carry a {command.weapon}")
    if weapon.name == fighter.in_hand:
        raise Refused(f"the {weapon.name} is already in hand")
    batch.emit(ev.WeaponDrawn(id=command.actor, weapon=weapon.name, round=batch.state.fight.round))
    end_turn(batch, dice)
    return batch


@handles(ClearJam)
def clear_jam(state: Encounter, command: ClearJam, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    fighter = batch.state.fighter(command.actor)
    name = command.weapon or fighter.in_hand
    if name not in fighter.jammed:
        raise Refused(f"the {name} is not jammed")
    batch.emit(ev.JamCleared(id=command.actor, weapon=name))
    end_turn(batch, dice)
    return batch


@handles(StandUp)
def stand_up(state: Encounter, command: StandUp, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    if not batch.state.fighter(command.actor).prone:
        raise Refused(f"{command.actor} is not down")
    batch.emit(ev.StoodUp(id=command.actor))
    end_turn(batch, dice)
    return batch


@handles(DoNothing)
def do_nothing(state: Encounter, command: DoNothing, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice, helping=True)
    if command.reinitiative == "ambush":
        raise Refused("ambush initiative is only for the start of a fight (I2-3)")
    fighter = batch.state.fighter(command.actor)
    if command.reinitiative and fighter.attacks_this_round:
        raise Refused("re-setting initiative needs a round without any other action (I2-5)")
    batch.emit(ev.DidNothing(id=command.actor, reinitiative=command.reinitiative))
    end_turn(batch, dice)
    return batch


@handles(SuppressiveFire)
def suppressive_fire(state: Encounter, command: SuppressiveFire, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    s = batch.state
    _not_frenzied(s, command.actor, "lay down suppressive fire")
    fighter = s.fighter(command.actor)
    if fighter.held_by or fighter.holding:
        raise Refused(f"{command.actor} is in a grip (held or holding) and cannot shoot (C2-27)")
    weapon = fighter.weapon(command.weapon or fighter.in_hand)
    if weapon is None or weapon.kind != "firearm" or weapon.name != fighter.in_hand:
        raise Refused("suppressive fire needs a gun in hand (C2-18)")
    if weapon.name in fighter.jammed:
        raise Refused(f"the {weapon.name} is jammed", hint="clear the jam first (C2-3)")
    if fighter.drawn_round == s.fight.round:
        raise Refused(f"the {weapon.name} was drawn this round (C2-3)")
    if command.shots <= 3:
        raise Refused("suppressive fire is more than 3 shots (C2-18)", hint="up to 3 shots divide the target (C2-17)")
    if not command.field:
        raise Refused("name who is in the field of fire (C2-18)")
    for fid in command.field:
        if fid == command.actor:
            raise Refused("the shooter is not in its own field of fire")
        combatant(s, fid)
    continued = fighter.suppressing > 0
    total = s.fight.suppression.shots + (0 if continued else command.shots)
    shots = fighter.suppressing if continued else command.shots
    attacker = combatant(s, command.actor)
    spec = skill_spec(attacker, weapon.skill, weapon.skill_stat, roll_shifts(s, command.actor))
    result = roll_attack(spec, weapon, dice, None)
    able = [f for f in command.field if (c := s.combatant(f)) is not None and c.status not in OUT_OF_FIGHT]
    hit = able[0] if result.outcome == "crit" and able else ""
    dodge = dodge_outcome(s, hit, result, dice) if hit else None  # C2-15: only a full dodge stops a crit
    if dodge is not None and dodge.effect == "full":
        hit = ""
    batch.emit(
        ev.SuppressiveFireLaid(
            id=command.actor,
            round=s.fight.round,
            shots=shots,
            total_shots=total,
            field=tuple(command.field),
            shift=suppression_shift(total, s.settings),
            result=result,
            hit=hit,
            continued=continued,
            dodge=dodge,
        )
    )
    if result.outcome == "fumble":
        batch.emit(ev.WeaponJammed(id=command.actor, weapon=weapon.name))
    if hit:
        batch.emit(ev.StatusChanged(id=hit, status="dead", cause="a crit with a gun kills", rule="C2-10, C2-18"))
        left_fight(batch, hit)
    for fid in command.field:
        trigger_first = "shot_at" not in batch.state.fighter(fid).triggered
        violence_after_attack(
            batch,
            command.actor,
            fid,
            weapon_kind="firearm",
            first_trigger=trigger_first,
            killed=fid == hit,
            helpless=False,
            dice=dice,
        )
    end_turn(batch, dice)
    return batch


@handles(BreakFree)
def break_free(state: Encounter, command: BreakFree, dice: DiceSource) -> Sequence[EventBase]:
    """C2-27: a hand-to-hand roll with a minimum roll of the holder's skill."""
    batch = _act(state, command.actor, dice)
    s = batch.state
    holder = s.fighter(command.actor).held_by
    if not holder:
        raise Refused(f"{command.actor} is not held")
    c = combatant(s, command.actor)
    minimum = max(1, min(100, hand_to_hand_rating(combatant(s, holder))))
    spec = skill_spec(c, c.sheet.hand_to_hand, "body", roll_shifts(s, command.actor), minimum=minimum)
    result = roll_attack(spec, FISTS, dice, command.flipped)
    batch.emit(
        ev.AttackResolved(
            round=s.fight.round,
            attacker=command.actor,
            target=holder,
            weapon="fists",
            mode="break_free",
            result=result,
            note="breaks free (C2-27)" if result.success else "still held (C2-27)",
        )
    )
    if result.success:
        batch.emit(ev.GripReleased(holder=holder, target=command.actor, reason="broke free"))
    end_turn(batch, dice)
    return batch


@handles(Squeeze)
def squeeze(state: Encounter, command: Squeeze, dice: DiceSource) -> Sequence[EventBase]:
    """C2-27: the holder's action: 5 wounds (8 with a readied hand-to-hand weapon), or a Gimme roll."""
    batch = _act(state, command.actor, dice)
    s = batch.state
    fighter = s.fighter(command.actor)
    held = fighter.holding
    if not held:
        raise Refused(f"{command.actor} holds no one")
    weapon = fighter.weapon()
    if command.gimme:
        c = combatant(s, command.actor)
        spec = skill_spec(c, c.sheet.hand_to_hand, "body", roll_shifts(s, command.actor))
        result = roll_attack(spec, weapon or FISTS, dice, None)
        batch.emit(
            ev.AttackResolved(
                round=s.fight.round,
                attacker=command.actor,
                target=held,
                weapon=fighter.in_hand,
                mode="gimme",
                result=result,
                note="Gimme from the grip (C2-27)",
            )
        )
        taken = s.fighter(held).weapon()
        if result.success and taken is not None and taken.name != "fists":
            batch.emit(
                ev.WeaponLost(
                    id=held,
                    weapon=taken.name,
                    taken_by=command.actor if command.take_weapon else "",
                    rule="C2-26, C2-27",
                )
            )
    else:
        armed = weapon is not None and weapon.kind == "melee"
        amount = GRIP_DAMAGE_ARMED if armed else GRIP_DAMAGE
        inflict(batch, held, amount, f"{command.actor}'s grip", "C2-27")
        victim = batch.state.combatant(held)
        if victim is not None and victim.status == "dead":  # M2-8: a kill, and the held are helpless
            violence_after_attack(
                batch,
                command.actor,
                held,
                weapon_kind="melee" if armed else "unarmed",
                first_trigger=False,
                killed=True,
                helpless=True,
                dice=dice,
            )
    end_turn(batch, dice)
    return batch


@handles(Flee)
def flee(state: Encounter, command: Flee, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    _not_frenzied(batch.state, command.actor, "flee")
    if batch.state.fighter(command.actor).held_by:
        raise Refused(f"{command.actor} is held and cannot flee (C2-27)")
    batch.emit(ev.StatusChanged(id=command.actor, status="fled", cause="runs from the fight", rule="C2-33"))
    left_fight(batch, command.actor)
    end_turn(batch, dice)
    return batch


@handles(Surrender)
def surrender(state: Encounter, command: Surrender, dice: DiceSource) -> Sequence[EventBase]:
    batch = _act(state, command.actor, dice)
    _not_frenzied(batch.state, command.actor, "surrender")
    batch.emit(ev.StatusChanged(id=command.actor, status="surrendered", cause="gives up", rule="C2-33"))
    left_fight(batch, command.actor)
    end_turn(batch, dice)
    return batch
