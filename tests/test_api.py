"""The library API (engine.api) gives the same answers as the CLI and the rules."""

from __future__ import annotations

from fractions import Fraction

from engine.api import AddCombatant as Join
from engine.api import (
    Attack,
    BeginFight,
    MemoryStore,
    Session,
    StartEncounter,
    check,
    fight,
    load_sheet,
    odds,
    open_executor,
    simulate,
)


def test_odds_are_exact_fractions_c13() -> None:
    o = odds("major", 45)
    assert (o["crit"], o["matched_success"], o["failure"]) == (Fraction(1, 100), Fraction(4, 100), Fraction(49, 100))
    assert sum(o.values()) == 1


def test_simulate_gives_the_same_report_on_any_executor_it_is_given() -> None:
    here = simulate("scenarios/knife-vs-22.toml", n=300, seed=4)
    with open_executor("local", workers=2) as pool:
        assert simulate("scenarios/knife-vs-22.toml", n=300, seed=4, executor=pool) == here


def test_check_reads_dice_rolled_at_the_table_c4() -> None:
    result = check("significant", 45, stat=60, dice=(5, 2))
    assert (result.outcome, result.value, result.target) == ("weak_success", 52, 45)
    assert check("major", 45, shifts=(-10, 20), dice=(5, 2)).target == 55


def test_simulate_and_fight_agree_on_a_fight_of_the_batch() -> None:
    report = simulate("scenarios/one-shot-duel.toml", n=200, seed=3)
    assert report["fights"] == 200 and set(report["sides"]) == {"ace", "bart"}
    run = fight("scenarios/one-shot-duel.toml", seed=3, index=0)
    assert run.state.fight.phase == "ended"


def test_a_fight_is_driven_by_hand_with_the_api() -> None:
    session = Session(MemoryStore(), "table")
    session.execute(StartEncounter(seed=1))
    session.execute(
        Join(id="Rosa", side="a", sheet=load_sheet("scenarios/characters/knife-fighter.toml"), in_hand="knife")
    )
    session.execute(Join(id="Vic", side="b", sheet=load_sheet("scenarios/characters/gunman.toml")))
    session.execute(BeginFight())
    first = session.state.fight
    assert first.phase == "declare"
    events = session.execute(Attack(actor="Vic", target="Rosa", dice=(4, 7)))
    assert any("Rosa" in e.explain() for e in events)
