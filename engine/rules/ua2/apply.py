"""What each fact does to the working table: one small function per event type, no dice, no
judgement (DESIGN: reducers). The rules apply every event they decide through these, and folding
a stored log applies the same ones, so "what a fact does" is written once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from engine.dice.checks import CheckResult
from engine.events import EventBase
from engine.events import combat as ev
from engine.events.checks import CheckRolled
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.healing import Convalesced, InjuryTreated
from engine.events.madness import (
    ROLLED,
    MadnessCheckResolved,
    NeurosisMarked,
    NotchMarked,
    PassionSpent,
    ReactionEnded,
    ReactionTaken,
    TherapyGiven,
)
from engine.events.ruling import CONDITION_SHIFTS, RULED_SOURCE, ConditionRuled, RulingHealed
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling, StartedHelpless
from engine.rules.settings import read_settings
from engine.rules.ua2.table import NO_SUPPRESSION, Row, Table
from engine.settings import Settings
from engine.state.encounter import Combatant, Injury, Reaction, ReactionState
from engine.state.fight import Condition, Fighter, FightResult, Focus, Initiative, Suppression
from engine.state.sheet import MAX_FAILED, MAX_HARDENED, METER_AT, Meter, MeterName, Meters
from engine.state.weapons import FISTS

replace: Final = msgspec.structs.replace
astuple: Final = msgspec.structs.astuple
Applier = Callable[[Table, Any], None]


# -- setup, rulings, checks ----------------------------------------------------------------------


def _started(t: Table, e: EncounterStarted) -> None:
    t.ruleset, t.title, t.seed, t.scenario = e.ruleset, e.title, e.seed, e.scenario
    t.settings = read_settings(e.settings, Settings)


def _joined(t: Table, e: CombatantJoined) -> None:
    sheet = e.sheet
    combatant = Combatant(
        id=e.id, side=e.side, sheet=sheet, wounds=sheet.current_wounds, max_wounds=sheet.max_wounds, meters=sheet.meters
    )
    fighter = Fighter(
        id=e.id,
        arsenal=(FISTS, *(w for w in e.arsenal if w.name != FISTS.name)),
        in_hand=e.in_hand,
        ambusher=e.ambusher,
        default_reaction=e.reaction,
    )
    row = Row.thaw(combatant, fighter)
    if row.wounds < row.max_wounds:  # wounds from before: one injury, so time can heal it (H2-5)
        earlier = Injury(id=t.next_injury_id, amount=row.max_wounds - row.wounds, source="wounds before the encounter")
        row.injuries = (earlier,)
        t.next_injury_id += 1
    t.add(row)


#: A frozen start's source: none in the fight, so it lasts until the GM calms it (M2-4).
FROZEN_START = ReactionState(kind="freeze", source="", meter="helplessness")


def _started_helpless(t: Table, e: StartedHelpless) -> None:
    row = t.by_id[e.actor]
    if e.condition == "unconscious":
        row.status = "unconscious"
    elif e.condition == "restrained":
        row.bound = True
    else:
        row.reaction = FROZEN_START


def _nothing(t: Table, e: EventBase) -> None:
    """Facts that change nothing the rules read (a ruling, a tie's dice, a command's record)."""


def _check(t: Table, e: CheckRolled) -> None:
    row = t.by_id.get(e.actor) if e.actor else None
    if row is not None:
        check_rolled(row, e.result)


def check_rolled(row: Row, result: CheckResult) -> None:
    """C-10: the row's most recent check, for a passion to reroll or flip."""
    row.last_check = result


# -- madness and passions (M2-*, C-10) -----------------------------------------------------------


def _resolved(t: Table, e: MadnessCheckResolved) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        madness_resolved(row, e.outcome)


def madness_resolved(row: Row, outcome: str) -> None:
    """A rolled Mind check's notches are marked at once, so no passion can reroll it (C-10)."""
    if outcome in ROLLED:  # MadnessCheckResolved.rolled (a compiled build calls no property)
        row.last_check = None


def _meter(t: Table, actor: str, meter: str, change: Callable[[Meter], Meter]) -> None:
    row = t.by_id.get(actor)
    if row is not None:
        fields, at = astuple(row.meters), METER_AT[meter]
        row.meters = meters_with(fields, at, change(fields[at]))


