"""ua3 fights as sessions (U-22): `ua session new` from a ua3 scenario, the NPCs acting by
their tactics (`ua session npc`), the players' own commands (`ua session play`), undo, and the
log re-deciding command by command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from engine.cli.app import app
from engine.events.ua3 import GridironRolled
from engine.session.live import LiveEncounter, read_records
from engine.session.verify import verify
from engine.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "scenarios" / "ua3" / "full-auto-ambush.toml"
GARAGE = ROOT / "scenarios" / "ua3" / "garage-grapple.toml"
runner = CliRunner()


def ua(tmp_path: Path, *args: str) -> Any:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout) if "--json" in args else result.stdout


def session(tmp_path: Path) -> LiveEncounter:
    return LiveEncounter(SqliteStore(tmp_path / "s.sqlite"), "ambush")


def test_npcs_fight_a_whole_ua3_fight_by_their_tactics_and_the_log_re_decides(tmp_path: Path) -> None:
    """With no players (`--players ""`), every combatant acts by the scenario's tactics (U-22)."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "7", "--players", "", "--json")
    ua(tmp_path, "session", "begin", "ambush", "--json")
    out = ua(tmp_path, "session", "npc", "ambush", "--all", "--json")
    assert out["phase"] == "ended" and out["turns"]
    live = session(tmp_path)
    assert live.state.ruleset == "ua3" and live.state.fight.result is not None
    assert verify(live.records).ok
    ua(tmp_path, "session", "undo", "ambush")  # the command that ended the fight
    assert session(tmp_path).state.fight.phase != "ended"


def test_the_npcs_declare_first_and_stop_for_the_players(tmp_path: Path) -> None:
    """U-22: the crew declares as the round opens; the police (the players) declare after,
    then the round runs, the NPCs acting until a police officer's turn."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "7", "--json")
    out = ua(tmp_path, "session", "begin", "ambush", "--json")
    declared = [e for t in out["then"] for e in t["events"] if e["type"] == "ua3_action_declared"]
    assert {e["event"]["actor"] for e in declared} == {"Vasquez", "Dink"}
    assert session(tmp_path).state.fight.phase == "declare"
    assert "the players declare" in ua(tmp_path, "session", "npc", "ambush")
    script = tmp_path / "police.jsonl"
    script.write_text(
        json.dumps(
            {
                "command": "ua3_declare",
                "declarations": [
                    {"actor": "Dana", "action": "attack", "targets": ["Vasquez"]},
                    {"actor": "Sam", "action": "dodge"},
                ],
            }
        )
        + "\n"
    )
    ua(tmp_path, "session", "play", "ambush", str(script))
    assert session(tmp_path).state.fight.phase == "acting"
    ua(tmp_path, "session", "npc", "ambush", "--all", "--json")
    state = session(tmp_path).state
    now = state.fight.order[state.fight.turn] if state.fight.phase == "acting" else None
    assert state.fight.phase != "acting" or now in ("Dana", "Sam")


def test_players_declare_and_carry_out_their_actions_with_their_own_dice(tmp_path: Path) -> None:
    """U-22: each player declares by its own command; the order is set once all have; on her
    turn `act` carries out what she declared, reading her faces (U-5: a gun's wounds are the
    roll). Options a command does not take are refused, not dropped."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "3")
    ua(tmp_path, "session", "begin", "ambush")
    ua(tmp_path, "session", "declare-action", "ambush", "dana", "attack", "vasquez")
    assert session(tmp_path).state.fight.phase == "declare"  # Sam has not declared yet
    ua(tmp_path, "session", "declare-action", "ambush", "Sam", "dodge")
    state = session(tmp_path).state
    assert state.fight.phase == "acting" and state.fight.order[0] == "Dana"  # Beat cop 55 goes first
    wide = runner.invoke(
        app, ["session", "state", "ambush", "--db", str(tmp_path / "s.sqlite")], env={"COLUMNS": "200"}
    )
    tracker = wide.stdout
    assert "round 1: actions in declared order" in tracker and "▶" in tracker and "attack → Vasquez" in tracker
    refused = runner.invoke(app, ["session", "act", "ambush", "--burst", "long", "--db", str(tmp_path / "s.sqlite")])
    assert refused.exit_code != 0 and "--burst does not apply to ua3_attack" in refused.stderr
    out = ua(tmp_path, "session", "act", "ambush", "--dice", "2,3", "--json")
    rolled = next(e["event"] for e in out["events"] if e["type"] == "ua3_attack_rolled")
    assert rolled["attacker"] == "Dana" and rolled["wounds"] == [23]
    assert next(c for c in session(tmp_path).state.combatants if c.id == "Vasquez").wounds == 23
    late = runner.invoke(app, ["session", "act", "ambush", "Sam", "--db", str(tmp_path / "s.sqlite")])
    assert late.exit_code != 0 and "it is Vasquez's turn, not Sam's" in late.stderr


