"""Third edition (`ua3`) fight commands (U-3…U-13, U-17, U-22): begin, declare, and each
declared action carried out on its turn."""

from typing import Literal

import msgspec

from engine.commands.base import CommandBase
from engine.commands.ua3 import MatchedFailure
from engine.dice.checks import Shift
from engine.state.ua3.combat import Action, AttackMode, Burst, Called, LimbEffect
from engine.state.ua3.sheet import PassionKind, PassionMode

#: U-3: a fist's matched failure costs the attacker −10 on its next roll, or gives the opponent
#: +10 on its next attack on the attacker (the attacker's choice; automated: the first).
FistsMiss = Literal["penalty", "opening"]
#: U-3: a fist's crit leaves the opponent unconscious or dead (automated: unconscious).
FistsCrit = Literal["unconscious", "dead"]
#: U-17: what a grappler does on its roll of the exchange.
GrappleMove = Literal["roll", "wounds", "disarm", "swap", "shoot"]
#: U-17: what the attacker does on reaching its end zone (automated: restrains).
GrappleEnd = Literal["restrain", "kill"]


class BeginFight(CommandBase, frozen=True, kw_only=True, tag="ua3_begin_fight"):
    """U-22: the fight begins with round 1's declarations."""


class Declaration(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-22: one combatant's action for the round (`targets`: whom it is aimed at; `weapon`:
    the weapon it uses or readies; `gauge`: the gauge a coercion threatens, U-15)."""

    actor: str
    action: Action
    targets: tuple[str, ...] = ()
    weapon: str = ""
    gauge: str = ""


class Declare(CommandBase, frozen=True, kw_only=True, tag="ua3_declare"):
    """U-22: declarations for the round. `close`: True closes them now (anyone able to act and
    not yet declared declares nothing) and sets the order; False keeps them open for others to
    declare; None (the default) closes them once everyone able to act has declared. (A session
    lets its NPCs declare first, the players after.)"""

    declarations: tuple[Declaration, ...] = ()
    close: bool | None = None


class Attack(CommandBase, frozen=True, kw_only=True, tag="ua3_attack"):
    """An attack on the actor's turn (U-3…U-6, U-9, U-11): one target, or two (U-6, the target
    halved for each). `mode`: a strike, a throw of something heavy (Fitness), a person thrown
    (Struggle −20), a disarm. `called`: a limb (−20) or head shot (−30, U-9); `limb`: what a
    limb shot that hits does, the shooter's choice (U-9: the opponent drops what it holds, or
    its movement is halved)."""

    actor: str
    targets: tuple[str, ...]
    weapon: str = ""
    mode: AttackMode = "strike"
    called: Called = ""
    limb: LimbEffect = "drop"
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None
    fists_miss: FistsMiss = "penalty"
    fists_crit: FistsCrit = "unconscious"
    passion: PassionKind | None = None
    passion_mode: PassionMode = "reroll"


class FullAuto(CommandBase, frozen=True, kw_only=True, tag="ua3_full_auto"):
    """U-7: one roll against one or two targets with a full-auto gun."""

    actor: str
    targets: tuple[str, ...]
    burst: Burst = "three_round"
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None


class Suppress(CommandBase, frozen=True, kw_only=True, tag="ua3_suppress"):
    """U-8: at least three bullets at a group (`targets`)."""

    actor: str
    targets: tuple[str, ...]
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None


class Aim(CommandBase, frozen=True, kw_only=True, tag="ua3_aim"):
    """U-9: a round spent aiming at `target`."""

    actor: str
    target: str


class Dodge(CommandBase, frozen=True, kw_only=True, tag="ua3_dodge"):
    """U-12: the dodger's turn (its dodge counted from its declaration, all round)."""

    actor: str


class Grapple(CommandBase, frozen=True, kw_only=True, tag="ua3_grapple"):
    """U-17: grab `target` (a new grapple, the grabber side A) or act in the grapple the actor
    is in: roll, or with advantage deal 1d10 wounds / disarm (the attacker), swap roles (the
    defender), shoot (a gun); in its end zone the attacker restrains or kills. `matched_failure`:
    the roller's choice should its roll be one, 1d10 wounds or −10 on its next roll (U-16;
    automated: the −10)."""

    actor: str
    target: str = ""
    move: GrappleMove = "roll"
    end: GrappleEnd = "restrain"
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None
    matched_failure: MatchedFailure | None = None


class Finish(CommandBase, frozen=True, kw_only=True, tag="ua3_finish"):
    """U-10: kill a helpless (unconscious, restrained or frozen) opponent."""

    actor: str
    target: str
    flipped: bool | None = None


class Ready(CommandBase, frozen=True, kw_only=True, tag="ua3_ready"):
    """Take a carried weapon in hand (fists: put it away); the turn's action."""

    actor: str
    weapon: str


class ClearJam(CommandBase, frozen=True, kw_only=True, tag="ua3_clear_jam"):
    """U-5: an action clears the jammed gun."""

    actor: str


class Flee(CommandBase, frozen=True, kw_only=True, tag="ua3_flee"):
    """The actor leaves the fight (U-22: no longer standing)."""

    actor: str


class Surrender(CommandBase, frozen=True, kw_only=True, tag="ua3_surrender"):
    """The actor gives up the fight (U-22: no longer standing)."""

    actor: str


class DoNothing(CommandBase, frozen=True, kw_only=True, tag="ua3_nothing"):
    """The actor does nothing this turn (U-22: the one thing a declaration may become)."""

    actor: str


class EndFight(CommandBase, frozen=True, kw_only=True, tag="ua3_end_fight"):
    """The GM ends the fight, naming the winning side (or none)."""

    winner: str | None = None
    reason: str = "the GM ends the fight"


COMBAT_COMMANDS: tuple[type[CommandBase], ...] = (
    BeginFight,
    Declare,
    Attack,
    FullAuto,
    Suppress,
    Aim,
    Dodge,
    Grapple,
    Finish,
    Ready,
    ClearJam,
    Flee,
    Surrender,
    DoNothing,
    EndFight,
)
