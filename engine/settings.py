"""Every rules setting in one place (RULES.md decisions a GM may want otherwise).

Defaults are the RULES.md decisions; a scenario or session overrides any of them. Ranges are
msgspec constraints, checked wherever settings are read from a file or a log (with the `$.path`
of a bad value); what spans several values is checked in `__post_init__`, whose messages start
with the field they are about (`engine.scenario.files` adds it to the `$.path`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

#: C2-22: the cherries an attacker may take on a matched success.
CherryName = Literal[
    "big_hurt",
    "blind",
    "dazed",
    "gimme",
    "kung_fu_grip",
    "monkey_dodge",
    "knock_down",
    "more_hurt",
    "new_damage",
    "second_helping",
    "turning_tide",
]
#: C2-33: the most rounds a fight may last (a bound on every fight's work).
MAX_ROUNDS = 10_000

#: A negative shift (C2-2): what wounds and suppressive fire take off a roll.
Penalty = Annotated[int, msgspec.Meta(ge=-100, le=0)]
#: A fraction of maximum wound points, above 0 and at most 1 (NaN and infinities are not).
Fraction = Annotated[float, msgspec.Meta(gt=0, le=1)]
#: M2-1: a madness check's rank 1–10, or 0 for no check.
TriggerRank = Annotated[int, msgspec.Meta(ge=0, le=10)]
#: Wound points (a sheet's range, S2-6).
WoundLine = Annotated[int, msgspec.Meta(ge=-200, le=99)]


class SuppressionStep(msgspec.Struct, frozen=True, gc=False):
    """C2-18: from `shots` shots in the air a round, everyone in the field of fire takes `shift`."""

    shots: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    shift: Penalty


class Settings(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Ruleset settings (ua2 defaults). Named as in RULES.md."""

    #: C-10: passion uses per session, each passion.
    passion_uses_per_session: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 1
    #: C2-31: (fraction of maximum, total shift) — at or below the fraction, the shift applies.
    wound_shift_thresholds: tuple[tuple[Fraction, Penalty], ...] = ((2 / 3, -10), (1 / 3, -20))
    #: C2-18: suppressive fire shift by total shots in the air this round (shots ascending).
    suppression_shift: tuple[SuppressionStep, ...] = (
        SuppressionStep(4, -10),
        SuppressionStep(10, -20),
        SuppressionStep(20, -30),
    )
    #: C2-33: a fight with no winner ends as a draw after this many rounds.
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)] = 100
    #: C2-31: incapacitated at or below this many wound points; dead at or below `dead_at`.
    incapacitated_at: WoundLine = 5
    dead_at: WoundLine = 0
    #: M2-8: violence checks combat raises (rank; 0 turns the trigger off).
    violence_first_weapon_attack: TriggerRank = 1
    violence_first_shot_at: TriggerRank = 2
    violence_kill: TriggerRank = 3
    violence_ally_killed: TriggerRank = 2
    violence_kill_helpless: TriggerRank = 7
    #: C2-22: the cherry automated attackers take when their tactics name none.
    default_cherry: CherryName = "more_hurt"
    #: Read by no rule: the stress check target of the old U-14, which U-23 replaced (ua3 checks
    #: roll a gauge's ability against a rank). Kept so that stored logs that carry it still read.
    stress_target: Annotated[int, msgspec.Meta(ge=1, le=99)] = 50
    #: M2-4: the reaction to a failed madness check when neither the command (a person) nor the
    #: combatant's default names one. Freeze: the one reaction that needs no further choice
    #: (flee needs a way out, frenzy a source to attack).
    default_reaction: Literal["flee", "freeze", "frenzy"] = "freeze"
    #: C2-33: when true, a side whose every standing opponent is frozen stops and wins, sparing
    #: them; by default the fight goes on while that side can act against the helpless.
    spare_helpless: bool = False

    def __post_init__(self) -> None:
        shots = [step.shots for step in self.suppression_shift]
        for i in range(1, len(shots)):
            if shots[i] <= shots[i - 1]:
                raise ValueError(
                    f"suppression_shift[{i}].shots: steps go up in shots ({shots[i - 1]}, then {shots[i]}) (C2-18)"
                )
        if self.incapacitated_at <= self.dead_at:
            raise ValueError(
                f"incapacitated_at: {self.incapacitated_at} must be above dead_at ({self.dead_at}) (C2-31)"
            )
