"""Access by capability over HTTP (DESIGN "The table: participants, requests, access"): the GM
invites and revokes; a player's token reads its session and acts for its characters only; a
viewer's only reads; a revoked token is refused at once — each refusal a 403 (401 for a token
no longer known) in the service's error shape, before the rules are asked, nothing written."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient
from typer.testing import CliRunner

from engine.cli.app import app as cli
from tests.service.conftest import TOKEN, client_for, new_session, run


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def invite(client: TestClient[Any], name: str, **body: Any) -> str:
    r = client.post(
        f"/sessions/{name}/participants",
        json=body,
        headers=bearer(TOKEN) if client.app.state.service.config.token else {},
    )
    assert r.status_code == 201, r.text
    link = r.json()["link"]
    assert f"/play/{name}#" in link
    return str(link.split("#", 1)[1])


def written(client: TestClient[Any], name: str, headers: dict[str, str] | None = None) -> tuple[int, int]:
    """The session's version and how many log lines it has, as the GM reads them."""
    log = client.get(f"/sessions/{name}/log", headers=headers or {}).json()
    return log["version"], len(log["lines"])


def refused(r: Any, status: int = 403) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["status"] == status and body["message"] and body["hint"]
    return body


def test_a_player_acts_for_its_own_character_and_no_other(client: TestClient[Any]) -> None:
    new_session(client)
    rosa = invite(client, "duel", characters=["Rosa"])
    run(client, "duel", {"command": "begin_fight", "initiative": [{"id": "Rosa", "method": "default"}]})
    me = client.get("/sessions/duel/me", headers=bearer(rosa)).json()
    assert me["role"] == "player" and me["characters"] == ["Rosa"] and me["played"] == {"Rosa": "Rosa"}
    before = written(client, "duel")
    vic = {"command": "attack", "actor": "Vic", "target": "Rosa"}
    body = refused(client.post("/sessions/duel/commands", json={"command": vic}, headers=bearer(rosa)))
    assert "not Vic" in body["message"] and body["where"] == "$.command"
    # a player's attack naming the target's dodge passion spends someone else's passion
    sneaky = {
        "command": "attack",
        "actor": "Rosa",
        "target": "Vic",
        "roll_passion": {"actor": "Vic", "passion": "fear"},
    }
    refused(client.post("/sessions/duel/commands", json={"command": sneaky}, headers=bearer(rosa)))
    shifted = {"command": "attack", "actor": "Rosa", "target": "Vic", "shifts": [{"source": "me", "amount": 50}]}
    refused(client.post("/sessions/duel/commands", json={"command": shifted}, headers=bearer(rosa)))
    closing = {"command": "declare", "declarations": [{"id": "Rosa"}]}
    refused(client.post("/sessions/duel/commands", json={"command": closing}, headers=bearer(rosa)))
    for path in ("/sessions/duel/undo", "/sessions/duel/npc", "/sessions/duel/participants"):
        refused(client.post(path, json={}, headers=bearer(rosa)))
    refused(client.delete("/sessions/duel", headers=bearer(rosa)))
    refused(client.get("/sessions", headers=bearer(rosa)))
    assert written(client, "duel") == before
    declared = {"command": "declare", "declarations": [{"id": "Rosa"}], "open": True}
    r = client.post("/sessions/duel/commands", json={"command": declared}, headers=bearer(rosa))
    assert r.status_code == 200, r.text
    assert written(client, "duel")[0] > before[0]


def test_a_forbidden_command_is_a_403_even_where_the_rules_would_refuse_it(client: TestClient[Any]) -> None:
    """Checked before the rules: Vic's attack out of turn, by Rosa's player, is never a 422."""
    new_session(client)
    rosa = invite(client, "duel", characters=["Rosa"])
    out_of_turn = {"command": "attack", "actor": "Vic", "target": "Rosa"}  # no fight yet: the rules refuse
    assert run(client, "duel", out_of_turn).status_code == 422
    refused(client.post("/sessions/duel/commands", json={"command": out_of_turn}, headers=bearer(rosa)))


def test_a_viewer_reads_and_writes_nothing(client: TestClient[Any]) -> None:
    new_session(client)
    viewer = invite(client, "duel", viewer=True)
    for path in ("/sessions/duel", "/sessions/duel/state", "/sessions/duel/log", "/sessions/duel/timeline"):
        assert client.get(path, headers=bearer(viewer)).status_code == 200, path
    before = written(client, "duel")
    body = refused(
        client.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}, headers=bearer(viewer))
    )
    assert "only reads" in body["message"]
    refused(client.post("/sessions/duel/undo", headers=bearer(viewer)))
    assert written(client, "duel") == before


def test_a_token_opens_its_own_session_only(client: TestClient[Any]) -> None:
    new_session(client)
    new_session(client, "other")
    rosa = invite(client, "duel", characters=["Rosa"])
    body = refused(client.get("/sessions/other/state", headers=bearer(rosa)))
    assert "for session duel, not other" in body["message"]
    before = written(client, "other")
    refused(client.post("/sessions/other/commands", json={"command": {"command": "begin_fight"}}, headers=bearer(rosa)))
    assert written(client, "other") == before


