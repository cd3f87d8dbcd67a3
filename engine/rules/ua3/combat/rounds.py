"""The round structure of a ua3 fight (U-22): declarations, the order by the rating each
declared action uses, turns, the end of a round and of the fight; the suppressed one's check
before acting (U-8); the actions that roll nothing (dodge U-12, aim U-9, ready, clear a jam
U-5, flee, surrender, nothing)."""

from __future__ import annotations

from msgspec.structs import astuple

from engine.commands.ua3 import AnswerCoercion, Coerce
from engine.commands.ua3_combat import (
    Aim,
    BeginFight,
    ClearJam,
    Declare,
    Dodge,
    DoNothing,
    EndFight,
    Flee,
    Ready,
    Surrender,
)
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource, rolling
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.ua3 import ConflictEnded, ReactionEnded, StatusChanged
from engine.events.ua3 import combat as ev
from engine.rules.common import require_started
from engine.rules.sink import Sink
from engine.rules.ua3 import coercion
from engine.rules.ua3.abilities import Option, gauge_named
from engine.rules.ua3.combat.apply import action_declared, fight_ended, order_set, round_started, turn_ended
from engine.rules.ua3.combat.harm import failed, flee_if_free, stress
from engine.rules.ua3.combat.situation import (
    FRENZY,
    action_rating,
    can_act,
    combatant,
    frozen,
    grapple_of,
    grapple_side,
    held,
    helpless,
    standing,
    suppression_source,
    threat_gone,
    threat_of,
    weapon_of,
)
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.combat import Action
from engine.state.ua3.conflict import Conflict, SideKey

if Declare.__struct_fields__ != ("dice", "declarations", "close"):
    raise ImportError("Declare's fields moved: update `declare` in engine.rules.ua3.combat.rounds")

MAX_TIE_ROUNDS = 50
#: Actions aimed at someone, and how many they may name.
TARGETS = {
    "attack": (1, 2),
    "full_auto": (1, 2),
    "suppress": (1, 16),
    "aim": (1, 1),
    "finish": (1, 1),
    "coerce": (1, 1),
}


def fight_over(sink: Sink[Table]) -> bool:
    """U-22 (as C2-33): at most one side standing ends it (that side wins; none: a draw); so
    does a fight in which no standing combatant can act at all."""
    t = sink.table
    if t.phase in ("ended", "setup"):
        return t.phase == "ended"
    first: str | None = None  # the first standing combatant's side; `several`: another's too
    several = False
    for r in t.rows:
        if standing(r):
            if first is None:
                first = r.side
            elif r.side != first:
                several = True
                break
    if not several:
        winner = first
        reason = f"only side {winner} is still standing" if winner else "no one is left standing"
    elif not any(can_act(r) for r in t.rows):
        winner, reason = None, "no one standing can act (frozen or restrained)"
    else:
        return False
    fight_ends(sink, winner, reason)
    return True


def fight_ends(sink: Sink[Table], winner: str | None, reason: str) -> None:
    """U-22: the fight ends (`winner`: the side that won, None a draw), for `reason`."""
    t = sink.table
    fight_ended(t, winner, reason)
    sink.applied(ev.FightEnded(winner=winner, reason=reason, round=t.round) if sink.recording else None)


def begin_fight(sink: Sink[Table], command: BeginFight, dice: DiceSource) -> None:
    """U-22: the fight begins: round 1, everyone declares."""
    t = sink.table
    require_started(t)
    if t.phase != "setup":
        raise Refused("the fight has already begun")
    if len({r.side for r in t.rows if standing(r)}) < 2:
        raise Refused("a fight needs combatants standing on at least two sides (U-22)")
    sink.emit(ev.RoundStarted(round=1))
    fight_over(sink)


