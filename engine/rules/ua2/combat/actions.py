"""Actions other than attacks: dodge, draw, clear a jam, stand up, do nothing, suppressive fire,
the Kung Fu Grip's turns, flee, surrender (C2-3, C2-15, C2-18, C2-27, I2-5)."""

from __future__ import annotations

from typing import Final

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
from engine.rules.ua2.combat.aftermath import inflict, left_fight, violence_after_attack
from engine.rules.ua2.combat.attack import frenzy_attack, roll_attack
from engine.rules.ua2.combat.dodge import dodge_outcome
from engine.rules.ua2.combat.situation import (
    OUT_OF_FIGHT,
    can_dodge,
    combatant,
    hand_to_hand_rating,
    roll_shifts,
    skill_spec,
    stuck,
    suppression_shift,
)
from engine.rules.ua2.combat.turns import end_turn, open_turn
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row
from engine.state.weapons import FISTS

GRIP_DAMAGE: Final = 5  # C2-27
GRIP_DAMAGE_ARMED: Final = 8


def _act(sink: Sink, actor: str, dice: DiceSource, *, helping: bool = False) -> Row:
    """Open `actor`'s turn (refused unless it is theirs); its row."""
    open_turn(sink, actor, dice=dice, helping=helping)
    return sink.table.by_id[actor]


def _not_frenzied(c: Row, what: str) -> None:
    if c.reaction is not None and c.reaction.kind == "frenzy":
        raise Refused(f"{c.id} is in a frenzy: attacks {c.reaction.source}, cannot {what} (M2-7)")


def dodge(sink: Sink, command: Dodge, dice: DiceSource) -> None:
    c = _act(sink, command.actor, dice)
    _not_frenzied(c, "dodge")
    if not can_dodge(c):
        raise Refused(f"{command.actor} cannot dodge while holding or held (C2-27)")
    sink.emit(ev.DodgeDeclared(id=command.actor, round=sink.table.round))
    end_turn(sink, dice)


def draw(sink: Sink, command: Draw, dice: DiceSource) -> None:
    fighter = _act(sink, command.actor, dice)
    if fighter.held_by or fighter.holding:
        raise Refused(f"{command.actor} is in a grip and cannot draw (C2-27)")
    weapon = fighter.weapon(command.weapon)
    if weapon is None:
        raise Refused(f"{command.actor} does not carry a {command.weapon}")
    if weapon.name == fighter.in_hand:
        raise Refused(f"the {weapon.name} is already in hand")
    sink.emit(ev.WeaponDrawn(id=command.actor, weapon=weapon.name, round=sink.table.round))
    end_turn(sink, dice)


def clear_jam(sink: Sink, command: ClearJam, dice: DiceSource) -> None:
    fighter = _act(sink, command.actor, dice)
    name = command.weapon or fighter.in_hand
    if name not in fighter.jammed:
        raise Refused(f"the {name} is not jammed")
    sink.emit(ev.JamCleared(id=command.actor, weapon=name))
    end_turn(sink, dice)


def stand_up(sink: Sink, command: StandUp, dice: DiceSource) -> None:
    if not _act(sink, command.actor, dice).prone:
        raise Refused(f"{command.actor} is not down")
    sink.emit(ev.StoodUp(id=command.actor))
    end_turn(sink, dice)


def do_nothing(sink: Sink, command: DoNothing, dice: DiceSource) -> None:
    fighter = _act(sink, command.actor, dice, helping=True)
    forced = frenzy_attack(sink.table, fighter)
    if forced is not None:
        raise Refused(
            f"{command.actor} is in a frenzy and attacks {forced.target} every action, which it can now (M2-7)",
            hint=f"attack {forced.target}; the frenzy ends when its source is gone (ua session calm)",
        )
    if command.reinitiative == "ambush":
        raise Refused("ambush initiative is only for the start of a fight (I2-3)")
    if command.reinitiative and fighter.attacks_this_round:
        raise Refused("re-setting initiative needs a round without any other action (I2-5)")
    sink.emit(ev.DidNothing(id=command.actor, reinitiative=command.reinitiative))
    end_turn(sink, dice)


