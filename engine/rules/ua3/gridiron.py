"""The gridiron (U-16) as a general conflict: two sides with stakes and the ratings they roll,
a token on five spaces, rolls in turn (U-22 order), compressed or open-ended.

Grappling (U-17) will be a conflict of kind `grapple` on the same table."""

from __future__ import annotations

from engine.commands.ua3 import EndConflict, GridironRoll, SideSpec, StartConflict
from engine.dice.checks import CheckResult, Shift
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.ua3 import ConflictEnded, ConflictStarted, GridironRolled, PenaltyTaken
from engine.rules.common import require_started
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import Option, named_rating
from engine.rules.ua3.combat.harm import d10, flee_if_free
from engine.rules.ua3.harm import wound_events
from engine.rules.ua3.people import able, require_passion, roll, spec_for, with_passion
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.conflict import SIDES, Conflict, ConflictSide, SideKey, Space, half_of, step_toward

#: U-16: how far a roll moves the token toward the roller's end zone.
STEPS = {"crit": 2, "matched_success": 1, "success": 1, "weak_success": 1, "failure": 0, "matched_failure": 0}
FUMBLE_STEPS = -1
MATCHED_FAILURE = Shift(source="matched failure on the gridiron", amount=-10)
END_ZONES = ("end_zone_a", "end_zone_b")


def _side(t: Table, key: SideKey, spec: SideSpec) -> tuple[ConflictSide, int]:
    """A side as the conflict keeps it, and its rating now (for the order)."""
    if not spec.stake.strip():
        raise Refused(f"side {key.upper()} needs a stake", hint="what is at stake for each side? (U-16)")
    if spec.rating is not None and not 0 <= spec.rating <= 200:
        raise Refused(f"side {key.upper()}'s rating must be 0–200, got {spec.rating}")
    if spec.actor:
        row = able(t, spec.actor, "take part in a conflict")
        if spec.rating is None:
            if not spec.roll.strip():
                raise Refused(
                    f"side {key.upper()}: what does {row.id} roll?",
                    hint="an ability, identity or relationship (U-16: what abilities are in play?)",
                )
            rating = named_rating(row.sheet, row.gauges, spec.roll).rating
        else:
            rating = spec.rating
        name = spec.name.strip() or row.id
    else:
        if spec.rating is None or not spec.name.strip():
            raise Refused(
                f"side {key.upper()} needs a combatant (actor and roll) or a name and a rating",
                hint="e.g. a crowd that rolls 40",
            )
        rating, name = spec.rating, spec.name.strip()
    side = ConflictSide(
        key=key,
        name=name,
        stake=spec.stake.strip(),
        actor=spec.actor,
        roll=spec.roll.strip() if spec.rating is None else "",
        rating=spec.rating,
    )
    return side, rating


def _first(ratings: tuple[int, int], dice: DiceSource, who: tuple[str, str]) -> tuple[SideKey, str, tuple[int, ...]]:
    """U-22 order: the higher rating rolls first; a tie is broken as I2-4 (a die each, again
    while tied)."""
    a, b = ratings
    if a != b:
        first: SideKey = "a" if a > b else "b"
        return first, f"the higher rating, {max(a, b)} against {min(a, b)}; U-22", ()
    faces: list[int] = []
    while True:
        x, y = d10(dice, who[0], "tie-breaking die", "U-22"), d10(dice, who[1], "tie-breaking die", "U-22")
        faces += [x, y]
        if face_value(x) != face_value(y):
            first = "a" if face_value(x) > face_value(y) else "b"
            shown = ", ".join(
                f"{face_value(faces[i])} against {face_value(faces[i + 1])}" for i in range(0, len(faces), 2)
            )
            return first, f"ratings tied at {a}, broken by a die each: {shown}; U-22, I2-4", tuple(faces)


