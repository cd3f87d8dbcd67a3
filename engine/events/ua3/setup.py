"""A ua3 character joins an encounter (U-18, U-2)."""

from typing import ClassVar, Literal

from engine.events.base import EventBase
from engine.state.ua3.combat import NO_ARMOR, Armor, Ua3Weapon
from engine.state.ua3.sheet import GAUGES, Ua3Sheet


class CharacterJoined(EventBase, frozen=True, kw_only=True, tag="ua3_character_joined"):
    """A character joins on a side with its sheet: its gauges as the sheet states them (U-18),
    wounds counted up from the sheet's (U-2)."""

    id: str
    side: str
    sheet: Ua3Sheet
    reaction: Literal["flee", "freeze", "frenzy"] | None = None
    #: what it carries and holds, and its armor (U-4, U-5, U-13)
    weapons: tuple[Ua3Weapon, ...] = ()
    in_hand: str = "fists"
    armor: Armor = NO_ARMOR

    def explain(self) -> str:
        gauges = ", ".join(f"{g} {self.sheet.gauges.of(g).hardened}/{self.sheet.gauges.of(g).failed}" for g in GAUGES)
        wounds = f", {self.sheet.wounds} wounds already" if self.sheet.wounds else ""
        kit = ", ".join(w.name for w in self.weapons)
        held = f"; carries {kit}, {self.in_hand} in hand" if kit else ""
        armor = f"; armor: {self.armor.describe()}" if self.armor != NO_ARMOR else ""
        return f"{self.id} joins side {self.side} (gauges hardened/failed: {gauges}{wounds}{held}{armor}; U-18, U-2)."


#: What each starting condition is, as the log says it.
HELPLESS = {
    "restrained": "restrained (bound): standing, but it cannot act or dodge",
    "frozen": "frozen: standing, but it cannot act or dodge until the GM calls the threat gone",
    "unconscious": "unconscious: not standing",
}


class StartedHelpless(EventBase, frozen=True, kw_only=True, tag="ua3_started_helpless"):
    """`actor` starts the fight helpless (`condition`: restrained, unconscious or frozen)."""

    of_setup: ClassVar[bool] = True

    actor: str
    condition: Literal["restrained", "unconscious", "frozen"]

    def explain(self) -> str:
        return f"{self.actor} starts {HELPLESS[self.condition]}; helpless, it can be finished (C2-33, U-10, U-22)."
