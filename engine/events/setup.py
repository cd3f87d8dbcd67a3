"""Events that set an encounter up and record GM rulings."""

from typing import Any, ClassVar, Literal

import msgspec

from engine.events.base import EventBase
from engine.state.sheet import Sheet
from engine.state.weapons import Weapon


class EncounterStarted(EventBase, frozen=True, kw_only=True, tag="encounter_started"):
    """The first event of every encounter stream. v2 added `scenario` (v1 logs upcast to "")."""

    schema_version: ClassVar[int] = 2

    ruleset: str
    title: str = ""
    seed: int | None = None
    #: the ruleset's settings as a document (each ruleset reads it into its own struct; fields
    #: left out take its defaults)
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    #: the scenario file it was set up from (tactics for what-if runs), if any.
    scenario: str = ""

    def explain(self) -> str:
        seed = f", seed {self.seed}" if self.seed is not None else ", dice from the table"
        return f"Encounter {self.title or 'started'} ({self.ruleset}{seed})."


class CombatantJoined(EventBase, frozen=True, kw_only=True, tag="combatant_joined"):
    """A character joins on a side with its sheet (S2-6: wound points from Body unless given)."""

    id: str
    side: str
    sheet: Sheet
    arsenal: tuple[Weapon, ...] = ()
    in_hand: str = "fists"
    ambusher: bool = False
    reaction: Literal["flee", "freeze", "frenzy"] | None = None

    def explain(self) -> str:
        s = self.sheet
        armed = f", {self.in_hand} in hand" if self.in_hand != "fists" else ""
        ambush = ", ambushing" if self.ambusher else ""
        return (
            f"{self.id} joins side {self.side}{armed}{ambush} "
            f"({s.current_wounds}/{s.max_wounds} wound points, "
            f"Body {s.stats.body}, Speed {s.stats.speed}, Mind {s.stats.mind}, "
            f"Soul {s.stats.soul}; S2-6)."
        )


class StartedHelpless(EventBase, frozen=True, kw_only=True, tag="started_helpless"):
    """`actor` starts the fight helpless (C2-33): bound, unconscious or frozen (M2-7)."""

    of_setup: ClassVar[bool] = True

    actor: str
    condition: Literal["restrained", "unconscious", "frozen"]

    def explain(self) -> str:
        how = {
            "restrained": "bound: standing, but it cannot act or dodge",
            "frozen": "frozen (M2-7): standing, but it cannot act or dodge until its source is gone",
            "unconscious": "unconscious: not standing",
        }[self.condition]
        return f"{self.actor} starts {how}; killing it is killing the helpless (C2-33, M2-8)."


class GmRuling(EventBase, frozen=True, kw_only=True, tag="gm_ruling"):
    """A ruling of taste the seeds leave to the GM, applied as stated (RULES: left to the GM)."""

    note: str
    about: str = ""

    def explain(self) -> str:
        who = f" about {self.about}" if self.about else ""
        return f"GM ruling{who}: {self.note}"