def suppressive_fire(sink: Sink, command: SuppressiveFire, dice: DiceSource) -> None:
    fighter = _act(sink, command.actor, dice)
    s = sink.table
    _not_frenzied(fighter, "lay down suppressive fire")
    if fighter.held_by or fighter.holding:
        raise Refused(f"{command.actor} is in a grip (held or holding) and cannot shoot (C2-27)")
    weapon = fighter.weapon(command.weapon or fighter.in_hand)
    if weapon is None or weapon.kind != "firearm" or weapon.name != fighter.in_hand:
        raise Refused("suppressive fire needs a gun in hand (C2-18)")
    if weapon.name in fighter.jammed:
        raise Refused(f"the {weapon.name} is jammed", hint="clear the jam first (C2-3)")
    if fighter.drawn_round == s.round:
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
    total = s.suppression.shots + (0 if continued else command.shots)
    shots = fighter.suppressing if continued else command.shots
    spec = skill_spec(fighter, weapon.skill, weapon.skill_stat, roll_shifts(s, command.actor))
    result = roll_attack(spec, weapon, dice, None, command.actor)
    able = [f for f in command.field if (c := s.by_id.get(f)) is not None and c.status not in OUT_OF_FIGHT]
    hit = able[0] if result.outcome == "crit" and able else ""
    dodge = dodge_outcome(s, hit, result, dice) if hit else None  # C2-15: only a full dodge stops a crit
    if dodge is not None and dodge.effect == "full":
        hit = ""
    sink.emit(
        ev.SuppressiveFireLaid(
            id=command.actor,
            round=s.round,
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
        sink.emit(ev.WeaponJammed(id=command.actor, weapon=weapon.name))
    hit_helpless = bool(hit) and stuck(s.by_id[hit])  # M2-8: a frozen or bound target is helpless (C2-33)
    if hit:
        sink.emit(ev.StatusChanged(id=hit, status="dead", cause="a crit with a gun kills", rule="C2-10, C2-18"))
        left_fight(sink, hit)
    for fid in command.field:
        trigger_first = "shot_at" not in s.by_id[fid].triggered
        violence_after_attack(
            sink,
            command.actor,
            fid,
            weapon_kind="firearm",
            first_trigger=trigger_first,
            killed=fid == hit,
            helpless=fid == hit and hit_helpless,
            dice=dice,
        )
    end_turn(sink, dice)


def break_free(sink: Sink, command: BreakFree, dice: DiceSource) -> None:
    """C2-27: a hand-to-hand roll with a minimum roll of the holder's skill."""
    c = _act(sink, command.actor, dice)
    s = sink.table
    holder = c.held_by
    if not holder:
        raise Refused(f"{command.actor} is not held")
    minimum = max(1, min(100, hand_to_hand_rating(combatant(s, holder))))
    spec = skill_spec(c, c.sheet.hand_to_hand, "body", roll_shifts(s, command.actor), minimum=minimum)
    result = roll_attack(spec, FISTS, dice, command.flipped, command.actor)
    sink.emit(
        ev.AttackResolved(
            round=s.round,
            attacker=command.actor,
            target=holder,
            weapon="fists",
            mode="break_free",
            result=result,
            note="breaks free (C2-27)" if result.success else "still held (C2-27)",
        )
    )
    if result.success:
        sink.emit(ev.GripReleased(holder=holder, target=command.actor, reason="broke free"))
    end_turn(sink, dice)


def squeeze(sink: Sink, command: Squeeze, dice: DiceSource) -> None:
    """C2-27: the holder's action: 5 wounds (8 with a readied hand-to-hand weapon), or a Gimme roll."""
    fighter = _act(sink, command.actor, dice)
    s = sink.table
    held = fighter.holding
    if not held:
        raise Refused(f"{command.actor} holds no one")
    weapon = fighter.weapon()
    if command.gimme:
        spec = skill_spec(fighter, fighter.sheet.hand_to_hand, "body", roll_shifts(s, command.actor))
        result = roll_attack(spec, weapon or FISTS, dice, None, command.actor)
        sink.emit(
            ev.AttackResolved(
                round=s.round,
                attacker=command.actor,
                target=held,
                weapon=fighter.in_hand,
                mode="gimme",
                result=result,
                note="Gimme from the grip (C2-27)",
            )
        )
        taken = s.by_id[held].weapon()
        if result.success and taken is not None and taken.name != "fists":
            sink.emit(
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
        inflict(sink, held, amount, f"{command.actor}'s grip", "C2-27")
        if s.by_id[held].status == "dead":  # M2-8: a kill, and the held are helpless
            violence_after_attack(
                sink,
                command.actor,
                held,
                weapon_kind="melee" if armed else "unarmed",
                first_trigger=False,
                killed=True,
                helpless=True,
                dice=dice,
            )
    end_turn(sink, dice)


def flee(sink: Sink, command: Flee, dice: DiceSource) -> None:
    c = _act(sink, command.actor, dice)
    _not_frenzied(c, "flee")
    if c.held_by:
        raise Refused(f"{command.actor} is held and cannot flee (C2-27)")
    sink.emit(ev.StatusChanged(id=command.actor, status="fled", cause="runs from the fight", rule="C2-33"))
    left_fight(sink, command.actor)
    end_turn(sink, dice)


def surrender(sink: Sink, command: Surrender, dice: DiceSource) -> None:
    _not_frenzied(_act(sink, command.actor, dice), "surrender")
    sink.emit(ev.StatusChanged(id=command.actor, status="surrendered", cause="gives up", rule="C2-33"))
    left_fight(sink, command.actor)
    end_turn(sink, dice)
