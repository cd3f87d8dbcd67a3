"""Coercion (U-15): a credible threat, the coercer's roll, the target's choice."""

from __future__ import annotations

from engine.commands.ua3 import AnswerCoercion, Coerce
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.ua3 import CoercionAnswered, CoercionRolled
from engine.rules.common import require_started
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import pick
from engine.rules.ua3.combat.situation import grapple_of, grapple_side
from engine.rules.ua3.people import able, coercing_options, in_play, person, roll, spec_for
from engine.rules.ua3.stress import MAX_RANK, gauge_of, stress_events
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.conflict import PendingCoercion


def rank_of(outcome: str, coercer_passions: int, target_passions: int) -> int:
    """U-15 (4): 1 for a success, 2 for a matched success or a crit, +1 for each passion in play
    on either side (at most a rank 10 stress check); 0 for a failure."""
    if outcome not in ("crit", "matched_success", "success"):
        return 0
    base = 2 if outcome in ("crit", "matched_success") else 1
    return min(MAX_RANK, base + coercer_passions + target_passions)


def coercible(t: Table, coercer_id: str, target_id: str, demand: str = "surrender") -> tuple[Row, Row]:
    """U-15: the coercer and the target of a coercion the rules take now — both conscious (U-2),
    not the same, the target answering no other threat; in a fight, a demand it can do (a
    weapon to drop, someone it holds to let go, no grapple holding it to flee) — or `Refused`.
    (Tactics ask it too, so that they never choose a coercion the rules refuse.)"""
    coercer = able(t, coercer_id, "coerce")
    target = able(t, target_id, "be coerced")
    if coercer.id == target.id:
        raise Refused(f"{coercer.id} cannot coerce itself", hint="U-15: the coercer threatens a target")
    waiting = t.coercion_of(target.id)
    if waiting is not None:
        raise Refused(
            f"{target.id} has yet to answer {waiting.coercer}'s {waiting.gauge} threat",
            hint=f"answer it first: acquiesce or refuse (U-15); ua session answer … {target.id}",
        )
    if t.phase in ("declare", "acting"):
        _demand_possible(t, target, demand)
    return coercer, target


def _demand_possible(t: Table, target: Row, demand: str) -> None:
    if demand == "drop" and target.in_hand == "fists":
        raise Refused(f"{target.id} holds no weapon to drop (U-15)", hint="demand surrender, flee or release")
    if demand == "release" and held_by(t, target) is None:
        raise Refused(f"{target.id} holds no one to let go (U-15, U-17)", hint="demand surrender, flee or drop")
    if demand == "flee" and grapple_of(t, target.id) is not None:
        raise Refused(f"{target.id} is in a grapple and cannot flee (U-17)", hint="demand surrender or release")


def held_by(t: Table, holder: Row) -> Row | None:
    """The one `holder` holds: its opponent in a grapple it has the grip in (side A, U-17), or
    the one it restrains; None when it holds no one."""
    if grapple_of(t, holder.id) is not None:
        side, other = grapple_side(t, holder.id)
        if side == "a":
            return t.by_id[other]
    for row in t.rows:
        if row.restrained_by == holder.id:
            return row
    return None


def coerce(sink: Sink[Table], command: Coerce, dice: DiceSource) -> None:
    """U-15 (1, 2, 4): the coercer rolls the gauge's coercing rating, a `coerces` identity or a
    relationship with the target — the best, unless one is named; with `answer`, (3) at once."""
    t = sink.table
    require_started(t)
    coercer, target = coercible(t, command.coercer, command.target, command.demand)
    gauge = gauge_of(command.gauge)
    in_play(t, coercer, command.coercer_passions)
    in_play(t, target, command.target_passions)
    options, best_option = coercing_options(coercer, target, gauge)
    roll_with = command.roll_with
    option = pick(options, roll_with, f"coerce on {gauge}") if roll_with.strip() else best_option  # `pick`'s best
    result = roll(spec_for(coercer, option, shifts=command.shifts), dice, command.flipped, coercer.id, "U-15")
    rank = rank_of(result.outcome, len(command.coercer_passions), len(command.target_passions))
    rolled = CoercionRolled(
        coercer=coercer.id,
        target=target.id,
        gauge=gauge,
        result=result,
        rolled_with=option.source,
        threat=command.threat,
        coercer_passions=command.coercer_passions,
        target_passions=command.target_passions,
        rank=rank,
        demand=command.demand,
    )
    events: list[EventBase] = [rolled]
    if rank and command.answer is not None:
        pending = PendingCoercion(
            coercer=coercer.id, target=target.id, gauge=gauge, rank=rank, threat=command.threat, demand=command.demand
        )
        answering = AnswerCoercion(target=target.id, answer=command.answer, reaction=command.reaction)
        events += answer_events(t, pending, answering, dice)
    sink.emit_all(events)


def answer_events(t: Table, pending: PendingCoercion, command: AnswerCoercion, dice: DiceSource) -> list[EventBase]:
    """U-15 (3): acquiesce (the gauge stays intact), or refuse and take the stress check."""
    answered = CoercionAnswered(
        target=pending.target, coercer=pending.coercer, gauge=pending.gauge, rank=pending.rank, answer=command.answer
    )
    if command.answer == "acquiesce":
        return [answered]
    if command.answer != "refuse":
        raise Refused(f"unknown answer {command.answer!r}", hint="acquiesce or refuse (U-15)")
    return [
        answered,
        *stress_events(
            t,
            pending.target,
            pending.gauge,
            pending.rank,
            dice,
            source=pending.coercer,
            roll_with=command.roll_with,
            involves=(pending.coercer, person(t, pending.coercer).name),
            shifts=command.shifts,
            reaction=command.reaction,
            flipped=command.flipped,
            passion=command.passion,
            passion_mode=command.passion_mode,
            cause=f"refused {pending.coercer}'s coercion",
        ),
    ]


def answer(sink: Sink[Table], command: AnswerCoercion, dice: DiceSource) -> None:
    """U-15 (3): the convinced target answers a coercion waiting for it."""
    t = sink.table
    require_started(t)
    person(t, command.target)
    pending = t.coercion_of(command.target)
    if pending is None:
        raise Refused(
            f"no coercion waits for {command.target}'s answer",
            hint="only a coercion that succeeded asks for one (U-15)",
        )
    sink.emit_all(answer_events(t, pending, command, dice))
