"""Rounds and turns: declarations (C2-4), whose turn it is, the next round, the end (C2-33)."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.commands.combat import Declaration, Declare, EndFight
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events import combat as ev
from engine.rules.common import require_started
from engine.rules.ua2.apply import declared, fight_ended, round_started, turn_skipped, turn_started
from engine.rules.ua2.combat.aftermath import FIGHT_SOURCE, left_fight
from engine.rules.ua2.combat.ranking import reinitiative
from engine.rules.ua2.combat.situation import able_to_act, can_dodge, combatant, frozen, verdict
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Table

#: (Final: a compiled build calls it from a C variable, not found by name per call)
astuple: Final = msgspec.structs.astuple


def skip_reason(t: Table, fighter_id: str) -> str | None:
    """Why a fighter loses its turn, or None if it acts (a silent skip returns '')."""
    c = t.by_id.get(fighter_id)
    if c is None or c.status != "active":
        return ""
    if frozen(c):
        return "frozen by a failed madness check (M2-7)"
    if c.bound:
        return "bound: helpless, it cannot act (C2-33)"
    if c.acted_round == t.round:
        return ""  # had its turn this round already (knocked down to the end after acting, I2-6)
    if c.continued_dodge:
        return "dodging all round (C2-16)"
    return None


def start_turn_from(sink: Sink, index: int) -> bool:
    """Give the turn to the first fighter from `index` on who can act; False if none is left."""
    t = sink.table
    order, round_ = t.order, t.round
    for i in range(index, len(order)):
        fid = order[i]
        reason = skip_reason(t, fid)
        if reason is None:
            turn_started(t, fid, round_, i)
            sink.applied(ev.TurnStarted(id=fid, round=round_, turn=i) if sink.recording else None)
            return True
        if reason:
            turn_skipped(t, fid)
            sink.applied(ev.TurnSkipped(id=fid, reason=reason) if sink.recording else None)
    return False


def start_first_turn(sink: Sink, dice: DiceSource | None = None) -> None:
    if not start_turn_from(sink, 0):
        next_round(sink, dice)


def end_fight_with(sink: Sink, winner: str | None, reason: str) -> None:
    """C2-33: the fight ends; reactions kept until "the fight" is gone end with it (M2-4)."""
    t = sink.table
    round_ = t.round
    fight_ended(t, winner, reason, round_)
    sink.applied(ev.FightEnded(winner=winner, reason=reason, round=round_) if sink.recording else None)
    left_fight(sink, FIGHT_SOURCE)


def fight_over(sink: Sink) -> bool:
    """C2-33: emit FightEnded once the fight is over (see `verdict`)."""
    t = sink.table
    if t.phase == "ended":
        return True
    over = verdict(t)
    if over is None:
        return False
    end_fight_with(sink, *over)
    return True


def next_round(sink: Sink, dice: DiceSource | None = None) -> None:
    """Start the next round (re-setting initiative where I2-5 asks), or end at the round limit."""
    t = sink.table
    if t.round >= t.limits.max_rounds:
        end_fight_with(sink, None, f"the round limit ({t.limits.max_rounds}) was reached, a draw")
        return
    round_ = t.round + 1
    if dice is not None:
        reinitiative(sink, dice)
    order = full_order(t)
    round_started(t, round_, order)
    sink.applied(ev.RoundStarted(round=round_, order=order) if sink.recording else None)


def full_order(t: Table) -> tuple[str, ...]:
    """The order of a new round: successes first, higher first (I2-2), as ranked so far (ties
    keep the order they had, then the order combatants joined in). Worked out again only when
    the order or an initiative changed since it last was (sorting its own result again gives
    it back; a tuple compares identical members without comparing their fields)."""
    initiatives = tuple([r.initiative for r in t.rows])
    last = t.ordered
    if last is not None and last[0] == t.order and last[1] == initiatives:
        return t.order
    order = _full_order(t)
    t.ordered = (order, initiatives)
    return order


def _full_order(t: Table) -> tuple[str, ...]:
    by_rank = {fid: i for i, fid in enumerate(t.order)}
    unranked = len(by_rank)
    ranked = [
        (not f.initiative.success, -f.initiative.rank, by_rank.get(f.id, unranked), joined, f.id)
        for joined, f in enumerate(t.rows)
        if f.initiative
    ]
    ranked.sort()
    return tuple(r[4] for r in ranked)


def end_turn(sink: Sink, dice: DiceSource) -> None:
    """After an action: the fight may be over; else the next fighter's turn or the next round."""
    if fight_over(sink):
        return
    t = sink.table
    current = t.current
    if current is not None:
        c = t.by_id[current]
        if c.extra_attack and able_to_act(c) and not c.held_by:
            return  # C2-30 Second Helping: the same fighter attacks again at once
    if not start_turn_from(sink, t.turn + 1):
        next_round(sink, dice)


