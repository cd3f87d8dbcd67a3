"""Which faces went where: a command's dice, in the order it read them, each group named by the
roll it made ("attack 4,7 · Vic's dodge 2,2 · damage 6"), read off the events it produced.

Every percentile roll in an event (a check, an attack and its dodge, initiative, a passion's
reroll) is matched to the next two faces read; faces between rolls (damage dice, tie-breaking
dice) are named by what reads single dice after a roll (damage, a tie). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.dice.percentile import Percentile
from engine.events.base import EventBase


def _rolls(event: EventBase) -> Iterator[tuple[str, Percentile]]:
    """The percentile rolls an event records, in the order they were made, each named."""
    from engine.events.checks import CheckRolled
    from engine.events.combat import AttackResolved, InitiativeSet, SuppressiveFireLaid
    from engine.events.madness import PassionSpent

    if isinstance(event, AttackResolved):
        if event.result.roll is not None:
            verb = {"break_free": "break free", "gimme": "gimme"}.get(event.mode, "attack")
            yield f"{event.attacker}'s {verb}", event.result.roll
        if event.dodge is not None and event.dodge.result.roll is not None:
            yield f"{event.dodge.dodger}'s dodge", event.dodge.result.roll
    elif isinstance(event, CheckRolled) and event.result.roll is not None:
        label = event.result.spec.label or event.result.spec.kind
        who = f"{event.actor}'s " if event.actor else ""
        yield f"{who}{label}", event.result.roll
    elif isinstance(event, InitiativeSet) and event.roll is not None:
        yield f"{event.id}'s initiative", event.roll
    elif isinstance(event, PassionSpent) and event.mode == "reroll" and event.after.roll is not None:
        yield f"{event.actor}'s {event.passion} reroll", event.after.roll
    elif isinstance(event, SuppressiveFireLaid) and event.result.roll is not None:
        yield f"{event.id}'s suppressive fire", event.result.roll
    elif not isinstance(event, (AttackResolved, CheckRolled, InitiativeSet, PassionSpent, SuppressiveFireLaid)):
        for who, result in event.checks():  # any other ruleset's checks (ua3: stress, coercion, the gridiron)
            if result.roll is not None:
                label = result.spec.label or result.spec.kind
                yield (f"{who}'s {label}" if who else label), result.roll


def _extra_name(event: EventBase | None) -> str:
    from engine.events.combat import TieBroken

    if isinstance(event, TieBroken):
        return "tie"
    return "damage"


def faces_went(events: Sequence[EventBase], faces: Sequence[int]) -> list[tuple[str, tuple[int, ...]]]:
    """(what, faces) for every face of `faces` (a command's dice, in the order read), matched to
    the rolls its `events` record; faces no roll accounts for are named by the events around."""
    from engine.events.combat import TieBroken

    out: list[tuple[str, tuple[int, ...]]] = []
    i = 0
    n = len(faces)
    for event in events:
        if isinstance(event, TieBroken):
            count = min(len(event.faces), n - i)
            if count:
                out.append(("tie", tuple(faces[i : i + count])))
                i += count
            continue
        for label, roll in _rolls(event):
            j = i
            while j + 1 < n and (faces[j], faces[j + 1]) != (roll.tens, roll.ones):
                j += 1
            if j + 1 >= n:
                continue  # not read from these faces (a roll the command did not make now)
            if j > i:
                out.append((_extra_name(event), tuple(faces[i:j])))
            out.append((label, (faces[j], faces[j + 1])))
            i = j + 2
    if i < n:
        out.append(("damage" if out else "dice", tuple(faces[i:])))
    return out


def describe_faces(went: Sequence[tuple[str, tuple[int, ...]]]) -> str:
    """`Rosa's attack 4,7 · Vic's dodge 2,2 · damage 6`."""
    return " · ".join(f"{what} {','.join(map(str, faces))}" for what, faces in went)
