"""GM rulings that carry effects in ua3 (U-26): wounds count up with U-2's consequences and come
off only by a ruling, never below 0; a crash or a fall loses 10 to bulletproof armor or a helmet
(U-13); a notch marked is marked as a stress check marks it (U-23, U-18's abilities at once,
U-24's burnout, a trauma), erased as therapy erases it (M2-6); conditions set or cleared
(U-2, U-23, U-17). A refusal writes nothing; undo restores exactly."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.setup import Ruling, RulingCondition, RulingFall, RulingNotch, RulingWounds
from engine.commands.ua3 import AddCharacter
from engine.errors import Refused
from engine.events.ua3 import BurnedOut, HardenedNotchMarked, StatusChanged, TraumaMarked, WoundsTaken
from engine.events.ua3.ruling import ConditionRuled, Fell, NotchErased, WoundsRemoved
from engine.rules.ua3.abilities import ability_value
from engine.state.ua3.combat import Armor
from tests.ua3.support import Scene, explained, of_type, sheet

DREAD = RulingNotch(who="Ann", meter="dread", kind="failed", change=1)


def rule(**effects: object) -> Ruling:
    return Ruling(note="the GM rules", **effects)  # type: ignore[arg-type]


def armored(armor: Armor) -> Scene:
    scene = Scene(("Sam", "police", sheet("Sam")), ("Vic", "crew", sheet("Vic")))
    scene.live.execute(AddCharacter(id="Dana", side="police", sheet=sheet("Dana"), armor=armor))
    return scene


@pytest.mark.parametrize(
    ("armor", "taken", "words"),
    [(Armor(), 17, "no armor"), (Armor(bulletproof=True), 7, "− 10 for the bulletproof armor = 7"),
     (Armor(helmet=True), 7, "− 10 for the helmet = 7"), (Armor(thick=True), 17, "no armor")],
)  # fmt: skip
def test_u13_a_fall_loses_10_to_bulletproof_armor_or_a_helmet(armor: Armor, taken: int, words: str) -> None:
    scene = armored(armor)
    events = scene.do(rule(falls=(RulingFall(who="Dana", wounds=17),)))
    fell = of_type(events, Fell)[0]
    assert fell.taken == taken and words in fell.explain() and "U-13" in fell.explain()
    assert of_type(events, WoundsTaken)[0].amount == taken
    assert scene.who("Dana").wounds == taken


def test_u13_armor_takes_a_small_fall_whole() -> None:
    scene = armored(Armor(bulletproof=True))
    events = scene.do(rule(falls=(RulingFall(who="Dana", wounds=8),)))
    assert of_type(events, WoundsTaken) == [] and scene.who("Dana").wounds == 0


def test_u2_wounds_a_ruling_deals_knock_out_at_90_percent_and_kill_at_the_threshold() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")), ("Bo", "b", sheet("Bo")))
    events = scene.do(rule(wounds=(RulingWounds(who="Ann", amount=45), RulingWounds(who="Bo", amount=50))))
    assert [(e.actor, e.status) for e in of_type(events, StatusChanged)] == [("Ann", "unconscious"), ("Bo", "dead")]
    assert "U-26" in explained(events)


def test_u26_wounds_come_off_by_a_ruling_never_below_0() -> None:
    scene = Scene(("Ann", "a", sheet("Ann", wounds=12)))
    removed = of_type(scene.do(rule(wounds=(RulingWounds(who="Ann", amount=-20),))), WoundsRemoved)[0]
    assert (removed.amount, removed.before) == (12, 12) and scene.who("Ann").wounds == 0
    with pytest.raises(Refused, match="no wounds to take off"):
        scene.do(rule(wounds=(RulingWounds(who="Ann", amount=-1),)))


def test_u2_an_unconscious_character_wakes_by_a_ruling_only_below_90_percent() -> None:
    scene = Scene(("Ann", "a", sheet("Ann", wounds=0)))
    scene.do(rule(wounds=(RulingWounds(who="Ann", amount=46),)))
    wake = RulingCondition(who="Ann", condition="unconscious", clear=True)
    with pytest.raises(Refused, match="stays unconscious"):
        scene.do(rule(conditions=(wake,)))
    scene.do(rule(wounds=(RulingWounds(who="Ann", amount=-10),), conditions=(wake,)))
    assert scene.who("Ann").status == "active"


def test_u18_a_hardened_notch_a_ruling_marks_recomputes_the_abilities_at_once_and_erasing_it_too() -> None:
    scene = Scene(("Ace", "a", sheet("Ace", hardened={"violence": 4})))
    marked = of_type(
        scene.do(rule(notches=(RulingNotch(who="Ace", meter="violence", kind="hardened", change=1),))),
        HardenedNotchMarked,
    )
    assert [(m.before, m.after, m.downbeat, m.downbeat_after) for m in marked] == [(4, 5, "Struggle", 40)]
    assert ability_value(scene.who("Ace").gauges, "struggle") == 40
    erased = of_type(
        scene.do(rule(notches=(RulingNotch(who="Ace", meter="violence", kind="hardened", change=-2),))), NotchErased
    )[0]
    assert (erased.before, erased.after, erased.upbeat, erased.upbeat_after) == (5, 3, "Connect", 50)
    assert ability_value(scene.who("Ace").gauges, "struggle") == 30 and "M2-6" in erased.explain()
    with pytest.raises(Refused, match="no room"):
        scene.do(rule(notches=(RulingNotch(who="Ace", meter="violence", kind="hardened", change=7),)))


def test_u24_u23_a_ruling_s_notches_burn_out_and_mark_a_trauma_as_any() -> None:
    full = {"violence": 9, "helplessness": 9, "isolation": 6, "unnatural": 0, "self": 0}
    scene = Scene(("Max", "a", sheet("Max", hardened=full, failed={"self": 4})), burnout_hardened=25)
    events = scene.do(
        rule(
            notches=(
                RulingNotch(who="Max", meter="isolation", kind="hardened", change=1),
                RulingNotch(who="Max", meter="self", kind="failed", change=1),
            )
        )
    )
    assert of_type(events, BurnedOut)[0].hardened == 25
    assert of_type(events, TraumaMarked)[0].gauge == "self"


def test_conditions_a_ruling_sets_are_the_rules_own_and_clear_again() -> None:
    scene = Scene(("Ann", "a", sheet("Ann")), ("Bo", "b", sheet("Bo")))
    set_ = (RulingCondition(who="Ann", condition="frozen"), RulingCondition(who="Bo", condition="restrained"))
    events = scene.do(rule(conditions=set_))
    assert [e.condition for e in of_type(events, ConditionRuled)] == ["frozen", "restrained"]
    assert scene.who("Ann").reaction is not None and scene.who("Ann").reaction.kind == "freeze"
    assert scene.who("Bo").restrained_by == "a GM ruling"
    scene.do(rule(conditions=tuple(msgspec.structs.replace(c, clear=True) for c in set_)))
    assert scene.who("Ann").reaction is None and scene.who("Bo").restrained_by == ""


@pytest.mark.parametrize(
    ("effects", "refusal"),
    [
        ({"wounds": (RulingWounds(who="Ghost", amount=3),)}, r"\$\.wounds\[0\]: no character 'Ghost'"),
        ({"wounds": (RulingWounds(who="Ann", amount=-3, injury=1),)}, r"\$\.wounds\[0\]: ua3 wounds are one count"),
        ({"notches": (DREAD,)}, r"\$\.notches\[0\]: unknown shock gauge"),
        ({"conditions": (RulingCondition(who="Ann", condition="prone"),)}, r"unknown condition 'prone'.*restrained"),
        ({"falls": (RulingFall(who="Ann", wounds=5), RulingFall(who="Nobody", wounds=5))}, r"\$\.falls\[1\]"),
    ],
)  # fmt: skip
def test_a_refused_ruling_names_its_entry_and_writes_nothing(effects: dict[str, object], refusal: str) -> None:
    scene = Scene(("Ann", "a", sheet("Ann")))
    before, count = scene.state, len(scene.live.records)
    with pytest.raises(Refused, match=refusal):
        scene.do(rule(**effects))
    assert scene.state == before and len(scene.live.records) == count


def test_undo_of_a_ruling_restores_the_state_exactly_and_redo_the_state_after() -> None:
    scene = Scene(("Ann", "a", sheet("Ann", wounds=10)), ("Bo", "b", sheet("Bo")))
    before = scene.state
    scene.do(
        rule(
            wounds=(RulingWounds(who="Ann", amount=-4),),
            falls=(RulingFall(who="Bo", wounds=12),),
            notches=(RulingNotch(who="Bo", meter="self", kind="hardened", change=2),),
            conditions=(RulingCondition(who="Bo", condition="restrained"),),
        )
    )
    after = scene.state
    scene.live.undo()
    assert msgspec.structs.replace(scene.state, version=before.version) == before
    scene.live.redo()
    assert msgspec.structs.replace(scene.state, version=after.version) == after
