"""A fight that starts with a helpless combatant (issue 27): a scenario's `condition` —
restrained (a bound prisoner), unconscious (a guard out cold) or frozen — is an event at setup
(it folds and replays), shown in the state, honoured by the rules (C2-33, U-10, U-22) and by
the fight's end: unconscious is not standing; restrained and frozen stand, helpless."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.scenario.files import FileError
from engine.scenario.ua3_scenario import load_ua3_scenario
from tests.cli.test_session_cli import Ua

CAPTOR = '[[combatants]]\nid = "Agnes"\nside = "captors"\ntactics = "executioner"\ncharacter = { name = "Agnes" }\n'


def _scenario(tmp_path: Path, *others: tuple[str, str, str]) -> str:
    """Agnes the executioner against `others`: (id, side, condition) each."""
    text = 'title = "The cellar"\nruleset = "ua3"\nplayers = "captors"\n' + CAPTOR
    for who, side, condition in others:
        text += f'[[combatants]]\nid = "{who}"\nside = "{side}"\ncharacter = {{ name = "{who}" }}\n'
        text += f'condition = "{condition}"\n' if condition else ""
    path = tmp_path / "cellar.toml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


def _fight(ua: Ua, scenario: str, index: int = 0) -> list[dict[str, Any]]:
    saved = ua.dir / f"fight{index}.jsonl"
    result = ua("fight", scenario, "--seed", "1", "--index", str(index), "--save", str(saved), "--force")
    assert result.exit_code == 0, result.stderr
    verified = ua("replay", str(saved), "--verify")
    assert verified.exit_code == 0 and "verified" in verified.stdout  # it folds and re-decides
    return [json.loads(line)["data"] for line in saved.read_text().splitlines()]


def test_c2_33_a_bound_prisoner_starts_the_fight_standing_and_helpless_and_is_finished(ua: Ua) -> None:
    """U-10: restrained, the prisoner can be finished; the finisher takes the rank 7 check."""
    events = _fight(ua, _scenario(ua.dir, ("Pete", "prisoner", "restrained")))
    types = [e["type"] for e in events]
    started = types.index("ua3_started_helpless")
    assert started < types.index("ua3_round_started")  # at setup, before round 1
    assert events[started]["condition"] == "restrained"
    finish = [e for e in events if e["type"] == "ua3_attack_rolled"]
    assert finish and all(e["mode"] == "finish" and e["targets"] == ["Pete"] for e in finish)
    (ended,) = [e for e in events if e["type"] == "ua3_fight_ended"]
    assert ended["winner"] == "captors" and ended["round"] >= 1  # not over at round 0
    assert any(e["type"] == "ua3_status_changed" and e["status"] == "dead" for e in events)  # fight 0 of seed 1
    checks = [e for e in events if e["type"] == "ua3_stress_check" and e["actor"] == "Agnes"]
    assert [(c["gauge"], c["rank"]) for c in checks] == [("violence", 7)]  # U-10: doing it


def test_a_batch_of_bound_prisoners_is_never_over_at_round_0_and_refuses_nothing(ua: Ua) -> None:
    report = ua.ok("simulate", _scenario(ua.dir, ("Pete", "prisoner", "restrained")), "-n", "200", "--seed", "1")
    assert report["refused_commands"] == 0 and report["rounds"]["min"] >= 1
    assert report["sides"]["captors"]["rate"] == 1.0 and report["combatants"]["Pete"]["dead"]["rate"] > 0.5
    assert not [w for w in report["warnings"] if "round 0" in w]
    agnes = report["combatants"]["Agnes"]["meters"]["violence"]
    assert agnes["notches_mean"] > 0  # U-10: the rank 7 check for killing the helpless


def test_unconscious_is_not_standing_restrained_and_frozen_are(ua: Ua) -> None:
    scenario = _scenario(
        ua.dir, ("Sleepy", "guards", "unconscious"), ("Bound", "guards", "restrained"), ("Stiff", "guards", "frozen")
    )
    ua.ok("session", "new", "gh", "--scenario", scenario, "--players", "", "--seed", "2")
    state = {c["id"]: c for c in ua.ok("session", "state", "gh")["combatants"]}
    assert state["Sleepy"]["status"] == "unconscious"
    assert (state["Bound"]["status"], state["Bound"]["restrained_by"]) == ("active", "bonds")
    assert (state["Stiff"]["status"], state["Stiff"]["reaction"]["kind"]) == ("active", "freeze")
    shown = ua("session", "state", "gh", "--db", str(ua.db)).stdout
    assert "restrained by bonds" in shown and "freeze" in shown
    begun = ua.ok("session", "begin", "gh")  # two sides standing: the fight runs
    assert not [e for e in begun["events"] if e["type"] == "ua3_fight_ended"]
    declared = [e["event"] for t in begun["then"] for e in t["events"] if e["type"] == "ua3_action_declared"]
    assert [d["actor"] for d in declared if d["action"] != "nothing"] == ["Agnes"]  # the helpless act not
    out = ua.ok("session", "npc", "gh", "--all")
    assert out["phase"] == "ended"
    (ended,) = [e["event"] for t in out["turns"] for e in t["events"] if e["type"] == "ua3_fight_ended"]
    # seed 2: Agnes finishes Sleepy first, fails her rank 7 check and freezes; the restrained and
    # the frozen see it and freeze too: no one standing can act, a draw (C2-33) — in round 1
    assert (ended["winner"], ended["round"]) == (None, 1) and "no one standing can act" in ended["reason"]


def test_a_side_of_only_the_unconscious_is_down_before_round_1(ua: Ua) -> None:
    """C2-33: unconscious is not standing — only one side stands, there is no fight to begin."""
    scenario = _scenario(ua.dir, ("Sleepy", "guards", "unconscious"))
    ua.ok("session", "new", "one", "--scenario", scenario, "--seed", "2")
    assert "two sides" in ua.fails("session", "begin", "one")
    checked = ua.ok("scenario", "check", scenario, "--trial", "5")
    assert checked["trial"]["refusals"]["fights"] == 5  # the trial says so, not silently


def test_no_one_able_to_act_ends_the_fight_at_once_rather_than_looping(ua: Ua, tmp_path: Path) -> None:
    """C2-33: a restrained prisoner and a frozen captor: no standing combatant can act — a draw
    in round 1."""
    path = tmp_path / "stuck.toml"
    path.write_text(
        'title = "Stuck"\nruleset = "ua3"\n'
        '[[combatants]]\nid = "A"\nside = "x"\ncondition = "frozen"\ncharacter = { name = "A" }\n'
        '[[combatants]]\nid = "B"\nside = "y"\ncondition = "restrained"\ncharacter = { name = "B" }\n'
    )
    report = ua.ok("simulate", str(path), "-n", "20", "--seed", "1")
    assert report["draws"]["count"] == 20 and report["rounds"]["max"] == 1


def test_a_starting_condition_is_checked_when_the_scenario_loads(tmp_path: Path) -> None:
    path = Path(_scenario(tmp_path, ("Pete", "prisoner", "asleep")))
    with pytest.raises(FileError) as bad:
        load_ua3_scenario(path)
    assert bad.value.json_path == "$.combatants[1].condition"
    frozen = load_ua3_scenario(Path(_scenario(tmp_path, ("Pete", "prisoner", "frozen"))))
    assert frozen.fighters[1].condition == "frozen"


def test_the_ua3_scenario_schema_names_the_conditions(ua: Ua) -> None:
    result = ua("scenario", "schema", "--ruleset", "ua3")
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    condition = schema["$defs"]["Ua3CombatantSpec"]["properties"]["condition"]
    assert {"enum": ["frozen", "restrained", "unconscious"]} in condition["anyOf"]
