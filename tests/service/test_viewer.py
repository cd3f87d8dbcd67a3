"""The viewer in a real headless Chromium (Debian's `chromium`, driven by playwright's Python API;
no browser is downloaded): a shipped replay loaded and scrubbed, a live session followed while
commands arrive, user text shown as text. Skipped, saying why, where Chromium is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.service.bench import running_server

CHROMIUM = os.environ.get("UA_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install -y chromium; .ci/run does)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with running_server(tmp_path / "v.sqlite") as base:
        yield base


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def _scrub(page: Any, at: int) -> None:
    page.eval_on_selector("#slider", "(el, at) => { el.value = String(at); el.dispatchEvent(new Event('input')); }", at)
    page.wait_for_function("at => document.getElementById('position').textContent === String(at)", arg=at)


def test_a_shipped_replay_is_loaded_and_scrubbed_with_the_servers_states(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file-input", "replays/knife-vs-22.jsonl")
    page.wait_for_function("document.getElementById('version').textContent !== '0'")
    version = int(page.inner_text("#version"))
    with httpx.Client(base_url=server) as c:
        replay = c.post("/replays", json={"log": Path("replays/knife-vs-22.jsonl").read_text()}).json()["session"]
        for at in (version // 2, version):
            _scrub(page, at)
            state = c.get(f"/replays/{replay}/state", params={"at": at}).json()
            for combatant in state["state"]["combatants"]:
                row = f"#combatants tr[data-id='{combatant['id']}'] td.wounds"
                page.wait_for_function(
                    "([sel, text]) => document.querySelector(sel)?.textContent === text",
                    arg=[row, f"{combatant['wounds']}/{combatant['max_wounds']}"],
                )
    assert page.locator("#log li").count() > 5
    assert "C2-1" in page.inner_text("#log")
    assert page.locator("#chart svg polyline").count() >= 2
    _scrub(page, 0)
    page.wait_for_function("document.querySelectorAll('#combatants tbody tr').length === 0")


def test_a_live_session_is_followed_while_commands_arrive(server: str, page: Any) -> None:
    with httpx.Client(base_url=server) as c:
        c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}).raise_for_status()
        c.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}).raise_for_status()
        c.post(
            "/sessions/duel/commands", json={"command": {"command": "declare", "declarations": []}}
        ).raise_for_status()
        page.goto(server + "/?session=duel")
        page.wait_for_selector("#tracker li.now")
        assert page.inner_text("#tracker li.now").startswith("Vic")
        first_attack: dict[str, Any] | None = None
        for _ in range(3):
            info = c.get("/sessions/duel").json()
            if info["turn"] is None:
                command: dict[str, Any] = {"command": "declare", "declarations": []}
            else:
                command = {
                    "command": "attack",
                    "actor": info["turn"],
                    "target": "Rosa" if info["turn"] == "Vic" else "Vic",
                }
            written = c.post("/sessions/duel/commands", json={"command": command}).raise_for_status().json()
            records = [e for e in written["events"] if e["type"] == "command_recorded"]
            if command["command"] == "attack" and first_attack is None:
                first_attack = records[0]
        version = c.get("/sessions/duel").json()["version"]
        page.wait_for_function("v => document.getElementById('position').textContent === String(v)", arg=version)
        c.post("/sessions/duel/undo").raise_for_status()
        page.wait_for_selector("#log li.struck")
        assert first_attack is not None
        corrected = {**first_attack["event"]["issued"], "shifts": [{"source": "GM", "amount": -30}]}
        amend = {"number": first_attack["command"], "command": corrected, "note": "forgot the cover"}
        c.post("/sessions/duel/amend", json=amend).raise_for_status()
        page.wait_for_function(
            "[...document.querySelectorAll('#log li.struck .note')].some(n => n.textContent.includes('superseded'))"
        )
        state = c.get("/sessions/duel/state").json()
        turn = state["turn"]
        if turn:
            page.wait_for_function("t => document.querySelector('#tracker li.now')?.dataset.id === t", arg=turn)


def test_user_text_is_shown_as_text_never_as_markup(server: str, page: Any) -> None:
    with httpx.Client(base_url=server) as c:
        c.post("/sessions", json={"name": "x", "scenario": {"name": "knife-vs-22"}}).raise_for_status()
        note = "<img src=x onerror=\"document.body.dataset.pwned='1'\"><b>bold</b>"
        c.post("/sessions/x/commands", json={"command": {"command": "ruling", "note": note}}).raise_for_status()
    page.goto(server + "/?session=x")
    page.wait_for_selector("#log li")
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.includes('<b>bold</b>'))"
    )
    assert page.locator("#log img, #log b").count() == 0
    assert page.evaluate("document.body.dataset.pwned") is None
