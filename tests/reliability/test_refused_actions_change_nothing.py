"""Issue 26: a refused command changes nothing. A user action made of several commands — a begin's
madness or stress triggers, then its initiative, then the NPCs' declarations; a command and the
NPCs' responses to it; a stretch of NPC turns — is one append or none: refused at any of its
steps, the log is byte for byte as it was, at the same version, from the CLI, HTTP and the
library, in both editions; and a retry by command id answers what the action stored."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands.base import CommandBase
from engine.errors import DiceError
from engine.rules.registry import ruleset_of
from engine.scenario.scenario import load_scenario
from engine.session.encoding import decoded
from engine.session.front import Front
from engine.session.live import ExtraFaces, LiveEncounter
from engine.session.service import SessionService
from engine.store.base import EventStore
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore
from tests.cli.test_session_cli import Ua
from tests.reliability.actions import (
    CELLAR,
    SCENARIOS,
    TOO_FEW,
    Decisions,
    ambush_with_triggers,
    decisions,
    exported,
    facts,
)

EXAMPLES = int(os.environ.get("UA_RELIABILITY_EXAMPLES", "20"))


@pytest.fixture(scope="module")
def ambush(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ua3 scenario file with triggers for the whole module (its path is stored in each log)."""
    return ambush_with_triggers(tmp_path_factory.mktemp("scenarios"))


def triggers_made(store: EventStore, name: str) -> list[str]:
    """Who the log's madness or stress checks are for, in order (a trigger made is one each)."""
    made = []
    for stored in store.read(name):
        if stored.type == "command_recorded":
            issued = decoded(stored).issued  # type: ignore[attr-defined]
            if type(issued).__name__ in ("MadnessCheck", "StressCheck"):
                made.append(str(issued.actor))
    return made


# -- the case ------------------------------------------------------------------------------


def test_a_begin_refused_for_its_initiative_dice_stores_no_trigger_and_the_next_begin_rolls_them_once(
    tmp_path: Path,
) -> None:
    """`ua session begin --init Rosa=roll --dice 8,3,4,4`: Rosa's Speed roll reads 2 faces, so the
    begin is refused, nothing written — the cellar's madness triggers (M2-8) not either."""
    ua = Ua(tmp_path)
    ua.ok("session", "new", "s", "--scenario", str(CELLAR), "--seed", "5")
    ua.ok(
        "session", "add", "s", "Rosa", "--side", "humans", "--sheet", str(SCENARIOS / "characters/knife-fighter.toml")
    )
    store = SqliteStore(ua.db)
    before, version = exported(store, "s"), ua.count("s")
    line = ua.fails("session", "begin", "s", "--init", "Rosa=roll", "--dice", "8,3,4,4", code=2)
    assert "reads 2 dice" in line and "nothing was written" in line
    assert exported(store, "s") == before and ua.count("s") == version
    assert triggers_made(store, "s") == []
    begun = ua.ok("session", "begin", "s", "--init", "Rosa=roll", "--dice", "8,3")
    assert [t["events"][0]["event"]["issued"]["actor"] for t in begun["triggers"]] == ["Dana", "Crane"]
    assert triggers_made(store, "s") == ["Dana", "Crane"]  # each human's trigger, once
    assert "already begun" in ua.fails("session", "begin", "s", code=3)
    assert triggers_made(store, "s") == ["Dana", "Crane"]


# -- the CLI: refused at each step ---------------------------------------------------------------