def test_a_revoked_token_is_refused_at_once(client: TestClient[Any]) -> None:
    new_session(client)
    rosa = invite(client, "duel", characters=["Rosa"])
    assert client.get("/sessions/duel/state", headers=bearer(rosa)).status_code == 200
    r = client.delete("/sessions/duel/participants/Rosa")
    assert r.status_code == 200 and r.json()["status"] == "revoked"
    before = written(client, "duel")
    refused(client.get("/sessions/duel/state", headers=bearer(rosa)), 401)
    declared = {"command": "declare", "declarations": [{"id": "Rosa"}], "open": True}
    refused(client.post("/sessions/duel/commands", json={"command": declared}, headers=bearer(rosa)), 401)
    assert written(client, "duel") == before
    listed = client.get("/sessions/duel/participants").json()["participants"]
    assert [p["status"] for p in listed] == ["revoked"]


def test_a_running_server_honours_the_clis_invite_and_revocation(tmp_path: Path) -> None:
    """Tokens are looked up on every request, in the database the CLI writes, with `--token`."""
    db = tmp_path / "sessions.sqlite"
    with client_for(db, TOKEN) as client:
        new_session_with_token(client)
        runner = CliRunner()
        made = runner.invoke(cli, ["session", "invite", "duel", "--player", "Vic", "--db", str(db), "--json"])
        assert made.exit_code == 0, made.stderr
        import json

        vic = json.loads(made.stdout)["link"].split("#", 1)[1]
        assert client.get("/sessions/duel/state", headers=bearer(vic)).status_code == 200
        refused(client.get("/sessions/duel/state"), 401)  # with --token, no token is no one
        assert runner.invoke(cli, ["session", "revoke", "duel", "p1", "--db", str(db)]).exit_code == 0
        refused(client.get("/sessions/duel/state", headers=bearer(vic)), 401)
        assert client.get("/sessions/duel/state", headers=bearer(TOKEN)).status_code == 200  # the GM's


def new_session_with_token(client: TestClient[Any]) -> None:
    r = client.post(
        "/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}, headers=bearer(TOKEN)
    )
    assert r.status_code == 201, r.text


def test_ua3_players_declare_and_act_for_their_characters_only(client: TestClient[Any]) -> None:
    new_session(client, "amb", "ua3/full-auto-ambush", 3)
    dana = invite(client, "amb", characters=["Dana"], player="Ana")
    run(client, "amb", {"command": "ua3_begin_fight"})
    client.post("/sessions/amb/npc", json={}).raise_for_status()  # the crew declares
    before = written(client, "amb")
    both = {
        "command": "ua3_declare",
        "declarations": [{"actor": "Dana", "action": "dodge"}, {"actor": "Sam", "action": "dodge"}],
    }
    assert (
        "not Sam"
        in refused(client.post("/sessions/amb/commands", json={"command": both}, headers=bearer(dana)))["message"]
    )
    close = {"command": "ua3_declare", "declarations": [{"actor": "Dana", "action": "dodge"}], "close": True}
    refused(client.post("/sessions/amb/commands", json={"command": close}, headers=bearer(dana)))
    refused(
        client.post(
            "/sessions/amb/commands",
            json={"command": {"command": "ua3_stress_check", "actor": "Dana", "gauge": "violence", "rank": 2}},
            headers=bearer(dana),
        )
    )
    assert written(client, "amb") == before
    mine = {"command": "ua3_declare", "declarations": [{"actor": "Dana", "action": "attack", "targets": ["Vasquez"]}]}
    r = client.post("/sessions/amb/commands", json={"command": mine}, headers=bearer(dana))
    assert r.status_code == 200, r.text


def test_the_gms_participant_routes_refuse_bad_input_in_one_line(client: TestClient[Any]) -> None:
    new_session(client)
    r = client.post("/sessions/duel/participants", json={"characters": ["Nobody"]})
    assert r.status_code == 400 and "no combatant 'Nobody'" in r.json()["message"]
    r = client.post("/sessions/duel/participants", json={"characters": ["Rosa"], "viewer": True})
    assert r.status_code == 400 and r.json()["where"] == "$.characters"
    assert client.post("/sessions/nope/participants", json={"viewer": True}).status_code == 404
    assert client.delete("/sessions/duel/participants/p9").status_code == 404
    assert client.get("/sessions/duel/participants").json()["participants"] == []


