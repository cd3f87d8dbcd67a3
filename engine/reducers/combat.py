"""Reducers of combat events (I2, C2). Facts only: every judgement was made by `decide`."""

from __future__ import annotations

import msgspec

from engine.events import combat as ev
from engine.reducers.fold import reducer
from engine.reducers.wounds import wound
from engine.state.encounter import Encounter
from engine.state.fight import Fighter, FightResult, Focus, Initiative, Suppression

replace = msgspec.structs.replace


def _fight(state: Encounter, **changes: object) -> Encounter:
    return replace(state, fight=replace(state.fight, **changes))


def _update(state: Encounter, fighter_id: str, **changes: object) -> Encounter:
    return state.replace_fighter(replace(state.fighter(fighter_id), **changes))


@reducer(ev.InitiativeSet)
def _initiative(state: Encounter, e: ev.InitiativeSet) -> Encounter:
    init = Initiative(method=e.method, value=e.value, success=e.success, rank=float(e.value), roll=e.roll)
    return _update(state, e.id, initiative=init, reinitiative=None)


@reducer(ev.TieBroken)
def _tie(state: Encounter, e: ev.TieBroken) -> Encounter:
    return state


@reducer(ev.OrderSet)
def _order(state: Encounter, e: ev.OrderSet) -> Encounter:
    for fighter_id, rank in zip(e.order, e.ranks, strict=True):
        f = state.fighter(fighter_id)
        if f.initiative is not None:
            state = state.replace_fighter(replace(f, initiative=replace(f.initiative, rank=rank)))
    return _fight(state, order=e.order)


@reducer(ev.AmbushStarted)
def _ambush(state: Encounter, e: ev.AmbushStarted) -> Encounter:
    return _fight(state, phase="ambush", round=0, order=e.order, turn=0)


def _new_round(f: Fighter) -> Fighter:
    return replace(
        f,
        dodged_last_round=f.dodging,
        dodging=False,
        continued_dodge=False,
        focus=None,
        attacks_this_round=0,
        extra_attack=False,
        suppressed_last_round=f.suppressing,
        suppressing=0,
    )


@reducer(ev.RoundStarted)
def _round(state: Encounter, e: ev.RoundStarted) -> Encounter:
    fight = state.fight
    fight = replace(
        fight,
        phase="declare",
        round=e.round,
        order=e.order,
        turn=0,
        fighters=tuple(_new_round(f) for f in fight.fighters),
        suppression=Suppression(),
    )
    return replace(state, fight=fight)


@reducer(ev.Declared)
def _declared(state: Encounter, e: ev.Declared) -> Encounter:
    f = state.fighter(e.id)
    changes: dict[str, object] = {}
    if e.focus:
        changes["focus"] = Focus(target=e.focus_target, amount=e.focus)
    if e.continue_dodge:
        changes.update(dodging=True, continued_dodge=True)
    if e.continue_suppression:
        changes.update(suppressing=e.continue_suppression)
    state = state.replace_fighter(replace(f, **changes))
    if e.release_hold and f.holding:
        state = _release(state, e.id, f.holding)
    if e.continue_suppression:
        s = state.fight.suppression
        field = tuple(dict.fromkeys((*s.field, *f.suppress_field)))
        state = _fight(state, suppression=Suppression(shots=s.shots + e.continue_suppression, field=field))
    return state


@reducer(ev.TurnStarted)
def _turn(state: Encounter, e: ev.TurnStarted) -> Encounter:
    phase = "ambush" if state.fight.phase == "ambush" else "acting"
    # The fighter has its turn this round: it gets no second one if the order changes (I2-6).
    return _update(_fight(state, phase=phase, turn=e.turn), e.id, acted_round=e.round)


@reducer(ev.TurnSkipped)
def _skipped(state: Encounter, e: ev.TurnSkipped) -> Encounter:
    return _update(state, e.id, acted_round=state.fight.round)


@reducer(ev.AttackResolved)
def _attack(state: Encounter, e: ev.AttackResolved) -> Encounter:
    attacker = state.fighter(e.attacker)
    state = _update(
        state,
        e.attacker,
        attacks_this_round=attacker.attacks_this_round + 1,
        acted_round=state.fight.round,
        # a new attack uses up a Second Helping; later parts of one divided attack do not (C2-30)
        extra_attack=attacker.extra_attack and e.part > 1,
    )
    trigger = {"firearm": "shot_at", "melee": "attacked_with_weapon"}.get(e.weapon_kind)
    if trigger:
        target = state.fighter(e.target)
        if trigger not in target.triggered:
            state = state.replace_fighter(replace(target, triggered=(*target.triggered, trigger)))
    if e.hit is not None:
        state = wound(state, e.target, e.hit.amount, f"{e.attacker}'s {e.weapon}", e.hit.injury_id, e.round)
    return state


@reducer(ev.WoundsInflicted)
def _wounds(state: Encounter, e: ev.WoundsInflicted) -> Encounter:
    return wound(state, e.target, e.amount, e.source, e.injury_id, state.fight.round)


@reducer(ev.StatusChanged)
def _status(state: Encounter, e: ev.StatusChanged) -> Encounter:
    c = state.combatant(e.id)
    if c is None:
        return state
    state = state.replace_combatant(replace(c, status=e.status))
    if e.status == "active":
        return state
    f = state.fighter(e.id)
    if f.holding:
        state = _release(state, e.id, f.holding)
    if f.held_by:
        state = _release(state, f.held_by, e.id)
    return _update(state, e.id, dodging=False, continued_dodge=False)


