"""Healing commands (H2-*)."""

from typing import Annotated, Literal

import msgspec

from engine.commands.base import CommandBase
from engine.dice.checks import Kind, Shift

Care = Literal["doctor", "bed_rest", "easy", "pushing"]


class FirstAid(CommandBase, frozen=True, kw_only=True, tag="first_aid"):
    """H2-2: First Aid on one minor injury, once per injury (a failed try counts).

    Decisions: a significant check by default, so a weak success (C-4) heals too; without the
    skill, an untrained Mind roll (C-7); in a fight it is the healer's action."""

    healer: str
    patient: str
    injury: int
    skill: str = "First Aid"
    kind: Kind = "significant"
    shifts: tuple[Shift, ...] = ()


class MedicalCare(CommandBase, frozen=True, kw_only=True, tag="medical_care"):
    """H2-3: medical care on one major injury by someone medically trained, after the fight.

    Decision: once per injury (the seeds describe one treatment, within the hour or later)."""

    healer: str
    patient: str
    injury: int
    within_hour: bool = True
    skill: str = "Medicine"
    kind: Kind = "major"
    shifts: tuple[Shift, ...] = ()


class Convalesce(CommandBase, frozen=True, kw_only=True, tag="convalesce"):
    """H2-5: days of rest; points per day by wound level and care."""

    patient: str
    days: Annotated[int, msgspec.Meta(ge=1, le=365)] = 1
    care: Care = "bed_rest"