def test_a_ua3_session_forks_into_fights_from_where_the_table_left_it(tmp_path: Path) -> None:
    """A what-if from the middle of a ua3 fight: the rest fought out by the scenario's tactics."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "3")
    ua(tmp_path, "session", "begin", "ambush")
    ua(tmp_path, "session", "declare-action", "ambush", "Dana", "attack", "Vasquez")
    ua(tmp_path, "session", "declare-action", "ambush", "Sam", "dodge")
    at = str(session(tmp_path).version)
    out = ua(tmp_path, "session", "fork", "ambush", at, "--simulate", "30", "--seed", "1", "--json")
    assert out["fights"] == 30 and sum(e["count"] for e in out["endings"]) == 30


def garage(tmp_path: Path) -> Any:
    """The garage session's state now."""
    return LiveEncounter(SqliteStore(tmp_path / "s.sqlite"), "g").state


def garage_events(tmp_path: Path) -> list[Any]:
    return [e for _, e in read_records(SqliteStore(tmp_path / "s.sqlite"), "g")]


def test_at_the_table_a_grappled_player_declares_its_grapple_and_cannot_sit_it_out(tmp_path: Path) -> None:
    """U-17, U-22: in the garage, Knuckles (an NPC) grabs Vasquez (a player) in round 1. In round
    2 the NPCs declare their grapples as the round opens; Vasquez may not declare nothing or an
    attack (one clear line, U-17, nothing recorded), the GM's `declare-action Knuckles grapple`
    stands as made, and `declare-action Vasquez grapple` sets the order. On his turn `next`
    (doing nothing) is refused, and his `act` is his exchange roll."""
    db = ("--db", str(tmp_path / "s.sqlite"))
    ua(tmp_path, "session", "new", "g", "--scenario", str(GARAGE), "--seed", "3", "--players", "Vasquez")
    ua(tmp_path, "session", "prefer", "g", "Vasquez", "roll_for_me=all")  # T-3: the seed rolls what he does not give
    ua(tmp_path, "session", "begin", "g")
    ua(tmp_path, "session", "declare-action", "g", "Vasquez", "full_auto", "Knuckles", "Moose")
    ua(tmp_path, "session", "npc", "g", "--all")
    state = garage(tmp_path)
    assert state.fight.order[state.fight.turn] == "Vasquez"
    assert any(c.kind == "grapple" and c.result is None for c in state.conflicts)
    ua(tmp_path, "session", "act", "g", "--dice", "9,0")
    ua(tmp_path, "session", "npc", "g", "--all")
    state = garage(tmp_path)
    assert state.fight.phase == "declare" and state.fight.round == 2
    for action in (["nothing"], ["attack", "Knuckles"]):
        refused = runner.invoke(app, ["session", "declare-action", "g", "Vasquez", *action, *db])
        assert refused.exit_code != 0 and "U-17" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert garage(tmp_path).version == state.version
    ua(tmp_path, "session", "declare-action", "g", "Knuckles", "grapple")
    ua(tmp_path, "session", "declare-action", "g", "Vasquez", "grapple")
    state = garage(tmp_path)
    assert state.fight.phase == "acting" and "Vasquez" in state.fight.order
    ua(tmp_path, "session", "npc", "g", "--all")
    state = garage(tmp_path)
    assert state.fight.phase == "acting" and state.fight.order[state.fight.turn] == "Vasquez"
    refused = runner.invoke(app, ["session", "next", "g", *db])
    assert refused.exit_code != 0 and "U-17" in refused.stderr
    ua(tmp_path, "session", "act", "g", "--dice", "9,0")
    rolled = [e for e in garage_events(tmp_path) if isinstance(e, GridironRolled)]
    assert [e.actor for e in rolled][-1] == "Vasquez" and len([e for e in rolled if e.actor == "Vasquez"]) == 2


def test_a_player_calls_a_limb_shot_that_halves_movement(tmp_path: Path) -> None:
    """U-9: the shooter's choice, `act --called limb --limb halve_movement`: 23 against Beat cop
    55 − 20 hits; Vasquez keeps his gun and his movement is halved, shown in the tracker."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "3")
    ua(tmp_path, "session", "begin", "ambush")
    ua(tmp_path, "session", "declare-action", "ambush", "Dana", "attack", "Vasquez")
    ua(tmp_path, "session", "declare-action", "ambush", "Sam", "dodge")
    out = ua(
        tmp_path, "session", "act", "ambush", "--called", "limb", "--limb", "halve_movement", "--dice", "2,3", "--json"
    )
    assert any(e["type"] == "ua3_movement_halved" for e in out["events"])
    vasquez = next(c for c in session(tmp_path).state.combatants if c.id == "Vasquez")
    assert vasquez.movement_halved and vasquez.in_hand == "submachine gun"
    wide = runner.invoke(
        app, ["session", "state", "ambush", "--db", str(tmp_path / "s.sqlite")], env={"COLUMNS": "250"}
    )
    assert "movement halved by a limb shot (U-9)" in wide.stdout
    bad = runner.invoke(app, ["session", "act", "ambush", "--limb", "sideways", "--db", str(tmp_path / "s.sqlite")])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
