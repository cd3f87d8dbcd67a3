"""Third edition (`ua3`) commands: characters join, ability checks, stress checks, coercion and
the gridiron (U-1, U-15, U-16, U-19…U-24)."""

from typing import Literal

import msgspec

from engine.commands.base import CommandBase, JoinCommand
from engine.dice.checks import Kind, Shift
from engine.state.ua3.combat import NO_ARMOR, Armor, Ua3Weapon
from engine.state.ua3.conflict import Demand, Space
from engine.state.ua3.sheet import PassionKind, PassionMode, Ua3Sheet

Reaction = Literal["flee", "freeze", "frenzy"]
Answer = Literal["acquiesce", "refuse"]
#: U-16: what a matched failure on the gridiron costs the roller (automated: the penalty).
MatchedFailure = Literal["penalty", "wounds"]


class AddCharacter(JoinCommand, frozen=True, kw_only=True, tag="ua3_add_character"):
    """A ua3 character joins on a side; `reaction` is its default should a stress check fail."""

    sheet: Ua3Sheet
    reaction: Reaction | None = None
    #: what it carries and holds, and its armor (U-4, U-5, U-13)
    weapons: tuple[Ua3Weapon, ...] = ()
    in_hand: str = ""
    armor: Armor = NO_ARMOR


#: A scenario's helpless start (C2-33, U-10, U-22): bound, out cold, or frozen with fear.
StartingCondition = Literal["restrained", "unconscious", "frozen"]


class StartHelpless(CommandBase, frozen=True, kw_only=True, tag="ua3_start_helpless"):
    """Before the fight, `actor` is helpless: restrained (a bound prisoner) or frozen — standing
    but unable to act or dodge — or unconscious (not standing); it can be finished (U-10)."""

    actor: str
    condition: StartingCondition


class AbilityCheck(CommandBase, frozen=True, kw_only=True, tag="ua3_check"):
    """U-1: roll what `name` names — an ability (or the best identity standing in for it, U-19),
    an identity, or a relationship's person (U-20). `flipped` is a person's stated orientation
    of an obsession roll (C-9, C-11)."""

    actor: str
    name: str
    kind: Kind = "major"
    shifts: tuple[Shift, ...] = ()
    minimum: int | None = None
    flipped: bool | None = None
    purpose: str = ""
    roll_anyway: bool = False


class StressCheck(CommandBase, frozen=True, kw_only=True, tag="ua3_stress_check"):
    """U-23: a stress check on `gauge` of `rank` 1–10 — or one of the seed's sample checks named
    by its text (`sample`, "violence: kill someone in a fight"), whose rank is its range's lower
    bound unless `rank` names one within it.

    `roll_with` names the rating to resist with (default: the best that applies); `involves` the
    people involved, whose relationships then apply; `source` is the threat a reaction lasts
    until; `reaction` the person's choice should the check fail (else the character's default,
    else the setting)."""

    actor: str
    gauge: str = ""
    rank: int | None = None
    sample: str = ""
    source: str = ""
    roll_with: str = ""
    involves: tuple[str, ...] = ()
    shifts: tuple[Shift, ...] = ()
    reaction: Reaction | None = None
    flipped: bool | None = None
    #: U-21: a passion in play, spent if the roll fails: reroll or flip-flop
    passion: PassionKind | None = None
    passion_mode: PassionMode = "reroll"


class Coerce(CommandBase, frozen=True, kw_only=True, tag="ua3_coerce"):
    """U-15: `coercer` makes a credible threat (`threat`) against `target` on `gauge` and rolls
    the gauge's coercing rating, a `coerces` identity, or a relationship with the target (the
    best, unless `roll_with` names one). Passions in play add to the rank. With `answer` the
    target's choice is made at once; without, it waits for `AnswerCoercion`. In a fight the
    threat demands `demand` (U-15 Decision: surrender unless it names another), which a target
    that acquiesces does."""

    coercer: str
    target: str
    gauge: str
    threat: str = ""
    demand: Demand = "surrender"
    roll_with: str = ""
    coercer_passions: tuple[PassionKind, ...] = ()
    target_passions: tuple[PassionKind, ...] = ()
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None
    answer: Answer | None = None
    #: the refused stress check's reaction, should it fail (as `StressCheck.reaction`)
    reaction: Reaction | None = None


class AnswerCoercion(CommandBase, frozen=True, kw_only=True, tag="ua3_answer_coercion"):
    """U-15 (3): the convinced `target` acquiesces, or refuses and takes the stress check (the
    other fields as `StressCheck`'s)."""

    target: str
    answer: Answer
    roll_with: str = ""
    shifts: tuple[Shift, ...] = ()
    reaction: Reaction | None = None
    flipped: bool | None = None
    passion: PassionKind | None = None
    passion_mode: PassionMode = "reroll"


class SideSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One side of a conflict: a combatant (`actor`) rolling `roll` (an ability, identity or
    relationship; its rating is read at each roll), or a `name` with a fixed `rating`."""

    stake: str
    actor: str = ""
    roll: str = ""
    name: str = ""
    rating: int | None = None


class StartConflict(CommandBase, frozen=True, kw_only=True, tag="ua3_start_conflict"):
    """U-16: a conflict on the gridiron between side A and side B, starting at `start`;
    compressed (`exchanges` each, default the setting) or open-ended. `first` names the side
    that rolls first (default: U-22 order, the higher rating)."""

    sides: tuple[SideSpec, SideSpec]
    id: str = ""
    about: str = ""
    start: Space = "balance"
    compressed: bool = False
    exchanges: int | None = None
    first: Literal["a", "b"] | None = None


class GridironRoll(CommandBase, frozen=True, kw_only=True, tag="ua3_gridiron_roll"):
    """U-16: the next roll of a conflict (the side whose turn it is; `side` may say which, to be
    sure). `matched_failure` is the roller's choice should it be one (automated: the penalty)."""

    conflict: str = ""
    side: Literal["a", "b"] | None = None
    shifts: tuple[Shift, ...] = ()
    flipped: bool | None = None
    matched_failure: MatchedFailure | None = None
    passion: PassionKind | None = None
    passion_mode: PassionMode = "reroll"


class EndConflict(CommandBase, frozen=True, kw_only=True, tag="ua3_end_conflict"):
    """U-16: the GM ends a conflict, naming the winner (or none) and why."""

    conflict: str = ""
    winner: Literal["a", "b"] | None = None
    reason: str = "the GM ends the conflict"


class SpendPassion(CommandBase, frozen=True, kw_only=True, tag="ua3_spend_passion"):
    """U-21 (as C-10): a passion in play rerolls or flip-flops the actor's most recent failed
    check (one whose consequences wait on nothing: an ability check)."""

    actor: str
    passion: PassionKind
    mode: PassionMode = "reroll"
    flipped: bool | None = None


class ThreatGone(CommandBase, frozen=True, kw_only=True, tag="ua3_threat_gone"):
    """U-23: `source` is gone, so reactions kept for it end — `actor`'s only, or everyone's."""

    source: str
    actor: str = ""
