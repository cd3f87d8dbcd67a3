"""GM rulings that carry effects in ua2 (T-5): wounds dealt are one injury (C2-32, C2-31),
wounds taken off come off the most recent injury first or the one named (H2, H2-4 overruled),
notches marked (M2-4, M2-5) or erased (M2-6), conditions set or cleared (C2-10, M2-7, C2-29,
C2-24, C2-25); a fall is ua3's (U-13). Every refusal writes nothing; undo restores exactly."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.setup import Ruling, RulingCondition, RulingFall, RulingNotch, RulingWounds
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.madness import NeurosisMarked, NotchMarked, TherapyGiven
from engine.events.ruling import ConditionRuled, RulingHealed
from engine.events.setup import GmRuling
from engine.rules.ua2.combat.situation import roll_shifts
from engine.rules.ua2.table import Table as RulesTable
from tests.rules.support import arena, fighter, of, one, text, where, who
from tests.rules.test_healing import wounded

DREAD = RulingNotch(who="bob", meter="dread", kind="failed", change=1)


def rule(**effects: object) -> Ruling:
    return Ruling(note="the GM rules", **effects)  # type: ignore[arg-type]


def test_a_note_only_ruling_encodes_and_decides_as_it_always_did() -> None:
    t = wounded((0, 6))
    before = t.state
    events = t.do(Ruling(note="the door is locked", about="bob"))
    assert [type(e) for e in events] == [GmRuling]
    assert msgspec.json.encode(Ruling(note="n")) == b'{"command":"ruling","dice":[],"note":"n","about":""}'
    assert msgspec.structs.replace(t.state, version=before.version) == before


def test_c2_32_wounds_a_ruling_deals_are_one_injury_with_c2_31_shifts() -> None:
    t = wounded((0, 6))  # bob at 44
    events = t.do(rule(wounds=(RulingWounds(who="bob", amount=20),)))
    hit = one(events, ev.WoundsInflicted)
    assert (hit.amount, hit.wounds_before, hit.wounds_after, hit.shift_after) == (20, 44, 24, -10)
    assert who(t, "bob").injuries[-1].amount == 20 and who(t, "bob").injuries[-1].source == "a GM ruling"
    assert "C2-32" in text(events) and "T-5" in text(events)


def test_c2_32_more_than_50_in_one_ruling_is_permanent_damage_and_kills_by_c2_31() -> None:
    t = arena(("ann", "a", fighter("Ann", body=90)), ("bob", "b", fighter("Bob")), begin=False)
    events = t.do(rule(wounds=(RulingWounds(who="ann", amount=51),)))
    assert one(events, ev.PermanentDamage).amount == 51
    assert who(t, "ann").wounds == 39 and who(t, "ann").status == "active"
    t.do(rule(wounds=(RulingWounds(who="bob", amount=50),)))
    assert who(t, "bob").status == "dead"


def test_h2_wounds_taken_off_come_off_the_most_recent_injury_first_and_may_heal_its_last_point() -> None:
    t = wounded((0, 6), (1, 2))  # injuries #1 of 6 and #2 of 12: bob at 32
    healed = one(t.do(rule(wounds=(RulingWounds(who="bob", amount=-15),))), RulingHealed)
    assert healed.healed == ((2, 12), (1, 3))  # the last point of #2 heals too: a ruling overrules H2-4
    assert (healed.wounds_before, healed.wounds_after) == (32, 47)
    assert [(i.id, i.open) for i in who(t, "bob").injuries] == [(1, 3), (2, 0)]
    assert "H2-4" in healed.explain()


def test_c2_31_an_incapacitated_combatant_a_ruling_heals_above_the_line_is_able_again() -> None:
    t = wounded((0, 6))
    events = t.do(rule(wounds=(RulingWounds(who="bob", amount=40),)))  # 44 → 4
    assert one(events, ev.StatusChanged).status == "incapacitated"
    events = t.do(rule(wounds=(RulingWounds(who="bob", amount=-10),)))
    assert one(events, ev.StatusChanged).status == "active" and who(t, "bob").wounds == 14


def test_a_ruling_with_nothing_to_heal_is_refused() -> None:
    t = arena(("ann", "a", fighter("Ann")), ("bob", "b", fighter("Bob")), begin=False)
    with pytest.raises(Refused, match="ann has no wounds to take off"):
        t.do(rule(wounds=(RulingWounds(who="ann", amount=-3),)))


def test_h2_wounds_taken_off_a_named_injury_come_off_it_only_and_never_past_it() -> None:
    t = wounded((0, 6), (1, 2))
    healed = one(t.do(rule(wounds=(RulingWounds(who="bob", amount=-10, injury=1),))), RulingHealed)
    assert healed.healed == ((1, 6),)
    assert who(t, "bob").wounds == 38
    with pytest.raises(Refused, match="no injury #7"):
        t.do(rule(wounds=(RulingWounds(who="bob", amount=-1, injury=7),)))
    with pytest.raises(Refused, match="injury #1 is healed"):
        t.do(rule(wounds=(RulingWounds(who="bob", amount=-1, injury=1),)))


def test_m2_4_m2_5_notches_a_ruling_marks_are_marked_as_any_and_the_fifth_failed_is_a_neurosis() -> None:
    t = wounded((0, 6))
    events = t.do(rule(notches=(RulingNotch(who="bob", meter="violence", kind="failed", change=5),)))
    assert len(of(events, NotchMarked)) == 5 and one(events, NeurosisMarked).meter == "violence"
    meter = who(t, "bob").meters.violence
    assert (meter.failed, meter.neurosis) == (5, True)


def test_m2_6_notches_a_ruling_erases_are_therapy_and_never_more_than_are_marked() -> None:
    t = arena(("ann", "a", fighter("Ann", hardened=3)), ("bob", "b", fighter("Bob")), begin=False)
    events = t.do(rule(notches=(RulingNotch(who="ann", meter="violence", kind="hardened", change=-2),)))
    assert one(events, TherapyGiven).hardened_removed == 2
    assert who(t, "ann").meters.violence.hardened == 1
    with pytest.raises(Refused, match="1 hardened notches, not 2 to erase"):
        t.do(rule(notches=(RulingNotch(who="ann", meter="violence", kind="hardened", change=-2),)))


def test_conditions_a_ruling_sets_are_what_the_rules_read_and_clearing_ends_them() -> None:
    t = wounded((0, 6), end=False)
    events = t.do(
        rule(
            conditions=(
                RulingCondition(who="cy", condition="blind"),  # C2-24: −30 on everything
                RulingCondition(who="cy", condition="prone"),  # C2-29
                RulingCondition(who="cy", condition="frozen"),  # M2-7
                RulingCondition(who="bob", condition="unconscious"),  # C2-10
            )
        )
    )
    assert [e.condition for e in of(events, ConditionRuled)] == ["blind", "prone", "frozen", "unconscious"]
    assert sum(s.amount for s in roll_shifts(RulesTable(t.state), "cy")) == -30
    assert where(t, "cy").prone and who(t, "cy").reaction is not None and who(t, "bob").status == "unconscious"
    t.do(rule(conditions=(RulingCondition(who="cy", condition="blind", clear=True),)))
    t.do(rule(conditions=(RulingCondition(who="cy", condition="frozen", clear=True),)))
    assert roll_shifts(RulesTable(t.state), "cy") == [] and who(t, "cy").reaction is None


def test_a_ruling_that_leaves_one_side_standing_ends_the_fight_c2_33() -> None:
    t = wounded((0, 6), end=False)
    events = t.do(
        rule(
            conditions=(
                RulingCondition(who="bob", condition="unconscious"),
                RulingCondition(who="cy", condition="unconscious"),
            )
        )
    )
    assert one(events, ev.FightEnded).winner == "a"


@pytest.mark.parametrize(
    ("effects", "refusal"),
    [
        ({"wounds": (RulingWounds(who="Ghost", amount=3),)}, r"\$\.wounds\[0\]: no combatant 'Ghost'"),
        ({"wounds": (RulingWounds(who="bob", amount=0),)}, r"\$\.wounds\[0\]: wounds are \+N"),
        ({"falls": (RulingFall(who="bob", wounds=10),)}, r"\$\.falls\[0\]: a crash or a fall is a ua3 rule \(U-13\)"),
        ({"notches": (DREAD,)}, r"\$\.notches\[0\]: unknown madness meter"),
        ({"conditions": (RulingCondition(who="bob", condition="sleepy"),)}, r"unknown condition 'sleepy'.*prone"),
        ({"conditions": (RulingCondition(who="bob", condition="prone", clear=True),)}, "bob is not prone"),
    ],
)  # fmt: skip
def test_a_refused_ruling_names_its_entry_and_writes_nothing(effects: dict[str, object], refusal: str) -> None:
    t = wounded((0, 6))
    before, count = t.state, len(t.live.records)
    # a valid first effect does not survive a refused later one
    with pytest.raises(Refused, match=refusal):
        t.do(
            rule(**{"wounds": (RulingWounds(who="bob", amount=5),), **effects} if "wounds" not in effects else effects)
        )
    assert t.state == before and len(t.live.records) == count


def test_undo_of_a_ruling_restores_the_state_exactly_and_redo_the_state_after() -> None:
    t = wounded((0, 6), (1, 2))
    before = t.state
    t.do(
        rule(
            wounds=(RulingWounds(who="bob", amount=-9), RulingWounds(who="cy", amount=7)),
            notches=(RulingNotch(who="cy", meter="self", kind="hardened", change=2),),
            conditions=(RulingCondition(who="cy", condition="dazed"),),
        )
    )
    after = t.state
    t.live.undo()
    assert msgspec.structs.replace(t.state, version=before.version) == before
    t.live.redo()
    assert msgspec.structs.replace(t.state, version=after.version) == after
