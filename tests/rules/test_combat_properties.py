"""Random fights of random commands, legal or not, generated from the current state.

Properties after every step:
- a command either yields events or raises `Refused` or `InvalidInput` (never another
  exception), and a refused command changes nothing;
- fold(stored log) == live state (DESIGN law 1; `Table.do` checks it, and so does a refusal);
- wound points never exceed the maximum (healing included);
- a combatant out of the fight (dead, incapacitated, unconscious, fled, surrendered) never acts:
  no event names it as the one acting once it is out, and its own commands are refused;
- every event explains itself with a rule id.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import MadnessCheck
from engine.commands.base import CommandBase
from engine.commands.combat import (
    CHERRIES,
    Attack,
    BreakFree,
    ClearJam,
    Declaration,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    EndFight,
    Flee,
    Squeeze,
    StandUp,
    Strike,
    SuppressiveFire,
    Surrender,
)
from engine.commands.healing import Convalesce, FirstAid, MedicalCare
from engine.errors import InvalidInput, Refused
from engine.events import combat as ev
from engine.events.base import EventBase
from engine.events.healing import InjuryTreated
from engine.reducers.fold import apply
from engine.session import load_state
from engine.settings import Settings
from engine.state.encounter import Encounter
from tests.fixtures import Table
from tests.rules.support import QUIET, RULE_ID, fighter

#: ~100 examples keep the suite fast; set UA_FIGHT_EXAMPLES for a longer hunt.
EXAMPLES = int(os.environ.get("UA_FIGHT_EXAMPLES", "100"))
OUT = ("dead", "incapacitated", "unconscious", "fled", "surrendered")
MAX_STEPS = 40

ROSTER = (
    (
        "ann",
        "a",
        dict(init=40, fighting=60, dodge=40, first_aid=40, obsession="Fighting", weapons=["knife", ".22 pistol"]),
        "knife",
    ),
    ("bob", "b", dict(init=35, fighting=50, firearms=50, dodge=50, weapons=["machete", ".44 revolver"]), "machete"),
    ("cy", "a", dict(init=20, fighting=40, athletics=40, medicine=50, weapons=["steel chair", "rock"]), "steel chair"),
    ("dee", "b", dict(init=20, fighting=45, firearms=45, obsession="Fighting", weapons=["9mm pistol"]), "9mm pistol"),
)

#: Dice pairs that matter (crits, fumbles, matches, the 30 line, 47/07) more often than chance.
SPECIAL = [(0, 1), (0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (7, 7), (9, 9), (3, 0), (2, 9), (4, 7), (0, 7), (1, 0)]
pairs = st.one_of(st.sampled_from(SPECIAL), st.tuples(st.integers(0, 9), st.integers(0, 9)))
faces = st.lists(pairs, min_size=1, max_size=4).map(lambda ps: tuple(f for p in ps for f in p))

ACTOR_FIELDS: dict[type, str] = {
    ev.AttackResolved: "attacker",
    ev.DodgeDeclared: "id",
    ev.WeaponDrawn: "id",
    ev.JamCleared: "id",
    ev.StoodUp: "id",
    ev.DidNothing: "id",
    ev.SuppressiveFireLaid: "id",
    ev.TurnStarted: "id",
    ev.Declared: "id",
    ev.GripTaken: "holder",
    InjuryTreated: "healer",
}


def _table(bodies: list[int], madness: bool, ambushers: set[str], max_rounds: int, seed: int) -> Table:
    base = Settings() if madness else QUIET
    t = Table(seed=seed, settings=msgspec.structs.replace(base, max_rounds=max_rounds))
    for (id_, side, kw, in_hand), body in zip(ROSTER, bodies, strict=True):
        t.join(id_, side, fighter(id_.title(), body=body, **kw), in_hand=in_hand, ambusher=id_ in ambushers)  # type: ignore[arg-type]
    return t


def _command(data: st.DataObject, state: Encounter) -> CommandBase:
    """A command built from the state: mostly the one whose turn it is, sometimes anyone."""
    ids = [c.id for c in state.combatants]
    current = state.fight.current
    actor = current if current is not None and data.draw(st.integers(0, 9)) < 8 else data.draw(st.sampled_from(ids))
    me = state.combatant(actor)
    foes = [c.id for c in state.combatants if me is not None and c.side != me.side]
    anyone = st.sampled_from(foes) if foes and data.draw(st.integers(0, 9)) < 7 else st.sampled_from([*ids, "nobody"])
    dice = data.draw(faces)
    f = state.fighter(actor)
    if state.fight.phase == "ended":
        kinds = ["first_aid", "medical", "convalesce", "attack"]
    elif data.draw(st.integers(0, 39)) == 0:
        kinds = ["flee", "surrender", "end"]  # rare: they end fights early
    elif state.fight.phase == "declare" and data.draw(st.booleans()):
        kinds = ["declare"]
    else:
        kinds = [
            *["attack"] * 8,
            *["multi"] * 2,
            *["dodge"] * 2,
            *["nothing"] * 2,
            *["squeeze"] * 2,
            "draw",
            "clear_jam",
            "stand_up",
            "suppress",
            "break_free",
            "declare",
            "first_aid",
            "madness",
        ]
    kind = data.draw(st.sampled_from(kinds))
    if kind == "attack":
        weapons = ["", "", "", "fists", *(w.name for w in f.arsenal)]
        return Attack(
            actor=actor,
            target=data.draw(anyone),
            weapon=data.draw(st.sampled_from(weapons)),
            mode=data.draw(st.sampled_from(["strike"] * 6 + ["disarm", "throw_person", "throw"])),
            minimum=data.draw(st.none() | st.none() | st.integers(1, 100)),
            cherry=data.draw(st.none() | st.sampled_from(CHERRIES)),
            crit=data.draw(st.sampled_from(["kill", "knock_out"])),
            monkey_redirect=data.draw(st.sampled_from(["", "", "", "", *ids])),
            dice=dice,
        )
    if kind == "multi":
        strikes = data.draw(
            st.lists(st.builds(Strike, target=anyone, share=st.none() | st.integers(1, 60)), min_size=1, max_size=4)
        )
        return Attack(actor=actor, strikes=tuple(strikes), dice=dice)
    if kind == "declare":
        order = list(state.fight.order) or ids
        chosen = data.draw(st.lists(st.sampled_from(order), max_size=3, unique=True))
        return Declare(
            declarations=tuple(
                Declaration(
                    id=d,
                    **data.draw(
                        st.sampled_from([{}, {}])
                        | st.builds(dict, focus_target=anyone, focus=st.sampled_from([10, 20, 30]))
                        | st.builds(dict, focus_target=st.sampled_from(["", *ids]), focus=st.sampled_from([0, 10, 40]))
                    ),
                    continue_dodge=data.draw(st.booleans()),
                    release_hold=data.draw(st.booleans()),
                    continue_suppression=data.draw(st.booleans()),
                )
                for d in chosen
            ),
            dice=dice,
        )
    if kind in ("first_aid", "medical"):
        patient = data.draw(st.sampled_from(ids))
        c = state.combatant(patient)
        injury = data.draw(st.sampled_from([i.id for i in c.injuries] or [1])) if c else 1
        cls = FirstAid if kind == "first_aid" else MedicalCare
        extra: dict[str, Any] = {"within_hour": data.draw(st.booleans())} if kind == "medical" else {}
        return cls(healer=actor, patient=patient, injury=injury, dice=dice, **extra)
    simple: dict[str, Callable[[], CommandBase]] = {
        "dodge": lambda: Dodge(actor=actor),
        "draw": lambda: Draw(
            actor=actor, weapon=data.draw(st.sampled_from(["fists", *(w.name for w in f.arsenal), "axe"]))
        ),
        "clear_jam": lambda: ClearJam(actor=actor),
        "stand_up": lambda: StandUp(actor=actor),
        "nothing": lambda: DoNothing(
            actor=actor, reinitiative=data.draw(st.sampled_from([None, None, "roll", "default"]))
        ),
        "suppress": lambda: SuppressiveFire(
            actor=actor,
            shots=data.draw(st.integers(2, 30)),
            field=tuple(data.draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))),
        ),
        "break_free": lambda: BreakFree(actor=actor),
        "squeeze": lambda: Squeeze(actor=actor, gimme=data.draw(st.booleans())),
        "flee": lambda: Flee(actor=actor),
        "surrender": lambda: Surrender(actor=actor),
        "end": lambda: EndFight(winner=data.draw(st.sampled_from([None, "a", "b"]))),
        "madness": lambda: MadnessCheck(  # a GM's check, outside the turn flow
            actor=data.draw(st.sampled_from(ids)),
            meter="unnatural",
            rank=data.draw(st.integers(1, 10)),
            source=data.draw(st.sampled_from(["the thing", *ids])),
            reaction=data.draw(st.sampled_from([None, "flee", "freeze", "frenzy"])),
        ),
        "convalesce": lambda: Convalesce(
            patient=data.draw(st.sampled_from(ids)),
            days=data.draw(st.integers(1, 5)),
            care=data.draw(st.sampled_from(["doctor", "bed_rest", "easy", "pushing"])),
        ),
    }
    return msgspec.structs.replace(simple[kind](), dice=dice)


def _check_step(before: Encounter, events: list[EventBase]) -> None:
    """Walk the events one by one: whoever an event names as acting was in the fight just before."""
    state = before
    for event in events:
        field = ACTOR_FIELDS.get(type(event))
        if field is not None:
            who = state.combatant(getattr(event, field))
            assert who is not None and who.status not in OUT, f"{who and who.id} ({who and who.status}) acts: {event!r}"
        assert RULE_ID.search(event.explain()), event.explain()
        state = apply(state, event)


def _actor_of(command: CommandBase) -> str | None:
    """Who acts by the command (a GM's madness check names whom it tests, not an actor)."""
    if isinstance(command, MadnessCheck):
        return None
    return getattr(command, "actor", None) or getattr(command, "healer", None)


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    data=st.data(),
    bodies=st.lists(st.integers(15, 60), min_size=4, max_size=4),
    madness=st.booleans(),
    ambushers=st.sets(st.sampled_from(["ann", "bob", "cy", "dee"]), max_size=2),
    max_rounds=st.integers(2, 6),
    seed=st.integers(0, 2**32),
)
def test_random_fights_keep_the_laws(
    data: st.DataObject, bodies: list[int], madness: bool, ambushers: set[str], max_rounds: int, seed: int
) -> None:
    t = _table(bodies, madness, ambushers, max_rounds, seed)
    t.begin()
    after_the_fight = 0
    for _ in range(MAX_STEPS):
        before = t.state
        if before.fight.phase == "ended":
            after_the_fight += 1
            if after_the_fight > 8:
                break
        logged = len(list(t.store.read("fight")))
        command = _command(data, before)
        actor = _actor_of(command)
        was_out = actor is not None and (c := before.combatant(actor)) is not None and c.status in OUT
        try:
            events = t.do(command)
        except (Refused, InvalidInput):  # bad input is refused too, and writes nothing
            assert t.state == before and len(list(t.store.read("fight"))) == logged
            assert load_state(t.store, "fight") == t.state
            continue
        assert events, f"{command!r} yielded no events"
        assert not was_out, f"{actor} is out of the fight but {command!r} was accepted"
        _check_step(before, events)
        for c in t.state.combatants:
            assert c.wounds <= c.max_wounds
            assert sum(i.open for i in c.injuries) >= 0
