"""DESIGN laws 1 and 4 for declarations made one combatant at a time (C2-4, issue 12): whatever
order the players declare and re-declare in, the log folds to the live state, each fighter's
focus is its last declaration, and undoing the last declaration restores the state before it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.commands.combat import Declaration, Declare
from engine.session.live import load_state
from tests.rules.test_combat_focus import three

IDS = ("ann", "bob", "cy")

declarations = st.lists(
    st.tuples(st.sampled_from(IDS), st.sampled_from(IDS), st.sampled_from((0, 10, 20, 30))),
    min_size=1,
    max_size=8,
)


@settings(max_examples=40, deadline=None)
@given(declarations)
def test_declarations_one_at_a_time_fold_to_the_live_state_and_the_last_one_counts(steps: list) -> None:  # type: ignore[type-arg]
    t = three()
    last: dict[str, tuple[str, int]] = {}
    for who, target, amount in steps:
        if who == target:
            target = next(i for i in IDS if i != who)
        d = Declaration(id=who, focus_target=target if amount else "", focus=amount)  # type: ignore[arg-type]
        before = t.state
        t.do(Declare(declarations=(d,), open=True))
        last[who] = (target, amount)
        assert load_state(t.store, "fight") == t.state  # law 1
        t.live.undo()
        assert t.state.fight == before.fight  # law 4
        t.live.redo()
    for who in IDS:
        focus = next(f for f in t.state.fight.fighters if f.id == who).focus
        target, amount = last.get(who, ("", 0))
        assert (focus.target, focus.amount) == (target, amount) if amount else focus is None
    assert t.state.fight.phase == "declare"  # nobody closed them
