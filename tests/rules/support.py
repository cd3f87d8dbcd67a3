"""Builders shared by the rules tests: fighters, a table with the fight begun, event lookups.

Fighters get an Initiative skill, so `arena` begins the fight on default initiative (I2-1) and
draws no dice: the order is fixed by the ratings given, and every die a test gives is used by
the command it is given to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

import msgspec

from engine.events.base import EventBase
from engine.settings import Settings
from engine.state.encounter import Combatant
from engine.state.fight import Fighter
from engine.state.sheet import Meter, Meters, Sheet
from tests.fixtures import Table, sheet

E = TypeVar("E", bound=EventBase)

#: M2-8 off: attacks raise no violence checks, so tests not about madness draw no Mind rolls.
QUIET = Settings(
    violence_first_weapon_attack=0,
    violence_first_shot_at=0,
    violence_kill=0,
    violence_ally_killed=0,
    violence_kill_helpless=0,
)

RULE_ID = re.compile(r"\b(?:I2|C2|H2|M2|S2|C|D)-\d+\b")


def fighter(
    name: str,
    *,
    init: int = 30,
    fighting: int = 50,
    dodge: int = 0,
    firearms: int = 0,
    athletics: int = 0,
    first_aid: int = 0,
    medicine: int = 0,
    obsession: str = "",
    body: int = 50,
    speed: int = 50,
    mind: int = 50,
    weapons: Sequence[str] = (),
    hardened: int = 0,
) -> Sheet:
    """A ua2 sheet with the skills combat tests use (0 leaves a skill off the sheet)."""
    skills = [("Initiative", "speed", init), ("Fighting", "body", fighting)]
    for skill, stat, rating in (
        ("Dodge", "speed", dodge),
        ("Firearms", "speed", firearms),
        ("General Athletics", "body", athletics),
        ("First Aid", "mind", first_aid),
        ("Medicine", "mind", medicine),
    ):
        if rating:
            skills.append((skill, stat, rating))
    built = sheet(name, body=body, speed=speed, mind=mind, skills=skills, obsession=obsession, weapons=weapons)
    if hardened:
        built = msgspec.structs.replace(built, meters=Meters(violence=Meter(hardened=hardened)))
    return built


def arena(
    *entries: tuple[str, str, Sheet] | tuple[str, str, Sheet, str],
    settings: Settings = QUIET,
    begin: bool = True,
    seed: int = 1,
) -> Table:
    """A table with (id, side, sheet[, weapon in hand]) joined and, by default, the fight begun."""
    t = Table(seed=seed, settings=settings)
    for entry in entries:
        id_, side, s = entry[0], entry[1], entry[2]
        in_hand = entry[3] if len(entry) > 3 else ""
        t.join(id_, side, s, in_hand=in_hand)
    if begin:
        t.begin()
    return t


def of(events: Sequence[EventBase], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Sequence[EventBase], kind: type[E]) -> E:
    found = of(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {len(found)}: {[type(e).__name__ for e in events]}"
    return found[0]


def text(events: Sequence[EventBase]) -> str:
    """Every event's explanation, one a line."""
    return "\n".join(e.explain() for e in events)


def who(t: Table, id_: str) -> Combatant:
    c = t.state.combatant(id_)
    assert c is not None
    return c


def where(t: Table, id_: str) -> Fighter:
    return t.state.fighter(id_)
