"""Folding events into state (each ruleset's appliers, on its working table)."""

from engine.reducers.fold import apply, fold, fold_positions, peek, table_for

__all__ = ["apply", "fold", "fold_positions", "peek", "table_for"]
