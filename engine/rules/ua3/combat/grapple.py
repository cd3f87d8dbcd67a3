"""Grappling (U-17): a gridiron conflict (U-16) rolled with Struggle inside the round structure,
the grab's initiator side A. Each grappler's declared `grapple` is its roll of the exchange —
or, with advantage, the attacker's 1d10 wounds or disarm, the defender's swap of roles, a gun
shot (U-5); an edged or pointy weapon in hand cuts 1d10 on each of its turns."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.commands.ua3 import MatchedFailure
from engine.commands.ua3_combat import Grapple, GrappleEnd, GrappleMove
from engine.dice.checks import Shift, roll_check
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import ConflictEnded, ConflictStarted, GridironRolled, PenaltyTaken, StatusChanged
from engine.events.ua3 import combat as ev
from engine.rules.sink import Sink
from engine.rules.ua3.apply import gridiron_rolled
from engine.rules.ua3.combat.apply import exchange_spent
from engine.rules.ua3.combat.attack import STRIKE, first_weapon_checks, killed_checks, strike
from engine.rules.ua3.combat.harm import d10, d10s, flee_if_free, total, wound
from engine.rules.ua3.combat.rounds import end_turn, suppressed_may_act, turn_of
from engine.rules.ua3.combat.situation import (
    dead,
    grapple_of,
    grapple_side,
    gun_rating,
    standing,
    struggle,
    weapon_of,
)
from engine.rules.ua3.gridiron import steps_for
from engine.rules.ua3.people import check_flip, spec_for
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.conflict import Conflict, ConflictSide, SideKey, step_toward

MATCHED_FAILURE = Shift(source="matched failure in a grapple (U-16, U-17)", amount=-10)
#: U-17: where each side has advantage.
ADVANTAGE = {"a": "advantage_a", "b": "advantage_b"}

#: (Final: a compiled build calls it from a C variable) reads a struct's fields with one call
astuple: Final = msgspec.structs.astuple
#: Where each of a Grapple command's fields is in `astuple(command)`.
_FIELD = {name: i for i, name in enumerate(Grapple.__struct_fields__)}
_ACTOR: Final = _FIELD["actor"]
_TARGET: Final = _FIELD["target"]
_MOVE: Final = _FIELD["move"]
_END: Final = _FIELD["end"]
_SHIFTS: Final = _FIELD["shifts"]
_FLIPPED: Final = _FIELD["flipped"]
_MATCHED_FAILURE: Final = _FIELD["matched_failure"]


class Move:
    """A `Grapple` command's fields, read once with one call (a compiled build reads a struct's
    fields one by one, slowly; a grapple's rules read them again and again)."""

    __slots__ = ("actor", "end", "flipped", "matched_failure", "move", "shifts", "target")

    def __init__(self, command: Grapple) -> None:
        fields = astuple(command)
        self.actor: str = fields[_ACTOR]
        self.target: str = fields[_TARGET]
        self.move: GrappleMove = fields[_MOVE]
        self.end: GrappleEnd = fields[_END]
        self.shifts: tuple[Shift, ...] = fields[_SHIFTS]
        self.flipped: bool | None = fields[_FLIPPED]
        self.matched_failure: MatchedFailure | None = fields[_MATCHED_FAILURE]


def grab(sink: Sink[Table], row: Row, target: Row) -> Conflict:
    """U-17: a new grapple, both at balance, the grabber side A."""
    t = sink.table
    if not standing(target):
        raise Refused(f"{target.id} is {target.status}: there is no one to grapple")
    if grapple_of(t, target.id) is not None:
        raise Refused(f"{target.id} is already in a grapple")
    number = sum(1 for c in t.conflicts if c.kind == "grapple") + 1
    conflict_id = f"grapple-{number}"
    while t.conflict(conflict_id) is not None:
        number += 1
        conflict_id = f"grapple-{number}"
    sides = (
        ConflictSide(key="a", name=row.id, stake="restrain or kill", actor=row.id, roll="Struggle"),
        ConflictSide(key="b", name=target.id, stake="break free", actor=target.id, roll="Struggle"),
    )
    sink.emit(
        ConflictStarted(
            id=conflict_id,
            sides=sides,
            about=f"{row.id} grabs {target.id}",
            kind="grapple",
            first="a",
            order="the grab's initiator is side A (U-17)",
        )
    )
    found = t.conflict(conflict_id)
    assert found is not None
    return found


