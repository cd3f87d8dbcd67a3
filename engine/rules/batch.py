"""A batch of decided events with the state they lead to, so a rule can look at the
consequences of its own earlier events (a kill ends the next strike) while staying pure."""

from __future__ import annotations

from engine.events.base import EventBase
from engine.reducers.fold import apply
from engine.state.encounter import Encounter


class Batch:
    """Events decided so far for one command, and the working state after them."""

    __slots__ = ("events", "state")

    def __init__(self, state: Encounter) -> None:
        self.state = state
        self.events: list[EventBase] = []

    def emit(self, *events: EventBase) -> None:
        for event in events:
            self.events.append(event)
            self.state = apply(self.state, event)