@dataclass(frozen=True)
class CliAction:
    """A user action at the table: the session it needs (scenario, seed, players, commands run
    first) and the `ua session` words that run it."""

    scenario: str
    seed: int
    players: str
    before: tuple[tuple[str, ...], ...]
    words: tuple[str, ...]

    def table(self, folder: Path, ambush: Path) -> Ua:
        folder.mkdir()
        ua = Ua(folder)
        path = ambush if self.scenario == "ambush" else CELLAR
        players = ("--players", self.players) if self.players else ()
        ua.ok("session", "new", "s", "--scenario", str(path), "--seed", str(self.seed), *players)
        # its players leave every die and choice to the engine (T-3), so each action runs as a GM's
        choices = ("flip=auto",) if self.scenario == "ambush" else ("flip=auto", "initiative=auto", "reaction=auto")
        for who in filter(None, self.players.split(",")):
            ua.ok("session", "prefer", "s", who, "roll_for_me=all", *choices)
        for words in self.before:
            ua.ok("session", words[0], "s", *words[1:])
        return ua

    def run(self, ua: Ua) -> Any:
        return ua.ok("session", self.words[0], "s", *self.words[1:])


CLI_ACTIONS = {
    "ua2 begin: triggers, initiative": CliAction("cellar", 5, "", (), ("begin",)),
    "ua3 begin: triggers, initiative, the NPCs' declarations": CliAction("ambush", 3, "", (), ("begin",)),
    "ua3 begin without triggers: a command and the NPCs' declarations": CliAction(
        "ambush", 3, "", (), ("begin", "--no-triggers")
    ),
    "ua2 npc --all: a stretch of NPC turns": CliAction("cellar", 7, "Dana", (("begin",),), ("npc", "--all")),
    "ua3 npc --all: a stretch of NPC turns and new rounds' declarations": CliAction(
        "ambush", 3, "Sam", (("begin",),), ("npc", "--all")
    ),
}


def cli_export(ua: Ua, tag: str) -> bytes:
    """`ua session export` of the session, as bytes."""
    file = ua.dir / f"{tag}.jsonl"
    result = ua("session", "export", "s", str(file))
    assert result.exit_code == 0, result.stderr
    return file.read_bytes()


@pytest.mark.parametrize("action", CLI_ACTIONS.values(), ids=list(CLI_ACTIONS))
def test_a_cli_action_refused_at_any_of_its_steps_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ambush: Path, action: CliAction
) -> None:
    reference = action.table(tmp_path / "reference", ambush)
    steps = decisions(monkeypatch, lambda: action.run(reference))
    assert steps >= 2, "an action of several commands"
    ua = action.table(tmp_path / "table", ambush)
    for step in range(1, steps + 1):
        before, version = cli_export(ua, f"before-{step}"), ua.count("s")
        with Decisions(fail_at=step).installed(monkeypatch):
            line = ua.fails("session", *action.words[:1], "s", *action.words[1:], code=2)
        assert TOO_FEW in line
        assert cli_export(ua, f"after-{step}") == before and ua.count("s") == version, f"step {step} wrote"
    action.run(ua)  # the same action, refused nowhere: exactly what it does on a session never refused
    assert facts(SqliteStore(ua.db), "s") == facts(SqliteStore(reference.db), "s")


def test_a_begin_refused_at_a_trigger_for_the_faces_a_person_typed_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ambush: Path
) -> None:
    """At a terminal the GM types each trigger's faces; three faces for a two-face roll is refused
    — and the trigger typed right before it, and the initiative, are not stored either."""
    for path in (CELLAR, ambush):
        ua = Ua(tmp_path / path.stem)
        (tmp_path / path.stem).mkdir()
        ua.ok("session", "new", "s", "--scenario", str(path), "--seed", "5")
        typed = iter([(1, 5), (1, 2, 3)])

        def at_a_terminal(typed: Iterator[tuple[int, ...]] = typed) -> Callable[[str], tuple[int, ...]]:
            return lambda what: next(typed)

        monkeypatch.setattr("engine.cli.session.setup.ask_dice", at_a_terminal)
        before, version = cli_export(ua, "before"), ua.count("s")
        line = ua.fails("session", "begin", "s", code=2)
        assert "but 3 were given; nothing was written" in line
        assert cli_export(ua, "after") == before and ua.count("s") == version
        monkeypatch.undo()