def grapple(sink: Sink[Table], command: Grapple, dice: DiceSource) -> None:
    """U-17 on the actor's turn: a grab (then its first roll, Decision), or its move in the grapple."""
    order = Move(command)
    t = sink.table
    row = turn_of(t, order.actor, "grapple")
    declared = row.declared
    assert declared is not None
    conflict = grapple_of(t, row.id)
    option = struggle(row)
    if conflict is None:
        target_id = order.target or (declared.targets[0] if declared.targets else "")
        if not target_id or (declared.targets and target_id not in declared.targets):
            raise Refused(f"{row.id} declared grabbing {', '.join(declared.targets) or 'no one'}")
        if order.move != "roll":
            raise Refused("a grab is a roll (U-17)", hint="wounds, disarm, swap and shooting come with advantage")
        check_flip(option, order.flipped)
        if not suppressed_may_act(sink, row, dice):
            return
        other = t.by_id[target_id]
        conflict = grab(sink, row, other)
        key: SideKey = "a"
    else:
        key, opponent = grapple_side(t, row.id)
        if order.target and order.target != opponent:
            raise Refused(f"{row.id} is grappling {opponent}, not {order.target}")
        other = t.by_id[opponent]
        _check_move(row, other, conflict, key, order)
    if order.move != "roll":  # U-17 (Decision): the move is its roll for the exchange
        exchange = conflict.side(key).rolls + 1
        exchange_spent(t, conflict.id, key)
        turn = ev.GrappleTurn(conflict=conflict.id, actor=row.id, side=key, move=order.move, exchange=exchange)
        sink.applied(turn if sink.recording else None)
    if order.move == "roll":
        _roll(sink, row, other, conflict, key, order, dice)
    elif order.move == "wounds":
        faces = (d10(dice, row.id, "wound die", "U-17"),)
        _hurt(sink, row, other, face_value(faces[0]), f"{row.id} has advantage in the grapple: 1d10", faces, dice)
    elif order.move == "disarm":
        sink.emit(ev.WeaponDropped(actor=other.id, weapon=other.in_hand, rule="U-17"))
    elif order.move == "swap":
        sink.emit(ev.GrappleSwapped(conflict=conflict.id, attacker=row.id))
    else:  # shoot (U-5), with advantage
        gun = weapon_of(row)
        option = gun_rating(row, "shoot in a grapple")
        spec = spec_for(row, option, shifts=order.shifts)
        result = roll_check(spec, dice, prefer="high", flipped=order.flipped, who=row.id, rule="U-17")
        strike(sink, row, other, gun, STRIKE, result, dice)
    blade = weapon_of(row)
    if blade.edged and row.status == "active" and other.status == "active" and grapple_of(t, row.id) is not None:
        seen = other.triggered
        if "weapon" not in seen:  # U-25: a blade turned on it is an attack with a weapon
            sink.emit(ev.AttackedWithWeapon(actor=other.id, by=row.id, weapon=blade.name))
        faces = (d10(dice, row.id, "blade's wound die", "U-17"),)
        _hurt(sink, row, other, face_value(faces[0]), f"{row.id}'s {blade.name} in the grapple: 1d10", faces, dice)
        first_weapon_checks(sink, row.id, other, seen, dice)
    end_turn(sink, row.id, dice)


def _hurt(
    sink: Sink[Table], row: Row, other: Row, amount: int, cause: str, faces: tuple[int, ...], dice: DiceSource
) -> None:
    """Wounds a grappler deals its opponent (U-17); a kill raises U-25's kill check."""
    alive = not dead(other)
    wound(sink, other, amount, cause, "U-17", faces=faces)
    if alive and dead(other):
        killed_checks(sink, row, [other], dice)


