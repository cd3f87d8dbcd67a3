"""Which fights of a batch are worth keeping (`--keep`): the best and the worst for the players'
side, and a random few, picked as the fights come in and merged across workers exactly."""

from __future__ import annotations

import heapq
from typing import Literal

import msgspec

from engine.dice.source import derive_seed

Keep = Literal["worst", "best", "random"]
_RANDOM_PICK = 0x5EED


class Picks(msgspec.Struct, kw_only=True):
    """The indices of fights worth keeping: best and worst for the players' side (by
    `FightOutcome.score`), and a random few."""

    size: int = 0
    best: list[tuple[int, ...]] = msgspec.field(default_factory=list)
    worst: list[tuple[int, ...]] = msgspec.field(default_factory=list)
    random: list[tuple[int, int]] = msgspec.field(default_factory=list)

    def add(self, score: tuple[int, ...], index: int, seed: int) -> None:
        if not self.size:
            return
        _push(self.best, (*score, -index), self.size)
        _push(self.worst, (*(-s for s in score), -index), self.size)
        _push(self.random, (-derive_seed(seed ^ _RANDOM_PICK, index), -index), self.size)

    def merge(self, other: Picks) -> None:
        for item in other.best:
            _push(self.best, item, self.size)
        for item in other.worst:
            _push(self.worst, item, self.size)
        for r in other.random:
            _push(self.random, r, self.size)

    def indices(self, which: Keep) -> list[int]:
        if which == "random":
            return sorted(-item[-1] for item in self.random)
        return sorted(-item[-1] for item in (self.best if which == "best" else self.worst))


def _push(heap: list, item: tuple, size: int) -> None:  # type: ignore[type-arg]
    """Keep the `size` largest items (ties broken by index, deterministic)."""
    if len(heap) < size:
        heapq.heappush(heap, item)
    elif item > heap[0]:
        heapq.heapreplace(heap, item)
