"""Rounds and turns: declarations (C2-4), whose turn it is, the next round, the end (C2-33)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands.combat import Declaration, Declare, EndFight
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.base import EventBase
from engine.rules.batch import Batch
from engine.rules.common import require_started
from engine.rules.decide import handles
from engine.rules.ua2.combat.aftermath import FIGHT_SOURCE, left_fight
from engine.rules.ua2.combat.situation import able_to_act, can_dodge, combatant, frozen, sides_able
from engine.state.encounter import Encounter


def skip_reason(state: Encounter, fighter_id: str) -> str | None:
    """Why a fighter loses its turn, or None if it acts (a silent skip returns '')."""
    c = state.combatant(fighter_id)
    if c is None or c.status != "active":
        return ""
    if frozen(c):
        return "frozen by a failed madness check (M2-7)"
    f = state.fighter(fighter_id)
    if f.acted_round == state.fight.round:
        return ""  # had its turn this round already (knocked down to the end after acting, I2-6)
    if f.continued_dodge:
        return "dodging all round (C2-16)"
    return None


def start_turn_from(batch: Batch, index: int) -> bool:
    """Give the turn to the first fighter from `index` on who can act; False if none is left."""
    fight = batch.state.fight
    for i in range(index, len(fight.order)):
        fid = fight.order[i]
        reason = skip_reason(batch.state, fid)
        if reason is None:
            batch.emit(ev.TurnStarted(id=fid, round=fight.round, turn=i))
            return True
        if reason:
            batch.emit(ev.TurnSkipped(id=fid, reason=reason))
    return False


def start_first_turn(batch: Batch, dice: DiceSource | None = None) -> None:
    if not start_turn_from(batch, 0):
        next_round(batch, dice)


def end_fight_with(batch: Batch, winner: str | None, reason: str) -> None:
    """C2-33: the fight ends; reactions kept until "the fight" is gone end with it (M2-4)."""
    batch.emit(ev.FightEnded(winner=winner, reason=reason, round=batch.state.fight.round))
    left_fight(batch, FIGHT_SOURCE)


def fight_over(batch: Batch) -> bool:
    """C2-33: emit FightEnded when at most one side can still act."""
    state = batch.state
    if state.fight.phase == "ended":
        return True
    sides = sides_able(state)
    if len(sides) > 1:
        return False
    if sides:
        end_fight_with(batch, sides[0], f"only side {sides[0]} has combatants able to act")
        return True
    # Decision (C2-33 is silent): when no one can act but one side alone still has fighters on
    # their feet (frozen by a failed madness check, M2-7), that side holds the field and wins.
    standing = sorted({c.side for c in state.combatants if c.status == "active"})
    if len(standing) == 1:
        end_fight_with(batch, standing[0], f"no one can act; only side {standing[0]} is still standing (frozen)")
    else:
        end_fight_with(batch, None, "no one is left able to act")
    return True


def next_round(batch: Batch, dice: DiceSource | None = None) -> None:
    """Start the next round (re-setting initiative where I2-5 asks), or end at the round limit."""
    from engine.rules.ua2.combat.initiative import reinitiative

    state = batch.state
    if state.fight.round >= state.settings.max_rounds:
        end_fight_with(batch, None, f"the round limit ({state.settings.max_rounds}) was reached, a draw")
        return
    if dice is not None:
        reinitiative(batch, dice)
    order = full_order(batch.state)
    batch.emit(ev.RoundStarted(round=state.fight.round + 1, order=order))


def full_order(state: Encounter) -> tuple[str, ...]:
    """The order of a new round: successes first, higher first (I2-2), as ranked so far."""
    ranked = [(f.initiative.success, f.initiative.rank, f.id) for f in state.fight.fighters if f.initiative]
    by_rank = {fid: i for i, fid in enumerate(state.fight.order)}
    ranked.sort(key=lambda r: (not r[0], -r[1], by_rank.get(r[2], len(by_rank))))
    return tuple(r[2] for r in ranked)


def end_turn(batch: Batch, dice: DiceSource) -> None:
    """After an action: the fight may be over; else the next fighter's turn or the next round."""
    if fight_over(batch):
        return
    state = batch.state
    fight = state.fight
    current = fight.current
    if current is not None and state.fighter(current).extra_attack:
        c = state.combatant(current)
        if c is not None and able_to_act(c) and not state.fighter(current).held_by:
            return  # C2-30 Second Helping: the same fighter attacks again at once
    if not start_turn_from(batch, fight.turn + 1):
        next_round(batch, dice)


def catch_up(batch: Batch, dice: DiceSource | None) -> None:
    """Commands outside the turn flow (a GM's madness check, a ruling) can put the fighter whose
    turn it is out of action: its turn passes now, before the next command (M2-7). If they left
    at most one side able to act, the fight is over (C2-33) and only the GM's EndFight records it."""
    state = batch.state
    if state.fight.phase not in ("ambush", "declare", "acting"):
        return
    if len(sides_able(state)) < 2:
        raise Refused("the fight is over: at most one side can act (C2-33)", hint="record it with EndFight")
    current = state.fight.current
    c = state.combatant(current) if current is not None else None
    if current is None or c is None or able_to_act(c):
        return
    if c.status == "active":
        batch.emit(ev.TurnSkipped(id=current, reason="frozen by a failed madness check (M2-7)"))
    if not start_turn_from(batch, state.fight.turn + 1):
        next_round(batch, dice)


