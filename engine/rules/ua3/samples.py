"""The seed's sample stress checks as a catalog (engine/data/stress_checks.toml, U-23, U-25):
named by their text, with or without the gauge — `violence: kill someone in a fight` is
violence 3–5. Case, punctuation and accents do not matter, and a unique beginning is enough."""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import cache

import msgspec

from engine.data import read_toml
from engine.errors import Refused
from engine.state.ua3.sheet import GAUGES, GaugeName


class Entry(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    text: str
    low: int
    high: int


class Sample(msgspec.Struct, frozen=True, gc=False):
    """One sample stress check: its gauge, its text as the seed gives it, its range."""

    gauge: GaugeName
    text: str
    low: int
    high: int

    @property
    def name(self) -> str:
        """How a GM names it: `violence: kill someone in a fight`."""
        return f"{self.gauge}: {self.text.rstrip('.').lower()}"


class Catalog(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    violence: tuple[Entry, ...]
    helplessness: tuple[Entry, ...]
    isolation: tuple[Entry, ...]
    unnatural: tuple[Entry, ...]
    self_: tuple[Entry, ...] = msgspec.field(name="self")


@cache
def samples() -> tuple[Sample, ...]:
    """Every sample, gauge by gauge in U-18's order, each gauge's as the seed lists them."""
    catalog = read_toml("stress_checks.toml", Catalog)
    return tuple(
        Sample(gauge=g, text=e.text, low=e.low, high=e.high)
        for g in GAUGES
        for e in getattr(catalog, "self_" if g == "self" else g)
    )


def key(text: str) -> str:
    """Text as names are compared: no accents, case, punctuation or extra spaces."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    plain = plain.replace("’", "'").replace("'", "")
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def find_sample(name: str) -> Sample:
    """The sample `name` names (`gauge: text`, or the text alone); `Refused` when none or
    several fit, with the nearest names."""
    gauge, sep, text = name.partition(":")
    wanted_gauge = key(gauge) if sep else ""
    if sep and wanted_gauge not in GAUGES:
        gauge, text, wanted_gauge = "", name, ""
    wanted = key(text if sep else name)
    pool = [s for s in samples() if not wanted_gauge or s.gauge == wanted_gauge]
    exact = [s for s in pool if key(s.text) == wanted]
    found = (exact or [s for s in pool if key(s.text).startswith(wanted)]) if wanted else []
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = "; ".join(s.name for s in found[:5])
        raise Refused(f"{len(found)} sample stress checks begin {name.strip()!r}", hint=f"say which: {names}")
    near = difflib.get_close_matches(wanted, [key(s.text) for s in pool], n=3, cutoff=0.5)
    nearest = [s.name for s in pool if key(s.text) in near]
    hint = f"did you mean {'; '.join(nearest)}?" if nearest else "`ua stress-checks` lists them"
    raise Refused(f"no sample stress check {name.strip()!r} (U-25)", hint=hint)
