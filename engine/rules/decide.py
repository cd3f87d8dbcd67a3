"""`decide`: the rules of the encounter's ruleset judge a command (DESIGN: flow).

Seen from outside it is pure: the caller's state is untouched, dice come only from `dice`.
`StartEncounter` names the ruleset; every later command goes to the encounter's own.
"""

from __future__ import annotations

from typing import Any

from engine.commands.base import CommandBase
from engine.commands.setup import StartEncounter
from engine.dice.source import DiceSource
from engine.events.base import EventBase
from engine.rules.registry import find_ruleset
from engine.rules.ruleset import Ruleset


def ruleset_for(state: Any, command: CommandBase) -> Ruleset[Any, Any]:
    """The ruleset that judges `command` on `state` (a start names its own; unknown: refused)."""
    name = command.ruleset if isinstance(command, StartEncounter) and state.version == 0 else state.ruleset
    return find_ruleset(name)


def decide(state: Any, command: CommandBase, dice: DiceSource) -> list[EventBase]:
    """The events a command produces on this state, or `Refused` with the reason."""
    return ruleset_for(state, command).decide(state, command, dice)[0]


def decide_and_fold(state: Any, command: CommandBase, dice: DiceSource) -> tuple[list[EventBase], Any]:
    """The events and the state after them (the rules' own table, frozen: no second fold)."""
    return ruleset_for(state, command).decide(state, command, dice)
