"""Dice: the percentile model (D-*), the counter-based dice source, exact odds."""

from engine.dice.percentile import Percentile
from engine.dice.source import DiceSource, SeededDice, TableDice, derive_seed

__all__ = ["DiceSource", "Percentile", "SeededDice", "TableDice", "derive_seed"]