def _check(
    t: Table, row: Row, action: str, targets: tuple[str, ...], named: str, gauge: str
) -> tuple[str, Option | None]:
    """A declaration's weapon and the rating it uses (`action_rating`), or `Refused` (U-22: what it can do now): its
    `action`, `targets`, the weapon `named` and the `gauge` (a `Declaration`'s fields)."""
    if not can_act(row):
        why = "frozen (U-23)" if frozen(row) else f"restrained by {row.restrained_by} (U-17)"
        why = row.status if not standing(row) else why
        if action != "nothing":
            raise Refused(f"{row.id} is {why} and can declare nothing")
        return "", None
    reaction = row.reaction
    grapple = grapple_of(t, row.id)
    if grapple is not None and action != "grapple":  # one that would flee struggles to get free
        raise grapple_bound(t, row, action)
    if reaction is not None and reaction.kind == "flee" and grapple is None and action not in ("flee", "nothing"):
        raise Refused(f"{row.id} flees until {reaction.source} is gone (U-23)", hint="declare flee")
    low, high = TARGETS.get(action, (0, 1 if action == "grapple" else 0))
    if not low <= len(targets) <= high:
        raise Refused(f"{action.replace('_', ' ')} names {low}–{high} targets, not {len(targets)}")
    for target in targets:
        other = combatant(t, target)
        if other.id == row.id:
            raise Refused(f"{row.id} cannot aim its {action.replace('_', ' ')} at itself")
        if other.status in ("dead", "fled"):
            raise Refused(f"{target} is {other.status}")
    threat = threat_of(reaction.source) if reaction is not None else ""
    if reaction is not None and reaction.kind == "frenzy" and threat in t.by_id:
        if action not in FRENZY or any(target != threat for target in targets):
            raise Refused(
                f"{row.id} is in a frenzy: it attacks {threat} every action and cannot dodge (U-23, as M2-7)",
                hint=f"declare an attack (or a grab) on {threat}, or nothing",
            )
    if action == "ready":  # rolls nothing: last, unless an initiative identity rates it (U-19)
        readied = weapon_of(row, named or "fists")
        return readied.name, action_rating(t, row, action, readied)
    if action == "coerce" and gauge and gauge_named(gauge) is None:
        raise Refused(f"unknown shock gauge {gauge!r} (U-18)")
    weapon = held(row, named) if action not in ("grapple", "finish") else weapon_of(row, named)
    if action in ("attack", "full_auto", "suppress") and row.jammed and weapon.kind == "firearm":
        raise Refused(f"{row.id}'s {weapon.name} is jammed", hint="clear the jam first (U-5)")
    if action == "clear_jam" and not row.jammed:
        raise Refused(f"{row.id}'s gun is not jammed")
    if action == "full_auto" and not weapon.full_auto:
        raise Refused(f"the {weapon.name} cannot fire full auto (U-7)")
    if action == "suppress" and weapon.kind != "firearm":
        raise Refused("suppressive fire needs a gun (U-8)")
    if action == "finish" and not helpless(t.by_id[targets[0]]):
        raise Refused(f"{targets[0]} is not helpless (U-10: unconscious, restrained or frozen)")
    if grapple is not None and targets and targets != (grapple_side(t, row.id)[1],):
        raise Refused(f"{row.id} is grappling {grapple_side(t, row.id)[1]}, not {targets[0]} (U-17)")
    if action == "grapple" and grapple is None:
        if not targets:
            raise Refused("a grab names whom it grabs (U-17)")
        if grapple_of(t, targets[0]) is not None:
            raise Refused(f"{targets[0]} is already in a grapple")
    uses = action in ("attack", "full_auto", "suppress", "aim", "finish")
    target = targets[0] if targets else ""
    return weapon.name if uses else "", action_rating(t, row, action, weapon, gauge=gauge, target=target)


