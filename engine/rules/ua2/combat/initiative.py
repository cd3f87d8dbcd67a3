"""The start of a fight (I2-1…I2-4, C2-31, C2-33): everyone standing takes initiative, then the
ambush (I2-3) or round 1."""

from __future__ import annotations

from typing import cast

from engine.commands.combat import BeginFight
from engine.dice.source import Choice, DiceSource, SeededDice, choosing
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.combat import StatusName
from engine.rules.common import require_started
from engine.rules.ua2.combat.ranking import automatic_method, initiative_event, ranked_order
from engine.rules.ua2.combat.turns import fight_over, start_first_turn
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row, Table
from engine.settings import Settings
from engine.state.fight import InitiativeMethod


def _out_already(c: Row, settings: Settings) -> StatusName | None:
    """C2-31: a fighter who joined at or below the lines is out before the fight begins."""
    if c.status != "active":
        return None
    if c.wounds <= settings.dead_at:
        return "dead"
    if c.wounds <= settings.incapacitated_at:
        return "incapacitated"
    return None


def _method(t: Table, c: Row, dice: DiceSource) -> InitiativeMethod:
    """I2-1: how `c` takes initiative — its player's choice at a live table (T-1), else automatic."""
    automatic = automatic_method(c, c.ambusher)
    if type(dice) is SeededDice:
        return automatic
    skill = c.skill("Initiative")
    speed = c.sheet.stats.speed
    options = [
        ("roll", f"roll against Speed {speed}; a success acts by its value, before every failure"),
        ("default", f"take default initiative {skill.rating if skill else speed // 2}, counted as a success"),
    ]
    if c.ambusher:
        options.append(("ambush", f"ambush: act before round 1, then Speed {speed} as a success (I2-3)"))
    choice = Choice(c.id, "initiative", "initiative", tuple(options), "I2-1")
    return cast(InitiativeMethod, choosing(dice, choice, automatic))


def begin_fight(sink: Sink, command: BeginFight, dice: DiceSource) -> None:
    """I2-1…I2-4 for everyone able to act, then the ambush (I2-3) or round 1. Everything that can
    refuse is checked first (a refused command changes nothing)."""
    t = sink.table
    require_started(t)
    if t.phase != "setup":
        raise Refused("the fight has already begun")
    if len({c.side for c in t.rows if c.status == "active"}) < 2:
        raise Refused("a fight needs combatants standing on at least two sides (C2-33)")
    chosen = {choice.id: choice.method for choice in command.initiative}
    for fid in chosen:
        if fid not in t.by_id:
            raise Refused(f"no combatant {fid!r} in this encounter")
    out = [
        ev.StatusChanged(id=c.id, status=status, cause=f"{c.wounds} wound points", rule="C2-31")
        for c in t.rows
        if (status := _out_already(c, t.settings))
    ]
    gone = {e.id for e in out}
    # Every combatant standing takes a place: a frozen one is helpless, not gone (C2-33, M2-7).
    fighting = [c for c in t.rows if c.status == "active" and c.id not in gone]
    if len({c.side for c in fighting}) < 2:
        raise Refused("a fight needs combatants standing on at least two sides", hint="C2-31, C2-33")
    methods = {c.id: chosen.get(c.id) or _method(t, c, dice) for c in fighting}
    for c in fighting:
        if methods[c.id] == "ambush" and not c.ambusher:
            raise Refused(f"{c.id} is not ambushing", hint="the scenario says who ambushes (I2-3)")
    sink.emit_all(out)
    for c in fighting:
        sink.emit(initiative_event(t, c, methods[c.id], dice))
    ranked_order(sink, dice)
    if fight_over(sink):  # no one standing can act at all (C2-33): over before it starts
        return
    ambushers = tuple(fid for fid in t.order if (i := t.by_id[fid].initiative) and i.method == "ambush")
    if ambushers:
        sink.emit(ev.AmbushStarted(order=ambushers))
        start_first_turn(sink, dice)
    else:
        sink.emit(ev.RoundStarted(round=1, order=t.order))
