"""Events of a ua3 fight (U-3…U-13, U-17, U-22): rounds, declarations and their order, attacks,
weapons dropped and jammed, aim, suppression, armor spent, a fight's end. Each explains itself
with its U rule ids."""

from engine.dice.checks import CheckResult
from engine.events.base import EventBase
from engine.events.ua3.words import rolled
from engine.state.ua3.combat import Action


class RoundStarted(EventBase, frozen=True, kw_only=True, tag="ua3_round_started"):
    """U-22: a round begins with everyone's declarations."""

    round: int

    def explain(self) -> str:
        return f"Round {self.round}: everyone declares an action (U-22)."

    def opens_round(self) -> int:
        return self.round


class ActionDeclared(EventBase, frozen=True, kw_only=True, tag="ua3_action_declared"):
    """U-22: `actor` declares `action` for the round; `rating` (from `rated_by`) orders it."""

    actor: str
    action: Action
    targets: tuple[str, ...] = ()
    weapon: str = ""
    rating: int = 0
    rated_by: str = ""

    def explain(self) -> str:
        at = f" at {', '.join(self.targets)}" if self.targets else ""
        with_ = f" with the {self.weapon}" if self.weapon and self.weapon != "fists" else ""
        rated = f" ({self.rated_by} {self.rating})" if self.rated_by else ""
        if self.action == "grapple" and not self.targets:  # in a grapple: its one action (U-17)
            return f"{self.actor} declares grapple: its exchange this round{rated} (U-17, U-22)."
        return f"{self.actor} declares {self.action.replace('_', ' ')}{at}{with_}{rated} (U-22)."


class OrderSet(EventBase, frozen=True, kw_only=True, tag="ua3_order_set"):
    """U-22: the round's order, highest rating first; `faces` broke ties (a die each, I2-4)."""

    round: int
    order: tuple[str, ...]
    ratings: tuple[int, ...]
    faces: tuple[int, ...] = ()

    def explain(self) -> str:
        shown = ", ".join(f"{a} {r}" for a, r in zip(self.order, self.ratings, strict=False))
        ties = " (ties broken by a die each, I2-4)" if self.faces else ""
        return f"Round {self.round} order by declared action: {shown or 'no one acts'}{ties} (U-22)."


class TurnEnded(EventBase, frozen=True, kw_only=True, tag="ua3_turn_ended"):
    """`actor`'s turn is over (`why` when it did not act: it lost the action, it is out)."""

    actor: str
    why: str = ""
    #: U-9: the turn was the action a throw to the ground cost
    lost: bool = False

    def explain(self) -> str:
        return f"{self.actor}'s turn ends{': ' + self.why if self.why else ''} (U-22)."


class AttackRolled(EventBase, frozen=True, kw_only=True, tag="ua3_attack_rolled"):
    """One attack roll (U-3…U-9, U-11) at `targets` and the wounds it deals each (`wounds`,
    armor counted, U-13; `breakdown` says how). `kind` is the weapon's; `mode` strike, full
    auto, suppress, throw, throw_person, disarm or finish."""

    round: int
    attacker: str
    targets: tuple[str, ...]
    weapon: str
    kind: str
    mode: str
    result: CheckResult
    wounds: tuple[int, ...] = ()
    breakdown: str = ""
    rule: str = "U-3"
    note: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.attacker, self.result)]

    def explain(self) -> str:
        at = " and ".join(self.targets)
        dealt = (
            ", ".join(f"{w} wounds to {t}" for t, w in zip(self.targets, self.wounds, strict=False) if w) or "no wounds"
        )
        how = f" ({self.breakdown})" if self.breakdown else ""
        note = f"; {self.note}" if self.note else ""
        mode = "" if self.mode == "strike" else f" ({self.mode.replace('_', ' ')})"
        return (
            f"{self.attacker} attacks {at} with {self.weapon}{mode}: {rolled(self.result)} — {dealt}{how}{note} "
            f"({self.rule})."
        )


class WeaponDropped(EventBase, frozen=True, kw_only=True, tag="ua3_weapon_dropped"):
    """`actor` no longer holds `weapon` (disarmed U-4/U-11, a limb shot U-9); `taken_by` holds it."""

    actor: str
    weapon: str
    taken_by: str = ""
    rule: str = "U-11"

    def explain(self) -> str:
        taken = f"; {self.taken_by} now holds it" if self.taken_by else ""
        return f"{self.actor} loses the {self.weapon}{taken} ({self.rule})."


class WeaponReadied(EventBase, frozen=True, kw_only=True, tag="ua3_weapon_readied"):
    """`actor` takes `weapon` in hand (fists: puts the weapon away)."""

    actor: str
    weapon: str

    def explain(self) -> str:
        return f"{self.actor} takes the {self.weapon} in hand (U-22: its action)."


class WeaponJammed(EventBase, frozen=True, kw_only=True, tag="ua3_weapon_jammed"):
    """U-5, U-7, U-8: the gun jams; an action clears it (`cleared`)."""

    actor: str
    weapon: str
    cleared: bool = False
    rule: str = "U-5"

    def explain(self) -> str:
        if self.cleared:
            return f"{self.actor} clears the jammed {self.weapon} ({self.rule})."
        return f"{self.actor}'s {self.weapon} jams: an action clears it ({self.rule})."