def declare(sink: Sink[Table], command: Declare, dice: DiceSource) -> None:
    """U-22: declarations (all at once, or some now and the rest later), then — once closed —
    the order by rating, highest first (ties a die each, I2-4)."""
    t = sink.table
    require_started(t)
    if t.phase != "declare":
        raise Refused("it is not the time to declare", hint="declarations open each round (U-22)")
    _, declarations, close = astuple(command)  # one call (a compiled build reads fields slowly)
    seen: set[str] = set()
    decided: list[tuple[Row, Action, tuple[str, ...], str, int, str]] = []  # every one checked before any counts
    for d in declarations:
        actor, action, targets, named, gauge = astuple(d)
        row = combatant(t, actor)
        if row.id in seen or (row.declared is not None and not _grapples_on(t, row, action, targets)):
            raise Refused(f"{row.id} has already declared this round", hint="U-22: one action a round")
        seen.add(row.id)
        if row.declared is not None:  # its grapple again (U-17): declared already, nothing new
            continue
        if action == "nothing":
            if can_act(row) and grapple_of(t, row.id) is not None:
                raise grapple_bound(t, row, action)
            decided.append((row, action, (), "", 0, ""))
            continue
        weapon, option = _check(t, row, action, targets, named, gauge)
        if option is None:
            decided.append((row, action, targets, weapon, 0, ""))
        else:
            decided.append((row, action, targets, weapon, option.rating, option.label))
    waiting = [r for r in t.rows if can_act(r) and r.declared is None and r.id not in seen]
    recording = sink.recording
    for row, action, targets, weapon, rating, rated_by in decided:
        _declared(sink, row, action, targets, weapon, rating, rated_by)
    if close is False or (close is None and waiting):
        return
    for row in waiting:  # U-17: closed, an undeclared grappler's action is its exchange roll all the same
        if grapple_of(t, row.id) is not None:
            _, option = _check(t, row, "grapple", (), "", "")
            assert option is not None
            _declared(sink, row, "grapple", (), "", option.rating, option.label)
    acting: list[str] = []
    ratings: list[int] = []
    for r in t.rows:
        declared = r.declared
        if declared is not None and declared.action != "nothing":
            acting.append(r.id)
            ratings.append(declared.rating)
    order, ranks, faces = ranked(acting, ratings, dice)
    order_set(t, order)
    sink.applied(ev.OrderSet(round=t.round, order=order, ratings=ranks, faces=faces) if recording else None)
    advance(sink, dice)


def _declared(
    sink: Sink[Table], row: Row, action: Action, targets: tuple[str, ...], weapon: str, rating: int, rated_by: str
) -> None:
    """`row` declares `action` (U-22), rated `rating` by `rated_by`."""
    action_declared(sink.table, row, action, targets, weapon, rating, rated_by)
    sink.applied(
        ev.ActionDeclared(actor=row.id, action=action, targets=targets, weapon=weapon, rating=rating, rated_by=rated_by)
        if sink.recording
        else None
    )


def _grapples_on(t: Table, row: Row, action: str, targets: tuple[str, ...]) -> bool:
    """U-17: `row`, declared already, declares its grapple again (a grappler's one action: the
    same declaration, taken as made)."""
    declared = row.declared
    if action != "grapple" or declared is None or declared.action != "grapple" or grapple_of(t, row.id) is None:
        return False
    return not targets or targets == (grapple_side(t, row.id)[1],)


def grapple_bound(t: Table, row: Row, action: str, *, on_turn: bool = False) -> Refused:
    """U-17: a grappler who can act does its grapple (its exchange roll, or an option it has)
    every round, never `action` instead (`on_turn`: refused on its turn, not declaring)."""
    _, opponent = grapple_side(t, row.id)
    options = "the exchange roll, or with advantage wounds, disarm, swap or shoot"
    return Refused(
        f"{row.id} is in a grapple with {opponent}: its action each round is its grapple (U-17), "
        f"not {action.replace('_', ' ')}",
        hint=f"its turn is its ua3_grapple: {options}" if on_turn else f"declare grapple ({options} on its turn)",
    )