def catch_up(sink: Sink, dice: DiceSource | None) -> None:
    """Commands outside the turn flow (a GM's madness check, a ruling) can put the fighter whose
    turn it is out of action: its turn passes now, before the next command (M2-7). If they left
    at most one side able to act, the fight is over (C2-33) and only the GM's EndFight records it."""
    t = sink.table
    if t.phase not in ("ambush", "declare", "acting"):
        return
    over = verdict(t)
    if over is not None:
        raise Refused(f"the fight is over: {over[1]} (C2-33)", hint="record it with EndFight")
    current = t.current
    c = t.by_id.get(current) if current is not None else None
    if current is None or c is None or able_to_act(c):
        return
    if c.status == "active":
        sink.emit(ev.TurnSkipped(id=current, reason="frozen by a failed madness check (M2-7)"))
    if not start_turn_from(sink, t.turn + 1):
        next_round(sink, dice)


def acting_now(t: Table) -> str | None:
    """Who the next action belongs to: `current`, unless a command outside the turn flow put that
    fighter out of action, in which case the turn passes on (see `catch_up`). None when no one
    can act now (a new round's declarations come first, or the fight is over). `t` is left as it was."""
    from engine.rules.ua2.sink import counting_sink

    sink = counting_sink(t.clone())
    try:
        catch_up(sink, None)
    except Refused:
        return None
    return sink.table.current


def open_turn(sink: Sink, actor: str, *, dice: DiceSource | None = None, helping: bool = False) -> None:
    """Check `actor` may act now, closing declarations first if they are still open (C2-4).

    After a Second Helping (C2-30) the turn stays with the attacker for one more attack: only
    commands that pass `helping` (an attack, or doing nothing to waive it) are accepted then."""
    t = sink.table
    require_started(t)
    c = combatant(t, actor)
    phase = t.phase
    if phase == "setup":
        raise Refused("the fight has not begun", hint="begin it first (initiative, I2-1)")
    if phase == "ended":
        raise Refused("the fight is over")
    catch_up(sink, dice)
    if t.phase == "declare":
        start_first_turn(sink, dice)
        if t.result is not None:  # the round limit came (C2-33)
            raise Refused("the fight is over")
    current = t.current
    if c.status != "active":
        raise Refused(f"{actor} is {c.status} and cannot act")
    if frozen(c):
        raise Refused(f"{actor} is frozen (M2-7) and takes no actions")
    if c.bound:
        raise Refused(f"{actor} is bound (C2-33) and takes no actions")
    if current != actor:
        raise Refused(f"it is {current}'s turn, not {actor}'s", hint="act in initiative order")
    if c.extra_attack and not helping:
        raise Refused(
            f"{actor} has a Second Helping to take: attack again or do nothing (C2-30)",
        )


