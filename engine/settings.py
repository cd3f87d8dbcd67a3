"""Every rules setting in one place (RULES.md decisions a GM may want otherwise).

Defaults are the RULES.md decisions; a scenario or session overrides any of them.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class SuppressionStep(msgspec.Struct, frozen=True, gc=False):
    """C2-18: from `shots` shots in the air a round, everyone in the field of fire takes `shift`."""

    shots: int
    shift: int


class Settings(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Ruleset settings (ua2 defaults). Named as in RULES.md."""

    #: C-10: passion uses per session, each passion.
    passion_uses_per_session: int = 1
    #: C2-31: (fraction of maximum, total shift) — at or below the fraction, the shift applies.
    wound_shift_thresholds: tuple[tuple[float, int], ...] = ((2 / 3, -10), (1 / 3, -20))
    #: C2-18: suppressive fire shift by total shots in the air this round.
    suppression_shift: tuple[SuppressionStep, ...] = (
        SuppressionStep(4, -10),
        SuppressionStep(10, -20),
        SuppressionStep(20, -30),
    )
    #: C2-33: a fight with no winner ends as a draw after this many rounds.
    max_rounds: int = 100
    #: C2-31: incapacitated at or below this many wound points; dead at or below `dead_at`.
    incapacitated_at: int = 5
    dead_at: int = 0
    #: M2-8: violence checks combat raises (rank; 0 turns the trigger off).
    violence_first_weapon_attack: int = 1
    violence_first_shot_at: int = 2
    violence_kill: int = 3
    violence_ally_killed: int = 2
    violence_kill_helpless: int = 7
    #: C2-22: the cherry automated attackers take when their tactics name none.
    default_cherry: str = "more_hurt"
    #: U-14 (ua3): the stress check target.
    stress_target: int = 50
    #: M2-4: the reaction to a failed madness check when neither the command (a person) nor the
    #: combatant's default names one. Freeze: the one reaction that needs no further choice
    #: (flee needs a way out, frenzy a source to attack).
    default_reaction: Literal["flee", "freeze", "frenzy"] = "freeze"
    #: C2-33: when true, a side whose every standing opponent is frozen stops and wins, sparing
    #: them; by default the fight goes on while that side can act against the helpless.
    spare_helpless: bool = False
