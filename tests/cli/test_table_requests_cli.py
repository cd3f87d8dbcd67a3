"""`ua session requests|give|cancel|prefer`, `session new --player`, `--dice WHO=…` through typer's
runner (RULES T-2…T-4): off a terminal, a command that waits prints its requests and exits 5,
having written nothing to the log."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_session_cli import SCENARIO, Ua, of_type, ua  # noqa: F401  (the fixture)


def _new(ua: Ua, *extra: str) -> None:  # noqa: F811
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5", *extra)


def test_t3_begin_waits_for_a_played_characters_initiative_and_exits_5(ua: Ua) -> None:  # noqa: F811
    _new(ua, "--player", "Ana:Rosa")
    before = ua.count("duel")
    result = ua("session", "begin", "duel")
    assert result.exit_code == 5, result.stderr
    assert "Rosa.initiative — Ana: Rosa's initiative (I2-1)" in result.stdout
    assert result.stderr.startswith("error: duel: waiting on Rosa.initiative") and "Traceback" not in result.stderr
    assert ua.count("duel") == before  # nothing written
    listed = ua.ok("session", "requests", "duel")
    assert [r["id"] for r in listed["requests"]] == ["Rosa.initiative"] and listed["requests"][0]["owner"] == "Ana"
    # another command while it waits: one line, naming what it waits on
    line = ua.fails("session", "attack", "duel", "Vic", "Rosa", code=3)
    assert "waits on Rosa's initiative (Rosa.initiative)" in line
    waiting = ua("session", "give", "duel", "Rosa.initiative", "--choose", "roll", "--json")
    assert waiting.exit_code == 5 and json.loads(waiting.stdout)["requests"][0]["id"] == "Rosa.1"
    done = ua.ok("session", "give", "duel", "Rosa.1", "--dice", "4,5")
    (rosa,) = [e for e in of_type(done, "initiative_set") if e["id"] == "Rosa"]
    assert rosa["method"] == "roll" and rosa["roll"]["tens"] == 4 and rosa["roll"]["ones"] == 5
    assert ua.ok("session", "requests", "duel")["requests"] == []


def test_dice_given_by_owner_and_standing_choices_answer_at_once(ua: Ua) -> None:  # noqa: F811
    _new(ua, "--players", "Rosa")
    ua.ok("session", "prefer", "duel", "Rosa", "initiative=default")
    ua.ok("session", "begin", "duel")  # the standing choice answers the request at once (T-3)
    ua.ok("session", "next", "duel")  # declarations close: Vic (an NPC) acts first
    ua.ok("session", "npc", "duel")  # drawn at once, nothing asked (T-2)
    # 12 or 21 (an obsession skill, C-11): her player is asked how it is read
    waits = ua("session", "attack", "duel", "Rosa", "Vic", "--dice", "Rosa=1,2", "--json")
    assert waits.exit_code == 5 and json.loads(waits.stdout)["requests"][0]["id"] == "Rosa.flip"
    ua.ok("session", "cancel", "duel")
    ua.ok("session", "prefer", "duel", "Rosa", "flip=better")
    out = ua.ok("session", "attack", "duel", "Rosa", "Vic", "--dice", "Rosa=1,2")
    assert out["dice"][0] == {"roll": "Rosa's attack", "faces": [1, 2]}


def test_bad_answers_are_one_line_and_cancel_drops_the_action(ua: Ua) -> None:  # noqa: F811
    _new(ua, "--player", "Ana:Rosa")
    assert ua("session", "begin", "duel").exit_code == 5
    assert "is one of" in ua.fails("session", "give", "duel", "Rosa.initiative", "--choose", "fly", code=2)
    assert "no open request" in ua.fails("session", "give", "duel", "Rosa.9", "--dice", "1,2", code=2)
    assert "unknown standing choice" in ua.fails("session", "prefer", "duel", "Rosa", "luck=always", code=2)
    assert "not a played character" in ua.fails("session", "prefer", "duel", "Vic", "roll_for_me=all", code=2)
    assert "PLAYER:CHARACTER" in ua.fails(
        "session", "new", "x", "--scenario", str(SCENARIO), "--player", "Rosa", code=2
    )
    ua.ok("session", "cancel", "duel")
    assert "waits on nothing" in ua.fails("session", "cancel", "duel", code=3)


def test_act_names_no_one_so_it_never_acts_for_an_npc_whose_turn_it_is(ua: Ua) -> None:  # noqa: F811
    """The full-auto ambush: the crew (NPCs) declare, the police too; on Vasquez's turn a bare
    `act` is refused, naming `npc`; `act Vasquez` is the GM acting for him."""
    from tests.cli.test_ua3_session_cli import AMBUSH

    ua.ok("session", "new", "amb", "--scenario", str(AMBUSH), "--seed", "7")
    ua.ok("session", "begin", "amb")
    ua.ok("session", "declare-action", "amb", "Dana", "nothing")
    ua.ok("session", "declare-action", "amb", "Sam", "nothing")
    state = ua.ok("session", "state", "amb")
    assert state["turn"] == "Vasquez"
    line = ua.fails("session", "act", "amb", code=3)
    assert "an NPC's" in line and "ua session npc amb" in line
    ua.ok("session", "act", "amb", "Vasquez")


def test_t3_a_play_line_that_would_wait_is_refused_naming_the_roll(ua: Ua, tmp_path: Path) -> None:  # noqa: F811
    """A file of commands never waits: a line that needs a played character's roll it does not
    give is refused, naming it, and the lines before it stand."""
    _new(ua, "--player", "Ana:Rosa")
    script = tmp_path / "night.jsonl"
    script.write_text(
        '{"command": "begin_fight", "initiative": [{"id": "Rosa", "method": "default"}]}\n'
        '{"command": "declare", "declarations": []}\n'
        '{"command": "attack", "actor": "Vic", "target": "Rosa"}\n'
        '{"command": "attack", "actor": "Rosa", "target": "Vic"}\n'
    )
    line = ua.fails("session", "play", "duel", str(script), code=3)
    assert "command 4 of 4 is refused" in line and "Rosa's attack" in line and "never waits" in line
    assert ua.ok("session", "requests", "duel")["requests"] == []  # nothing kept waiting either
    assert ua.ok("session", "state", "duel")["turn"] == "Rosa"  # lines 1–3 stand: Vic shot
