"""The ua3 rules settings, in one place (RULES.md section U decisions a GM may want otherwise).

Defaults are the RULES.md decisions; a scenario or session overrides any of them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Reaction = Literal["flee", "freeze", "frenzy"]


class Ua3Settings(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """ua3 settings, named as in RULES.md."""

    #: U-21 (as C-10): uses of each passion per session.
    passion_uses_per_session: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 1
    #: U-23: the reaction to a failed stress check when neither the command (a person) nor the
    #: combatant's default names one.
    default_reaction: Reaction = "freeze"
    #: U-24: hardened notches in all gauges together at which a character burns out.
    burnout_hardened: Annotated[int, msgspec.Meta(ge=1, le=45)] = 25
    #: U-16: exchanges each side rolls in a compressed conflict.
    compressed_exchanges: Annotated[int, msgspec.Meta(ge=1, le=100)] = 3
    #: U-2: the wound threshold of a character no identity sets one for.
    wound_threshold: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 50
    #: U-22 (as C2-33): the round limit; a fight reaching it is a draw.
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 100
    #: U-25: the rank of each combat-raised stress check (violence); 0 turns that check off.
    attacked_with_weapon_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 1
    shot_at_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
    kill_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 3
    #: U-10: finishing the helpless (Violence 7–8) and seeing it (Violence 3–4).
    finish_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 7
    witness_finish_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 3
    #: U-8: the Violence 2–4 check a suppressed combatant passes to act (U-23: the lower bound, 2).
    suppression_rank: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