def ranked(
    ids: list[str], rated: list[int], dice: DiceSource
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """Highest first, with the final ranks in that order and the tie dice; I2-4 ties: a die each,
    those below the best drop one point just below the winner, those sharing the best roll
    again. `rated` (each one's rating, as `ids`) is worked on in place."""
    faces: list[int] = []
    n = len(ids)
    for _ in range(MAX_TIE_ROUNDS):
        key, tied = 0, False  # the highest rank two or more share
        for i in range(n):
            if not tied or rated[i] > key:
                for j in range(i + 1, n):
                    if rated[j] == rated[i]:
                        key, tied = rated[i], True
                        break
        if not tied:
            break
        group = [i for i in range(n) if rated[i] == key]
        values: list[int] = []
        top = 0
        for i in group:
            rolling(dice, ids[i], "tie-breaking die", rule="U-22", faces=1)
            face = dice.d10()
            faces.append(face)
            value = face_value(face)
            values.append(value)
            if value > top:
                top = value
        for i in range(len(group)):
            if values[i] < top:
                rated[group[i]] = key - 1
    order = list(ids)  # highest first; ties keep the order listed (a stable insertion sort)
    for i in range(1, n):
        actor, rank, j = order[i], rated[i], i - 1
        while j >= 0 and rated[j] < rank:
            order[j + 1], rated[j + 1] = order[j], rated[j]
            j -= 1
        order[j + 1], rated[j + 1] = actor, rank
    return tuple(order), tuple(rated), tuple(faces)


def advance(sink: Sink[Table], dice: DiceSource) -> None:
    """On to the next combatant who can act; those who cannot pass (their turn ends, saying why);
    after the last, the round ends."""
    t = sink.table
    while t.phase == "acting" and t.turn < len(t.order):
        row = t.by_id[t.order[t.turn]]
        if not can_act(row):
            turn_ended(t, row, False)
            sink.applied(ev.TurnEnded(actor=row.id, why=f"{_why_not(row)}, it cannot act") if sink.recording else None)
        elif row.loses_action:
            turn_ended(t, row, True)
            lost = ev.TurnEnded(actor=row.id, why="getting up, it loses this action (U-9)", lost=True)
            sink.applied(lost if sink.recording else None)
        else:
            return
    if t.phase == "acting":
        end_round(sink, dice)


def _why_not(row: Row) -> str:
    return row.status if not standing(row) else "frozen" if frozen(row) else f"restrained by {row.restrained_by}"


def end_round(sink: Sink[Table], dice: DiceSource) -> None:
    """The fight may be over; the round limit is a draw; reactions whose threat is gone end (U-23,
    Decision: a combatant out of the fight, a suppression over, U-8); the next round's
    declarations open."""
    t = sink.table
    if fight_over(sink):
        return
    limit = t.limits.max_rounds
    if t.round >= limit:
        fight_ends(sink, None, f"the round limit ({limit})")
        return
    ended: list[EventBase] = []
    for row in t.rows:
        kept = row.reaction
        if kept is not None and threat_gone(t, row, kept.source):
            ended.append(ReactionEnded(actor=row.id, reaction=kept.kind, source=kept.source, gauge=kept.gauge))
    sink.emit_all(ended)
    next_round = t.round + 1
    round_started(t, next_round)
    sink.applied(ev.RoundStarted(round=next_round) if sink.recording else None)
    fight_over(sink)


def end_turn(sink: Sink[Table], actor: str, dice: DiceSource) -> None:
    """The actor's turn is over: the fight may be, else the next turn."""
    t = sink.table
    if t.phase != "acting":
        return
    close_grapples(sink)
    turn_ended(t, None, False)
    sink.applied(ev.TurnEnded(actor=actor) if sink.recording else None)
    if not fight_over(sink):
        advance(sink, dice)


def turn_of(t: Table, actor: str, *actions: str) -> Row:
    """The actor whose turn it is, having declared one of `actions` (U-22)."""
    require_started(t)
    row = combatant(t, actor)
    if t.phase != "acting":
        hint = "declare the round's actions first" if t.phase == "declare" else ""
        raise Refused(f"no one acts now (the fight is {t.phase})", hint=hint)
    if t.current != actor:
        raise Refused(f"it is {t.current}'s turn, not {actor}'s", hint="U-22: the declared order")
    declared = row.declared
    grappled = grapple_of(t, actor) is not None
    if grappled and "grapple" not in actions:
        raise grapple_bound(t, row, actions[0], on_turn=True)
    if grappled:  # grabbed after declaring: its turn is its roll in the grapple (U-17, Decision)
        return row
    if declared is None or declared.action not in actions:
        said = declared.action.replace("_", " ") if declared is not None else "nothing"
        raise Refused(
            f"{actor} declared {said}, not {' or '.join(a.replace('_', ' ') for a in actions)}",
            hint="a declared action can be replaced only by doing nothing (U-22)",
        )
    return row


def suppressed_may_act(sink: Sink[Table], row: Row, dice: DiceSource) -> bool:
    """U-8: a suppressed combatant acting against its suppressor passes a Violence stress check
    first (Decision: any attack, aim, suppressive fire, grab or finishing while suppressed); a failed check is
    its action."""
    t = sink.table
    source = t.by_id.get(row.suppressed_by)
    if t.round > row.suppressed_until or source is None or not standing(source):
        return True
    cause = f"suppressed by {source.id}: to act (U-8)"
    # the reaction a failure brings lasts for the suppression, not for as long as the suppressor stands
    threat = suppression_source(source.id)
    outcome = stress(sink, row, t.limits.suppression_rank, threat, cause, dice)
    if failed(outcome) or row.status != "active":
        end_turn(sink, row.id, dice)
        return False
    return True


def dodge(sink: Sink[Table], command: Dodge, dice: DiceSource) -> None:
    """U-12: the dodge counts from its declaration; the dodger does nothing else."""
    turn_of(sink.table, command.actor, "dodge")
    end_turn(sink, command.actor, dice)


def aim(sink: Sink[Table], command: Aim, dice: DiceSource) -> None:
    """U-9: a round aiming: +10, a second round +20, for the next attack on that target."""
    row = turn_of(sink.table, command.actor, "aim")
    assert row.declared is not None
    if command.target not in row.declared.targets:
        raise Refused(f"{row.id} declared aiming at {', '.join(row.declared.targets)}, not {command.target}")
    if not suppressed_may_act(sink, row, dice):
        return
    rounds = row.aim.rounds + 1 if row.aim is not None and row.aim.target == command.target else 1
    sink.emit(ev.Aimed(actor=row.id, target=command.target, rounds=min(2, rounds)))
    end_turn(sink, row.id, dice)


def ready(sink: Sink[Table], command: Ready, dice: DiceSource) -> None:
    row = turn_of(sink.table, command.actor, "ready")
    weapon = weapon_of(row, command.weapon)
    sink.emit(ev.WeaponReadied(actor=row.id, weapon=weapon.name))
    end_turn(sink, row.id, dice)


def clear_jam(sink: Sink[Table], command: ClearJam, dice: DiceSource) -> None:
    row = turn_of(sink.table, command.actor, "clear_jam")
    sink.emit(ev.WeaponJammed(actor=row.id, weapon=row.in_hand, cleared=True))
    end_turn(sink, row.id, dice)


def leave(sink: Sink[Table], actor: str, status: str, dice: DiceSource) -> None:
    t = sink.table
    row = turn_of(t, actor, status.replace("fled", "flee").replace("surrendered", "surrender"))
    grapple = grapple_of(t, row.id)
    if grapple is not None and status == "fled":
        raise Refused(f"{row.id} is held in a grapple and cannot flee", hint="break free first (U-17)")
    sink.emit(StatusChanged(actor=row.id, status=status, cause=f"{row.id} leaves the fight", rule="U-22"))  # type: ignore[arg-type]
    end_turn(sink, row.id, dice)


def flee(sink: Sink[Table], command: Flee, dice: DiceSource) -> None:
    leave(sink, command.actor, "fled", dice)


def surrender(sink: Sink[Table], command: Surrender, dice: DiceSource) -> None:
    leave(sink, command.actor, "surrendered", dice)


def do_nothing(sink: Sink[Table], command: DoNothing, dice: DiceSource) -> None:
    """U-22: whatever was declared, the actor may do nothing instead — unless it is grappling
    (U-17: its turn is its exchange roll)."""
    t = sink.table
    require_started(t)
    if t.phase != "acting" or t.current != command.actor:
        raise Refused(f"it is not {command.actor}'s turn", hint=f"it is {t.current or 'no one'}'s")
    if grapple_of(t, command.actor) is not None:
        raise grapple_bound(t, t.by_id[command.actor], "nothing", on_turn=True)
    end_turn(sink, command.actor, dice)


def end_fight(sink: Sink[Table], command: EndFight, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if t.phase in ("setup", "ended"):
        raise Refused("there is no fight going on")
    if command.winner is not None and command.winner not in {r.side for r in t.rows}:
        raise Refused(f"no side {command.winner!r}")
    sink.emit(ev.FightEnded(winner=command.winner, reason=command.reason.strip() or "the GM ends it", round=t.round))


def in_fight(t: Table) -> bool:
    return t.phase in ("declare", "acting")


def _acquiesced(sink: Sink[Table], target_id: str, coercer: str, demand: str) -> None:
    """U-15 in a fight (Decision): a combatant that acquiesces does what was demanded — gives up
    the fight (surrendered, C2-33), flees, drops its weapon, or lets go of the one it holds."""
    t = sink.table
    target = t.by_id[target_id]
    if not in_fight(t) or target.status != "active":
        return
    cause = f"acquiesces to {coercer}'s threat"
    if demand in ("surrender", "flee"):
        status = "surrendered" if demand == "surrender" else "fled"
        sink.emit(StatusChanged(actor=target_id, status=status, cause=cause, rule="U-15"))  # type: ignore[arg-type]
    elif demand == "drop" and target.in_hand != "fists":
        sink.emit(ev.WeaponDropped(actor=target_id, weapon=target.in_hand, rule="U-15"))
    elif demand == "release":
        let_go(sink, target)


def let_go(sink: Sink[Table], holder: Row) -> None:
    """U-15 (a demand to release), U-17: `holder` lets go of the one it holds — the grapple it
    has the grip in ends with no winner, or its restraint ends — and one that would flee goes."""
    t = sink.table
    held = coercion.held_by(t, holder)
    if held is None:
        return
    conflict = grapple_of(t, holder.id)
    if conflict is not None and held.restrained_by != holder.id:
        reason = f"{holder.id} lets {held.id} go (U-15)"
        sink.emit(ConflictEnded(conflict=conflict.id, winner=None, token=conflict.token, reason=reason, how="gm"))
    else:
        sink.emit(ev.Restrained(actor=held.id, by=holder.id, released=True))
    flee_if_free(sink, held)


def coerce(sink: Sink[Table], command: Coerce, dice: DiceSource) -> None:
    """U-15; in a fight it is the coercer's declared action on its turn."""
    t = sink.table
    if t.phase == "declare":
        raise Refused(
            f"declarations are open (round {t.round}): in a fight, coercing is a declared action (U-15, U-22)",
            hint=f"declare coerce at {command.target}, then coerce on {command.coercer}'s turn",
        )
    fighting = t.phase == "acting"
    if fighting:
        row = turn_of(t, command.coercer, "coerce")
        assert row.declared is not None
        if command.target not in row.declared.targets:
            raise Refused(f"{row.id} declared coercing {', '.join(row.declared.targets)}, not {command.target}")
    before = sink.count
    coercion.coerce(sink, command, dice)
    if command.answer == "acquiesce" and sink.count - before >= 2:  # convinced, and it gave in
        _acquiesced(sink, command.target, command.coercer, command.demand)
    if fighting:
        end_turn(sink, command.coercer, dice)


def answer(sink: Sink[Table], command: AnswerCoercion, dice: DiceSource) -> None:
    pending = sink.table.coercion_of(command.target)
    coercion.answer(sink, command, dice)
    if command.answer == "acquiesce" and pending is not None:
        _acquiesced(sink, command.target, pending.coercer, pending.demand)
    if sink.table.phase == "acting":
        fight_over(sink)


def close_grapples(sink: Sink[Table]) -> None:
    """A grapple ends when a grappler is out of the fight; a restraint when the restrainer is."""
    t = sink.table
    running: list[Conflict] = []
    for grappler in t.grappling:
        if not standing(t.by_id[grappler]):  # one of them to close
            running = [c for c in t.conflicts if c.kind == "grapple" and c.result is None]
            break
    for conflict in running:
        sa, sb = conflict.sides
        a, b = t.by_id[sa.actor], t.by_id[sb.actor]
        if standing(a) and standing(b):
            continue
        winner: SideKey | None = "a" if standing(a) else "b" if standing(b) else None
        out = b if standing(a) else a
        sink.emit(
            ConflictEnded(
                conflict=conflict.id, winner=winner, token=conflict.token, reason=f"{out.id} is {out.status}", how="gm"
            )
        )
        flee_if_free(sink, a)  # U-23: free of the grapple, one that would flee goes (the other is out)
        flee_if_free(sink, b)
    for row in t.rows:
        holder = t.by_id.get(row.restrained_by) if row.restrained_by else None
        if holder is not None and (not standing(holder) or row.status != "active"):
            sink.emit(ev.Restrained(actor=row.id, by=holder.id, released=True))
            flee_if_free(sink, row)
