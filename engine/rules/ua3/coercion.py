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
from engine.rules.ua3.people import able, in_play, person, rated_options, roll, spec_for
from engine.rules.ua3.stress import MAX_RANK, gauge_of, stress_events
from engine.rules.ua3.table import Table
from engine.state.ua3.conflict import PendingCoercion
from engine.state.ua3.sheet import U18


def rank_of(outcome: str, coercer_passions: int, target_passions: int) -> int:
    """U-15 (4): 1 for a success, 2 for a matched success or a crit, +1 for each passion in play
    on either side (at most a rank 10 stress check); 0 for a failure."""
    if outcome not in ("crit", "matched_success", "success"):
        return 0
    base = 2 if outcome in ("crit", "matched_success") else 1
    return min(MAX_RANK, base + coercer_passions + target_passions)


def coerce(sink: Sink[Table], command: Coerce, dice: DiceSource) -> None:
    """U-15 (1, 2, 4): the coercer rolls the gauge's coercing rating, a `coerces` identity or a
    relationship with the target — the best, unless one is named; with `answer`, (3) at once."""
    t = sink.table
    require_started(t)
    coercer = able(t, command.coercer, "coerce")
    target = able(t, command.target, "be coerced")
    if coercer.id == target.id:
        raise Refused(f"{coercer.id} cannot coerce itself", hint="U-15: the coercer threatens a target")
    gauge = gauge_of(command.gauge)
    waiting = t.coercion_of(target.id)
    if waiting is not None:
        raise Refused(
            f"{target.id} has yet to answer {waiting.coercer}'s {waiting.gauge} threat",
            hint=f"answer it first: acquiesce or refuse (U-15); ua session answer … {target.id}",
        )
    in_play(t, coercer, command.coercer_passions)
    in_play(t, target, command.target_passions)
    people = (target.id, target.name)  # a relationship with the target (U-20)
    options, best_option = rated_options(coercer, U18[gauge].coerced_with, "coerces", gauge, people)
    roll_with = command.roll_with
    option = pick(options, roll_with, f"coerce on {gauge}") if roll_with.strip() else best_option  # `pick`'s best
    result = roll(spec_for(coercer, option, shifts=command.shifts), dice, command.flipped)
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
    )
    events: list[EventBase] = [rolled]
    if rank and command.answer is not None:
        pending = PendingCoercion(coercer=coercer.id, target=target.id, gauge=gauge, rank=rank, threat=command.threat)
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
