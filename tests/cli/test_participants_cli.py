"""`ua session invite / participants / revoke` through typer's runner: links with the token in
the fragment, the list, a revocation by character or id, and every bad input as one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_session_cli import SCENARIO, Ua


def _made(tmp_path: Path) -> Ua:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "7")
    return ua


def test_an_invite_prints_a_link_with_the_token_in_its_fragment(tmp_path: Path) -> None:
    ua = _made(tmp_path)
    shown = ua("session", "invite", "duel", "--player", "rosa", "--url", "http://192.168.1.5:8787/")
    assert shown.exit_code == 0, shown.stderr
    first, link = shown.stdout.strip().splitlines()
    assert first == "Rosa plays Rosa (p1)"  # the character named case-insensitively, given as its id
    base, _, token = link.partition("#")
    assert base == "http://192.168.1.5:8787/play/duel" and len(token) >= 43
    viewer = ua.ok("session", "invite", "duel", "--viewer")
    assert viewer["link"].startswith("http://127.0.0.1:8787/play/duel#")
    named = ua.ok("session", "invite", "duel", "--player", "Ana:Vic")
    assert named["participant"] == {
        "id": "p3",
        "role": "player",
        "name": "Ana",
        "characters": ["Vic"],
        "status": "invited",
    }
    listed = ua.ok("session", "participants", "duel")["participants"]
    assert [(p["id"], p["role"], p["characters"]) for p in listed] == [
        ("p1", "player", ["Rosa"]),
        ("p2", "viewer", []),
        ("p3", "player", ["Vic"]),
    ]
    assert token not in json.dumps(listed)


def test_revoke_by_character_or_id_ends_the_link(tmp_path: Path) -> None:
    ua = _made(tmp_path)
    ua.ok("session", "invite", "duel", "--player", "Rosa")
    ua.ok("session", "invite", "duel", "--viewer")
    assert ua.ok("session", "revoke", "duel", "Rosa")["status"] == "revoked"
    shown = ua("session", "revoke", "duel", "p2")
    assert shown.exit_code == 0 and "p2" in shown.stdout
    statuses = [p["status"] for p in ua.ok("session", "participants", "duel")["participants"]]
    assert statuses == ["revoked", "revoked"]


def test_bad_invites_are_one_line_each_and_write_nothing(tmp_path: Path) -> None:
    ua = _made(tmp_path)
    assert "no combatant 'Nobody'" in ua.fails("session", "invite", "duel", "--player", "Nobody")
    assert "--player" in ua.fails("session", "invite", "duel", "--player", ":Rosa")
    assert "not both" in ua.fails("session", "invite", "duel", "--player", "Rosa", "--viewer")
    assert "a player or a viewer" in ua.fails("session", "invite", "duel")
    assert "not a base URL" in ua.fails("session", "invite", "duel", "--player", "Rosa", "--url", "ftp://x")
    assert "no session 'nope'" in ua.fails("session", "invite", "nope", "--player", "Rosa")
    assert "no participant 'Rosa'" in ua.fails("session", "revoke", "duel", "Rosa")
    assert ua.ok("session", "participants", "duel")["participants"] == []
    ua.ok("session", "invite", "duel", "--player", "Ana:Rosa")
    assert "already played by Ana" in ua.fails("session", "invite", "duel", "--player", "Bo:Rosa")
