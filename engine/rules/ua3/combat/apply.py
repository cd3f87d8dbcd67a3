"""What each ua3 fight fact does to the working table (one small function per event type; the
rules apply them through the sink, folding a stored log applies the same ones)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec
from msgspec.structs import astuple

from engine.dice.checks import CheckResult
from engine.events import EventBase
from engine.events.ua3 import combat as ev
from engine.rules.ua3.table import Intent, Row, Table
from engine.state.ua3.combat import FISTS, Action, Aim
from engine.state.ua3.encounter import FightResult

replace = msgspec.structs.replace


def _round(t: Table, e: ev.RoundStarted) -> None:
    round_started(t, e.round)


def round_started(t: Table, round_: int) -> None:
    """`RoundStarted`'s fact (a counting sink's rules apply it with no event): declarations open."""
    t.round, t.phase, t.order, t.turn = round_, "declare", (), 0
    for row in t.rows:
        row.declared = None


#: Where ActionDeclared's fields are in `astuple(event)` (one call reads them all; a compiled
#: build reads a struct's fields one by one, slowly): a round's every declaration is one.
_DECLARED = {name: i for i, name in enumerate(ev.ActionDeclared.__struct_fields__)}
_ACTOR: Final = _DECLARED["actor"]
_ACTION: Final = _DECLARED["action"]
_TARGETS: Final = _DECLARED["targets"]
_WEAPON: Final = _DECLARED["weapon"]
_RATING: Final = _DECLARED["rating"]
_RATED_BY: Final = _DECLARED["rated_by"]


#: U-9: the actions that keep an aim at a target they name — aiming again, the attack taking it.
_KEEP_AIM = frozenset({"aim", "attack", "full_auto"})


def _declared(t: Table, e: ev.ActionDeclared) -> None:
    f = astuple(e)
    action_declared(t, t.by_id[f[_ACTOR]], f[_ACTION], f[_TARGETS], f[_WEAPON], f[_RATING], f[_RATED_BY])


def action_declared(
    t: Table, row: Row, action: Action, targets: tuple[str, ...], weapon: str, rating: int, rated_by: str
) -> None:
    """A declaration (`ActionDeclared`'s fact; a counting sink's rules apply it with no event)."""
    row.declared = Intent(action, targets, weapon, rating, rated_by)
    aim = row.aim
    if aim is not None and not (action in _KEEP_AIM and aim.target in targets):
        row.aim = None  # U-9 (Decision): the rounds spent aiming are consecutive, the attack the next action


def _order(t: Table, e: ev.OrderSet) -> None:
    order_set(t, e.order)


def order_set(t: Table, order: tuple[str, ...]) -> None:
    """`OrderSet`'s fact (a counting sink's rules apply it with no event): the turns begin."""
    t.phase, t.order, t.turn = "acting", order, 0


def _turn(t: Table, e: ev.TurnEnded) -> None:
    turn_ended(t, t.by_id[e.actor] if e.lost else None, e.lost)


def turn_ended(t: Table, row: Row | None, lost: bool) -> None:
    """A turn is over (the next one's); one lost getting up (U-9) is the action lost."""
    if lost and row is not None:
        row.loses_action = False
    t.turn += 1


def _attack(t: Table, e: ev.AttackRolled) -> None:
    result = e.result
    attack_rolled(t, e.attacker, e.targets, result, result.outcome, sum(e.wounds), e.kind, e.mode)


def attack_rolled(
    t: Table,
    attacker_id: str,
    targets: tuple[str, ...],
    result: CheckResult,
    outcome: str,
    dealt: int,
    kind: str,
    mode: str,
) -> None:
    """An attack roll (`AttackRolled`'s fact; a counting sink's rules apply it with no event):
    the attacker's roll (`result`, its `outcome`) and the wounds it `dealt`, its aim spent, its
    targets marked (U-25)."""
    attacker = t.by_id[attacker_id]
    attacker.next_roll = ()
    attacker.last_check = result
    attacker.dealt += dealt
    aim = attacker.aim
    if aim is not None and aim.target in targets:
        attacker.aim = None  # U-9: the aim is spent on the next attack on its target
    trigger = _mark(kind, outcome, mode)
    for target_id in targets:
        target = t.by_id[target_id]
        if attacker_id in target.openings:
            target.openings = tuple(o for o in target.openings if o != attacker_id)
        if trigger and trigger not in target.triggered:
            target.triggered = (*target.triggered, trigger)


def _mark(kind: str, outcome: str, mode: str) -> str:
    """U-25: what an attack marks its targets as — attacked with a weapon, or shot at: not by a
    gun that jammed (U-5's fumble, the matched failure of full auto, U-7, and of suppressive
    fire, U-8) nor by a fumble that turned on the shooter's own side (U-7, U-8; Decision: a jam
    fires no shot at anyone)."""
    if kind == "melee":
        return "weapon"
    if kind != "firearm":
        return ""
    if outcome == "fumble" or (outcome == "matched_failure" and mode in ("full_auto", "suppress")):
        return ""
    return "shot_at"


def _attacked_with_weapon(t: Table, e: ev.AttackedWithWeapon) -> None:
    target = t.by_id[e.actor]
    if "weapon" not in target.triggered:
        target.triggered = (*target.triggered, "weapon")


def _dropped(t: Table, e: ev.WeaponDropped) -> None:
    row = t.by_id[e.actor]
    weapon = next((w for w in row.weapons if w.name == e.weapon), None)
    row.weapons = tuple(w for w in row.weapons if w.name != e.weapon)
    if row.in_hand == e.weapon:
        row.in_hand = "fists"
        row.jammed = False
    if e.taken_by and weapon is not None:
        taker = t.by_id[e.taken_by]
        taker.weapons = (*taker.weapons, weapon)
        taker.in_hand = weapon.name
        taker.jammed = False


def _readied(t: Table, e: ev.WeaponReadied) -> None:
    row = t.by_id[e.actor]
    row.in_hand = e.weapon
    row.jammed = False


def _jammed(t: Table, e: ev.WeaponJammed) -> None:
    t.by_id[e.actor].jammed = not e.cleared


def _aimed(t: Table, e: ev.Aimed) -> None:
    t.by_id[e.actor].aim = Aim(target=e.target, rounds=e.rounds)


def _suppressed(t: Table, e: ev.SuppressionLaid) -> None:
    for target in e.targets:
        row = t.by_id[target]
        row.suppressed_until, row.suppressed_by = e.until, e.attacker


def _helmet(t: Table, e: ev.HelmetSpent) -> None:
    t.by_id[e.actor].helmet_spent = True


def _opening(t: Table, e: ev.OpeningGiven) -> None:
    row = t.by_id[e.actor]
    row.openings = (*row.openings, e.to)


def _thrown(t: Table, e: ev.ThrownDown) -> None:
    t.by_id[e.actor].loses_action = True


def _slowed(t: Table, e: ev.MovementHalved) -> None:
    t.by_id[e.actor].movement_halved = True


def _restrained(t: Table, e: ev.Restrained) -> None:
    t.by_id[e.actor].restrained_by = "" if e.released else e.by


def _thought_dead(t: Table, e: ev.ThoughtDead) -> None:
    t.by_id[e.actor].believed_dead_by = e.by_side


def _swapped(t: Table, e: ev.GrappleSwapped) -> None:
    conflict = t.conflict(e.conflict)
    assert conflict is not None
    a, b = conflict.sides
    sides = (replace(b, key="a"), replace(a, key="b"))
    t.replace_conflict(replace(conflict, sides=sides, token="balance"))


def _grapple_turn(t: Table, e: ev.GrappleTurn) -> None:
    exchange_spent(t, e.conflict, e.side)


def exchange_spent(t: Table, conflict_id: str, side: str) -> None:
    """U-17: a grappler's exchange spent on something other than a roll counts as its roll."""
    conflict = t.conflict(conflict_id)
    assert conflict is not None
    a, b = conflict.sides
    if side == "a":
        a = replace(a, rolls=a.rolls + 1)
    else:
        b = replace(b, rolls=b.rolls + 1)
    t.moved(conflict, replace(conflict, sides=(a, b)))


def _ended(t: Table, e: ev.FightEnded) -> None:
    fight_ended(t, e.winner, e.reason)


def fight_ended(t: Table, winner: str | None, reason: str) -> None:
    """`FightEnded`'s fact (a counting sink's rules apply it with no event): the fight is over."""
    t.phase = "ended"
    t.result = FightResult(winner=winner, reason=reason)


APPLIERS: dict[type[EventBase], Callable[[Table, Any], None]] = {
    ev.RoundStarted: _round,
    ev.ActionDeclared: _declared,
    ev.OrderSet: _order,
    ev.TurnEnded: _turn,
    ev.AttackRolled: _attack,
    ev.AttackedWithWeapon: _attacked_with_weapon,
    ev.WeaponDropped: _dropped,
    ev.WeaponReadied: _readied,
    ev.WeaponJammed: _jammed,
    ev.Aimed: _aimed,
    ev.SuppressionLaid: _suppressed,
    ev.HelmetSpent: _helmet,
    ev.OpeningGiven: _opening,
    ev.ThrownDown: _thrown,
    ev.MovementHalved: _slowed,
    ev.Restrained: _restrained,
    ev.ThoughtDead: _thought_dead,
    ev.GrappleSwapped: _swapped,
    ev.GrappleTurn: _grapple_turn,
    ev.FightEnded: _ended,
}

__all__ = ["APPLIERS", "FISTS", "action_declared", "attack_rolled", "fight_ended", "order_set", "round_started"]
