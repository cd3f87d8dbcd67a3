"""Tactics as data: an ordered list of rules, first match wins (scenario files declare them)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.commands.combat import CherryName

Selector = Literal["nearest", "weakest", "strongest", "random", "most_dangerous", "focusing_on_me", "helpless"]
ActionName = Literal[
    "attack",
    "dodge",
    "suppress",
    "draw",
    "clear_jam",
    "stand_up",
    "break_free",
    "squeeze",
    "flee",
    "surrender",
    "nothing",
]
Fraction01 = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class When(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Conditions over the state; every one given must hold (an empty `When` always holds)."""

    wounds_below: Fraction01 | None = None
    wounds_at_least: Fraction01 | None = None
    enemies_at_least: Annotated[int, msgspec.Meta(ge=0)] | None = None
    enemies_at_most: Annotated[int, msgspec.Meta(ge=0)] | None = None
    allies_down: bool | None = None
    armed: bool | None = None
    holding_weapon: str | None = None
    jammed: bool | None = None
    round_at_least: Annotated[int, msgspec.Meta(ge=0)] | None = None
    round_at_most: Annotated[int, msgspec.Meta(ge=0)] | None = None
    at_range: bool | None = None
    reaction: Literal["flee", "freeze", "frenzy", "none"] | None = None
    held: bool | None = None
    holding: bool | None = None
    prone: bool | None = None
    dodged_last_round: bool | None = None
    #: C2-33: standing enemies that are helpless (frozen, M2-7, or held, C2-27), at least this many.
    helpless_enemies_at_least: Annotated[int, msgspec.Meta(ge=0)] | None = None
    chance: Fraction01 | None = None


class TacticRule(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """`when` these conditions hold, `do` this action."""

    do: ActionName
    when: When = When()
    target: Selector = "nearest"
    focus: Literal[0, 10, 20, 30] = 0
    attacks: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    mode: Literal["strike", "disarm", "throw_person", "throw"] = "strike"
    weapon: str = ""
    shots: Annotated[int, msgspec.Meta(ge=4, le=200)] = 6
    cherry: CherryName | None = None
    keep_dodging: bool = True
    #: C2-33: never target a helpless enemy (frozen or held); the rule does not apply when only
    #: helpless ones are left.
    spare_helpless: bool = False


PRESETS: dict[str, tuple[TacticRule, ...]] = {
    # Fights on: clear a jam, draw the best weapon, hit the weakest enemy.
    "aggressive": (
        TacticRule(do="clear_jam", when=When(jammed=True)),
        TacticRule(do="stand_up", when=When(prone=True)),
        TacticRule(do="draw", when=When(armed=False)),
        TacticRule(do="attack", target="weakest"),
    ),
    # Dodges once hurt, otherwise takes on the most dangerous enemy.
    "cautious": (
        TacticRule(do="clear_jam", when=When(jammed=True)),
        TacticRule(do="stand_up", when=When(prone=True)),
        TacticRule(do="dodge", when=When(wounds_below=0.5)),
        TacticRule(do="draw", when=When(armed=False)),
        TacticRule(do="attack", target="most_dangerous"),
    ),
    # All in: focus +20 on the strongest enemy, never backs off.
    "berserker": (
        TacticRule(do="clear_jam", when=When(jammed=True)),
        TacticRule(do="draw", when=When(armed=False)),
        TacticRule(do="attack", target="strongest", focus=20),
    ),
    # Takes aim (+10) at the most dangerous enemy from range; clears jams at once.
    "sniper": (
        TacticRule(do="clear_jam", when=When(jammed=True)),
        TacticRule(do="draw", when=When(armed=False)),
        TacticRule(do="attack", target="most_dangerous", focus=10),
    ),
    # Runs once hurt or outnumbered; gives up when cornered and badly hurt.
    "coward": (
        TacticRule(do="surrender", when=When(wounds_below=0.34, held=True)),
        TacticRule(do="flee", when=When(wounds_below=0.75)),
        TacticRule(do="flee", when=When(enemies_at_least=2)),
        TacticRule(do="clear_jam", when=When(jammed=True)),
        TacticRule(do="attack", target="weakest"),
    ),
}


#: What each preset does, in one line (`ua tactics`, the README).
PRESET_NOTES: dict[str, str] = {
    "aggressive": "fights on: clears a jam, stands up, draws its best weapon, attacks the weakest enemy",
    "cautious": "dodges once below half its wound points, otherwise attacks the most dangerous enemy",
    "berserker": "all in: focus +20 on the strongest enemy every round, never backs off",
    "sniper": "takes aim (focus +10) at the most dangerous enemy; clears jams at once",
    "coward": "flees once hurt (below 75%) or outnumbered; surrenders when held and badly hurt",
}