def _check_move(row: Row, other: Row, conflict: Conflict, key: SideKey, order: Move) -> None:
    """Whether `row` (side `key`, against `other`) may make its move (U-17), or `Refused`."""
    has_advantage = conflict.token == ADVANTAGE[key]
    move = order.move
    if move in ("wounds", "disarm") and not (key == "a" and has_advantage):
        raise Refused(f"only the attacker with advantage may {move.replace('wounds', 'deal 1d10 wounds')} (U-17)")
    if move == "disarm" and other.in_hand == "fists":
        raise Refused(f"{other.id} holds no weapon (U-17)")
    if move == "swap" and not (key == "b" and has_advantage):
        raise Refused("only the defender with advantage may swap roles (U-17)")
    if move == "shoot":
        gun = weapon_of(row)
        if gun.kind != "firearm" or row.jammed or not has_advantage:
            raise Refused("a grappler shoots with a working gun in hand, with advantage (U-17, U-5)")
        gun_rating(row, "shoot")
    check_flip(struggle(row), order.flipped)


def _roll(
    sink: Sink[Table], row: Row, other: Row, conflict: Conflict, key: SideKey, order: Move, dice: DiceSource
) -> None:
    """U-16 moves on the grapple's gridiron; the end zones end it (U-17)."""
    option = struggle(row)
    spec = spec_for(row, option, shifts=order.shifts)
    result = roll_check(spec, dice, flipped=order.flipped, who=row.id, rule="U-17")
    outcome: str = result.outcome
    steps = steps_for(outcome)
    conflict_id, before, sides = conflict.id, conflict.token, conflict.sides
    side_a, side_b = sides[0], sides[1]  # indexed, not unpacked (a compiled unpacking iterates)
    after = step_toward(before, key, steps)
    side = side_a if key == "a" else side_b  # `conflict.side(key)`
    side_key = side.key
    gridiron_rolled(sink.table, conflict_id, side_key, after, row.id)
    sink.applied(
        GridironRolled(
            conflict=conflict_id,
            side=side_key,
            roller=side.name,
            actor=row.id,
            result=result,
            before=before,
            after=after,
            steps=steps,
            exchange=side.rolls + 1,
        )
        if sink.recording
        else None
    )
    if outcome == "matched_failure" and order.matched_failure == "wounds":
        face = d10(dice, row.id, "matched failure's wound die", "U-16")
        wound(sink, row, face_value(face), "a matched failure in the grapple: 1d10", "U-16", faces=(face,))
    elif outcome == "matched_failure":
        sink.emit(PenaltyTaken(actor=row.id, shift=MATCHED_FAILURE, rule="U-16"))
    attacker = sink.table.by_id[side_a.actor]
    defender = sink.table.by_id[side_b.actor]
    if after == "end_zone_a":
        reason = f"{attacker.id} reaches its end zone"
        sink.emit(ConflictEnded(conflict=conflict_id, winner="a", token=after, reason=reason, stake="restrain or kill"))
        if order.end == "kill" and row.id == attacker.id:
            sink.emit(
                StatusChanged(
                    actor=defender.id, status="dead", cause=f"{attacker.id} kills it in the grapple", rule="U-17"
                )
            )
            killed_checks(sink, attacker, [defender], dice)
        else:
            sink.emit(ev.Restrained(actor=defender.id, by=attacker.id))
        flee_if_free(sink, attacker)  # U-23: its hold over, one that would flee goes
    elif after == "end_zone_b":
        reason = f"{defender.id} breaks free"
        sink.emit(ConflictEnded(conflict=conflict_id, winner="b", token=after, reason=reason, stake="break free"))
        roll = result.roll
        assert roll is not None
        if row.id == defender.id:
            _hurt(sink, defender, attacker, roll.digit_sum, f"{defender.id} breaks free with a punch", (), dice)
        else:  # the attacker's fumble pushed it there: it still punches its way out (two dice, D-5)
            faces = d10s(dice, 2, defender.id, "punch's dice", "U-17")
            _hurt(sink, defender, attacker, total(faces), f"{defender.id} breaks free with a punch", faces, dice)
        flee_if_free(sink, defender)  # U-23: free, one that would flee goes
        flee_if_free(sink, attacker)
