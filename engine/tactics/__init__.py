"""Scripted combatants: tactics are data (rules, first match wins) turned into commands.

A tactic is a pure function of the state; its random choices come from the AI stream of the
dice source (`choose`), so they never shift the dice.
"""

from engine.tactics.choose import Profile, choose_command, declarations
from engine.tactics.rules import PRESETS, TacticRule, When

__all__ = ["PRESETS", "Profile", "TacticRule", "When", "choose_command", "declarations"]