def meters_with(fields: tuple[Any, ...], at: int, meter: Meter) -> Meters:
    """Meters from `fields` (`astuple(meters)`) with the one at `at` (`METER_AT`) replaced:
    Meters.of and with_meter, compiled (they are interpreted methods), with one constructor call
    (not `replace(**{field: …})`: a dict and a call by keywords each time)."""
    new = list(fields)
    new[at] = meter
    violence, unnatural, helplessness, isolation, self_ = new
    return Meters(violence=violence, unnatural=unnatural, helplessness=helplessness, isolation=isolation, self_=self_)


def _notch(t: Table, e: NotchMarked) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        notch_marked(row, e.meter, e.kind)


def notch_marked(row: Row, meter: str, kind: str) -> None:
    """M2-4: one more hardened (at most 10) or failed (at most 5) notch on the row's meter."""
    fields, at = astuple(row.meters), METER_AT[meter]
    held: Meter = fields[at]
    if kind == "hardened":
        held = replace(held, hardened=min(MAX_HARDENED, held.hardened + 1))
    else:
        held = replace(held, failed=min(MAX_FAILED, held.failed + 1))
    row.meters = meters_with(fields, at, held)


def _neurosis(t: Table, e: NeurosisMarked) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        neurosis_marked(row, e.meter)


def neurosis_marked(row: Row, meter: str) -> None:
    """M2-5: a neurosis on the row's meter."""
    fields, at = astuple(row.meters), METER_AT[meter]
    row.meters = meters_with(fields, at, replace(fields[at], neurosis=True))


def _therapy(t: Table, e: TherapyGiven) -> None:
    def treat(m: Meter) -> Meter:
        return replace(m, hardened=max(0, m.hardened - e.hardened_removed), failed=max(0, m.failed - e.failed_removed))

    _meter(t, e.actor, e.meter, treat)


def _reaction(t: Table, e: ReactionTaken) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        reaction_taken(row, e.reaction, e.source, e.meter)


def reaction_taken(row: Row, kind: Reaction, source: str, meter: MeterName) -> None:
    """M2-4: the row reacts (flee, freeze, frenzy) until `source` is gone."""
    row.reaction = ReactionState(kind=kind, source=source, meter=meter)


def _reaction_ended(t: Table, e: ReactionEnded) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        reaction_ended(row)


def reaction_ended(row: Row) -> None:
    """M2-4: the row's reaction is over (its source is gone)."""
    row.reaction = None


def _passion(t: Table, e: PassionSpent) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        passion_spent(row, e.passion, e.after)


def passion_spent(row: Row, passion: str, after: CheckResult) -> None:
    """C-10: the passion is spent; the changed roll is the row's most recent check."""
    row.passions_spent = (*row.passions_spent, passion)
    row.last_check = after


# -- combat (I2, C2) -----------------------------------------------------------------------------


def wound(t: Table, target: str, amount: int, source: str, injury_id: int, round_: int) -> None:
    """C2-32: a new injury of `amount` on `target`; wound points drop by it."""
    row = t.by_id.get(target)
    if row is not None:
        wound_row(t, row, amount, source, injury_id, round_)


def wound_row(t: Table, row: Row, amount: int, source: str, injury_id: int, round_: int) -> None:
    """`wound` on the target's row."""
    row.wounds -= amount
    row.injuries = (*row.injuries, Injury(id=injury_id, amount=amount, source=source, round=round_))
    if injury_id + 1 > t.next_injury_id:
        t.next_injury_id = injury_id + 1


def credit(t: Table, by: str | None, target: str, amount: int) -> None:
    """Wounds dealt, as a batch counts them: to `by`, unless it hurt itself."""
    if by is not None and by != target:
        t.by_id[by].dealt += amount


def heal(row: Row, healed: tuple[tuple[int, int], ...]) -> None:
    """Heal (injury id, points) pairs; wound points rise by the total, never above the maximum."""
    by_id = dict(healed)
    row.injuries = tuple(replace(i, healed=i.healed + by_id[i.id]) if i.id in by_id else i for i in row.injuries)
    row.wounds = min(row.max_wounds, row.wounds + sum(by_id.values()))


def _initiative(t: Table, e: ev.InitiativeSet) -> None:
    row = t.by_id[e.id]
    row.initiative = Initiative(method=e.method, value=e.value, success=e.success, rank=float(e.value), roll=e.roll)
    row.reinitiative = None


def _order(t: Table, e: ev.OrderSet) -> None:
    for fighter_id, rank in zip(e.order, e.ranks, strict=True):
        row = t.by_id.get(fighter_id)
        if row is not None and row.initiative is not None:
            row.initiative = replace(row.initiative, rank=rank)
    t.order = e.order


def _ambush(t: Table, e: ev.AmbushStarted) -> None:
    t.phase, t.round, t.order, t.turn = "ambush", 0, e.order, 0


