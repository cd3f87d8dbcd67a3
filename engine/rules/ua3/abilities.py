"""Abilities from the shock gauges (U-18) and the ratings a character may roll for something:
an ability or an identity standing in for it (U-19), a `resists` or `coerces` identity, a
relationship where its person is involved (U-20). Pure functions of a sheet and its gauges."""

from __future__ import annotations

from typing import Literal

from engine.dice.spec import CheckSpec
from engine.errors import Refused
from engine.state.ua3.sheet import ABILITIES, GAUGE_FIELDS, GAUGES, U18, Gauge, Gauges, Ua3Sheet

#: U-18: which gauge sets each ability, and whether as its upbeat (True) or downbeat one.
SET_BY: dict[str, tuple[str, bool]] = {
    ability: (gauge, upbeat)
    for gauge in GAUGES
    for ability, upbeat in ((U18[gauge].upbeat, True), (U18[gauge].downbeat, False))
}
#: U-20: a relationship's role → the gauge it is linked to.
ROLES: dict[str, str] = {U18[g].relationship: str(g) for g in GAUGES} | {"protege": "helplessness"}

Source = Literal["ability", "identity", "relationship", "rating"]


def upbeat(hardened: int) -> int:
    """U-18: the upbeat ability, 65 − 5 × hardened."""
    return 65 - 5 * hardened


def downbeat(hardened: int) -> int:
    """U-18: the downbeat ability, 15 + 5 × hardened."""
    return 15 + 5 * hardened


def ability_value(gauges: Gauges, ability: str) -> int:
    """U-18: an ability's percentage from the hardened notches of the gauge that sets it."""
    gauge, is_upbeat = SET_BY[ability]
    hardened = gauge_in(gauges, gauge).hardened
    return upbeat(hardened) if is_upbeat else downbeat(hardened)


def gauge_in(gauges: Gauges, name: str) -> Gauge:
    """`gauges.of(name)`, for compiled callers (they call no interpreted method)."""
    found: Gauge = getattr(gauges, GAUGE_FIELDS[name])
    return found


def abilities(gauges: Gauges) -> dict[str, int]:
    """All ten abilities (U-1), in U-1's order."""
    return {a: ability_value(gauges, a) for a in ABILITIES}


def label(ability: str) -> str:
    return ability.title()


def ability_named(name: str) -> str | None:
    """The ability a name means (any case), or None."""
    if name in SET_BY:  # as the rules name it: nothing to normalize
        return name
    key = name.strip().casefold()
    return key if key in SET_BY else None


def gauge_named(name: str) -> str | None:
    """The gauge a name means (any case), or None."""
    if name in U18:  # as the rules name it: nothing to normalize
        return name
    key = name.strip().casefold()
    return key if key in U18 else None


def linked_gauge(name: str) -> str | None:
    """U-20: the gauge a relationship's `gauge` field names (a gauge, or a role), or None."""
    key = name.strip().casefold()
    return key if key in U18 else ROLES.get(key)


class Option:
    """A rating a character may roll: what it is, its name as shown, the rating, and whether
    rolls with it may be flip-flopped (an obsession identity, C-9). A value, equal by those
    four; `plain` keeps the plain major check of it once made (`people.spec_for`)."""

    __slots__ = ("flip", "name", "plain", "rating", "source")

    def __init__(self, source: Source, name: str, rating: int, flip: bool = False) -> None:
        self.source: Source = source
        self.name = name
        self.rating = rating
        self.flip = flip
        self.plain: CheckSpec | None = None

    @property
    def label(self) -> str:
        if self.source == "relationship":
            return f"relationship with {self.name}"
        return self.name

    def _key(self) -> tuple[str, str, int, bool]:
        return (self.source, self.name, self.rating, self.flip)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Option(source={self.source!r}, name={self.name!r}, rating={self.rating!r}, flip={self.flip!r})"


def for_ability(sheet: Ua3Sheet, gauges: Gauges, ability: str) -> list[Option]:
    """U-19: the ability and every identity that stands in for it."""
    options = [Option("ability", label(ability), ability_value(gauges, ability))]
    for identity in sheet.identities:
        if any(ability_named(s) == ability for s in identity.substitutes):
            options.append(Option("identity", identity.name, identity.rating, identity.obsession))
    return options


def identity_options(sheet: Ua3Sheet, feature: Literal["resists", "coerces"], gauge: str) -> list[Option]:
    """U-19: identities whose `resists` or `coerces` lists `gauge`."""
    return [
        Option("identity", i.name, i.rating, i.obsession)
        for i in sheet.identities
        if any(gauge_named(g) == gauge for g in getattr(i, feature))
    ]


def relationship_with(sheet: Ua3Sheet, *people: str) -> list[Option]:
    """U-20: the relationships with any of `people` (names or ids, any case)."""
    wanted = {p.strip().casefold() for p in people if p.strip()}
    return [Option("relationship", r.person, r.rating) for r in sheet.relationships if r.person.casefold() in wanted]


def best(options: list[Option]) -> Option:
    """U-19, U-23: the best rating that applies; on a tie, one that may flip (C-9), else the first."""
    if not options:
        raise ValueError("best() of no options")
    found = options[0]
    for option in options:
        if option.rating > found.rating or (option.rating == found.rating and option.flip and not found.flip):
            found = option
    return found


def pick(options: list[Option], wanted: str, what: str) -> Option:
    """The best rating that applies, or the one a person named (`wanted`: an ability, an
    identity, or a relationship's person), refused when it does not apply to `what`."""
    if not wanted.strip():
        return best(options)
    key = wanted.strip().casefold()
    named = [o for o in options if o.name.casefold() == key or o.label.casefold() == key]
    if not named:
        choices = ", ".join(f"{o.label} {o.rating}" for o in options)
        raise Refused(f"{wanted!r} cannot be rolled to {what}", hint=f"what applies: {choices}")
    return best(named)


def named_rating(sheet: Ua3Sheet, gauges: Gauges, name: str) -> Option:
    """What a name rolls: an ability (the best of it and the identities standing in for it,
    U-19), an identity, or a relationship's person (U-20); refused when the sheet has none."""
    ability = ability_named(name)
    if ability is not None:
        return best(for_ability(sheet, gauges, ability))
    identity = sheet.identity(name)
    if identity is not None:
        return Option("identity", identity.name, identity.rating, identity.obsession)
    relationship = relationship_with(sheet, name.removeprefix("relationship with ").strip())
    if relationship:
        return relationship[0]
    known = [label(a) for a in ABILITIES] + [i.name for i in sheet.identities]
    known += [f"relationship with {r.person}" for r in sheet.relationships]
    raise Refused(f"{sheet.name} has no ability, identity or relationship {name!r}", hint=f"known: {', '.join(known)}")


def wound_threshold(sheet: Ua3Sheet, default: int) -> int:
    """U-2, U-19: the threshold a `wound_threshold` identity sets (the highest, if several), else
    the default (50)."""
    set_by = [i.rating for i in sheet.identities if i.wound_threshold]
    return max(set_by) if set_by else default


def initiative(sheet: Ua3Sheet) -> int | None:
    """U-19, U-22: the rating an `initiative` identity gives for any action (the highest)."""
    set_by = [i.rating for i in sheet.identities if i.initiative]
    return max(set_by) if set_by else None
