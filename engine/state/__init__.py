"""State: the encounter's immutable types. Never changes itself; reducers build new values."""

from engine.state.encounter import Combatant, Encounter, Injury
from engine.state.sheet import METERS, Meter, Meters, Passion, Sheet, Skill, Stats

__all__ = [
    "METERS",
    "Combatant",
    "Encounter",
    "Injury",
    "Meter",
    "Meters",
    "Passion",
    "Sheet",
    "Skill",
    "Stats",
]
