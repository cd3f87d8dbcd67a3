"""A ua2 character sheet as data (S2-*): stats, skills with tied stats, obsession, passions."""

from typing import Annotated, Final, Literal

import msgspec

from engine.text import UNSAFE_CLASS

StatName = Literal["body", "speed", "mind", "soul"]
MeterName = Literal["violence", "unnatural", "helplessness", "isolation", "self"]
PassionKind = Literal["rage", "fear", "noble"]
#: C-10: what a spent passion does to a failed roll.
PassionMode = Literal["reroll", "flip"]
METERS: tuple[MeterName, ...] = ("violence", "unnatural", "helplessness", "isolation", "self")
#: Each meter's field in `Meters` (`self` is a Python keyword's neighbour: stored as `self_`).
METER_FIELDS: dict[str, str] = {name: "self_" if name == "self" else name for name in METERS}
MAX_HARDENED: Final = 10  # S2-7
#: M2-1: a madness check's rank.
MIN_RANK: Final = 1
MAX_RANK: Final = 10
MAX_FAILED: Final = 5  # S2-7

StatValue = Annotated[int, msgspec.Meta(ge=1, le=99)]
Rating = Annotated[int, msgspec.Meta(ge=0, le=150)]
Hardened = Annotated[int, msgspec.Meta(ge=0, le=MAX_HARDENED)]
Failed = Annotated[int, msgspec.Meta(ge=0, le=MAX_FAILED)]

#: None of the characters `engine.text.unsafe` refuses (control characters — a trailing newline
#: too —, bidirectional controls, zero-width and other invisible ones), so a name read from a file
#: can neither rewrite a terminal line nor pass for another. Checked when a sheet is decoded, not
#: on construction.
PRINTABLE = rf"^(?![\s\S]*[\t\n\r{UNSAFE_CLASS}])"
#: As PRINTABLE, but tabs and line breaks are allowed (free text such as notes).
PRINTABLE_LINES = rf"^(?![\s\S]*[{UNSAFE_CLASS}])"
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80, pattern=PRINTABLE)]


class Stats(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """S2-1: each 1–99."""

    body: StatValue
    speed: StatValue
    mind: StatValue
    soul: StatValue

    def of(self, name: str) -> int:
        return int(getattr(self, name))


class Skill(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """S2-3: a skill tied to one stat. `free` skills started at 15 at no cost (S2-4)."""

    name: Name
    stat: StatName
    rating: Rating
    free: bool = False


class Passion(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """C-10: one rage, one fear, one noble passion, each a text trigger."""

    kind: PassionKind
    trigger: Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=PRINTABLE)]


class Meter(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """S2-7: 10 hardened and 5 failed notches; a neurosis once the fifth failed is marked."""

    hardened: Hardened = 0
    failed: Failed = 0
    neurosis: bool = False


class Meters(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """M2-1: the five madness meters."""

    violence: Meter = Meter()
    unnatural: Meter = Meter()
    helplessness: Meter = Meter()
    isolation: Meter = Meter()
    self_: Meter = msgspec.field(default_factory=Meter, name="self")

    def of(self, name: str) -> Meter:
        value: Meter = getattr(self, METER_FIELDS[name])
        return value

    def with_meter(self, name: str, meter: Meter) -> "Meters":
        return msgspec.structs.replace(self, **{METER_FIELDS[name]: meter})


#: Each meter's position among Meters' fields (`msgspec.structs.astuple(meters)[METER_AT[name]]`:
#: how compiled rules read and replace one, with no field looked up by name).
METER_AT: Final[dict[str, int]] = {name: i for i, name in enumerate(METERS)}
if Meters.__struct_fields__ != tuple(METER_FIELDS[name] for name in METERS):
    raise ImportError("Meters' fields are not in METERS order (METER_AT relies on it)")


class WoundPoints(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Current and maximum wound points (S2-6: maximum = Body)."""

    current: Annotated[int, msgspec.Meta(ge=-200, le=99)]
    maximum: Annotated[int, msgspec.Meta(ge=1, le=99)]


class Sheet(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A ua2 character sheet."""

    name: Name
    stats: Stats
    skills: tuple[Skill, ...] = ()
    obsession: Annotated[str, msgspec.Meta(max_length=80, pattern=PRINTABLE)] = ""
    passions: tuple[Passion, ...] = ()
    weapons: tuple[Name, ...] = ()
    meters: Meters = Meters()
    wounds: WoundPoints | None = None
    tier: Literal["beginner", "seasoned", "experienced"] | None = None
    notes: Annotated[str, msgspec.Meta(max_length=10_000, pattern=PRINTABLE_LINES)] = ""
    #: The sheet's hand-to-hand skill (street brawling, judo, …) used for fists and melee (C2-1).
    hand_to_hand: str = "Fighting"

    def skill(self, name: str) -> Skill | None:
        wanted = name.casefold()
        for skill in self.skills:
            if skill.name.casefold() == wanted:
                return skill
        return None

    def rating(self, name: str) -> int:
        """A skill's rating, or 0 when the sheet lacks it."""
        skill = self.skill(name)
        return 0 if skill is None else skill.rating

    @property
    def max_wounds(self) -> int:
        return self.wounds.maximum if self.wounds is not None else self.stats.body

    @property
    def current_wounds(self) -> int:
        return self.wounds.current if self.wounds is not None else self.stats.body

    def is_obsession(self, skill_name: str) -> bool:
        return bool(self.obsession) and self.obsession.casefold() == skill_name.casefold()