def test_a_player_spends_its_own_passions_only_c10(client: TestClient[Any]) -> None:
    """C-10 after the roll, by HTTP: Vic's player spends a passion on Vic's missed attack (the
    attack amended); Rosa's player may not spend Vic's."""
    new_session(client)
    rosa = invite(client, "duel", characters=["Rosa"])
    vic = invite(client, "duel", characters=["Vic"])
    defaults = [{"id": "Rosa", "method": "default"}, {"id": "Vic", "method": "default"}]
    assert run(client, "duel", {"command": "begin_fight", "initiative": defaults}).status_code == 200
    run(client, "duel", {"command": "declare", "declarations": []})
    assert (
        run(
            client, "duel", {"command": "attack", "actor": "Vic", "target": "Rosa", "dice": [9, 8], "flipped": False}
        ).status_code
        == 200
    )
    last = client.get("/sessions/duel/passions/Vic", headers=bearer(rosa)).json()["last_roll"]
    assert last == {"what": "an attack on Rosa", "outcome": "failure", "failed": True, "changed": False}
    before = written(client, "duel")
    spend = {"actor": "Vic", "passion": "rage", "dice": [1, 2]}
    body = refused(client.post("/sessions/duel/passions", json=spend, headers=bearer(rosa)))
    assert body["where"] == "$.actor"
    assert written(client, "duel") == before
    r = client.post("/sessions/duel/passions", json=spend, headers=bearer(vic))
    assert r.status_code == 200, r.text
    after = client.get("/sessions/duel/passions/Vic", headers=bearer(vic)).json()
    assert after["last_roll"]["changed"] and {p["kind"]: p["left"] for p in after["passions"]}["rage"] == 0


def test_every_player_command_names_a_real_command_and_its_acting_field() -> None:
    """A renamed command or field would silently make a player's action the GM's (or worse):
    each entry of the table is a command of the engine with the field its entry reads."""
    from engine.commands import COMMAND_TYPES
    from engine.service.access import PLAYER_COMMANDS

    fields = {str(t.__struct_config__.tag): set(t.__struct_fields__) for t in COMMAND_TYPES}
    for tag in PLAYER_COMMANDS:
        assert tag in fields, tag
        assert fields[tag] & {"actor", "declarations", "healer", "coercer", "target"}, tag


def test_a_player_answers_its_own_characters_requests_only(client: TestClient[Any]) -> None:
    """T-1: a request's owner answers it; another player's token is refused (403), the request
    still open; the GM may answer any (an absent player's) and alone may drop the action."""
    new_session(client)
    rosa = invite(client, "duel", characters=["Rosa"])
    invite(client, "duel", characters=["Vic"])
    waiting = run(client, "duel", {"command": "begin_fight"})
    assert waiting.status_code == 202, waiting.text
    assert [r["id"] for r in waiting.json()["requests"]] == ["Rosa.initiative", "Vic.initiative"]
    body = refused(
        client.post("/sessions/duel/requests/Vic.initiative", json={"choose": "default"}, headers=bearer(rosa))
    )
    assert "Vic's, not Rosa's" in body["message"]
    listed = client.get("/sessions/duel/requests", headers=bearer(rosa)).json()["requests"]
    assert [r["id"] for r in listed] == ["Rosa.initiative", "Vic.initiative"]  # still open
    mine = client.post("/sessions/duel/requests/Rosa.initiative", json={"choose": "default"}, headers=bearer(rosa))
    assert mine.status_code == 202 and [r["id"] for r in mine.json()["requests"]] == ["Vic.initiative"]
    refused(client.delete("/sessions/duel/requests", headers=bearer(rosa)))  # dropping the action is the GM's
    gm = client.post("/sessions/duel/requests/Vic.initiative", json={"choose": "default"})
    assert gm.status_code == 200, gm.text
    assert client.get("/sessions/duel/requests").json()["requests"] == []


COMMANDS = {
    "dodge": lambda who: {"command": {"command": "dodge", "actor": who}},
    "attack": lambda who: {"command": {"command": "attack", "actor": who, "target": "Vic" if who != "Vic" else "Rosa"}},
    "declare": lambda who: {"command": {"command": "declare", "declarations": [{"id": who}], "open": True}},
    "passion": lambda who: {"actor": who, "passion": "rage"},
}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    plays=st.sets(st.sampled_from(["Rosa", "Vic"]), min_size=1),
    actor=st.sampled_from(["Rosa", "Vic"]),
    kind=st.sampled_from(sorted(COMMANDS)),
)
def test_law_a_players_command_for_a_character_not_its_own_is_refused_and_writes_nothing(
    tmp_path: Path, plays: set[str], actor: str, kind: str
) -> None:
    """Whatever a player plays and whichever character a command names: it is a 403 with nothing
    written exactly when the character is not the player's (when it is, the rules judge it)."""
    with client_for(tmp_path / f"{uuid.uuid4().hex}.sqlite") as client:
        new_session(client)
        token = invite(client, "duel", characters=sorted(plays))
        run(client, "duel", {"command": "begin_fight"})
        before = written(client, "duel")
        path = "/sessions/duel/passions" if kind == "passion" else "/sessions/duel/commands"
        r = client.post(path, json=COMMANDS[kind](actor), headers=bearer(token))
        if actor in plays:
            assert r.status_code != 403, r.text
        else:
            refused(r)
            assert written(client, "duel") == before
