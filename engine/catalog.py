"""The weapon catalog shipped with the engine (engine/data/weapons.toml), loaded once, when a
weapon is first looked up (its TOML parser too: a command that names no weapon never loads it)."""

from __future__ import annotations

from functools import cache

import msgspec

from engine.data import read_toml
from engine.errors import NotFound
from engine.state.weapons import Weapon


class Catalog(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    weapons: tuple[Weapon, ...]


@cache
def weapon_catalog() -> dict[str, Weapon]:
    """Every catalog weapon by lower-case name."""
    catalog = read_toml("weapons.toml", Catalog)
    return {w.name.casefold(): w for w in catalog.weapons}


def find_weapon(name: str, extra: dict[str, Weapon] | None = None) -> Weapon:
    """A weapon by name from `extra` (a scenario's own) or the catalog."""
    key = name.casefold()
    if extra and key in extra:
        return extra[key]
    weapon = weapon_catalog().get(key)
    if weapon is None:
        known = ", ".join(sorted(weapon_catalog()))
        raise NotFound(f"no weapon named {name!r}", hint=f"catalog weapons: {known}")
    return weapon
