"""Combat events (I2, C2): each a fact, each explaining itself with its rule id."""

from typing import Literal

import msgspec

from engine.dice.checks import CheckResult
from engine.dice.percentile import Percentile
from engine.events.base import EventBase, describe_result, describe_target
from engine.state.fight import Condition, InitiativeMethod

StatusName = Literal["active", "incapacitated", "unconscious", "dead", "fled", "surrendered"]


def signed(n: int) -> str:
    """A shift as a GM writes it: +10, −10 (a true minus sign), 0."""
    return f"−{-n}" if n < 0 else f"{n:+d}" if n else "0"


def _shift_words(shift: int) -> str:
    return f"now {signed(shift)} on all rolls (C2-31)" if shift else "no wound shift"


class InitiativeSet(EventBase, frozen=True, kw_only=True, tag="initiative_set"):
    """I2-1/I2-2: a fighter's initiative value and whether it counts as a success."""

    id: str
    method: InitiativeMethod
    value: int
    success: bool
    speed: int
    roll: Percentile | None = None
    #: shifts on the roll (wounds, conditions; C2-31), added to Speed for the target.
    shift: int = 0

    def explain(self) -> str:
        if self.method == "default":
            how = f"takes default initiative {self.value} (Initiative skill, counts as a success; I2-1)"
        elif self.method == "ambush":
            how = f"ambushes: acts first, then Speed {self.value} as a success (I2-3)"
        else:
            word = "success" if self.success else "failure"
            dice = self.roll.describe() if self.roll is not None else str(self.value)
            against = f"Speed {self.speed}" + (f" {self.shift:+d} = {self.speed + self.shift}" if self.shift else "")
            how = f"rolls initiative against {against}: {dice}, {word} (specials mean nothing here; I2-2)"
        return f"{self.id} {how}."


class TieBroken(EventBase, frozen=True, kw_only=True, tag="tie_broken"):
    """I2-4: tied fighters each roll a die; losers drop one point below the winner."""

    ids: tuple[str, ...]
    faces: tuple[int, ...]
    winner: str
    value: float

    def explain(self) -> str:
        values = [10 if f == 0 else f for f in self.faces]
        rolls = ", ".join(f"{i} {v}" for i, v in zip(self.ids, values, strict=False))
        best = max(values, default=0)
        top = [i for i, v in zip(self.ids, values, strict=False) if v == best]
        rest = ", the rest one point below" if len(top) < len(self.ids) else ""
        if len(top) == 1:
            return f"Initiative tie at {self.value:g} ({rolls}): {top[0]} goes first{rest} (I2-4)."
        again = " and ".join(top)
        return f"Initiative tie at {self.value:g} ({rolls}): {again} are still tied and roll again{rest} (I2-4)."


class OrderSet(EventBase, frozen=True, kw_only=True, tag="order_set"):
    """I2-2/I2-5: the initiative order (ranks after tie-breaks)."""

    order: tuple[str, ...]
    ranks: tuple[float, ...]

    def explain(self) -> str:
        parts = ", ".join(f"{i} ({r:g})" for i, r in zip(self.order, self.ranks, strict=False))
        return f"Initiative order: {parts} (I2-2)."


class AmbushStarted(EventBase, frozen=True, kw_only=True, tag="ambush_started"):
    """I2-3: every ambusher acts once before round 1, in their order."""

    order: tuple[str, ...]

    def explain(self) -> str:
        return f"Ambush! {', '.join(self.order)} act before round 1 (I2-3)."

    def opens_round(self) -> int:
        return 0


class RoundStarted(EventBase, frozen=True, kw_only=True, tag="round_started"):
    """A round begins; declarations come first (C2-4)."""

    round: int
    order: tuple[str, ...]

    def explain(self) -> str:
        return f"Round {self.round} begins; order {', '.join(self.order)}; declarations, slowest first (C2-4)."

    def opens_round(self) -> int:
        return self.round


