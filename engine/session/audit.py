"""Reading a log back: narration lines (with exact odds and what was undone), per-combatant luck,
and a fairness test of the dice (chi-square over faces). Pure functions of the records."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import msgspec

from engine.dice.checks import CheckResult, CheckSpec
from engine.dice.odds import success_chance
from engine.errors import InvalidInput
from engine.events import tag_of
from engine.events.base import EventBase
from engine.events.commands import MARKERS, CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.setup import CombatantJoined
from engine.session.history import Record, excluded

PEOPLE_FIELDS = ("actor", "attacker", "target", "id", "healer", "patient", "holder", "protected", "dodger")


class Line(msgspec.Struct, frozen=True):
    position: int
    round: int
    type: str
    text: str
    command: int
    struck: bool = False
    note: str = ""
    odds: str = ""


def checks_in(event: EventBase) -> list[tuple[str, CheckResult]]:
    """(who rolled, result) for every check an event records (each event type says, `checks()`,
    whichever ruleset it belongs to)."""
    return list(event.checks())


#: Each spec's chance, once counted (every event view of a check shows it; a spec is a value).
_CHANCES: dict[CheckSpec, Fraction] = {}


def chance(spec: CheckSpec) -> Fraction:
    found = _CHANCES.get(spec)
    if found is None:
        if len(_CHANCES) >= 4096:  # bounded: specs are few in a session, many in a long-lived server
            _CHANCES.clear()
        found = _CHANCES[spec] = success_chance(spec)
    return found


def people_in(event: EventBase) -> set[str]:
    found = set()
    for name in PEOPLE_FIELDS:
        value = getattr(event, name, None)
        if isinstance(value, str) and value:
            found.add(value)
    if hasattr(event, "ids"):
        found.update(event.ids)
    return found


def narrate(
    records: Sequence[Record],
    *,
    combatant: str | None = None,
    round_: int | None = None,
    types: Iterable[str] = (),
    commands: bool = False,
) -> list[Line]:
    """Lines for a log: undone or superseded commands struck out with what did it, each check
    with its exact odds of success, filtered by combatant, round or event type. A filter that
    can match nothing (no such combatant in the log, no such event type) is `InvalidInput`."""
    return list(narration(records, combatant=combatant, round_=round_, types=types, commands=commands))


def narration(
    records: Sequence[Record],
    *,
    combatant: str | None = None,
    round_: int | None = None,
    types: Iterable[str] = (),
    commands: bool = False,
) -> Iterator[Line]:
    """`narrate`'s lines one at a time (the filters are checked at once, before the first)."""
    wanted = set(types)
    _check_filters(records, combatant, wanted)
    _, undone, superseded = excluded(records)

    def lines() -> Iterator[Line]:
        for position, current_round, event in rounds(records):
            tag = tag_of(event)
            if isinstance(event, CommandRecorded) and not commands and not wanted:
                continue
            if wanted and tag not in wanted:
                continue
            if round_ is not None and current_round != round_:
                continue
            if combatant is not None and combatant not in people_in(event):
                continue
            note = ""
            struck = False
            if not isinstance(event, MARKERS) and event.command in superseded:
                struck, note = True, f"superseded by the amend at event {superseded[event.command]}"
            elif not isinstance(event, MARKERS) and event.command in undone:
                struck, note = True, f"undone at event {undone[event.command]}"
            checks = checks_in(event)
            odds = "; ".join(f"{who or 'roll'} had {float(chance(r.spec)):.0%}" for who, r in checks if r.roll)
            yield Line(
                position=position,
                round=current_round,
                type=tag,
                text=event.explain(),
                command=event.command,
                struck=struck,
                note=note,
                odds=odds,
            )

    return lines()


def _check_filters(records: Iterable[Record], combatant: str | None, types: set[str]) -> None:
    if types:
        _check_types(types)
    if combatant is None:
        return
    ids = list(dict.fromkeys(e.id for _, e in records if isinstance(e, CombatantJoined)))
    if combatant not in ids:
        raise InvalidInput(
            f"no combatant {combatant!r} in this log",
            where="--combatant",
            hint=f"combatants: {', '.join(ids) or 'none'}",
        )


def _check_types(types: set[str]) -> None:
    """Every one of `types` is an event type's tag (of any ruleset, all of them loaded for it)."""
    from engine.events import TYPE_BY_TAG

    unknown = sorted(types - set(TYPE_BY_TAG))
    if unknown:
        raise InvalidInput(
            f"no event type {unknown[0]!r}", where="--type", hint=f"event types: {', '.join(sorted(TYPE_BY_TAG))}"
        )


def rounds(records: Iterable[Record]) -> Iterator[tuple[int, int, EventBase]]:
    """(position, round, event): the round each event happened in, on the history it was decided
    on — after an undo or an amend, the round goes back to what the history that counts says.
    One pass; it keeps only the events that start a round (and the markers' effect so far)."""
    undone: set[int] = set()
    superseded: set[int] = set()
    starts: list[tuple[int, int]] = []  # (command, round) of each round start, in order
    current_round = 0
    for position, event in records:
        if isinstance(event, MARKERS):
            if isinstance(event, CommandUndone):
                undone.add(event.id)
            elif isinstance(event, CommandRedone):
                undone.discard(event.id)
            elif isinstance(event, CommandAmended):
                superseded.update(event.superseded)
            skip = undone | superseded
            current_round = next((r for command, r in reversed(starts) if command not in skip), 0)
        elif (opened := event.opens_round()) is not None:
            current_round = opened
            starts.append((event.command, current_round))
        yield position, current_round, event


@dataclass
class Luck:
    checks: int = 0
    expected: float = 0.0
    successes: int = 0
    variance: float = 0.0
    rolls: list[int] = field(default_factory=list)

    @property
    def z(self) -> float:
        return (self.successes - self.expected) / math.sqrt(self.variance) if self.variance > 0 else 0.0


def luck(records: Sequence[Record]) -> dict[str, Luck]:
    """Per combatant: checks that count, expected vs actual successes (exact odds)."""
    skip, _, _ = excluded(records)
    out: dict[str, Luck] = {}
    for _, event in records:
        if isinstance(event, MARKERS) or event.command in skip:
            continue
        for who, result in checks_in(event):
            if result.roll is None:
                continue
            p = float(chance(result.spec))
            entry = out.setdefault(who or "(no one)", Luck())
            entry.checks += 1
            entry.expected += p
            entry.variance += p * (1 - p)
            entry.successes += int(result.success)
            entry.rolls.append(result.roll.value)
    return out


def table_faces(records: Sequence[Record], *, only_table: bool = True) -> list[int]:
    """The d10 faces rolled for commands: those entered by hand (or every face), each die once.
    Superseded commands are left out: their replacements re-use their dice (an undone command's
    dice were rolled all the same, and a redo rolls none)."""
    _, _, superseded = excluded(records)
    faces: list[int] = []
    for _, event in records:
        if isinstance(event, CommandRecorded) and event.id not in superseded:
            faces.extend(event.dice_used[: event.table_dice] if only_table else event.dice_used)
    return faces


def chi_square_faces(faces: Sequence[int]) -> tuple[float, float]:
    """(statistic, p-value) of the faces 0–9 against a fair d10 (9 degrees of freedom)."""
    n = len(faces)
    if n == 0:
        return 0.0, 1.0
    counts = [0] * 10
    for f in faces:
        counts[f] += 1
    expected = n / 10
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return stat, upper_gamma_regularized(4.5, stat / 2)


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x), the chi-square survival function's core (series below a+1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