class Aimed(EventBase, frozen=True, kw_only=True, tag="ua3_aimed"):
    """U-9: a round aiming at `target`: +10 a round, at most +20, on the next attack on it."""

    actor: str
    target: str
    rounds: int

    def explain(self) -> str:
        rounds = f"{self.rounds} round{'s' * (self.rounds > 1)}"
        return f"{self.actor} aims at {self.target} ({rounds}: +{min(2, self.rounds) * 10}, U-9)."


class SuppressionLaid(EventBase, frozen=True, kw_only=True, tag="ua3_suppression_laid"):
    """U-8: `targets` are suppressed by `attacker` up to the end of round `until`."""

    attacker: str
    targets: tuple[str, ...]
    until: int

    def explain(self) -> str:
        return (
            f"{', '.join(self.targets)} {'is' if len(self.targets) == 1 else 'are'} suppressed by {self.attacker} "
            f"until the end of round {self.until}: to act against it, first a Violence stress check (U-8)."
        )


class HelmetSpent(EventBase, frozen=True, kw_only=True, tag="ua3_helmet_spent"):
    """U-13: the helmet turned a gun wound into a melee wound, once; it is spent."""

    actor: str

    def explain(self) -> str:
        return f"{self.actor}'s helmet took the bullet: spent (U-13)."


class OpeningGiven(EventBase, frozen=True, kw_only=True, tag="ua3_opening_given"):
    """U-3: a fist's matched failure gives `to` +10 on its next attack on `actor`."""

    actor: str
    to: str

    def explain(self) -> str:
        return f"{self.actor} leaves an opening: {self.to} gets +10 on its next attack on {self.actor} (U-3)."


class ThrownDown(EventBase, frozen=True, kw_only=True, tag="ua3_thrown_down"):
    """U-9: thrown to the ground, `actor` loses its next action getting up."""

    actor: str

    def explain(self) -> str:
        return f"{self.actor} is thrown to the ground and loses its next action (U-9)."


class MovementHalved(EventBase, frozen=True, kw_only=True, tag="ua3_movement_halved"):
    """U-9: `by`'s limb shot halves `actor`'s movement (the shooter's choice over the drop; no
    movement is modelled: a condition for the GM to read)."""

    actor: str
    by: str

    def explain(self) -> str:
        return f"{self.by}'s limb shot halves {self.actor}'s movement (U-9: the shooter's choice)."


class Restrained(EventBase, frozen=True, kw_only=True, tag="ua3_restrained"):
    """U-17: `actor` is restrained by `by` (helpless, it can be finished, U-10); `released`
    ends it."""

    actor: str
    by: str
    released: bool = False

    def explain(self) -> str:
        if self.released:
            return f"{self.actor} is no longer restrained by {self.by} (U-17)."
        return f"{self.by} restrains {self.actor}: helpless, it can be finished (U-17, U-10)."


class ThoughtDead(EventBase, frozen=True, kw_only=True, tag="ua3_thought_dead"):
    """U-10: the finisher fumbled or matched a failure: `actor` is left unconscious, and side
    `by_side` believes it dead."""

    actor: str
    by_side: str

    def explain(self) -> str:
        return f"{self.actor} only seems dead: it is unconscious, and side {self.by_side} believes it dead (U-10)."


class FightEnded(EventBase, frozen=True, kw_only=True, tag="ua3_fight_ended"):
    """U-22 (as C2-33): the fight is over; `winner` the side left standing (None: a draw)."""

    winner: str | None
    reason: str
    round: int = 0

    def explain(self) -> str:
        won = f"side {self.winner} wins" if self.winner else "a draw"
        return f"The fight ends in round {self.round}: {won} — {self.reason} (U-22)."


class GrappleSwapped(EventBase, frozen=True, kw_only=True, tag="ua3_grapple_swapped"):
    """U-17: the defender, with advantage, becomes the attacker; the token back to balance."""

    conflict: str
    attacker: str

    def explain(self) -> str:
        return f"{self.attacker} turns the grapple around: now the attacker, back to balance (U-17)."


class GrappleTurn(EventBase, frozen=True, kw_only=True, tag="ua3_grapple_turn"):
    """U-17: `actor`'s exchange in the grapple (side `side`'s `exchange`-th) spent on `move`
    instead of a roll: 1d10 wounds, a disarm, swapping roles or a shot (Decision: its roll for
    the exchange, counted as one)."""

    conflict: str
    actor: str
    side: str
    move: str
    exchange: int

    def explain(self) -> str:
        what = {"wounds": "deals 1d10 wounds", "disarm": "disarms", "swap": "swaps roles", "shoot": "shoots"}
        return (
            f"Grapple {self.conflict}, exchange {self.exchange}: {self.actor} (side {self.side.upper()}) "
            f"{what.get(self.move, self.move)} instead of rolling to move (U-17)."
        )


class AttackedWithWeapon(EventBase, frozen=True, kw_only=True, tag="ua3_attacked_with_weapon"):
    """U-25: `actor` is attacked with a weapon by `by` outside an attack roll (a grappler's edged
    or pointy `weapon`, U-17), for the first time this fight: marked, so its check comes once."""

    actor: str
    by: str
    weapon: str

    def explain(self) -> str:
        return f"{self.by} turns the {self.weapon} on {self.actor} in the grapple: attacked with a weapon (U-25, U-17)."