def test_npc_all_with_extra_faces_for_its_first_action_writes_nothing(tmp_path: Path, ambush: Path) -> None:
    action = CLI_ACTIONS["ua3 npc --all: a stretch of NPC turns and new rounds' declarations"]
    ua = action.table(tmp_path / "table", ambush)
    before, version = cli_export(ua, "before"), ua.count("s")
    line = ua.fails("session", "npc", "s", "--all", "--dice", "1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0", code=2)
    assert "nothing was written" in line
    assert cli_export(ua, "after") == before and ua.count("s") == version


# -- the CLI: retries by command id ----------------------------------------------------------------


def test_a_begin_retried_by_its_command_id_answers_its_triggers_and_initiative_and_writes_nothing(
    tmp_path: Path, ambush: Path
) -> None:
    for path in (CELLAR, ambush):
        (tmp_path / path.stem).mkdir()
        ua = Ua(tmp_path / path.stem)
        ua.ok("session", "new", "s", "--scenario", str(path), "--seed", "5")
        first = ua.ok("session", "begin", "s", "--command-id", "b")
        count = ua.count("s")
        again = ua.ok("session", "begin", "s", "--command-id", "b")
        assert again == first and ua.count("s") == count
        assert len(first["triggers"]) == 2 and len(triggers_made(SqliteStore(ua.db), "s")) == 2


def test_an_npc_stretch_retried_by_its_command_id_answers_the_same_turns_and_writes_nothing(
    tmp_path: Path, ambush: Path
) -> None:
    action = CLI_ACTIONS["ua3 npc --all: a stretch of NPC turns and new rounds' declarations"]
    ua = action.table(tmp_path / "table", ambush)
    first = ua.ok("session", "npc", "s", "--all", "--command-id", "stretch")
    count = ua.count("s")
    again = ua.ok("session", "npc", "s", "--all", "--command-id", "stretch")
    assert len(first["turns"]) >= 2 and ua.count("s") == count
    assert [t["events"] for t in again["turns"]] == [t["events"] for t in first["turns"]]
    assert [t["npc"] for t in again["turns"]] == [t["npc"] for t in first["turns"]]


# -- HTTP --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HttpAction:
    """A user action over HTTP: the session (a shipped scenario's document, its players' side),
    the requests made first, and the one request that is the action."""

    scenario: str
    players: str
    seed: int
    before: tuple[tuple[str, dict[str, Any]], ...]
    request: tuple[str, dict[str, Any]]

    def session(self, client: Any, name: str) -> None:
        document = client.get(f"/scenarios/{self.scenario}").json()["document"]
        document["players"] = self.players or document.get("players", "")
        made = client.post("/sessions", json={"name": name, "scenario": {"document": document}, "seed": self.seed})
        assert made.status_code == 201, made.text
        for path, body in self.before:
            assert client.post(f"/sessions/{name}/{path}", json=body).status_code == 200

    def run(self, client: Any, name: str) -> Any:
        path, body = self.request
        return client.post(f"/sessions/{name}/{path}", json=body)


