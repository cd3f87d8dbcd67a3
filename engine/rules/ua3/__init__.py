"""Unknown Armies, 3rd edition (`ua3`): its table, appliers, rules and views, as `RULESET`."""

from engine.rules.ua3.ruleset import RULESET

__all__ = ["RULESET"]
