"""Combat commands (I2, C2): what a combatant or the GM intends; `decide` judges them."""

from typing import Annotated, Literal

import msgspec

from engine.commands.base import CommandBase
from engine.dice.checks import Shift
from engine.settings import CherryName as CherryName  # defined with the settings that name one
from engine.state.fight import InitiativeMethod
from engine.state.sheet import PassionKind, PassionMode

AttackMode = Literal["strike", "disarm", "throw_person", "throw"]
CRIT_CHOICES = Literal["kill", "knock_out"]
CHERRIES: tuple[str, ...] = CherryName.__args__  # type: ignore[attr-defined]


class InitiativeChoice(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """I2-1: roll against Speed, take default initiative, or ambush initiative."""

    id: str
    method: InitiativeMethod


class BeginFight(CommandBase, frozen=True, kw_only=True, tag="begin_fight"):
    """Set initiative (I2-1…I2-4) and start the ambush or round 1. Unnamed combatants choose
    as an automated actor would: ambush if ambushing, default with an Initiative skill, else roll."""

    initiative: tuple[InitiativeChoice, ...] = ()


class Declaration(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """C2-4: what one combatant declares at round start."""

    id: str
    focus_target: str = ""
    focus: Literal[0, 10, 20, 30] = 0
    continue_dodge: bool = False
    release_hold: bool = False
    continue_suppression: bool = False


class Declare(CommandBase, frozen=True, kw_only=True, tag="declare"):
    """C2-4: declarations at round start, slowest first; anyone not named declares nothing.

    A declaration replaces one the same combatant made earlier this round. Unless `open`, the
    declarations close and the round's first turn starts; `open` ones leave them open for
    other players' (the round's first action closes them)."""

    declarations: tuple[Declaration, ...] = ()
    open: bool | msgspec.UnsetType = msgspec.UNSET


class Strike(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """C2-8: one of several attacks; `share` is its part of the divided target."""

    target: str
    share: Annotated[int, msgspec.Meta(ge=1)] | None = None


class ReactionChoice(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """M2-4: the reaction a person chooses for a combatant, should a check the attack raises
    (M2-8) fail for it."""

    id: str
    reaction: Literal["flee", "freeze", "frenzy"]


class RollPassion(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """C-10 on a roll an attack makes `actor` roll: a target's dodge (C2-15), or the Mind roll of
    a madness check the attack raises (M2-8: shot at, a kill, an ally killed). The triggered
    passion changes `actor`'s first such roll that fails (rerolled, or flip-flopped)."""

    actor: str
    passion: PassionKind
    mode: PassionMode = "reroll"
    roll: Literal["dodge", "madness"] = "dodge"


class Attack(CommandBase, frozen=True, kw_only=True, tag="attack"):
    """An attack (C2-1): one target, or up to three `strikes` dividing the target (C2-8)."""

    actor: str
    target: str = ""
    strikes: tuple[Strike, ...] = ()
    weapon: str = ""
    mode: AttackMode = "strike"
    minimum: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    called: str = ""
    skill: str = ""
    shifts: tuple[Shift, ...] = ()
    cherry: CherryName | None = None
    crit: CRIT_CHOICES = "kill"
    take_weapon: bool = True
    monkey_redirect: str = ""
    flipped: bool | None = None
    #: C-10: a triggered passion spent on this attack's first failed roll (reroll, or flip-flop).
    passion: PassionKind | None = None
    passion_mode: PassionMode = "reroll"
    #: C-10: a passion spent on a failed dodge or madness roll this attack makes someone roll
    roll_passion: RollPassion | msgspec.UnsetType = msgspec.UNSET
    #: M2-4: the GM's reaction for a combatant whose M2-8 check this attack raises fails (else the
    #: combatant's own, else the setting `default_reaction`).
    reactions: tuple[ReactionChoice, ...] | msgspec.UnsetType = msgspec.UNSET


class Dodge(CommandBase, frozen=True, kw_only=True, tag="dodge"):
    """C2-15: dodge as this turn's action."""

    actor: str


class Draw(CommandBase, frozen=True, kw_only=True, tag="draw"):
    """C2-3: draw or ready a weapon (usable from next round)."""

    actor: str
    weapon: str


class ClearJam(CommandBase, frozen=True, kw_only=True, tag="clear_jam"):
    actor: str
    weapon: str = ""


class StandUp(CommandBase, frozen=True, kw_only=True, tag="stand_up"):
    actor: str


class DoNothing(CommandBase, frozen=True, kw_only=True, tag="do_nothing"):
    """Spend the turn doing nothing; with `reinitiative`, re-set initiative next round (I2-5)."""

    actor: str
    reinitiative: InitiativeMethod | None = None


class SuppressiveFire(CommandBase, frozen=True, kw_only=True, tag="suppressive_fire"):
    """C2-18: more than three shots at a field of fire; hits only on a crit."""

    actor: str
    shots: Annotated[int, msgspec.Meta(ge=4, le=200)]
    field: tuple[str, ...]
    weapon: str = ""


class BreakFree(CommandBase, frozen=True, kw_only=True, tag="break_free"):
    """C2-27: a held fighter rolls its hand-to-hand skill, minimum = the holder's skill."""

    actor: str
    flipped: bool | None = None


class Squeeze(CommandBase, frozen=True, kw_only=True, tag="squeeze"):
    """C2-27: the holder's turn: automatic damage, or a roll for a Gimme instead."""

    actor: str
    gimme: bool = False
    take_weapon: bool = True


class Flee(CommandBase, frozen=True, kw_only=True, tag="flee"):
    actor: str


class Surrender(CommandBase, frozen=True, kw_only=True, tag="surrender"):
    actor: str


class EndFight(CommandBase, frozen=True, kw_only=True, tag="end_fight"):
    """The GM ends the fight (C2-33 leaves the table the last word)."""

    reason: str = "the GM ends the fight"
    winner: str | None = None