def round_started(t: Table, round_: int, order: tuple[str, ...]) -> None:
    """A new round: last round's dodges, focus, attacks and fire are over (C2-4, C2-16, C2-18)."""
    t.phase, t.round, t.order, t.turn, t.suppression = "declare", round_, order, 0, NO_SUPPRESSION
    for row in t.rows:
        row.dodged_last_round = row.dodging
        row.dodging = row.continued_dodge = row.extra_attack = False
        row.focus = None
        row.attacks_this_round = 0
        row.suppressed_last_round = row.suppressing
        row.suppressing = 0


def _release(t: Table, holder: str, target: str) -> None:
    for fid, field in ((holder, "holding"), (target, "held_by")):
        row = t.by_id.get(fid)
        if row is not None:
            setattr(row, field, "")


def _declared(t: Table, e: ev.Declared) -> None:
    # every field in one call (a compiled build reads a struct's fields one by one, slowly)
    _, fid, focus_target, focus, continue_dodge, release_hold, continue_suppression, replaces = astuple(e)
    declared(t, fid, focus_target, focus, continue_dodge, release_hold, continue_suppression, replaces is True)


def declared(
    t: Table,
    fid: str,
    focus_target: str,
    focus: int,
    continue_dodge: bool,
    release_hold: bool,
    continue_suppression: int,
    replaces: bool,
) -> None:
    """C2-4: one combatant's declaration for the round (`ev.Declared`'s fields)."""
    row = t.by_id[fid]
    holding = row.holding
    if replaces:  # the earlier declaration this round ends (C2-4)
        row.focus = None
        if row.continued_dodge:
            row.dodging = row.continued_dodge = False
    if focus:
        row.focus = Focus(target=focus_target, amount=focus)
    if continue_dodge:
        row.dodging = row.continued_dodge = True
    if continue_suppression:
        row.suppressing = continue_suppression
    if release_hold and holding:
        _release(t, fid, holding)
    if continue_suppression:
        s = t.suppression
        field = tuple(dict.fromkeys((*s.field, *row.suppress_field)))
        t.suppression = Suppression(shots=s.shots + continue_suppression, field=field)


def turn_started(t: Table, fighter: str, round_: int, turn: int) -> None:
    if t.phase != "ambush":
        t.phase = "acting"
    t.turn = turn
    # The fighter has its turn this round: it gets no second one if the order changes (I2-6).
    t.by_id[fighter].acted_round = round_


def turn_skipped(t: Table, fighter: str) -> None:
    """The fighter loses its turn this round (it counts as had)."""
    t.by_id[fighter].acted_round = t.round


TRIGGER_OF_KIND: Final = {"firearm": "shot_at", "melee": "attacked_with_weapon"}


def trigger_of(kind: str, outcome: str) -> str:
    """M2-8: what an attack with a weapon of that kind marks its target as, the first time
    ("": nothing) — not a shot that jams the gun (C2-11's fumble): it never leaves the gun."""
    if kind == "firearm" and outcome == "fumble":
        return ""
    return TRIGGER_OF_KIND.get(kind, "")


def attack_on(
    t: Table,
    attacker: Row,
    target: Row | None,
    weapon: str,
    kind: str,
    outcome: str,
    part: int,
    round_: int,
    hit: int,
    injury: int,
) -> None:
    """One attack roll made (C2-8 counts it), on the rows of the attacker and its target (None:
    not a combatant): the target marked as attacked with a weapon of that kind (M2-8,
    `trigger_of` the roll's `outcome`); `hit` wounds dealt to it as injury `injury` (none: 0)."""
    attacker.attacks_this_round += 1
    attacker.acted_round = t.round
    # a new attack uses up a Second Helping; later parts of one divided attack do not (C2-30)
    attacker.extra_attack = attacker.extra_attack and part > 1
    trigger = trigger_of(kind, outcome)
    if trigger and target is not None and trigger not in target.triggered:
        target.triggered = (*target.triggered, trigger)
    if hit:
        if target is not None:
            wound_row(t, target, hit, f"{attacker.id}'s {weapon}", injury, round_)
        if target is not attacker:  # wounds dealt, as a batch counts them (`credit`)
            attacker.dealt += hit


def _attack(t: Table, e: ev.AttackResolved) -> None:
    amount, injury = (e.hit.amount, e.hit.injury_id) if e.hit is not None else (0, 0)
    attacker, target = t.by_id[e.attacker], t.by_id.get(e.target)
    attack_on(t, attacker, target, e.weapon, e.weapon_kind, e.result.outcome, e.part, e.round, amount, injury)


