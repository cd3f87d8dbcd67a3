"""Scripted combatants: tactics are data (rules, first match wins) turned into commands.

A tactic is a pure function of the state; its random choices come from the AI stream of the
dice source (`choose`), so they never shift the dice. The rules a scenario gives are `rules`;
choosing a command from them is `choose`.
"""
