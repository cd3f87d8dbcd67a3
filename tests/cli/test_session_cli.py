"""`ua session …`, `ua replay` and `ua audit` through typer's runner, on a database in tmp_path:
a GM's evening with the knife-vs-.22 duel, then every way it can go wrong (one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engine.cli.app import app
from tests.logs import resign

runner = CliRunner()
SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "knife-vs-22.toml"


class Ua:
    """`ua` with `--db` in a temporary directory."""

    def __init__(self, tmp_path: Path) -> None:
        self.dir = tmp_path
        self.db = tmp_path / "sessions.sqlite"

    def __call__(self, *args: str) -> Result:
        db = ["--db", str(self.db)] if args[0] in ("session", "audit") else []
        return runner.invoke(app, [*args, *db])

    def ok(self, *args: str) -> Any:
        """Run with --json; the parsed output."""
        result = self(*args, "--json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    def fails(self, *args: str, code: int | None = None) -> str:
        """Run expecting one error line and a non-zero exit code; that line."""
        result = self(*args)
        assert result.exit_code != 0, result.stdout
        if code is not None:
            assert result.exit_code == code, result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.stdout + result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("error: ")
        return lines[0]

    def count(self, name: str) -> int:
        """How many events the session has (0 if there is no such session)."""
        sessions = {s["name"]: s["events"] for s in self.ok("session", "list")["sessions"]}
        return int(sessions.get(name, 0))


def positions(out: dict[str, Any]) -> list[int]:
    return [e["position"] for e in out["events"]]


def of_type(out: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e["event"] for e in out["events"] if e["type"] == kind]


def combatant(state: dict[str, Any], id_: str) -> dict[str, Any]:
    return next(c for c in state["combatants"] if c["id"] == id_)


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


@pytest.fixture
def duel(ua: Ua) -> Ua:
    """The duel set up (events 1–6), begun (7–11) and declared (12–13): Vic to act."""
    new = ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5")
    assert (new["session"], new["seed"], positions(new)) == ("duel", 5, [1, 2, 3, 4, 5, 6])
    begun = ua.ok("session", "begin", "duel")
    assert begun["turn"] is None and positions(begun)[0] == 7
    declared = ua.ok("session", "next", "duel")
    assert declared["turn"] == "Vic"
    assert ua.count("duel") == 13
    return ua


def fight_one_round(ua: Ua) -> None:
    """Vic shoots Rosa (58: 30 wounds, capped by the .22), Rosa misses (59 > 55), her knife cuts 1."""
    shot = ua.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8")
    (hit,) = of_type(shot, "attack_resolved")
    assert (hit["hit"]["amount"], hit["hit"]["wounds_after"], shot["turn"]) == (30, 40, "Rosa")
    assert positions(shot) == [14, 15, 16, 17]  # command #6
    cut = ua.ok("session", "attack", "duel", "Rosa", "Vic", "--dice", "5,9")
    assert of_type(cut, "attack_resolved")[0]["result"]["outcome"] == "failure"
    assert positions(cut)[0] == 18  # command #7
    assert cut["turn"] is None  # round 2 is declaring
    assert ua.count("duel") == 22


# -- a session at the table -----------------------------------------------------------------


def test_a_gm_runs_attacks_undo_redo_and_reads_the_state(duel: Ua) -> None:
    fight_one_round(duel)
    state = duel.ok("session", "state", "duel")
    rosa, vic = combatant(state, "Rosa"), combatant(state, "Vic")
    assert (rosa["wounds"], rosa["wound_shift"], vic["wounds"]) == (40, -10, 54)
    assert (state["fight"]["phase"], state["fight"]["round"], state["turn"]) == ("declare", 2, None)

    undone = duel.ok("session", "undo", "duel")
    assert undone["events"][0]["type"] == "command_undone" and undone["events"][0]["event"]["id"] == 7
    assert "Vic: wounds 54 → 55 (+1)" in undone["changes"]
    assert duel.ok("session", "state", "duel")["turn"] == "Rosa"
    redone = duel.ok("session", "redo", "duel")
    assert "Vic: wounds 55 → 54 (-1)" in redone["changes"]
    assert duel.ok("session", "state", "duel") == state

    assert duel.fails("session", "redo", "duel", code=3) == (
        "error: there is nothing to redo (hint: redo only follows undo, before any new command)"
    )


def test_an_action_amended_with_a_wound_shift_re_resolves_what_followed(duel: Ua) -> None:
    fight_one_round(duel)
    amended = duel.ok(
        "session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8", "--shift", "wounds=-10", "--amend", "6"
    )
    # with −10 Vic misses; Rosa, unhurt, hits with the same 5,9: 5+9+3 = 17
    assert amended["changes"] == ["Rosa: wounds 40 → 70 (+30)", "Vic: wounds 54 → 38 (-16)"]
    assert any("Vic attacks Rosa" in line and "58" in line for line in amended["old_events"])
    assert amended["new_events"][0]["position"] == 24  # after the marker at 23
    recorded = [e["event"] for e in amended["new_events"] if e["type"] == "command_recorded"]
    assert [(r["id"], r["dice_used"]) for r in recorded] == [(8, [5, 8]), (9, [5, 9])]

    # the same through a command given as JSON: Rosa rolled 12, not 59
    command = json.dumps({"command": "attack", "actor": "Rosa", "target": "Vic", "dice": [1, 2]})
    again = duel.ok("session", "amend", "duel", "9", "--command", command)
    assert again["changes"] == ["Vic: wounds 38 → 49 (+11)"]  # 1+2+3 = 6
    log = duel.ok("session", "log", "duel", "--type", "command_amended")["lines"]
    assert [line["position"] for line in log] == [23, 32]


def test_the_log_filters_and_the_state_at_an_event(duel: Ua) -> None:
    fight_one_round(duel)
    attacks = duel.ok("session", "log", "duel", "--type", "attack_resolved")["lines"]
    assert [(a["position"], a["round"], a["command"]) for a in attacks] == [(15, 1, 6), (19, 1, 7)]
    assert attacks[0]["odds"] == "Vic had 83%"
    about_vic = duel.ok("session", "log", "duel", "--combatant", "Vic")["lines"]
    assert about_vic and all("Vic" in line["explanation"] for line in about_vic)
    round_2 = duel.ok("session", "log", "duel", "--round", "2")["lines"]
    assert [line["type"] for line in round_2] == ["round_started"]
    plain = duel.ok("session", "log", "duel", "--events-only")["lines"]
    with_commands = duel.ok("session", "log", "duel")["lines"]  # each command heads its events
    assert len(with_commands) - len(plain) == 7  # one record per command
    assert "command_recorded" not in {line["type"] for line in plain}

    duel.ok("session", "undo", "duel")
    struck = [line for line in duel.ok("session", "log", "duel")["lines"] if line["struck"]]
    assert struck and {line["note"] for line in struck} == {"undone at event 23"}

    set_up = duel.ok("session", "state", "duel", "--at", "6")
    assert set_up["fight"]["phase"] == "setup" and combatant(set_up, "Rosa")["wounds"] == 70
    shot = duel.ok("session", "state", "duel", "--at", "17")
    assert (combatant(shot, "Rosa")["wounds"], shot["turn"]) == (40, "Rosa")


def test_export_import_replay_verify_audit_and_fork(duel: Ua) -> None:
    fight_one_round(duel)
    duel.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "9,9", "--amend", "6")
    file = duel.dir / "duel.jsonl"
    exported = duel("session", "export", "duel", str(file))
    assert exported.exit_code == 0 and "31 events written" in exported.stdout
    imported = duel("session", "import", str(file), "copy")
    assert imported.exit_code == 0, imported.stderr
    assert duel.ok("session", "state", "copy") == duel.ok("session", "state", "duel")
    assert duel.count("copy") == 31

    replayed = duel.ok("replay", str(file), "--verify")
    assert replayed["verified"] == {"ok": True, "commands": 9, "mismatch": ""}
    live = duel.ok("session", "state", "duel")
    assert live.pop("table")["requests"] == []  # who plays and what waits: the session's, not the log's
    assert replayed["state"] == live

    audit = duel.ok("audit", "duel")
    assert audit == duel.ok("audit", "--file", str(file))
    assert audit["luck"]["Vic"]["checks"] == 1 and audit["luck"]["Vic"]["successes"] == 0  # 99 misses
    assert audit["fairness"]["table_dice"]["faces"] == 4  # 9,9 and 5,9: superseded dice count once

    fork = duel.ok("session", "fork", "duel", "13", "--simulate", "20", "--seed", "3")
    assert (fork["fights"], fork["from_event"], fork["seed"]) == (20, 13, 3)
    assert sum(side["wins"] for side in fork["sides"].values()) + fork["draws"]["count"] == 20


def test_next_moves_on_when_the_fighter_whose_turn_it_is_was_frozen(ua: Ua) -> None:
    ua.ok("session", "new", "brawl", "--scenario", str(SCENARIO.parent / "bar-brawl.toml"), "--seed", "5")
    ua.ok("session", "begin", "brawl")
    frozen = ua.ok("session", "next", "brawl")["turn"]
    checked = ua.ok("session", "madness", "brawl", frozen, "violence", "10", "--reaction", "freeze", "--dice", "9,9")
    assert any("with freeze" in e["explanation"] for e in checked["events"])
    turn = checked["turn"]
    assert turn is not None and turn != frozen  # the turn has passed on (M2-7)
    assert ua.ok("session", "state", "brawl")["turn"] == turn
    moved = ua.ok("session", "next", "brawl")  # the frozen fighter cannot "do nothing": the next one does
    issued = moved["events"][0]["event"]["issued"]
    assert (issued["command"], issued["actor"]) == ("do_nothing", turn)


# -- errors: one line, a non-zero exit code, nothing written -------------------------------


def test_an_unknown_session_is_named(ua: Ua) -> None:
    line = ua.fails("session", "state", "nope", code=2)
    assert line.startswith("error: no session 'nope' in ") and "ua session list" in line
    ua.fails("session", "attack", "nope", "Vic", "Rosa", code=2)


@pytest.mark.parametrize("at", ["0", "14", "-1"])
def test_a_bad_event_number_for_at_or_fork_is_refused(duel: Ua, at: str) -> None:
    assert duel.fails("session", "state", "duel", "--at", at, code=2) == (
        f"error: --at: no event {at} in session 'duel' (hint: 1 to 13)"
    )
    if not at.startswith("-"):
        assert duel.fails("session", "fork", "duel", at, "--simulate", "5", code=2) == (
            f"error: duel: no event {at} in session 'duel' (hint: 1 to 13)"
        )


def test_an_action_out_of_turn_is_refused_and_writes_nothing(duel: Ua) -> None:
    assert duel.fails("session", "attack", "duel", "Rosa", "Vic", "--dice", "4,7", code=3) == (
        "error: it is Vic's turn, not Rosa's (hint: act in initiative order)"
    )
    assert duel.count("duel") == 13


def test_an_amend_that_no_longer_makes_sense_is_refused_and_writes_nothing(duel: Ua) -> None:
    fight_one_round(duel)
    line = duel.fails("session", "attack", "duel", "Vic", "Rosa", "--dice", "0,1", "--amend", "6", code=3)
    # a crit kills Rosa: her attack after it cannot be
    assert line == (
        "error: the amend no longer makes sense: command #7 after it is refused: the fight is over "
        "(hint: ua session log duel shows each command, its number and what it did)"
    )
    line = duel.fails("session", "amend", "duel", "6", "--command", '{"command": "dodge", "actor": "Rosa"}', code=3)
    assert line.startswith("error: the amend no longer makes sense: the amended command is refused: ")
    assert "not one that counts" in duel.fails("session", "attack", "duel", "Vic", "Rosa", "--amend", "99")
    assert "not a command" in duel.fails("session", "amend", "duel", "6", "--command", '{"command": "fly"}')
    assert duel.count("duel") == 22


def test_importing_a_corrupted_log_names_the_line_and_imports_nothing(duel: Ua) -> None:
    file, broken = duel.dir / "duel.jsonl", duel.dir / "broken.jsonl"
    duel("session", "export", "duel", str(file))
    lines = file.read_text().splitlines(keepends=True)
    lines[4] = lines[4][:40] + "\n"  # line 5 cut short, with good lines after it
    broken.write_text("".join(lines))
    line = duel.fails("session", "import", str(broken), "copy", code=2)
    assert line.startswith(f"error: {broken}:5: line 5 is not an event line")
    assert duel.count("copy") == 0
    assert "no file" in duel.fails("session", "import", str(duel.dir / "missing.jsonl"), "copy")
    assert "already exists" in duel.fails("session", "import", str(file), "duel")


def test_replay_verify_of_a_hand_edited_log_reports_the_position(duel: Ua) -> None:
    fight_one_round(duel)
    file, edited = duel.dir / "duel.jsonl", duel.dir / "edited.jsonl"
    duel("session", "export", "duel", str(file))
    lines = file.read_bytes().splitlines(keepends=True)
    (index,) = [i for i, text in enumerate(lines) if b'"amount":30' in text]  # Vic's shot: 30 wounds
    lines[index] = lines[index].replace(b'"amount":30', b'"amount":35')
    edited.write_bytes(b"".join(lines))
    position = json.loads(lines[index])["position"]

    line = duel.fails("replay", str(edited), "--verify", code=2)
    assert line.startswith(f"error: {edited}:{index + 1}: line {index + 1} was changed after it was written")

    lines[index] = resign(lines[index])  # the checksum made to match: re-deciding still tells
    edited.write_bytes(b"".join(lines))
    line = duel.fails("replay", str(edited), "--verify", code=2)
    assert line == (
        f"error: {edited} event {position}: command #6 re-decides differently from event {position} on "
        "(hint: the log was edited or the rules changed)"
    )
    assert duel.ok("replay", str(file), "--verify")["verified"]["ok"]


def test_a_session_name_is_used_once(duel: Ua) -> None:
    line = duel.fails("session", "new", "duel", "--scenario", str(SCENARIO), code=2)
    assert line == "error: session 'duel' already exists (hint: pick another name, or --db another file)"
    assert duel.count("duel") == 13


def test_a_refused_setup_leaves_no_half_made_session(ua: Ua) -> None:
    sheet = str(SCENARIO.parent / "characters" / "cop.toml")
    line = ua.fails("session", "new", "s", "--sheet", f"a:x:{sheet}", "--sheet", f"a:y:{sheet}", code=3)
    assert line == "error: a is already in the encounter (hint: give each combatant a unique id)"
    assert ua.count("s") == 0
    made = ua.ok("session", "new", "s", "--sheet", f"a:x:{sheet}", "--sheet", f"b:y:{sheet}", "--seed", "1")
    assert positions(made) == [1, 2, 3, 4, 5, 6]


def test_a_file_of_commands_with_their_dice_plays_into_a_session(tmp_path: Path) -> None:
    """Issue 4: a fight driven from a file of commands, the way a GM replays the table."""
    db = str(tmp_path / "s.sqlite")
    runner = CliRunner()
    made = runner.invoke(app, ["session", "new", "night", "--scenario", "scenarios/knife-vs-22.toml", "--db", db])
    assert made.exit_code == 0, made.stderr
    played = runner.invoke(
        app, ["session", "play", "night", "scenarios/tables/knife-vs-22-night.toml", "--db", db, "--json"]
    )
    assert played.exit_code == 0, played.stderr
    texts = [e["explanation"] for e in json.loads(played.stdout)["events"]]
    assert any("Rosa 70 → 40 wound points" in t for t in texts)
    state = json.loads(runner.invoke(app, ["session", "state", "night", "--db", db, "--json"]).stdout)
    wounds = {c["id"]: c["wounds"] for c in state["combatants"]}
    assert wounds == {"Rosa": 21, "Vic": 40}


def test_a_refused_command_in_a_played_file_stops_with_its_number(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    script = tmp_path / "bad.jsonl"
    script.write_text('{"command": "begin_fight"}\n{"command": "attack", "actor": "Rosa", "target": "Vic"}\n')
    runner = CliRunner()
    runner.invoke(app, ["session", "new", "night", "--scenario", "scenarios/knife-vs-22.toml", "--db", db])
    result = runner.invoke(app, ["session", "play", "night", str(script), "--db", db])
    assert result.exit_code == 3
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and "command 2 of 2 is refused" in line and "Vic's turn" in line
