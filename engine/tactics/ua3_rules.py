"""ua3 tactics as data (U-22's declared actions): an ordered list of rules, first match wins,
the presets scenario files name, and a scripted combatant's profile. (Plain data, kept apart
from `engine.tactics.ua3`, which turns it into commands and is compiled for batches.)"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.commands.ua3_combat import GrappleEnd, GrappleMove
from engine.state.ua3.combat import AttackMode, Burst, Called, LimbEffect
from engine.state.ua3.conflict import Demand
from engine.state.ua3.sheet import GaugeName

Ua3Action = Literal[
    "attack",
    "full_auto",
    "suppress",
    "aim",
    "dodge",
    "grapple",
    "finish",
    "coerce",
    "ready",
    "clear_jam",
    "flee",
    "surrender",
    "nothing",
]
Selector = Literal["nearest", "weakest", "strongest", "random", "most_dangerous", "helpless"]
Fraction01 = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Count = Annotated[int, msgspec.Meta(ge=0)]
#: U-2: the wound levels a condition may name.
WoundLevel = Literal["sore", "badly_beaten"]
LEVEL_PERCENT = {"sore": 50, "badly_beaten": 75}


class Ua3When(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Conditions over the table; every one given must hold (an empty one always holds)."""

    #: U-2: at least this wound level (sore: 50% of the threshold; badly beaten: 75%)
    wound_level: WoundLevel | None = None
    #: wounds as a fraction of the threshold
    wounds_at_least: Fraction01 | None = None
    wounds_below: Fraction01 | None = None
    enemies_at_least: Count | None = None
    enemies_at_most: Count | None = None
    allies_down: bool | None = None
    armed: bool | None = None
    holding_gun: bool | None = None
    jammed: bool | None = None
    round_at_least: Count | None = None
    round_at_most: Count | None = None
    reaction: Literal["flee", "freeze", "frenzy", "none"] | None = None
    #: U-17: in a grapple; with advantage in it
    grappled: bool | None = None
    grapple_advantage: bool | None = None
    #: U-8: suppressed this round
    suppressed: bool | None = None
    #: U-18: gauge notches (each given gauge at least this many)
    hardened_at_least: dict[GaugeName, Annotated[int, msgspec.Meta(ge=0, le=9)]] = {}
    failed_at_least: dict[GaugeName, Annotated[int, msgspec.Meta(ge=0, le=5)]] = {}
    #: U-10: enemies that are helpless (unconscious, restrained or frozen) and not believed dead
    helpless_enemies_at_least: Count | None = None
    chance: Fraction01 | None = None


