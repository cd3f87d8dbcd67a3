"""A batch of decided events with the state they lead to, so a rule can look at the
consequences of its own earlier events (a kill ends the next strike) while staying pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from engine.events.base import EventBase
from engine.reducers.fold import apply
from engine.state.encounter import Encounter


class Batch(Sequence[EventBase]):
    """Events decided so far for one command, and the working state after them. A rule may
    return the batch itself: it reads as the list of events, and `decide_and_fold` reuses its
    state instead of folding the events a second time."""

    __slots__ = ("events", "state")

    def __init__(self, state: Encounter) -> None:
        self.state = state
        self.events: list[EventBase] = []

    def emit(self, *events: EventBase) -> None:
        for event in events:
            self.events.append(event)
            self.state = apply(self.state, event)

    @overload
    def __getitem__(self, index: int) -> EventBase: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[EventBase]: ...
    def __getitem__(self, index: int | slice) -> EventBase | Sequence[EventBase]:
        return self.events[index]

    def __len__(self) -> int:
        return len(self.events)
