"""Unknown Armies, 2nd edition (`ua2`): its table, appliers, rules and views, as `RULESET`."""

from engine.rules.ua2.ruleset import RULESET

__all__ = ["RULESET"]
