"""A ua3 character joins an encounter (U-18, U-2)."""

from typing import Literal

from engine.events.base import EventBase
from engine.state.ua3.sheet import GAUGES, Ua3Sheet


class CharacterJoined(EventBase, frozen=True, kw_only=True, tag="ua3_character_joined"):
    """A character joins on a side with its sheet: its gauges as the sheet states them (U-18),
    wounds counted up from the sheet's (U-2)."""

    id: str
    side: str
    sheet: Ua3Sheet
    reaction: Literal["flee", "freeze", "frenzy"] | None = None

    def explain(self) -> str:
        gauges = ", ".join(f"{g} {self.sheet.gauges.of(g).hardened}/{self.sheet.gauges.of(g).failed}" for g in GAUGES)
        wounds = f", {self.sheet.wounds} wounds already" if self.sheet.wounds else ""
        return f"{self.id} joins side {self.side} (gauges hardened/failed: {gauges}{wounds}; U-18, U-2)."
