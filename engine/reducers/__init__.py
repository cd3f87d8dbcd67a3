"""Folding events into state: one small pure function per event type, no dice, no judgement."""

from engine.reducers.fold import apply, fold, fold_positions, reducer

# Importing the modules registers their reducers.
from engine.reducers import setup as _setup  # noqa: F401  # isort: skip
from engine.reducers import madness as _madness  # noqa: F401  # isort: skip
from engine.reducers import combat as _combat  # noqa: F401  # isort: skip
from engine.reducers import healing as _healing  # noqa: F401  # isort: skip

__all__ = ["apply", "fold", "fold_positions", "reducer"]
