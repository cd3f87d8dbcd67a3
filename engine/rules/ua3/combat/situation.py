"""Who can do what in a ua3 fight: standing, helpless, the weapon in hand, the rating an action
uses (U-5, U-10, U-19, U-22), the grapple a combatant is in (U-17)."""

from __future__ import annotations

from engine.errors import Refused
from engine.rules.ua3.abilities import Option, best, for_ability, gauge_named
from engine.rules.ua3.people import best_coercion, coercing_options
from engine.rules.ua3.table import Arm, Row, Table
from engine.state.ua3.conflict import Conflict, SideKey

#: U-22: statuses that are out of the fight (not standing).
GONE = frozenset({"dead", "unconscious", "fled", "surrendered"})

#: U-23 (as M2-7): what a combatant in a frenzy may declare — an attack on its threat.
FRENZY = frozenset({"attack", "full_auto", "suppress", "grapple", "finish"})
#: U-8, U-23: the threat a suppressed combatant's failed check reacts to is the suppression itself.
SUPPRESSION = "'s suppressive fire"


def suppression_source(attacker: str) -> str:
    """The threat a reaction to `attacker`'s suppression keeps (U-8, U-23)."""
    return attacker + SUPPRESSION


def threat_of(source: str) -> str:
    """The combatant behind a reaction's threat: a suppression's suppressor, else the source."""
    return source[: -len(SUPPRESSION)] if source.endswith(SUPPRESSION) else source


def threat_gone(t: Table, row: Row, source: str) -> bool:
    """U-23 in a fight (Decision): a reaction lasts until its threat is gone — a combatant out of
    the fight, a suppression (U-8) that ended with this round or was laid over by another's."""
    if source.endswith(SUPPRESSION):
        suppressor = threat_of(source)
        holder = t.by_id.get(suppressor)
        return (
            holder is None
            or holder.status in GONE
            or row.suppressed_by != suppressor
            or t.round >= row.suppressed_until
        )
    threat = t.by_id.get(source)
    return threat is not None and threat.status in GONE


def standing(row: Row) -> bool:
    """U-22: not dead, unconscious, fled or surrendered."""
    return row.status == "active"


def present(row: Row) -> bool:
    """U-10, U-25: conscious and at the fight — standing, or surrendered (Decision: a fled one
    is gone and sees nothing); the stress checks a fight raises are for them."""
    return row.status == "active" or row.status == "surrendered"


def dead(row: Row) -> bool:
    """U-2 (a function: the rules ask again after the facts they emitted changed the row)."""
    return row.status == "dead"


def frozen(row: Row) -> bool:
    return row.reaction is not None and row.reaction.kind == "freeze"


def helpless(row: Row) -> bool:
    """U-10, U-22: unconscious, restrained or frozen — it can be finished."""
    return row.status == "unconscious" or (row.status == "active" and (bool(row.restrained_by) or frozen(row)))


def can_act(row: Row) -> bool:
    """Standing and neither frozen nor restrained (U-22, U-23, U-17)."""
    return row.status == "active" and not row.restrained_by and not frozen(row)


def combatant(t: Table, actor: str) -> Row:
    row = t.by_id.get(actor)
    if row is None:
        raise Refused(f"no combatant {actor!r} in this encounter", hint=f"combatants: {', '.join(t.by_id) or 'none'}")
    return row


def weapon_of(row: Row, name: str = "") -> Arm:
    """The weapon `name` (default: the one in hand) among what the combatant carries."""
    weapon = row.carried(name or row.in_hand)
    if weapon is not None:
        return weapon
    carried = ", ".join(["fists", *(w.name for w in row.weapons)])
    raise Refused(f"{row.id} carries no {name or row.in_hand}", hint=f"carried: {carried}")


def held(row: Row, name: str = "") -> Arm:
    """The weapon in hand (refused when `name` names another: ready it first)."""
    weapon = weapon_of(row, name)
    if weapon.name != "fists" and weapon.name != row.in_hand:
        raise Refused(f"the {weapon.name} is not in {row.id}'s hand", hint="ready it first (its own action)")
    return weapon


def ability(row: Row, name: str) -> Option:
    """U-1, U-18, U-19: the ability now, or the best identity standing in for it (remembered on
    the row for the gauges it was read from)."""
    ratings = row.ratings()
    found = ratings.get(name)
    if found is None:
        found = ratings[name] = best(for_ability(row.sheet, row.gauges, name))
    return found


def struggle(row: Row) -> Option:
    """U-1, U-19: Struggle, or the best identity standing in for it."""
    return ability(row, "struggle")


def firearms(row: Row) -> Option | None:
    """U-5, U-19: the best identity with the `firearms` feature, or None."""
    return row.sheet_facts().firearms


def gun_rating(row: Row, what: str) -> Option:
    found = firearms(row)
    if found is None:
        raise Refused(
            f"{row.id} has no identity that uses firearms and cannot {what}",
            hint="without one a gun only lays suppressive fire, with Struggle (U-5, U-8)",
        )
    return found


def grapple_of(t: Table, actor: str) -> Conflict | None:
    """The grapple (U-17) `actor` is in, if one is running (the table keeps them by grappler;
    most fights have none, and an empty dict needs no look-up)."""
    grappling = t.grappling
    return grappling.get(actor) if grappling else None


def grapple_side(t: Table, actor: str) -> tuple[SideKey, str]:
    """The side (`a`, the grabber, or `b`) a grappler holds in its running grapple (U-17), and
    its opponent there (the table keeps them by grappler, with the grapple)."""
    return t.grapplers[actor]


def action_rating(
    t: Table, row: Row, action: str, weapon: Arm, mode: str = "strike", gauge: str = "", target: str = ""
) -> Option | None:
    """U-22: the rating the declared action uses (an `initiative` identity replaces it, U-19);
    None for actions that roll nothing (they go last). A coercion of `target` on `gauge` rolls
    the best coercing rating (U-15), on the gauge where it is best when none is named."""
    own = row.sheet_facts().initiative_option
    if own is not None:
        return own
    if action in ("attack", "aim"):
        if mode == "throw":
            return ability(row, "fitness")
        if weapon.gun and mode == "strike":
            return gun_rating(row, "shoot")
        return struggle(row)
    if action == "full_auto":
        return gun_rating(row, "fire full auto")
    if action == "suppress":
        return firearms(row) or struggle(row)
    if action in ("grapple", "finish"):
        return struggle(row)
    if action == "dodge":
        return ability(row, "dodge")
    if action == "flee":
        return ability(row, "pursuit")
    if action == "coerce":  # U-15: the gauge's coercing rating, a `coerces` identity, a relationship
        other = t.by_id.get(target)
        named = gauge_named(gauge) if gauge else None
        return coercing_options(row, other, named)[1] if named else best_coercion(row, other)[1]
    return None
