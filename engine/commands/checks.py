"""Checks rolled from a character's sheet (C-7, C-9, S2-3) and passions spent on them (C-10)."""

from engine.commands.base import CommandBase
from engine.dice.checks import Kind, Shift
from engine.state.sheet import PassionKind, PassionMode, StatName


class SkillCheck(CommandBase, frozen=True, kw_only=True, tag="skill_check"):
    """Roll one of the actor's skills; the rule builds the check from the sheet.

    A skill the sheet lacks is rolled untrained (C-7) on `stat`, which must then be named.
    `flipped` is a person's stated orientation for an obsession skill (C-9, C-11); None: the
    engine picks. `roll_anyway` rolls a minor check at 15 or more for quality (C-3).
    """

    actor: str
    skill: str
    kind: Kind
    shifts: tuple[Shift, ...] = ()
    minimum: int | None = None
    stat: StatName | None = None
    flipped: bool | None = None
    purpose: str = ""
    roll_anyway: bool = False


class SpendPassion(CommandBase, frozen=True, kw_only=True, tag="spend_passion"):
    """C-10: a triggered passion rerolls or flip-flops the actor's most recent failed check.

    `flipped` is a person's stated orientation of a reroll of an obsession check (C-9, C-11).
    """

    actor: str
    passion: PassionKind
    mode: PassionMode
    flipped: bool | None = None