def start_conflict(sink: Sink[Table], command: StartConflict, dice: DiceSource) -> None:
    """U-16's checklist: compressed or open-ended, the stakes, the ratings in play, the start."""
    t = sink.table
    require_started(t)
    conflict_id = command.id.strip() or str(len(t.conflicts) + 1)
    if t.conflict(conflict_id) is not None:
        raise Refused(f"there is already a conflict {conflict_id!r}", hint="give the new one another id")
    if len(command.sides) != 2:
        raise Refused("a conflict on the gridiron has two sides, A and B (U-16)")
    (a, rating_a), (b, rating_b) = (_side(t, key, spec) for key, spec in zip(SIDES, command.sides, strict=True))
    if a.actor and a.actor == b.actor:
        raise Refused(f"{a.actor} cannot be on both sides of a conflict")
    if command.start in END_ZONES:
        raise Refused(
            f"a conflict cannot start in an end zone ({command.start})",
            hint="start at advantage_a, balance or advantage_b (U-16)",
        )
    exchanges = t.settings.compressed_exchanges if command.exchanges is None else command.exchanges
    if not 1 <= exchanges <= 100:
        raise Refused(f"a compressed conflict runs 1–100 exchanges, got {exchanges}")
    faces: tuple[int, ...] = ()
    if command.first is not None:
        first, order = command.first, "as the conflict says"
    else:
        first, order, faces = _first((rating_a, rating_b), dice, (a.actor or a.name, b.actor or b.name))
    sink.emit(
        ConflictStarted(
            id=conflict_id,
            sides=(a, b),
            start=command.start,
            about=command.about,
            compressed=command.compressed,
            exchanges=exchanges,
            first=first,
            order=order,
            faces=faces,
        )
    )


def running(t: Table, conflict_id: str) -> Conflict:
    """The conflict named (or the only one still running), refused when it is over or unknown."""
    if not conflict_id.strip():
        live = [c for c in t.conflicts if not c.over]
        if len(live) != 1:
            ids = ", ".join(c.id for c in live) or "none"
            raise Refused("name the conflict", hint=f"conflicts running: {ids}")
        return live[0]
    found = t.conflict(conflict_id)
    if found is None:
        ids = ", ".join(c.id for c in t.conflicts) or "none"
        raise Refused(f"no conflict {conflict_id!r}", hint=f"conflicts: {ids}")
    if found.over:
        raise Refused(f"conflict {found.id} is over", hint="start a new one")
    return found


def _not_a_grapple(conflict: Conflict) -> None:
    """U-17, U-22 (Decision): a grapple is rolled on its grapplers' turns in the fight, not as a
    general conflict."""
    if conflict.kind == "grapple":
        raise Refused(
            f"conflict {conflict.id} is a grapple (U-17): its grapplers roll on their turns",
            hint="ua3_grapple, by the grappler whose turn it is (U-22)",
        )


def _roller(t: Table, side: ConflictSide) -> tuple[Row | None, Option]:
    if not side.actor:
        assert side.rating is not None
        return None, Option("rating", side.name, side.rating)
    row = able(t, side.actor, "roll on the gridiron")
    if side.rating is not None:
        return row, Option("rating", side.name, side.rating)
    return row, named_rating(row.sheet, row.gauges, side.roll)


def steps_of(result: CheckResult) -> int:
    """U-16: crit two steps; success or matched success one; failure none; fumble one back."""
    return steps_for(result.outcome)


def steps_for(outcome: str) -> int:
    """`steps_of` a roll of this outcome."""
    return FUMBLE_STEPS if outcome == "fumble" else STEPS[outcome]


