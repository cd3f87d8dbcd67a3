"""Madness commands (M2-*): a check on a meter, therapy, and a reaction's source going away."""

from typing import Literal

from engine.commands.base import CommandBase
from engine.dice.checks import Shift
from engine.state.encounter import Reaction
from engine.state.sheet import MeterName, PassionKind


class MadnessCheck(CommandBase, frozen=True, kw_only=True, tag="madness_check"):
    """M2-1…M2-5: a `meter` check of `rank` 1–10 for `actor`.

    `source` is what triggered it (also what a reaction is kept for until it is gone, M2-4);
    `reaction` is the person's choice should the check fail (else the actor's default, else
    the setting `default_reaction`).
    """

    actor: str
    meter: MeterName
    rank: int
    source: str = ""
    shifts: tuple[Shift, ...] = ()
    reaction: Reaction | None = None
    #: C-10: a passion (a fear, most often) spent if the Mind roll fails: reroll or flip-flop.
    passion: PassionKind | None = None
    passion_mode: Literal["reroll", "flip"] = "reroll"


class Therapy(CommandBase, frozen=True, kw_only=True, tag="therapy"):
    """M2-6: the GM removes up to `hardened` and `failed` notches from one meter."""

    actor: str
    meter: MeterName
    hardened: int = 0
    failed: int = 0
    note: str = ""


class SourceGone(CommandBase, frozen=True, kw_only=True, tag="source_gone"):
    """M2-4: `source` is gone, so reactions kept for it end — `actor`'s only, or everyone's."""

    source: str
    actor: str = ""
