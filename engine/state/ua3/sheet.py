"""A ua3 character sheet as data (U-1, U-18…U-21, U-2): five shock gauges, identities,
relationships and passions. The ten abilities are derived from the gauges (U-18), never stored.

Names in features (abilities, gauges) are kept as written; `engine.rules.ua3.sheet_check` says
which ones are known and `engine.rules.ua3.abilities` reads them, ignoring case.
"""

from typing import Annotated, Literal, NamedTuple

import msgspec

from engine.state.sheet import PRINTABLE, PRINTABLE_LINES, Name

GaugeName = Literal["violence", "helplessness", "isolation", "unnatural", "self"]
#: U-18's table order.
GAUGES: tuple[GaugeName, ...] = ("violence", "helplessness", "isolation", "unnatural", "self")
#: Each gauge's field in `Gauges` (`self` is stored as `self_`).
GAUGE_FIELDS: dict[str, str] = {name: "self_" if name == "self" else name for name in GAUGES}
PassionKind = Literal["rage", "fear", "noble"]
PassionMode = Literal["reroll", "flip"]

#: U-1: the ten abilities, as the engine names them (sheets may write any case).
ABILITIES: tuple[str, ...] = (
    "connect",
    "struggle",
    "fitness",
    "dodge",
    "status",
    "pursuit",
    "notice",
    "secrecy",
    "knowledge",
    "lie",
)
MAX_HARDENED = 9  # U-18
MAX_FAILED = 5  # U-18
#: U-18: a sheet that states no notches starts each gauge at 1 hardened (60 / 20).
DEFAULT_HARDENED = 1
MAX_RELATIONSHIPS = 5  # U-20


class GaugeRules(NamedTuple):
    """One row of U-18's table: the two abilities a gauge sets, the ability a stress check on it
    is rolled with, the one that coerces on it, and its linked relationship."""

    upbeat: str
    downbeat: str
    resisted_with: str
    coerced_with: str
    relationship: str


#: U-18, as RULES.md gives it (from the seed's screen layout).
U18: dict[str, GaugeRules] = {
    "violence": GaugeRules("connect", "struggle", "fitness", "struggle", "mentor"),
    "helplessness": GaugeRules("fitness", "dodge", "status", "connect", "protégé"),
    "isolation": GaugeRules("status", "pursuit", "connect", "status", "favorite"),
    "unnatural": GaugeRules("notice", "secrecy", "knowledge", "secrecy", "guru"),
    "self": GaugeRules("knowledge", "lie", "notice", "knowledge", "responsibility"),
}

Hardened = Annotated[int, msgspec.Meta(ge=0, le=MAX_HARDENED)]
Failed = Annotated[int, msgspec.Meta(ge=0, le=MAX_FAILED)]
Percent = Annotated[int, msgspec.Meta(ge=0, le=100)]
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=PRINTABLE)]
Text = Annotated[str, msgspec.Meta(max_length=10_000, pattern=PRINTABLE_LINES)]


class Gauge(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-18: 9 hardened and 5 failed notches. Five failed notches are a trauma (U-23)."""

    hardened: Hardened = DEFAULT_HARDENED
    failed: Failed = 0

    @property
    def trauma(self) -> bool:
        return self.failed >= MAX_FAILED


class Gauges(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-18: the five shock gauges."""

    violence: Gauge = Gauge()
    helplessness: Gauge = Gauge()
    isolation: Gauge = Gauge()
    unnatural: Gauge = Gauge()
    self_: Gauge = msgspec.field(default_factory=Gauge, name="self")

    def of(self, name: str) -> Gauge:
        value: Gauge = getattr(self, GAUGE_FIELDS[name])
        return value

    def with_gauge(self, name: str, gauge: Gauge) -> "Gauges":
        return msgspec.structs.replace(self, **{GAUGE_FIELDS[name]: gauge})

    @property
    def hardened_total(self) -> int:
        """U-24: hardened notches in all gauges together."""
        return sum(self.of(g).hardened for g in GAUGES)


class Identity(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-19: a named identity with a rating and the features the engine uses."""

    name: Name
    rating: Percent
    #: abilities it stands in for (the best rating that applies is rolled)
    substitutes: tuple[Word, ...] = ()
    #: may attack with guns (U-5); without it a gun only lays suppressive fire (U-8)
    firearms: bool = False
    #: gauges on whose stress checks it may be rolled instead of the resisting ability (U-23)
    resists: tuple[Word, ...] = ()
    #: gauges on which it may be rolled to coerce (U-15)
    coerces: tuple[Word, ...] = ()
    #: the wound threshold equals its rating (U-2)
    wound_threshold: bool = False
    #: its rating is the character's initiative for any action (U-22)
    initiative: bool = False
    #: rolls with it may be flip-flopped (C-9); one identity at most
    obsession: bool = False
    notes: Text = ""

    def features(self) -> list[str]:
        """Its features in words, for a sheet's reader."""
        out = []
        if self.substitutes:
            out.append("substitutes for " + ", ".join(self.substitutes))
        if self.firearms:
            out.append("firearms")
        if self.resists:
            out.append("resists " + ", ".join(self.resists))
        if self.coerces:
            out.append("coerces " + ", ".join(self.coerces))
        if self.wound_threshold:
            out.append("wound threshold")
        if self.initiative:
            out.append("initiative")
        if self.obsession:
            out.append("obsession")
        return out


class Relationship(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-20: a person, a rating, and the gauge it is linked to (a gauge's name, or its role:
    mentor, protégé, favorite, guru, responsibility)."""

    person: Name
    rating: Percent
    gauge: Word
    notes: Text = ""


class Passion(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-21: rage, fear (naming a gauge) or noble, each a text trigger."""

    kind: PassionKind
    trigger: Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=PRINTABLE)]
    gauge: GaugeName | None = None


class Ua3Sheet(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A ua3 character sheet. `wounds` are those the character already has (they count up, U-2)."""

    name: Name
    ruleset: Literal["ua3"] = "ua3"
    gauges: Gauges = Gauges()
    identities: tuple[Identity, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    passions: tuple[Passion, ...] = ()
    wounds: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    notes: Text = ""

    def identity(self, name: str) -> Identity | None:
        wanted = name.casefold()
        for identity in self.identities:
            if identity.name.casefold() == wanted:
                return identity
        return None

    @property
    def obsession(self) -> Identity | None:
        return next((i for i in self.identities if i.obsession), None)
