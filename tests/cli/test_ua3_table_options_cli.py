"""What the table reaches from the command line in a ua3 fight (issue 27): a fist's matched
failure choice (`act --fists-miss`, U-3), the tie dice of the declaration that sets the order
(`declare-action --tie-dice`, U-22, I2-4), the coercer's passion in play (`act --passion`,
U-15 (4)), a stress check's rank before or after its gauge or with a sample (U-23, U-25), and
the GM's end of a conflict (`conflict-end`, U-16, U-17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_session_cli import Ua

ROOT = Path(__file__).resolve().parents[2]
CHURCH = ROOT / "scenarios" / "ua3" / "the-hollow-church.toml"
BRAWL = ROOT / "scenarios" / "ua3" / "back-alley-brawl.toml"
TWINS = """title = "Twins"
ruleset = "ua3"
players = "a"
[[combatants]]
id = "Ann"
side = "a"
character = { name = "Ann", passions = [{ kind = "rage", trigger = "liars" }] }
[[combatants]]
id = "Bea"
side = "a"
character = { name = "Bea" }
[[combatants]]
id = "Cy"
side = "b"
tactics = "cautious"
character = { name = "Cy" }
"""


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


def _twins(ua: Ua) -> None:
    """Ann and Bea (players) against Cy: all three at Struggle 20, so the order is all ties."""
    scenario = ua.dir / "twins.toml"
    scenario.write_text(TWINS)
    ua.ok("session", "new", "tw", "--scenario", str(scenario), "--players", "Ann,Bea", "--seed", "3")
    ua.ok("session", "begin", "tw")  # Cy declares as the round opens


def _types(out: dict[str, Any]) -> list[str]:
    return [e["type"] for e in out["events"]]


def test_u22_the_declaration_that_sets_the_order_takes_the_tie_dice(ua: Ua) -> None:
    """I2-4: a die each — Ann 3, Bea 7, Cy 5: Bea first; Ann and Cy, still tied at 19, again:
    Ann 2, Cy 1."""
    _twins(ua)
    early = ua.fails("session", "declare-action", "tw", "Ann", "attack", "Cy", "--tie-dice", "3,7")
    assert early.startswith("error: --tie-dice:") and "reads 0 dice" in early  # Bea has yet to declare
    ua.ok("session", "declare-action", "tw", "Ann", "attack", "Cy")
    before = ua.count("tw")
    # the dice run out: the next tie die is Ann's, a player's, so it is asked of her (T-3), and
    # nothing is written until she answers or the GM drops the action
    short = ua.fails("session", "declare-action", "tw", "Bea", "attack", "Cy", "--tie-dice", "3,7,5", code=5)
    assert "Ann's tie-breaking die" in short and ua.count("tw") == before
    ua.ok("session", "cancel", "tw")
    out = ua.ok("session", "declare-action", "tw", "Bea", "attack", "Cy", "--tie-dice", "3,7,5,2,1")
    (order,) = [e["event"] for e in out["events"] if e["type"] == "ua3_order_set"]
    assert order["order"] == ["Bea", "Ann", "Cy"] and order["ratings"] == [20, 19, 18]
    assert order["faces"] == [3, 7, 5, 2, 1] and out["table_dice"] == 5


def test_u3_act_fists_miss_chooses_what_a_matched_failure_costs(ua: Ua) -> None:
    _twins(ua)
    ua.ok("session", "declare-action", "tw", "Ann", "attack", "Cy")
    ua.ok("session", "declare-action", "tw", "Bea", "attack", "Cy", "--tie-dice", "3,7,5,2,1")
    opened = ua.ok("session", "act", "tw", "Bea", "--dice", "3,3", "--fists-miss", "opening")  # 33 over 20
    assert "ua3_opening_given" in _types(opened) and "ua3_penalty_taken" not in _types(opened)
    assert "Cy gets +10 on its next attack on Bea (U-3)" in " ".join(e["explanation"] for e in opened["events"])
    penalty = ua.ok("session", "act", "tw", "Ann", "--dice", "4,4", "--fists-miss", "penalty")
    assert "ua3_opening_given" not in _types(penalty)
    state = ua.ok("session", "state", "tw")
    ann, bea = state["combatants"][0], state["combatants"][1]
    assert bea["openings"] == ["Cy"] and [s["amount"] for s in ann["next_roll"]] == [-10]
    ua.fails("session", "act", "tw", "--fists-miss", "sideways")


def test_u15_act_passion_on_a_declared_coercion_is_the_coercers_in_play_plus_one_rank(ua: Ua) -> None:
    _twins(ua)
    ua.ok("session", "declare-action", "tw", "Ann", "coerce", "Cy", "--gauge", "violence")
    ua.ok("session", "declare-action", "tw", "Bea", "nothing", "--tie-dice", "1,5")  # Ann 1, Cy 5: Cy first
    ua.ok("session", "npc", "tw")
    bad = ua.fails("session", "act", "tw", "Ann", "--passion", "rage", "--passion-mode", "flip", "--threat", "x")
    assert "--passion-mode" in bad
    assert "no fear passion" in ua.fails("session", "act", "tw", "Ann", "--passion", "fear", "--threat", "x")
    out = ua.ok("session", "act", "tw", "Ann", "--threat", "a broken arm", "--passion", "rage", "--dice", "1,5")
    (rolled,) = [e["event"] for e in out["events"] if e["type"] == "ua3_coercion"]
    assert rolled["coercer_passions"] == ["rage"] and rolled["rank"] == 2  # 15 under 20: 1, +1 (U-15 (4))


@pytest.mark.parametrize(
    "args",
    [
        ("violence", "4"),
        ("4", "violence"),
        ("--sample", "violence: kill someone in a fight", "4"),
        ("4", "--sample", "violence: kill someone in a fight"),
        ("violence", "4", "--sample", "violence: kill someone in a fight"),
    ],
)
def test_u23_a_stress_checks_rank_comes_before_or_after_its_gauge_or_with_a_sample(ua: Ua, args: tuple[str]) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "7")
    out = ua.ok("session", "stress", "church", "Dana", *args, "--dice", "2,9")
    (check,) = [e["event"] for e in out["events"] if e["type"] == "ua3_stress_check"]
    assert (check["gauge"], check["rank"]) == ("violence", 4)


@pytest.mark.parametrize("args", [("violence", "violence"), ("3", "4"), ("violence", "x3")])
def test_a_stress_check_given_two_gauges_or_two_ranks_is_one_line(ua: Ua, args: tuple[str]) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "7")
    assert "give one gauge and one rank" in ua.fails("session", "stress", "church", "Dana", *args, code=2)


def test_u16_conflict_end_ends_a_conflict_and_hands_a_grapple_to_its_rules(ua: Ua) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "3")
    ua.ok("session", "conflict", "church", "--a", "Dana:Connect:home", "--b", "the crowd=40:riot")
    ended = ua.ok("session", "conflict-end", "church", "--winner", "b", "--reason", "the police arrive")
    (event,) = [e["event"] for e in ended["events"] if e["type"] == "ua3_conflict_ended"]
    assert (event["winner"], event["stake"], event["how"]) == ("b", "riot", "gm")
    ua.ok("session", "new", "brawl", "--scenario", str(BRAWL), "--players", "", "--seed", "7")
    ua.ok("session", "begin", "brawl")
    while not ua.ok("session", "state", "brawl")["conflicts"]:
        ua.ok("session", "npc", "brawl")
    before = ua.count("brawl")
    ended = ua.ok("session", "conflict-end", "brawl", "grapple-1", "--winner", "b", "--reason", "pulled apart")
    assert [e["type"] for e in ended["events"]] == ["command_recorded", "ua3_conflict_ended"]
    assert ua.count("brawl") > before
    conflicts = ua.ok("session", "state", "brawl")["conflicts"]
    assert conflicts[0]["result"] is not None  # U-17: the GM ended the grapple; both grapplers are free