POLICE_DECLARE = {
    "command": "ua3_declare",
    "declarations": [
        {"actor": "Dana", "action": "attack", "targets": ["Vasquez"]},
        {"actor": "Sam", "action": "dodge"},
    ],
}
HTTP_ACTIONS = {
    "ua2 npc all: a stretch of NPC turns": HttpAction(
        "the-thing-in-the-cellar",
        "cellar",
        5,
        (("commands", {"command": {"command": "begin_fight"}}),),
        ("npc", {"all": True}),
    ),
    "ua3 npc all: NPC turns, then a new round's declarations": HttpAction(
        "ua3/full-auto-ambush",
        "",
        3,
        (
            ("commands", {"command": {"command": "ua3_begin_fight"}}),
            ("npc", {}),
            ("commands", {"command": POLICE_DECLARE}),
            ("commands", {"command": {"command": "ua3_attack", "actor": "Dana", "targets": ["Vasquez"]}}),
        ),
        ("npc", {"all": True}),
    ),
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("litestar", reason="the service needs the serve extra")
    from tests.service.conftest import client_for

    with client_for(tmp_path / "sessions.sqlite") as c:
        yield c


@pytest.mark.parametrize("action", HTTP_ACTIONS.values(), ids=list(HTTP_ACTIONS))
def test_an_http_action_refused_at_any_of_its_steps_writes_nothing(
    tmp_path: Path, client: Any, monkeypatch: pytest.MonkeyPatch, action: HttpAction
) -> None:
    action.session(client, "reference")
    steps = decisions(monkeypatch, lambda: action.run(client, "reference").raise_for_status())
    assert steps >= 2, "an action of several commands"
    action.session(client, "s")
    for step in range(1, steps + 1):
        before, version = client.get("/sessions/s/export").content, client.get("/sessions/s").json()["version"]
        with Decisions(fail_at=step).installed(monkeypatch):
            refused = action.run(client, "s")
        assert refused.status_code == 400 and TOO_FEW in refused.json()["message"], refused.text
        assert client.get("/sessions/s/export").content == before, f"step {step} wrote"
        assert client.get("/sessions/s").json()["version"] == version
    done = action.run(client, "s")  # the server's open session was left exactly as it was
    assert done.status_code == 200, done.text
    store = SqliteStore(tmp_path / "sessions.sqlite")
    assert facts(store, "s") == facts(store, "reference")


def test_an_http_npc_stretch_retried_by_its_command_id_answers_the_same_and_writes_nothing(client: Any) -> None:
    action = HTTP_ACTIONS["ua3 npc all: NPC turns, then a new round's declarations"]
    action.session(client, "s")
    path, body = action.request
    first = client.post(f"/sessions/s/{path}", json=body, headers={"Command-Id": "stretch-1"})
    assert first.status_code == 200, first.text
    version = client.get("/sessions/s").json()["version"]
    again = client.post(
        f"/sessions/s/{path}", json={**body, "expected_version": 1}, headers={"Command-Id": "stretch-1"}
    )
    assert again.status_code == 200, again.text

    def events(answer: Any) -> list[Any]:
        return [[c["events"] for c in t["commands"]] for t in answer.json()["turns"]]

    assert len(first.json()["turns"]) >= 2 and events(again) == events(first)  # the version and state: now's
    assert client.get("/sessions/s").json()["version"] == version


# -- the library -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LibraryAction:
    """A user action through `SessionService`: the session (scenario, seed, players, whether the
    begin is run first), the front end, and the call."""

    scenario: str
    seed: int
    players: tuple[str, ...] | None
    begun: bool
    front: str
    call: Callable[[SessionService], object]

    def service(self, ambush: Path, store: EventStore | None = None, *, seed: int | None = None) -> SessionService:
        path = ambush if self.scenario == "ambush" else CELLAR
        front: Front = Front()
        if self.front == "http":
            from engine.service.sessions import HttpFront

            front = HttpFront()
        service = SessionService(store or MemoryStore(), front=front)
        players = msgspec.UNSET if self.players is None else self.players
        service.new(
            "s", load_scenario(path), seed=self.seed if seed is None else seed, scenario=str(path), players=players
        )
        if self.begun:
            begin(service)
        return service


def begin(service: SessionService) -> object:
    command: CommandBase = ruleset_of(service.state("s")).script.begin()
    if service.front.table:
        return service.begin("s", command)
    return service.execute("s", command)  # over HTTP a begin is the command alone


LIBRARY_ACTIONS = {
    "ua2 begin": LibraryAction("cellar", 5, None, False, "cli", begin),
    "ua3 begin": LibraryAction("ambush", 3, None, False, "cli", begin),
    "ua2 npc stretch": LibraryAction("cellar", 7, ("Dana",), True, "cli", lambda s: s.npc("s", until_player=True)),
    "ua3 npc stretch": LibraryAction("ambush", 3, ("Sam",), True, "cli", lambda s: s.npc("s", until_player=True)),
    "ua3 npc stretch after the NPCs' declarations (HTTP's)": LibraryAction(
        "ambush", 3, ("Sam",), True, "http", lambda s: s.npc("s", until_player=True, respond=True)
    ),
}


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    name=st.sampled_from(sorted(LIBRARY_ACTIONS)),
    step=st.integers(min_value=1, max_value=32),
    seed=st.integers(min_value=0, max_value=3),
)
def test_a_refusal_injected_at_any_step_of_any_action_leaves_the_log_and_the_session_as_they_were(
    monkeypatch: pytest.MonkeyPatch, ambush: Path, name: str, step: int, seed: int
) -> None:
    action = LIBRARY_ACTIONS[name]
    seed = action.seed + seed
    service = action.service(ambush, seed=seed)
    before, version = exported(service.store, "s"), service.store.version("s")
    with Decisions(fail_at=step).installed(monkeypatch) as counted:
        try:
            action.call(service)
        except DiceError as exc:
            assert exc.message == TOO_FEW
        else:
            assert counted.made < step  # the action made fewer decisions: nothing was refused
            return
    assert exported(service.store, "s") == before and service.store.version("s") == version
    assert service.state("s") == LiveEncounter(service.store, "s").state  # the kept session, as the log says
    action.call(service)
    reference = action.service(ambush, seed=seed)
    action.call(reference)
    assert facts(service.store, "s") == facts(reference.store, "s")  # the refusal left no trace (dice included)