@reducer(ev.PermanentDamage)
def _permanent(state: Encounter, e: ev.PermanentDamage) -> Encounter:
    c = state.combatant(e.id)
    if c is None:
        return state
    injuries = tuple(replace(i, permanent=True) if i.id == e.injury_id else i for i in c.injuries)
    return state.replace_combatant(replace(c, injuries=injuries))


@reducer(ev.WeaponDrawn)
def _drawn(state: Encounter, e: ev.WeaponDrawn) -> Encounter:
    return _update(state, e.id, in_hand=e.weapon, drawn_round=e.round, acted_round=state.fight.round)


@reducer(ev.WeaponJammed)
def _jammed(state: Encounter, e: ev.WeaponJammed) -> Encounter:
    f = state.fighter(e.id)
    return state.replace_fighter(replace(f, jammed=(*f.jammed, e.weapon)))


@reducer(ev.JamCleared)
def _cleared(state: Encounter, e: ev.JamCleared) -> Encounter:
    f = state.fighter(e.id)
    jammed = tuple(w for w in f.jammed if w != e.weapon)
    return state.replace_fighter(replace(f, jammed=jammed, acted_round=state.fight.round))


@reducer(ev.WeaponLost)
def _lost(state: Encounter, e: ev.WeaponLost) -> Encounter:
    loser = state.fighter(e.id)
    weapon = loser.weapon(e.weapon)
    arsenal = tuple(w for w in loser.arsenal if w.name != e.weapon)
    in_hand = "fists" if loser.in_hand == e.weapon else loser.in_hand
    state = state.replace_fighter(replace(loser, arsenal=arsenal, in_hand=in_hand))
    if e.taken_by and weapon is not None:
        taker = state.fighter(e.taken_by)
        state = state.replace_fighter(replace(taker, arsenal=(*taker.arsenal, weapon), in_hand=weapon.name))
    return state


@reducer(ev.ConditionApplied)
def _condition(state: Encounter, e: ev.ConditionApplied) -> Encounter:
    f = state.fighter(e.id)
    return state.replace_fighter(replace(f, conditions=(*f.conditions, e.condition)))


@reducer(ev.CherryTaken)
def _cherry(state: Encounter, e: ev.CherryTaken) -> Encounter:
    if e.cherry == "turning_tide":
        return _update(state, e.target, no_match_benefits=True)
    if e.cherry == "monkey_dodge":
        return _update(state, e.attacker, monkey_dodge=True, monkey_redirect=e.redirect_to)
    if e.cherry == "second_helping":
        return _update(state, e.attacker, extra_attack=True)
    return state


@reducer(ev.KnockedDown)
def _knocked_down(state: Encounter, e: ev.KnockedDown) -> Encounter:
    f = state.fighter(e.id)
    if f.initiative is not None:
        f = replace(f, initiative=replace(f.initiative, rank=e.rank, success=False))
    turn = state.fight.turn if e.turn is None else e.turn
    return _fight(state.replace_fighter(replace(f, prone=True)), order=e.order, turn=turn)


@reducer(ev.StoodUp)
def _stood(state: Encounter, e: ev.StoodUp) -> Encounter:
    return _update(state, e.id, prone=False, acted_round=state.fight.round)


def _release(state: Encounter, holder: str, target: str) -> Encounter:
    return _update(_update(state, holder, holding=""), target, held_by="")


@reducer(ev.GripTaken)
def _grip(state: Encounter, e: ev.GripTaken) -> Encounter:
    return _update(_update(state, e.holder, holding=e.target), e.target, held_by=e.holder)


@reducer(ev.GripReleased)
def _released(state: Encounter, e: ev.GripReleased) -> Encounter:
    return _release(state, e.holder, e.target)


@reducer(ev.DodgeDeclared)
def _dodge(state: Encounter, e: ev.DodgeDeclared) -> Encounter:
    return _update(state, e.id, dodging=True, acted_round=state.fight.round)


@reducer(ev.MonkeyDodged)
def _monkey(state: Encounter, e: ev.MonkeyDodged) -> Encounter:
    state = _update(state, e.protected, monkey_dodge=False, monkey_redirect="")
    if not e.redirected_to:  # the attack hit nothing, but it was made (C2-8 counts it)
        attacker = state.fighter(e.attacker)
        state = _update(state, e.attacker, attacks_this_round=attacker.attacks_this_round + 1)
    return state


@reducer(ev.SuppressiveFireLaid)
def _suppress(state: Encounter, e: ev.SuppressiveFireLaid) -> Encounter:
    s = state.fight.suppression
    field = tuple(dict.fromkeys((*s.field, *e.field)))
    state = _fight(state, suppression=Suppression(shots=e.total_shots, field=field))
    return _update(state, e.id, suppressing=e.shots, suppress_field=e.field, acted_round=state.fight.round)


@reducer(ev.DidNothing)
def _nothing(state: Encounter, e: ev.DidNothing) -> Encounter:
    # Doing nothing also waives a pending Second Helping (C2-30).
    return _update(state, e.id, reinitiative=e.reinitiative, acted_round=state.fight.round, extra_attack=False)


@reducer(ev.FightEnded)
def _ended(state: Encounter, e: ev.FightEnded) -> Encounter:
    return _fight(state, phase="ended", result=FightResult(winner=e.winner, reason=e.reason, round=e.round))
