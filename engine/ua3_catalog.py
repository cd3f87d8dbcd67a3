"""The ua3 weapon and armor catalog shipped with the engine (engine/data/ua3_catalog.toml),
loaded once (U-4, U-5, U-7, U-13)."""

from __future__ import annotations

from functools import cache

import msgspec

from engine.data import read_toml
from engine.state.ua3.combat import Armor, Ua3Weapon


class ArmorPiece(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A piece of armor and the U-13 protections it gives."""

    name: str
    bulletproof: bool = False
    helmet: bool = False
    thick: bool = False
    house: bool = False
    note: str = ""

    @property
    def armor(self) -> Armor:
        return Armor(bulletproof=self.bulletproof, helmet=self.helmet, thick=self.thick)


class Catalog(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    weapons: tuple[Ua3Weapon, ...]
    armor: tuple[ArmorPiece, ...] = ()


@cache
def _catalog() -> Catalog:
    return read_toml("ua3_catalog.toml", Catalog)


@cache
def weapons() -> dict[str, Ua3Weapon]:
    """Every ua3 catalog weapon by lower-case name."""
    return {w.name.casefold(): w for w in _catalog().weapons}


@cache
def armor() -> dict[str, ArmorPiece]:
    """Every ua3 armor piece by lower-case name."""
    return {a.name.casefold(): a for a in _catalog().armor}


def worn(pieces: list[ArmorPiece]) -> Armor:
    """U-13: the protections of every piece worn together."""
    return Armor(
        bulletproof=any(p.bulletproof for p in pieces),
        helmet=any(p.helmet for p in pieces),
        thick=any(p.thick for p in pieces),
    )