def acting_now(state: Encounter) -> str | None:
    """Who the next action belongs to: `fight.current`, unless a command outside the turn flow
    put that fighter out of action, in which case the turn passes on (see `catch_up`). None when
    no one can act now (a new round's declarations come first, or the fight is over)."""
    batch = Batch(state)
    try:
        catch_up(batch, None)
    except Refused:
        return None
    return batch.state.fight.current


def open_turn(batch: Batch, actor: str, *, dice: DiceSource | None = None, helping: bool = False) -> None:
    """Check `actor` may act now, closing declarations first if they are still open (C2-4).

    After a Second Helping (C2-30) the turn stays with the attacker for one more attack: only
    commands that pass `helping` (an attack, or doing nothing to waive it) are accepted then."""
    state = batch.state
    require_started(state)
    c = combatant(state, actor)
    phase = state.fight.phase
    if phase == "setup":
        raise Refused("the fight has not begun", hint="begin it first (initiative, I2-1)")
    if phase == "ended":
        raise Refused("the fight is over")
    catch_up(batch, dice)
    if batch.state.fight.phase == "declare":
        start_first_turn(batch, dice)
        if batch.state.fight.result is not None:  # the round limit came (C2-33)
            raise Refused("the fight is over")
    current = batch.state.fight.current
    if c.status != "active":
        raise Refused(f"{actor} is {c.status} and cannot act")
    if frozen(c):
        raise Refused(f"{actor} is frozen (M2-7) and takes no actions")
    if current != actor:
        raise Refused(f"it is {current}'s turn, not {actor}'s", hint="act in initiative order")
    if batch.state.fighter(actor).extra_attack and not helping:
        raise Refused(
            f"{actor} has a Second Helping to take: attack again or do nothing (C2-30)",
        )


@handles(Declare)
def declare(state: Encounter, command: Declare, dice: DiceSource) -> Sequence[EventBase]:
    """C2-4: declarations, slowest first; then the first turn of the round."""
    require_started(state)
    if state.fight.phase in ("acting", "ambush"):
        caught_up = Batch(state)
        catch_up(caught_up, dice)
        if caught_up.state.fight.phase == "declare":
            return [*caught_up.events, *declare(caught_up.state, command, dice)]
    if state.fight.phase != "declare":
        raise Refused("declarations are made at the start of a round, before anyone acts")
    by_id: dict[str, Declaration] = {}
    for d in command.declarations:
        if d.id in by_id:
            raise Refused(f"{d.id} declares twice")
        by_id[d.id] = d
    batch = Batch(state)
    for fid in reversed(state.fight.order):
        if fid not in by_id:
            continue
        d = by_id.pop(fid)
        c = combatant(state, fid)
        f = state.fighter(fid)
        if not able_to_act(c):
            raise Refused(f"{fid} cannot act and declares nothing")
        continued = 0
        if d.focus or d.focus_target:
            if d.focus not in (10, 20, 30) or not d.focus_target:
                raise Refused("a focus shift names a target and +10, +20 or +30 (C2-5)")
            target = combatant(state, d.focus_target)
            if target.id == fid:
                raise Refused("a focus shift is on someone else (C2-5)")
        if d.continue_dodge and not f.dodged_last_round:
            raise Refused(f"{fid} was not dodging last round; dodge on the turn first (C2-16)")
        if d.continue_dodge and not can_dodge(state, c):
            raise Refused(f"{fid} cannot dodge now (held, holding or frenzied; C2-27, M2-7)")
        if d.release_hold and not f.holding:
            raise Refused(f"{fid} holds no one (C2-27)")
        if d.continue_suppression:
            if not f.suppressed_last_round or not f.suppress_field:
                raise Refused(f"{fid} was not laying down suppressive fire last round (C2-18)")
            continued = f.suppressed_last_round
        batch.emit(
            ev.Declared(
                id=fid,
                focus_target=d.focus_target,
                focus=d.focus,
                continue_dodge=d.continue_dodge,
                release_hold=d.release_hold,
                continue_suppression=continued,
            )
        )
    if by_id:
        raise Refused(f"{', '.join(by_id)} not in the initiative order")
    start_first_turn(batch, dice)
    return batch


@handles(EndFight)
def end_fight(state: Encounter, command: EndFight, dice: DiceSource) -> Sequence[EventBase]:
    require_started(state)
    if state.fight.phase in ("setup", "ended"):
        raise Refused("there is no fight going on")
    if command.winner is not None and command.winner not in {c.side for c in state.combatants}:
        raise Refused(f"no side {command.winner!r} in this fight")
    batch = Batch(state)
    end_fight_with(batch, command.winner, command.reason)
    return batch