class Declared(EventBase, frozen=True, kw_only=True, tag="declared"):
    """C2-4/C2-5/C2-16: one fighter's declaration at round start."""

    id: str
    focus_target: str = ""
    focus: int = 0
    continue_dodge: bool = False
    release_hold: bool = False
    continue_suppression: int = 0
    #: True: this replaces the fighter's earlier declaration this round (its focus and
    #: continued dodge end; a grip it released stays released).
    replaces: bool | msgspec.UnsetType = msgspec.UNSET

    def explain(self) -> str:
        parts = []
        if self.focus:
            parts.append(
                f"focuses +{self.focus} on {self.focus_target}; attacks on {self.id} get +{self.focus} too (C2-5)"
            )
        if self.continue_dodge:
            parts.append("keeps dodging, against every attack this round (C2-16)")
        if self.release_hold:
            parts.append("releases the grip (C2-27)")
        if self.continue_suppression:
            parts.append(f"keeps up suppressive fire, {self.continue_suppression} shots (C2-18)")
        again = " instead" if self.replaces is True else ""
        return f"{self.id} declares{again}: {'; '.join(parts) or 'nothing (C2-4)'}."


class TurnStarted(EventBase, frozen=True, kw_only=True, tag="turn_started"):
    """Whose action it is now (declarations closed)."""

    id: str
    round: int
    turn: int

    def explain(self) -> str:
        return f"Round {self.round}: {self.id} to act (initiative order, I2-2)."


class TurnSkipped(EventBase, frozen=True, kw_only=True, tag="turn_skipped"):
    """A fighter who cannot act this turn loses it (frozen, held, dodging all round, …)."""

    id: str
    reason: str

    def explain(self) -> str:
        return f"{self.id} loses the action: {self.reason}."


