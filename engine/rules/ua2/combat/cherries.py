"""Cherries (C2-22…C2-30): extra effects of an obsession hand-to-hand skill's matched success."""

from __future__ import annotations

from typing import Final

from engine.commands.combat import Attack
from engine.dice.percentile import Percentile, face_value
from engine.dice.source import DiceSource, roll_percentile, rolling
from engine.events import combat as ev
from engine.rules.ua2.combat import damage as dmg
from engine.rules.ua2.combat.aftermath import knock_down
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Arm
from engine.state.fight import Condition

#: C2-24/C2-25: "for 4 rounds" — the rest of this round and the next four (a decision).
CONDITION_ROUNDS: Final = 4
NO_DAMAGE: Final = ("blind", "kung_fu_grip")


def cherry_damage(
    base: dmg.Damage,
    roll: Percentile,
    weapon: Arm,
    thrown: bool,
    cherry: str,
    dice: DiceSource,
    *,
    describe: bool = True,
    attacker: str = "",
) -> dmg.Damage:
    """The damage of a matched success with a cherry (its dice are the `attacker`'s, T-1)."""
    if cherry in NO_DAMAGE:
        return (
            0,
            f"{cherry.replace('_', ' ')}: no damage" if describe else "",
            "C2-24" if cherry == "blind" else "C2-27",
        )
    if cherry == "big_hurt" and weapon.bonus < 6:
        return dmg.firearm_style_damage(roll, weapon, "Big Hurt (C2-23)", thrown=thrown, describe=describe)
    if cherry == "more_hurt":
        rolling(dice, attacker, "More Hurt die", rule="C2-22", faces=1)
        face = dice.d10()
        return dmg.add(base, face_value(face), "More Hurt 1d10", "C2-30")
    if cherry == "new_damage":
        rolling(dice, attacker, "New Damage roll", rule="C2-22")
        new = roll_percentile(dice)
        if weapon.bonus >= 6:
            return dmg.firearm_style_damage(
                new, weapon, f"New Damage rolled {new.tens},{new.ones} (C2-30)", thrown=thrown, describe=describe
            )
        amount, text, _ = dmg.digit_sum_damage(new, weapon, thrown=thrown, describe=describe)
        return amount, f"New Damage rolled {new.tens},{new.ones}: {text}" if describe else "", "C2-30"
    return base


def apply_cherry(sink: Sink, attacker: str, target: str, cherry: str, command: Attack) -> None:
    """Record the cherry and its effects beyond damage."""
    t = sink.table
    round_ = t.round
    sink.emit(ev.CherryTaken(attacker=attacker, target=target, cherry=cherry, redirect_to=command.monkey_redirect))
    victim = t.by_id.get(target)
    if victim is None or victim.status == "dead":
        return
    if cherry == "blind":
        cond = Condition(name="blind", shift=-30, until_round=round_ + CONDITION_ROUNDS, source=attacker)
        sink.emit(ev.ConditionApplied(id=target, condition=cond, rule="C2-24"))
    elif cherry == "dazed":
        cond = Condition(name="dazed", shift=-10, until_round=round_ + CONDITION_ROUNDS, source=attacker)
        sink.emit(ev.ConditionApplied(id=target, condition=cond, rule="C2-25"))
    elif cherry == "gimme":
        held = victim.weapon()
        if held is not None and held.name != "fists":
            taker = attacker if command.take_weapon else ""
            sink.emit(ev.WeaponLost(id=target, weapon=held.name, taken_by=taker, rule="C2-26"))
    elif cherry == "kung_fu_grip" and victim.status == "active":
        sink.emit(ev.GripTaken(holder=attacker, target=target))
    elif cherry == "knock_down":
        knock_down(sink, target)
