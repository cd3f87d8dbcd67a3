"""`ua session fork NAME N --simulate K`: only from an event of the history that counts now and
after the fight began (else one line naming the event to use), reported as `ua simulate` reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_session_cli import SCENARIO, Ua, fight_one_round, positions


@pytest.fixture
def duel(tmp_path: Path) -> Ua:
    """The knife-vs-.22 duel: set up (1–6), begun (7–11), declared (12–13), one round (14–22)."""
    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5")
    ua.ok("session", "begin", "duel")
    ua.ok("session", "next", "duel")
    fight_one_round(ua)
    return ua


def fork(ua: Ua, at: int) -> dict:  # type: ignore[type-arg]
    return ua.ok("session", "fork", "duel", str(at), "--simulate", "30", "--seed", "2")  # type: ignore[no-any-return]


def test_a_fork_reports_with_the_keys_of_ua_simulate(duel: Ua) -> None:
    report = fork(duel, 13)
    simulated = duel.ok("simulate", str(SCENARIO), "-n", "30", "--seed", "2", "--workers", "1")
    assert set(report) == set(simulated)
    assert set(report["combatants"]["Rosa"]) == set(simulated["combatants"]["Rosa"])
    assert (report["from_event"], simulated["from_event"], report["partial"]) == (13, None, False)
    assert report["headline"].startswith("Someone on your side (knife) dies in")


def test_a_fork_renders_as_ua_simulate_does(duel: Ua) -> None:
    result = duel("session", "fork", "duel", "13", "--simulate", "30", "--seed", "2")
    assert result.exit_code == 0, result.stderr
    assert ", from event 13" in result.stdout and "Someone on your side (knife) dies" in result.stdout
    assert "who wins" in result.stdout and "combatants" in result.stdout


def test_a_fork_from_an_amended_command_is_refused_naming_its_replacement(duel: Ua) -> None:
    amended = duel.ok(
        "session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8", "--shift", "wounds=-10", "--amend", "6"
    )
    replacement_end = max(e["position"] for e in amended["new_events"] if e["event"]["command"] == 8)
    line = duel.fails("session", "fork", "duel", "15", "--simulate", "5", code=2)
    assert line == (
        "error: duel: event 15 is part of command #6, which the amend at event 23 replaced "
        f"(hint: fork from event {replacement_end}, where its replacement #8 ends)"
    )
    # the event it names is in the current history: there Vic has missed and Rosa is unhurt
    there = duel.ok("session", "state", "duel", "--at", str(replacement_end))
    assert next(c for c in there["combatants"] if c["id"] == "Rosa")["wounds"] == 70
    assert fork(duel, replacement_end)["from_event"] == replacement_end


def test_an_amend_of_an_amend_names_the_command_that_counts_now(duel: Ua) -> None:
    duel.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8", "--shift", "wounds=-10", "--amend", "6")
    again = duel.ok("session", "attack", "duel", "Rosa", "Vic", "--dice", "1,2", "--amend", "9")
    end = max(e["position"] for e in again["new_events"] if e["event"]["command"] == 10)
    line = duel.fails("session", "fork", "duel", "19", "--simulate", "5", code=2)  # command #7's attack
    assert "event 19 is part of command #7, which the amend at event 23 replaced" in line
    assert f"fork from event {end}, where its replacement #10 ends" in line


def test_a_fork_from_an_undone_command_is_refused_naming_the_last_event_that_counts(duel: Ua) -> None:
    undone = duel.ok("session", "undo", "duel")
    marker = positions(undone)[0]
    line = duel.fails("session", "fork", "duel", "19", "--simulate", "5", code=2)
    assert line == (
        f"error: duel: event 19 is part of command #7, which was undone at event {marker} "
        "(hint: fork from event 17, the last that still counts before it)"
    )
    assert fork(duel, 17)["fights"] == 30
    assert fork(duel, marker) == {**fork(duel, 17), "from_event": marker}  # the marker's point is event 17's


def test_a_fork_before_the_fight_began_is_refused_naming_where_it_begins(duel: Ua) -> None:
    for at in (1, 6, 8):
        line = duel.fails("session", "fork", "duel", str(at), "--simulate", "5", code=2)
        assert line == (
            f"error: duel: event {at} is before the fight began: there is nothing to fight out "
            "(hint: fork from event 11 or later)"
        )
    assert fork(duel, 11)["fights"] == 30