class DodgeOutcome(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """C2-15: the dodger's roll and what it did to the attack."""

    dodger: str
    result: CheckResult
    effect: Literal["full", "half", "none"]
    dodge_skill: int


class Hit(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Wounds an attack deals its target: the amount and how it was reached."""

    amount: int
    breakdown: str
    rule: str
    injury_id: int
    wounds_before: int
    wounds_after: int
    shift_after: int


class AttackResolved(EventBase, frozen=True, kw_only=True, tag="attack_resolved"):
    """One attack (or one part of divided attacks): the roll, any dodge, the wounds dealt.
    `weapon_kind` tells the M2-8 bookkeeping whether the target was attacked with a weapon or shot at."""

    round: int
    attacker: str
    target: str
    weapon: str
    mode: str
    result: CheckResult
    weapon_kind: str = "unarmed"
    part: int = 1
    parts: int = 1
    dodge: DodgeOutcome | None = None
    hit: Hit | None = None
    note: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        found = [(self.attacker, self.result)]
        if self.dodge is not None:
            found.append((self.dodge.dodger, self.dodge.result))
        return found

    def explain(self) -> str:
        verb = {
            "strike": "attacks",
            "disarm": "tries to disarm",
            "throw_person": "tries to throw",
            "throw": "throws something at",
            "break_free": "tries to break free of",
            "gimme": "wrenches for the weapon of",
        }.get(self.mode, "attacks")
        rule = {
            "disarm": "C2-19",
            "throw_person": "C2-21",
            "throw": "C2-20",
            "break_free": "C2-27",
            "gimme": "C2-27",
        }.get(self.mode, "C2-1")
        with_weapon = "" if self.weapon in ("fists", "") else f" with a {self.weapon}"
        part = f" (attack {self.part} of {self.parts}, C2-8)" if self.parts > 1 else ""
        text = (
            f"Round {self.round} — {self.attacker} {verb} {self.target}{with_weapon}{part} "
            f"({describe_target(self.result.spec)}): {describe_result(self.result)} ({rule})"
        )
        if self.dodge is not None:
            d = self.dodge
            effect = {"full": "no damage", "half": "half damage", "none": "full damage"}[d.effect]
            dodge = f"{describe_target(d.result.spec)}): {describe_result(d.result)}"
            text += f"; {d.dodger} dodges ({dodge} → {effect} (C2-15)"
        if self.hit is not None:
            h = self.hit
            text += (
                f"; {h.breakdown} ({h.rule}); {self.target} {h.wounds_before} → {h.wounds_after} wound points, "
                f"{_shift_words(h.shift_after)}"
            )
        if self.note:
            text += f"; {self.note}"
        return text + "."


class WoundsInflicted(EventBase, frozen=True, kw_only=True, tag="wounds_inflicted"):
    """Wounds that are not an attack's hit on its target: fumbles, matched failures, knife cuts,
    grips, disarming a blade (C2-11, C2-13, C2-14, C2-19, C2-27). Each is its own injury (C2-32)."""

    target: str
    amount: int
    source: str
    rule: str
    injury_id: int
    wounds_before: int
    wounds_after: int
    shift_after: int

    def explain(self) -> str:
        return (
            f"{self.target} takes {self.amount} wound{'s' if self.amount != 1 else ''} from {self.source} "
            f"({self.rule}): {self.wounds_before} → {self.wounds_after} wound points, "
            f"{_shift_words(self.shift_after)}."
        )


class StatusChanged(EventBase, frozen=True, kw_only=True, tag="status_changed"):
    """A fighter drops, dies, flees or surrenders (C2-10, C2-31, M2-7)."""

    id: str
    status: StatusName
    cause: str
    rule: str

    def explain(self) -> str:
        return f"{self.id} is now {self.status}: {self.cause} ({self.rule})."


class PermanentDamage(EventBase, frozen=True, kw_only=True, tag="permanent_damage"):
    """C2-32: more than 50 points in one blow; the GM names the nature with a ruling."""

    id: str
    injury_id: int
    amount: int

    def explain(self) -> str:
        return (
            f"{self.id} suffers permanent damage from injury #{self.injury_id} ({self.amount} points "
            f"in one blow); the GM names its nature (C2-32)."
        )


class WeaponDrawn(EventBase, frozen=True, kw_only=True, tag="weapon_drawn"):
    id: str
    weapon: str
    round: int

    def explain(self) -> str:
        return f"{self.id} draws the {self.weapon}; usable from next round (C2-3)."


class WeaponJammed(EventBase, frozen=True, kw_only=True, tag="weapon_jammed"):
    id: str
    weapon: str

    def explain(self) -> str:
        return f"{self.id}'s {self.weapon} jams (fumble, C2-11); clearing it takes an action (C2-3)."


class JamCleared(EventBase, frozen=True, kw_only=True, tag="jam_cleared"):
    id: str
    weapon: str

    def explain(self) -> str:
        return f"{self.id} clears the jammed {self.weapon} (C2-3)."


class WeaponLost(EventBase, frozen=True, kw_only=True, tag="weapon_lost"):
    """A weapon leaves a fighter's hand: disarmed, a Gimme, or thrown (C2-19, C2-26, C2-20)."""

    id: str
    weapon: str
    taken_by: str = ""
    rule: str = "C2-19"

    def explain(self) -> str:
        where = f"{self.taken_by} now holds it" if self.taken_by else "it is on the floor"
        return f"{self.id} loses the {self.weapon}: {where} ({self.rule})."


class ConditionApplied(EventBase, frozen=True, kw_only=True, tag="condition_applied"):
    id: str
    condition: Condition
    rule: str

    def explain(self) -> str:
        c = self.condition
        return f"{self.id} is {c.name}: {signed(c.shift)} on everything through round {c.until_round} ({self.rule})."


CHERRY_RULES = {
    "big_hurt": "C2-23",
    "blind": "C2-24",
    "dazed": "C2-25",
    "gimme": "C2-26",
    "kung_fu_grip": "C2-27",
    "monkey_dodge": "C2-28",
    "knock_down": "C2-29",
    "more_hurt": "C2-30",
    "new_damage": "C2-30",
    "second_helping": "C2-30",
    "turning_tide": "C2-30",
}


class CherryTaken(EventBase, frozen=True, kw_only=True, tag="cherry_taken"):
    """C2-22: an obsession hand-to-hand skill's matched success grants a cherry."""

    attacker: str
    target: str
    cherry: str
    redirect_to: str = ""

    def explain(self) -> str:
        name = self.cherry.replace("_", " ").title()
        return (
            f"{self.attacker} takes the {name} cherry against {self.target} ({CHERRY_RULES.get(self.cherry, 'C2-22')})."
        )


class KnockedDown(EventBase, frozen=True, kw_only=True, tag="knocked_down"):
    """C2-29 / I2-6: the target falls and goes to the end of the initiative order. `turn` is the
    index of the fighter now acting in the new order (None in logs written before it existed)."""

    id: str
    order: tuple[str, ...]
    rank: float = 0.0
    turn: int | None = None

    def explain(self) -> str:
        return f"{self.id} is knocked down and goes to the end of the order (C2-29, I2-6)."


class StoodUp(EventBase, frozen=True, kw_only=True, tag="stood_up"):
    id: str

    def explain(self) -> str:
        return f"{self.id} stands up (C2-3)."


class GripTaken(EventBase, frozen=True, kw_only=True, tag="grip_taken"):
    holder: str
    target: str

    def explain(self) -> str:
        return f"{self.holder} holds {self.target} in a Kung Fu Grip: no attacks or dodges for {self.target} (C2-27)."


class GripReleased(EventBase, frozen=True, kw_only=True, tag="grip_released"):
    holder: str
    target: str
    reason: str

    def explain(self) -> str:
        return f"{self.target} is out of {self.holder}'s grip: {self.reason} (C2-27)."


class DodgeDeclared(EventBase, frozen=True, kw_only=True, tag="dodge_declared"):
    id: str
    round: int

    def explain(self) -> str:
        return f"Round {self.round} — {self.id} dodges: later attackers this round face a Dodge roll (C2-15)."


class MonkeyDodged(EventBase, frozen=True, kw_only=True, tag="monkey_dodged"):
    """C2-28: the attack declared against the monkey-dodger goes elsewhere."""

    protected: str
    attacker: str
    redirected_to: str

    def explain(self) -> str:
        where = self.redirected_to or "nothing (the floor, the wall)"
        return f"{self.attacker}'s attack on {self.protected} is redirected to {where} (C2-28)."


class SuppressiveFireLaid(EventBase, frozen=True, kw_only=True, tag="suppressive_fire"):
    """C2-18: shots in the air; everyone in the field takes the shift; a hit only on a crit."""

    id: str
    round: int
    shots: int
    total_shots: int
    field: tuple[str, ...]
    shift: int
    result: CheckResult
    hit: str = ""
    continued: bool = False
    dodge: DodgeOutcome | None = None

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.id, self.result)]

    def explain(self) -> str:
        hit = f"; a crit — {self.hit} is hit" if self.hit else "; no hit (only a crit hits)"
        if self.dodge is not None:
            d = self.dodge
            stopped = "stops the crit" if d.effect == "full" else "does not stop a crit (C2-15)"
            hit = f"; a crit at {d.dodger}, who dodges: {describe_result(d.result)} — {stopped}" + (
                f"; {self.hit} is hit" if self.hit else ""
            )
        return (
            f"Round {self.round} — {self.id} lays down suppressive fire, {self.shots} shots "
            f"({self.total_shots} in the air): {', '.join(self.field)} take {signed(self.shift)} "
            f"({describe_result(self.result)}{hit}; C2-18)."
        )


class DidNothing(EventBase, frozen=True, kw_only=True, tag="did_nothing"):
    id: str
    reinitiative: InitiativeMethod | None = None

    def explain(self) -> str:
        if self.reinitiative:
            return f"{self.id} does nothing this round and re-sets initiative ({self.reinitiative}) next round (I2-5)."
        return f"{self.id} does nothing this round (I2-5)."


class FightEnded(EventBase, frozen=True, kw_only=True, tag="fight_ended"):
    """C2-33: at most one side can still act, or the round limit was reached."""

    winner: str | None
    reason: str
    round: int

    def explain(self) -> str:
        who = f"side {self.winner} wins" if self.winner else "a draw"
        return f"The fight ends in round {self.round}: {who} — {self.reason} (C2-33)."
