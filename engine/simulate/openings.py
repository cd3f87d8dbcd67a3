"""A batch optimisation: each distinct opening of a scenario fought once.

An opening (scenario madness triggers, then initiative, and an ambush's start) reads dice but
makes no AI choice, so it is a pure function of the dice faces it reads. Each worker keeps the
openings it fought, up to `MAX_OPENINGS`, in a tree keyed by those faces, and finds a fight's
opening again by reading its faces down the tree: the fight then goes on from a copy of the
table the opening left. An opening that reads no faces is the same for every fight.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.dice.source import SeededDice

#: Distinct openings kept per worker (a few KB each): memory stays bounded; past it, the rest are
#: fought each time.
MAX_OPENINGS = 2_000


class Opening(NamedTuple):
    """Where a fight stands after its opening: the table, the faces read, the facts counted."""

    #: the ruleset's working table (any edition's)
    table: Any
    faces: int
    events: int


#: The next face read → the subtree of openings that read it, or the one that ends with it (no
#: opening's faces are the start of another's: it stops reading where it ends).
_Tree = dict[int, "_Tree | Opening"]


class Openings:
    """The openings one worker has fought, found again by the faces they read."""

    def __init__(self, limit: int = MAX_OPENINGS) -> None:
        self.limit = limit
        self.kept = 0
        self._root: _Tree | Opening = {}

    def find(self, seed: int) -> Opening | None:
        """The opening of the fight of `seed`, if it was kept."""
        node = self._root
        if isinstance(node, dict) and node:
            dice = SeededDice(seed)
            while isinstance(node, dict) and node:
                node = node.get(dice.d10(), {})
        return node if isinstance(node, Opening) else None

    def keep(self, seed: int, opening: Opening) -> None:
        """Keep an opening fought with `seed` (its faces are read again from the seed)."""
        if self.kept >= self.limit:
            return
        self.kept += 1
        if opening.faces == 0:
            self._root = opening
            return
        node = self._root
        assert isinstance(node, dict), "an opening that reads no faces is the only one"
        dice = SeededDice(seed)
        for _ in range(opening.faces - 1):
            child = node.setdefault(dice.d10(), {})
            assert isinstance(child, dict), "openings are prefix-free"
            node = child
        node[dice.d10()] = opening
