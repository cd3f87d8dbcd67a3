"""`decide`: dispatch a command to its rule by type (a table, not an if-chain)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.commands.base import CommandBase
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.base import EventBase
from engine.state.encounter import Encounter

C = TypeVar("C", bound=CommandBase)
Handler = Callable[[Encounter, Any, DiceSource], Sequence[EventBase]]

HANDLERS: dict[type[CommandBase], Handler] = {}


def handles(
    command_type: type[C],
) -> Callable[
    [Callable[[Encounter, C, DiceSource], Sequence[EventBase]]],
    Callable[[Encounter, C, DiceSource], Sequence[EventBase]],
]:
    """Register the rule deciding one command type."""

    def register(
        fn: Callable[[Encounter, C, DiceSource], Sequence[EventBase]],
    ) -> Callable[[Encounter, C, DiceSource], Sequence[EventBase]]:
        HANDLERS[command_type] = fn
        return fn

    return register


def _handler(command: CommandBase) -> Handler:
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise Refused(f"no rule handles the command {type(command).__name__}")
    return handler


def decide(state: Encounter, command: CommandBase, dice: DiceSource) -> list[EventBase]:
    """The events a command produces on this state, or `Refused` with the reason."""
    return list(_handler(command)(state, command, dice))


def decide_and_fold(state: Encounter, command: CommandBase, dice: DiceSource) -> tuple[list[EventBase], Encounter]:
    """The events and the state after them (the fold a rule already did is reused)."""
    from engine.reducers.fold import fold
    from engine.rules.batch import Batch

    result = _handler(command)(state, command, dice)
    if isinstance(result, Batch):
        return result.events, result.state
    events = list(result)
    return events, fold(events, state)