def gridiron_roll(sink: Sink[Table], command: GridironRoll, dice: DiceSource) -> None:
    """U-16: the side whose turn it is rolls; the token moves; a matched failure costs the roller
    1d10 wounds or −10 on its next roll (its choice; automated: the −10); an end zone, or the
    last exchange of a compressed conflict, ends it."""
    t = sink.table
    require_started(t)
    conflict = running(t, command.conflict)
    _not_a_grapple(conflict)
    key = conflict.to_roll
    if command.side is not None and command.side != key:
        raise Refused(
            f"it is side {key.upper()}'s roll in conflict {conflict.id}, not {command.side.upper()}'s",
            hint="sides roll in turn (U-16)",
        )
    side = conflict.side(key)
    row, option = _roller(t, side)
    if command.matched_failure == "wounds" and row is None:
        raise Refused(f"{side.name} is no character and takes no wounds", hint="a matched failure costs it −10 (U-16)")
    spent = None
    if command.passion is not None:
        if row is None:
            raise Refused(f"{side.name} is no character and has no passions")
        spent = require_passion(t, row, command.passion)
    spec = spec_for(row, option, shifts=command.shifts, carried=side.next_roll)
    result = roll(spec, dice, command.flipped, row.id if row is not None else side.name, "U-16")
    events: list[EventBase] = []
    if row is not None:
        passions, result = with_passion(row, spent, command.passion_mode, result, dice)
        events += passions
    steps = steps_of(result)
    after = step_toward(conflict.token, key, steps)
    events.append(
        GridironRolled(
            conflict=conflict.id,
            side=key,
            roller=side.name,
            actor=side.actor,
            result=result,
            before=conflict.token,
            after=after,
            steps=steps,
            exchange=side.rolls + 1,
        )
    )
    if result.outcome == "matched_failure":
        events += _matched_failure(t, conflict, key, row, command, dice)
    events += _ended(conflict, key, after)
    sink.emit_all(events)


def _matched_failure(
    t: Table, conflict: Conflict, key: SideKey, row: Row | None, command: GridironRoll, dice: DiceSource
) -> list[EventBase]:
    if command.matched_failure == "wounds" and row is not None:
        face = d10(dice, row.id, "matched failure's wound die", "U-16")
        cause = f"a matched failure in conflict {conflict.id}"
        return wound_events(t, row, face_value(face), cause, faces=(face,), rule="U-16")
    if row is not None:
        return [PenaltyTaken(actor=row.id, shift=MATCHED_FAILURE)]
    return [PenaltyTaken(conflict=conflict.id, side=key, shift=MATCHED_FAILURE)]


def _ended(conflict: Conflict, key: SideKey, after: Space) -> list[EventBase]:
    """U-16: an end zone reached ends it; so does a compressed conflict's last exchange."""
    if after in END_ZONES:
        winner: SideKey = "a" if after == "end_zone_a" else "b"
        if winner == key:
            reason = f"side {winner.upper()} reaches its end zone"
        else:
            reason = f"side {key.upper()}'s fumble pushes the token into side {winner.upper()}'s end zone"
        stake = conflict.side(winner).stake
        return [ConflictEnded(conflict=conflict.id, winner=winner, token=after, reason=reason, stake=stake)]
    rolls = {s.key: s.rolls for s in conflict.sides}
    rolls[key] += 1
    if conflict.compressed and min(rolls.values()) >= conflict.exchanges:
        half = half_of(after)
        where = f"the token in side {half.upper()}'s half" if half else "the token at balance"
        reason = f"{conflict.exchanges} exchanges each, {where}"
        stake = conflict.side(half).stake if half else ""
        ended = ConflictEnded(
            conflict=conflict.id, winner=half, token=after, reason=reason, stake=stake, how="compressed"
        )
        return [ended]
    return []


def end_conflict(sink: Sink[Table], command: EndConflict, dice: DiceSource) -> None:
    """The GM ends a conflict (the winner named, or none). A grapple ended so lets both grapplers
    go, and no end zone's effect follows (U-17: no restraint, no punch; a ruling gives any):
    one that would flee goes once free (U-23)."""
    t = sink.table
    require_started(t)
    conflict = running(t, command.conflict)
    winner = command.winner
    stake = conflict.side(winner).stake if winner else ""
    reason = command.reason.strip() or "the GM ends the conflict"
    sink.emit(
        ConflictEnded(conflict=conflict.id, winner=winner, token=conflict.token, reason=reason, stake=stake, how="gm")
    )
    if conflict.kind == "grapple":
        for side in conflict.sides:
            flee_if_free(sink, t.by_id[side.actor])
