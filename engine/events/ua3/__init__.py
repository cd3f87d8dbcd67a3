"""Third edition (`ua3`) events: each a fact, each explaining itself with its U rule ids."""

from engine.events.ua3.coercion import CoercionAnswered, CoercionRolled
from engine.events.ua3.conflict import ConflictEnded, ConflictStarted, GridironRolled, PenaltyTaken
from engine.events.ua3.harm import StatusChanged, WoundsTaken
from engine.events.ua3.mind import (
    AbilityChecked,
    BurnedOut,
    FailedNotchMarked,
    HardenedNotchMarked,
    PassionSpent,
    ReactionEnded,
    ReactionTaken,
    StressChecked,
    TraumaMarked,
)
from engine.events.ua3.setup import CharacterJoined

__all__ = [
    "AbilityChecked",
    "BurnedOut",
    "CharacterJoined",
    "CoercionAnswered",
    "CoercionRolled",
    "ConflictEnded",
    "ConflictStarted",
    "FailedNotchMarked",
    "GridironRolled",
    "HardenedNotchMarked",
    "PassionSpent",
    "PenaltyTaken",
    "ReactionEnded",
    "ReactionTaken",
    "StatusChanged",
    "StressChecked",
    "TraumaMarked",
    "WoundsTaken",
]