def declare(sink: Sink, command: Declare, dice: DiceSource) -> None:
    """C2-4: declarations, slowest first; then (unless `open`) the first turn of the round. A
    declaration replaces the same fighter's earlier one this round. Every declaration is checked
    before any is made (a refused command changes nothing)."""
    t = sink.table
    require_started(t)
    if t.phase in ("acting", "ambush"):
        catch_up(sink, dice)
    if t.phase != "declare":
        raise Refused(
            "declarations are made at the start of a round, before anyone acts (C2-4)",
            hint="the round's first action closed them; they open again at the next round",
        )
    by_id: dict[str, Declaration] = {}
    for d in command.declarations:
        if d.id in by_id:
            raise Refused(f"{d.id} declares twice", hint="one declaration per combatant (C2-4)")
        by_id[d.id] = d
    made = []
    for fid in reversed(t.order):
        if fid not in by_id:
            continue
        d = by_id.pop(fid)
        made.append(_declared(t, fid, d))
    if by_id:
        raise Refused(
            f"{', '.join(by_id)} not in the initiative order", hint=f"in the order: {', '.join(t.order) or 'no one'}"
        )
    recording = sink.recording
    for fid, focus_target, focus, continue_dodge, release_hold, continued, replaces in made:
        declared(t, fid, focus_target, focus, continue_dodge, release_hold, continued, replaces)
        sink.applied(
            ev.Declared(
                id=fid,
                focus_target=focus_target,
                focus=focus,
                continue_dodge=continue_dodge,
                release_hold=release_hold,
                continue_suppression=continued,
                replaces=True if replaces else msgspec.UNSET,
            )
            if recording
            else None
        )
    if command.open is not True:
        start_first_turn(sink, dice)


#: A checked declaration: `ev.Declared`'s fields (`declared`'s arguments after the table).
Checked = tuple[str, str, int, bool, bool, int, bool]


def _declared(t: Table, fid: str, d: Declaration) -> Checked:
    """One combatant's declaration, checked against the table as the round starts."""
    c = combatant(t, fid)
    if not able_to_act(c):
        raise Refused(f"{fid} cannot act and declares nothing", hint="frozen, incapacitated or out of the fight")
    # every field in one call (a compiled build reads a struct's fields one by one, slowly)
    _, focus_target, focus, continue_dodge, release_hold, continue_suppression = astuple(d)
    continued = 0
    replaces = c.focus is not None or c.continued_dodge or c.suppressing > 0
    if c.suppressing and not continue_suppression:
        raise Refused(
            f"{fid} has declared continued suppressive fire this round; it cannot be taken back (C2-18)",
            hint="undo that declaration (ua session undo) to declare otherwise",
        )
    if focus or focus_target:
        if focus not in (10, 20, 30) or not focus_target:
            raise Refused("a focus shift names a target and +10, +20 or +30 (C2-5)", hint="e.g. focus +10 on Vic")
        target = combatant(t, focus_target)
        if target.id == fid:
            raise Refused("a focus shift is on someone else (C2-5)", hint="name another combatant")
    if continue_dodge and not c.dodged_last_round:
        raise Refused(
            f"{fid} was not dodging last round (C2-16)", hint="dodge as the turn's action first (ua session dodge)"
        )
    if continue_dodge and not can_dodge(c):
        raise Refused(f"{fid} cannot dodge now (held, holding or frenzied; C2-27, M2-7)", hint="declare something else")
    if release_hold and not c.holding:
        raise Refused(f"{fid} holds no one (C2-27)", hint="only a holder releases a grip")
    if continue_suppression:
        if c.suppressing:
            continued = 0  # already declared this round: it stands as it is
        elif not c.suppressed_last_round or not c.suppress_field:
            raise Refused(
                f"{fid} was not laying down suppressive fire last round (C2-18)",
                hint="lay it down as the turn's action first (ua session suppress)",
            )
        else:
            continued = c.suppressed_last_round
    return fid, focus_target, focus, continue_dodge, release_hold, continued, bool(replaces)


def end_fight(sink: Sink, command: EndFight, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if t.phase in ("setup", "ended"):
        raise Refused("there is no fight going on")
    if command.winner is not None and command.winner not in {c.side for c in t.rows}:
        raise Refused(f"no side {command.winner!r} in this fight")
    end_fight_with(sink, command.winner, command.reason)