def _wounds(t: Table, e: ev.WoundsInflicted) -> None:
    credit(t, t.current, e.target, e.amount)
    wound(t, e.target, e.amount, e.source, e.injury_id, t.round)


def _status(t: Table, e: ev.StatusChanged) -> None:
    row = t.by_id.get(e.id)
    if row is not None:
        status_changed(t, row, e.status)


def status_changed(t: Table, row: Row, status: ev.StatusName) -> None:
    """The row's status; one out of the fight lets go of a grip, is let go, dodges no more."""
    row.status = status
    if status == "active":
        return
    if row.holding:
        _release(t, row.id, row.holding)
    if row.held_by:
        _release(t, row.held_by, row.id)
    row.dodging = row.continued_dodge = False


def _permanent(t: Table, e: ev.PermanentDamage) -> None:
    row = t.by_id.get(e.id)
    if row is not None:
        made_permanent(row, e.injury_id)


def made_permanent(row: Row, injury_id: int) -> None:
    """C2-32: the injury is permanent damage."""
    row.injuries = tuple(replace(i, permanent=True) if i.id == injury_id else i for i in row.injuries)


def _drawn(t: Table, e: ev.WeaponDrawn) -> None:
    row = t.by_id[e.id]
    row.in_hand, row.drawn_round, row.acted_round = e.weapon, e.round, t.round
    row.rearm()


def _jammed(t: Table, e: ev.WeaponJammed) -> None:
    row = t.by_id[e.id]
    row.jammed = (*row.jammed, e.weapon)


def _cleared(t: Table, e: ev.JamCleared) -> None:
    row = t.by_id[e.id]
    row.jammed = tuple(w for w in row.jammed if w != e.weapon)
    row.acted_round = t.round


def _lost(t: Table, e: ev.WeaponLost) -> None:
    loser = t.by_id[e.id]
    weapon = loser.weapon(e.weapon)
    loser.arsenal = tuple(w for w in loser.arsenal if w.name != e.weapon)
    if loser.in_hand == e.weapon:
        loser.in_hand = "fists"
    loser.rearm()
    if e.taken_by and weapon is not None:
        taker = t.by_id[e.taken_by]
        taker.arsenal = (*taker.arsenal, weapon)
        taker.in_hand = weapon.name
        taker.rearm()


def _condition(t: Table, e: ev.ConditionApplied) -> None:
    row = t.by_id[e.id]
    row.conditions = (*row.conditions, e.condition)


def _cherry(t: Table, e: ev.CherryTaken) -> None:
    if e.cherry == "turning_tide":
        t.by_id[e.target].no_match_benefits = True
    elif e.cherry == "monkey_dodge":
        attacker = t.by_id[e.attacker]
        attacker.monkey_dodge, attacker.monkey_redirect = True, e.redirect_to
    elif e.cherry == "second_helping":
        t.by_id[e.attacker].extra_attack = True


def _knocked_down(t: Table, e: ev.KnockedDown) -> None:
    row = t.by_id[e.id]
    if row.initiative is not None:
        row.initiative = replace(row.initiative, rank=e.rank, success=False)
    row.prone = True
    t.order = e.order
    if e.turn is not None:
        t.turn = e.turn


def _stood(t: Table, e: ev.StoodUp) -> None:
    row = t.by_id[e.id]
    row.prone, row.acted_round = False, t.round


def _grip(t: Table, e: ev.GripTaken) -> None:
    t.by_id[e.holder].holding = e.target
    t.by_id[e.target].held_by = e.holder


def _released(t: Table, e: ev.GripReleased) -> None:
    _release(t, e.holder, e.target)


def _dodge(t: Table, e: ev.DodgeDeclared) -> None:
    row = t.by_id[e.id]
    row.dodging, row.acted_round = True, t.round


def _monkey(t: Table, e: ev.MonkeyDodged) -> None:
    protected = t.by_id[e.protected]
    protected.monkey_dodge, protected.monkey_redirect = False, ""
    if not e.redirected_to:  # the attack hit nothing, but it was made (C2-8 counts it)
        t.by_id[e.attacker].attacks_this_round += 1


def _suppress(t: Table, e: ev.SuppressiveFireLaid) -> None:
    s = t.suppression
    t.suppression = Suppression(shots=e.total_shots, field=tuple(dict.fromkeys((*s.field, *e.field))))
    row = t.by_id[e.id]
    row.suppressing, row.suppress_field, row.acted_round = e.shots, e.field, t.round