#: Whom each scenario's triggers are for: the humans (M2-8), the police (U-25).
TRIGGERED = {"cellar": ["Dana", "Crane"], "ambush": ["Dana", "Sam"]}


@pytest.mark.parametrize("scenario", ["cellar", "ambush"])
@pytest.mark.parametrize("refused_at", [1, 2])
def test_a_begin_whose_trigger_k_gets_extra_faces_stores_nothing(ambush: Path, scenario: str, refused_at: int) -> None:
    """A trigger's faces come from `trigger_dice` (a person at the table): three for a roll of two
    is `ExtraFaces`, and the whole begin — the triggers before it included — is not stored."""
    service = LibraryAction(scenario, 5, None, False, "cli", begin).service(ambush)
    asked: list[CommandBase] = []

    def trigger_dice(trigger: CommandBase) -> tuple[int, ...]:
        asked.append(trigger)
        return (1, 2, 3) if len(asked) == refused_at else (1, 5)

    before = exported(service.store, "s")
    command = ruleset_of(service.state("s")).script.begin()
    with pytest.raises(ExtraFaces):
        service.begin("s", command, trigger_dice=trigger_dice)
    assert len(asked) == refused_at and exported(service.store, "s") == before
    assert service.state("s") == LiveEncounter(service.store, "s").state
    done = service.begin("s", command)  # each trigger made once, by this begin
    assert len(done) == 3 and triggers_made(service.store, "s") == TRIGGERED[scenario]


def test_a_begin_that_loses_the_race_to_the_same_begin_is_answered_as_its_retry(tmp_path: Path) -> None:
    """Law 7 for an action of several commands: another process stores this very begin (same
    command id) while this one decides it; the append conflicts, and the answer is what the
    other stored — once in the log, triggers and all."""
    db = tmp_path / "s.sqlite"
    SessionService(SqliteStore(db)).new("s", load_scenario(CELLAR), seed=5, scenario=str(CELLAR))
    mine = SqliteStore(db)
    service = SessionService(mine)
    command = ruleset_of(service.state("s")).script.begin()
    append = mine.append
    theirs: list[Any] = []

    def another_process_first(*args: Any) -> int:
        mine.append = append  # type: ignore[method-assign]
        theirs.extend(SessionService(SqliteStore(db)).begin("s", command, command_id="b"))
        return append(*args)

    mine.append = another_process_first  # type: ignore[method-assign]
    answered = service.begin("s", command, command_id="b")
    assert [r.events for r in answered] == [r.events for r in theirs] and all(r.retried for r in answered)
    assert len(triggers_made(mine, "s")) == 2 and mine.version("s") == theirs[-1].version
