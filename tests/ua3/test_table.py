"""The ua3 working table: a copy is the same table, every stored field of every row copied (a
batch copies the table for every fight, field by field), and the grapples it keeps by
grappler follow its conflicts."""

from __future__ import annotations

import msgspec

from engine.rules.ua3.table import ROW_FIELDS, Row, Table
from engine.state.ua3.conflict import Conflict, ConflictResult, ConflictSide
from engine.state.ua3.encounter import Ua3Combatant, Ua3Encounter
from tests.ua3.support import sheet


def _table() -> Table:
    ann, bob = sheet("Ann"), sheet("Bob")
    combatants = (
        Ua3Combatant(id="ann", side="a", sheet=ann, gauges=ann.gauges, wounds=3, suppressed_until=2),
        Ua3Combatant(id="bob", side="b", sheet=bob, gauges=bob.gauges, openings=("ann",), believed_dead_by="a"),
    )
    return Table(Ua3Encounter(version=3, combatants=combatants))


def test_a_copied_row_has_every_stored_field_of_the_row() -> None:
    for row in _table().rows:
        copy = row.clone()
        assert isinstance(copy, Row)
        assert [getattr(copy, name) for name in ROW_FIELDS] == [getattr(row, name) for name in ROW_FIELDS]
        assert copy.combatant() == row.combatant()


def test_a_copied_table_freezes_to_the_same_state() -> None:
    t = _table()
    assert t.clone().freeze() == t.freeze()


def _grapple(conflict_id: str, a: str, b: str) -> Conflict:
    sides = (ConflictSide(key="a", name=a, stake="", actor=a), ConflictSide(key="b", name=b, stake="", actor=b))
    return Conflict(id=conflict_id, sides=sides, kind="grapple")


def test_the_table_keeps_each_grapplers_running_grapple_u17() -> None:
    t = _table()
    assert t.grappling == {}
    t.add_conflict(_grapple("grapple-1", "ann", "bob"))
    assert set(t.grappling) == {"ann", "bob"}
    copy = t.clone()
    t.replace_conflict(msgspec.structs.replace(t.conflicts[0], result=ConflictResult(winner="a", reason="done")))
    assert t.grappling == {} and set(copy.grappling) == {"ann", "bob"}