class Ua3TacticRule(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """`when` these conditions hold, declare `do` at `target` (and carry it out with the
    options given)."""

    do: Ua3Action
    when: Ua3When = Ua3When()
    target: Selector = "nearest"
    #: U-6: an attack at two targets (the target halved for each)
    two_targets: bool = False
    weapon: str = ""
    mode: AttackMode = "strike"
    called: Called = ""
    #: U-9: what a limb shot does (the shooter's choice; automated: the drop)
    limb: LimbEffect = "drop"
    burst: Burst = "three_round"
    #: U-15: the gauge a coercion threatens (None: the one its best coercing rating works on,
    #: U-19, U-20), the threat, and what it demands in a fight (surrender unless another)
    gauge: GaugeName | None = None
    threat: str = ""
    demand: Demand = "surrender"
    #: U-17: the move with advantage (default, Decision: the attacker's 1d10 wounds; the
    #: defender rolls on; `shoot` falls back to the roll without a working gun in hand and a
    #: firearms identity) and what the attacker does in its end zone. A grappler always
    #: declares its grapple (U-17), with or without a rule naming it.
    grapple_move: GrappleMove | None = None
    grapple_end: GrappleEnd = "restrain"
    fists_crit: Literal["unconscious", "dead"] = "unconscious"
    #: never target a helpless enemy (the rule does not apply when only helpless ones are left)
    spare_helpless: bool = False


R = Ua3TacticRule
W = Ua3When

PRESETS: dict[str, tuple[Ua3TacticRule, ...]] = {
    # Fights on: clears a jam, readies its best weapon, hits the weakest enemy.
    "aggressive": (
        R(do="clear_jam", when=W(jammed=True)),
        R(do="grapple", when=W(grappled=True)),
        R(do="ready", when=W(armed=False)),
        R(do="attack", target="weakest", spare_helpless=True),
        R(do="attack", target="weakest"),
    ),
    # Dodges once badly beaten, otherwise takes on the most dangerous enemy.
    "cautious": (
        R(do="clear_jam", when=W(jammed=True)),
        R(do="grapple", when=W(grappled=True)),
        R(do="dodge", when=W(wound_level="badly_beaten")),
        R(do="ready", when=W(armed=False)),
        R(do="attack", target="most_dangerous"),
    ),
    # Grabs the weakest enemy and works it over on the gridiron (U-17), restraining it.
    "grappler": (
        R(do="grapple", when=W(grappled=True)),
        R(do="grapple", target="weakest", spare_helpless=True),
        R(do="attack", target="weakest"),
    ),
    # Sprays the enemy: full auto at two targets, suppressive fire when it cannot hit (U-7, U-8);
    # grappled, rolls to break free and shoots point-blank with advantage (U-17, U-5).
    "gunner": (
        R(do="grapple", when=W(grappled=True), grapple_move="shoot"),
        R(do="clear_jam", when=W(jammed=True)),
        R(do="ready", when=W(holding_gun=False)),
        R(do="full_auto", target="most_dangerous", two_targets=True, burst="three_round"),
        R(do="suppress", target="nearest"),
        R(do="attack", target="most_dangerous"),
    ),
    # Pins the enemy down with suppressive fire every round (U-8).
    "suppressor": (
        R(do="clear_jam", when=W(jammed=True)),
        R(do="suppress", target="nearest"),
    ),
    # Aims a round (U-9), then shoots the most dangerous enemy; grappled, as the gunner (U-17).
    "marksman": (
        R(do="grapple", when=W(grappled=True), grapple_move="shoot"),
        R(do="clear_jam", when=W(jammed=True)),
        R(do="ready", when=W(holding_gun=False)),
        R(do="attack", target="most_dangerous", when=W(round_at_least=2)),
        R(do="aim", target="most_dangerous"),
    ),
    # Talks first: a threat each round while the enemy stands, on the gauge its best coercing
    # rating works on (U-15, U-19), demanding surrender; then fights.
    "intimidator": (
        R(do="coerce", target="most_dangerous", threat="give it up or else", when=W(round_at_most=2)),
        R(do="clear_jam", when=W(jammed=True)),
        R(do="attack", target="most_dangerous"),
    ),
    # Finishes the helpless first (U-10), then fights on.
    "executioner": (
        R(do="clear_jam", when=W(jammed=True)),
        R(do="finish", target="helpless", when=W(helpless_enemies_at_least=1)),
        R(do="ready", when=W(armed=False)),
        R(do="attack", target="weakest"),
    ),
    # Runs once sore or outnumbered; gives up when grappled and badly beaten.
    "coward": (
        R(do="surrender", when=W(wound_level="badly_beaten", grappled=True)),
        R(do="grapple", when=W(grappled=True)),
        R(do="flee", when=W(wound_level="sore")),
        R(do="flee", when=W(enemies_at_least=2)),
        R(do="dodge"),
    ),
    # Never fights: dodges every round.
    "bystander": (R(do="dodge"),),
}

#: What each preset does, in one line (`ua tactics`, the README).
PRESET_NOTES: dict[str, str] = {
    "aggressive": "fights on: clears a jam, readies its best weapon, attacks the weakest enemy (the able first)",
    "cautious": "dodges once badly beaten (U-12), otherwise attacks the most dangerous enemy",
    "grappler": "grabs the weakest enemy and works it over on the gridiron (U-16, U-17)",
    "gunner": "full auto at two targets, suppressive fire when it cannot hit (U-7, U-8); grappled, shoots point-blank",
    "suppressor": "pins the nearest enemy down with suppressive fire every round (U-8)",
    "marksman": "aims a round (U-9), then shoots the most dangerous enemy; grappled, shoots point-blank",
    "intimidator": "threatens the most dangerous enemy for two rounds, demanding surrender (U-15), then fights",
    "executioner": "finishes the helpless first (U-10), then attacks the weakest enemy",
    "coward": "flees once sore or outnumbered, else dodges; surrenders when grappled and badly beaten",
    "bystander": "never fights: dodges every round (U-12)",
}


class Ua3Profile(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A scripted combatant: its rules, and how it answers a coercion (U-15; auto: refuse when
    the check could not touch it, else acquiesce)."""

    rules: tuple[Ua3TacticRule, ...]
    coerced: Literal["auto", "acquiesce", "refuse"] = "auto"