def _did_nothing(t: Table, e: ev.DidNothing) -> None:
    row = t.by_id[e.id]
    # Doing nothing also waives a pending Second Helping (C2-30).
    row.reinitiative, row.acted_round, row.extra_attack = e.reinitiative, t.round, False


def _ended(t: Table, e: ev.FightEnded) -> None:
    fight_ended(t, e.winner, e.reason, e.round)


def fight_ended(t: Table, winner: str | None, reason: str, round_: int) -> None:
    """C2-33: the fight is over, with its result."""
    t.phase = "ended"
    t.result = FightResult(winner=winner, reason=reason, round=round_)


# -- healing (H2-*) ------------------------------------------------------------------------------


def _treated(t: Table, e: InjuryTreated) -> None:
    row = t.by_id.get(e.patient)
    if row is None:
        return
    flag = "first_aid_tried" if e.rule == "H2-2" else "medical_tried"
    row.injuries = tuple(replace(i, **{flag: True}) if i.id == e.injury_id else i for i in row.injuries)
    heal(row, ((e.injury_id, e.healed),) if e.healed else ())


def _convalesced(t: Table, e: Convalesced) -> None:
    row = t.by_id.get(e.patient)
    if row is not None:
        heal(row, e.healed)


# -- rulings (T-5) -------------------------------------------------------------------------------


def _ruling_healed(t: Table, e: RulingHealed) -> None:
    row = t.by_id.get(e.patient)
    if row is not None:
        heal(row, e.healed)


def _condition_ruled(t: Table, e: ConditionRuled) -> None:
    row = t.by_id.get(e.id)
    if row is None:
        return
    name = e.condition
    if name == "unconscious":
        status_changed(t, row, "active" if e.clear else "unconscious")
    elif name == "frozen":
        row.reaction = None if e.clear else ReactionState(kind="freeze", source=RULED_SOURCE, meter="violence")
    elif name == "prone":
        row.prone = not e.clear
    elif e.clear:  # blind, dazed (C2-24, C2-25)
        row.conditions = tuple(c for c in row.conditions if c.name != name)
    else:
        held = Condition(name=name, shift=CONDITION_SHIFTS[name], until_round=e.until_round, source=RULED_SOURCE)
        row.conditions = (*row.conditions, held)


#: Every event type of the ua2 encounter and what it does, in plain sight. Session markers
#: (undo, redo, amend) change which commands count, not the table: the fold skips them.
APPLIERS: dict[type[EventBase], Applier] = {
    EncounterStarted: _started,
    CombatantJoined: _joined,
    StartedHelpless: _started_helpless,
    GmRuling: _nothing,
    CheckRolled: _check,
    CommandRecorded: _nothing,
    CommandUndone: _nothing,
    CommandRedone: _nothing,
    CommandAmended: _nothing,
    MadnessCheckResolved: _resolved,
    NotchMarked: _notch,
    NeurosisMarked: _neurosis,
    ReactionTaken: _reaction,
    ReactionEnded: _reaction_ended,
    TherapyGiven: _therapy,
    PassionSpent: _passion,
    ev.InitiativeSet: _initiative,
    ev.TieBroken: _nothing,
    ev.OrderSet: _order,
    ev.AmbushStarted: _ambush,
    ev.RoundStarted: lambda t, e: round_started(t, e.round, e.order),
    ev.Declared: _declared,
    ev.TurnStarted: lambda t, e: turn_started(t, e.id, e.round, e.turn),
    ev.TurnSkipped: lambda t, e: turn_skipped(t, e.id),
    ev.AttackResolved: _attack,
    ev.WoundsInflicted: _wounds,
    ev.StatusChanged: _status,
    ev.PermanentDamage: _permanent,
    ev.WeaponDrawn: _drawn,
    ev.WeaponJammed: _jammed,
    ev.JamCleared: _cleared,
    ev.WeaponLost: _lost,
    ev.ConditionApplied: _condition,
    ev.CherryTaken: _cherry,
    ev.KnockedDown: _knocked_down,
    ev.StoodUp: _stood,
    ev.GripTaken: _grip,
    ev.GripReleased: _released,
    ev.DodgeDeclared: _dodge,
    ev.MonkeyDodged: _monkey,
    ev.SuppressiveFireLaid: _suppress,
    ev.DidNothing: _did_nothing,
    ev.FightEnded: _ended,
    InjuryTreated: _treated,
    Convalesced: _convalesced,
    RulingHealed: _ruling_healed,
    ConditionRuled: _condition_ruled,
}
