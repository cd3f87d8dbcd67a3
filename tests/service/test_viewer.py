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


def test_the_ua3_golden_replay_charts_shock_gauges_as_the_server_states_them(server: str, page: Any) -> None:
    """Third edition: each character's shock gauges (hardened/failed notches, U-23) and wounds
    against the threshold, in the table and the charts, as the server's state at N has them."""
    log = Path("replays/ua3/the-hollow-church.jsonl").read_text()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file-input", "replays/ua3/the-hollow-church.jsonl")
    page.wait_for_function("document.getElementById('version').textContent !== '0'")
    version = int(page.inner_text("#version"))
    with httpx.Client(base_url=server) as c:
        replay = c.post("/replays", json={"log": log}).json()["session"]
        timeline = c.get(f"/replays/{replay}/timeline").json()
        positions = [p["position"] for p in timeline["points"]]
        for at in (version // 3, version // 2, version):
            _scrub(page, at)
            state = c.get(f"/replays/{replay}/state", params={"at": at}).json()
            assert state["ruleset"] == "ua3"
            point = {x["id"]: x for x in timeline["points"][positions.index(at)]["combatants"]}
            for combatant in state["state"]["combatants"]:
                who = combatant["id"]
                row = f"#combatants tr[data-id='{who}']"
                wounds = f"{combatant['wounds']}/{point[who]['max_wounds']}"
                notches = "; ".join(f"{g} {n['hardened']}/{n['failed']}" for g, n in combatant["gauges"].items())
                for cell, text in ((" td.wounds", wounds), (" td:nth-child(5)", notches)):
                    page.wait_for_function(
                        "([sel, text]) => document.querySelector(sel)?.textContent === text", arg=[row + cell, text]
                    )
                chart = page.locator(f"#chart svg[data-character='{who}']")
                assert chart.count() == 1, who
                for line in chart.locator("polyline").all():
                    gauge, kind = line.get_attribute("data-series").split(" ")
                    values = [int(v) for v in line.get_attribute("data-values").split(",")]
                    start = int(line.get_attribute("data-start"))  # the series starts when its combatant joins
                    assert values[positions.index(at) - start] == combatant["gauges"][gauge][kind], (who, gauge, at)
        # some notch changed over the replay: a line that is not flat
        flat = page.eval_on_selector_all(
            "#chart svg[data-character] polyline",
            "ls => ls.map(l => new Set(l.dataset.values.split(',')).size > 1)",
        )
        assert any(flat)
    assert page.locator("#chart svg[data-chart='wounds toward the wound threshold']").count() == 1  # ua3's words
    assert "U-23" in page.inner_text("#log")


def test_a_live_ua3_session_is_followed_with_its_gauges(server: str, page: Any) -> None:
    with httpx.Client(base_url=server) as c:
        c.post(
            "/sessions", json={"name": "church", "scenario": {"name": "ua3/the-hollow-church"}, "seed": 3}
        ).raise_for_status()
        page.goto(server + "/?session=church")
        page.wait_for_selector("#combatants tr[data-id='Dana']")
        before = page.inner_text("#combatants tr[data-id='Dana'] td:nth-child(5)")
        assert "violence 3/0" in before
        command = {"command": "ua3_stress_check", "actor": "Dana", "gauge": "violence", "rank": 4, "dice": [3, 5]}
        c.post("/sessions/church/commands", json={"command": command}).raise_for_status()
        version = c.get("/sessions/church").json()["version"]
        page.wait_for_function("v => document.getElementById('position').textContent === String(v)", arg=version)
        page.wait_for_function(
            "() => document.querySelector(\"#combatants tr[data-id='Dana'] td:nth-child(5)\")"
            ".textContent.includes('violence 4/0')"
        )
        page.wait_for_selector("#chart svg[data-character='Dana'] polyline[data-series='violence hardened']")


def test_a_live_ua3_fight_shows_the_declared_order_and_who_acts_u22(server: str, page: Any) -> None:
    """U-22 in the viewer: the tracker lists the round's order by declared action and rating
    (as the server's state has it) and marks who acts now, live as the NPCs act."""
    with httpx.Client(base_url=server) as c:
        made = c.post("/sessions", json={"name": "amb", "scenario": {"name": "ua3/full-auto-ambush"}, "seed": 3})
        made.raise_for_status()
        c.post("/sessions/amb/commands", json={"command": {"command": "ua3_begin_fight"}}).raise_for_status()
        c.post("/sessions/amb/npc", json={}).raise_for_status()  # the crew declares
        police = [{"actor": "Dana", "action": "attack", "targets": ["Vasquez"]}, {"actor": "Sam", "action": "dodge"}]
        declare = {"command": "ua3_declare", "declarations": police}
        c.post("/sessions/amb/commands", json={"command": declare}).raise_for_status()
        page.goto(server + "/?session=amb")
        page.wait_for_selector("#tracker li.now")
        order = c.get("/sessions/amb/state").json()["state"]["fight"]["order"]
        assert page.eval_on_selector_all("#tracker li", "els => els.map(e => e.dataset.id)") == order
        assert page.inner_text("#tracker li.now").startswith("Dana (attack → Vasquez 55")
        attack = {"command": "ua3_attack", "actor": "Dana", "targets": ["Vasquez"], "dice": [2, 3]}
        c.post("/sessions/amb/commands", json={"command": attack}).raise_for_status()
        page.wait_for_function("() => document.querySelector('#tracker li.now')?.dataset.id === 'Vasquez'")


def test_ua3_wound_levels_and_the_gridiron_are_shown_as_the_servers_state_has_them_u2_u16(
    server: str, page: Any
) -> None:
    """A ua3 session's wound level in words (U-2) beside the status, and each conflict's token
    on the gridiron's five spaces with whose roll is next (U-16), all read off the server's state."""
    with httpx.Client(base_url=server) as c:
        document = c.get("/scenarios/ua3/the-hollow-church").json()["document"]
        document.setdefault("settings", {})["wound_threshold"] = 4  # a few wounds make a level
        c.post("/sessions", json={"name": "church", "scenario": {"document": document}, "seed": 3}).raise_for_status()
        page.goto(server + "/?session=church")
        page.wait_for_selector("#combatants tr[data-id='Dana']")
        assert page.locator("#conflicts-panel").is_hidden()  # no conflict yet
        assert page.locator("#combatants .level").count() == 0
        sides = [
            {"actor": "Dana", "roll": "Connect", "stake": "<b>Marge</b> goes home"},
            {"actor": "Agnes", "roll": "Connect", "stake": "Marge stays"},
        ]
        start = {"command": "ua3_start_conflict", "about": "who Marge listens to", "first": "a", "sides": sides}
        c.post("/sessions/church/commands", json={"command": start}).raise_for_status()
        roll = {"command": "ua3_gridiron_roll", "matched_failure": "wounds", "dice": [9, 9, 3]}  # 99: 3 wounds
        c.post("/sessions/church/commands", json={"command": roll}).raise_for_status()
        state = c.get("/sessions/church/state").json()["state"]
        version = c.get("/sessions/church").json()["version"]
    page.wait_for_function("v => document.getElementById('position').textContent === String(v)", arg=version)
    dana = next(x for x in state["combatants"] if x["id"] == "Dana")
    assert dana["wound_level"] == "badly beaten"  # 3 of 4: at 75% (U-2)
    page.wait_for_function(
        "t => document.querySelector(\"#combatants tr[data-id='Dana'] td.status .level\")?.textContent === t",
        arg=dana["wound_level"],
    )
    assert page.inner_text("#combatants tr[data-id='Dana'] td.wounds") == f"{dana['wounds']}/{dana['wound_threshold']}"
    (conflict,) = state["conflicts"]
    box = page.locator(f"#conflicts .conflict[data-id='{conflict['id']}']")
    assert [li.get_attribute("data-space") for li in box.locator(".gridiron li").all()] == [
        s["space"] for s in conflict["spaces"]
    ]
    assert box.locator(".gridiron li.token").get_attribute("data-space") == conflict["token"]
    assert "side B (Agnes) to roll" in box.locator(".conflict-now").inner_text() and conflict["to_roll"] == "b"
    assert "<b>Marge</b> goes home" in box.locator(".side[data-side='a']").inner_text()  # as text
    assert page.locator("#conflicts b").count() == 0
    _scrub(page, version - 2)  # before the roll: no wounds, no level
    page.wait_for_function("() => !document.querySelector(\"#combatants tr[data-id='Dana'] td.status .level\")")


def test_the_ua3_golden_replays_conflict_stands_where_the_servers_state_puts_its_token(server: str, page: Any) -> None:
    golden = "replays/ua3/the-hollow-church.jsonl"
    with httpx.Client(base_url=server) as c:  # the server's state at every event of the golden replay
        made = c.post("/replays", json={"log": Path(golden).read_text()}).json()
        states = {
            at: c.get(f"/replays/{made['session']}/state", params={"at": at}).json()["state"]
            for at in range(made["version"] + 1)
        }
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file-input", golden)
    page.wait_for_function("v => document.getElementById('version').textContent === String(v)", arg=made["version"])
    having = [at for at, s in states.items() if s.get("conflicts")]
    _scrub(page, having[0] - 1)
    page.wait_for_function("() => !document.querySelector('#conflicts .conflict')")
    moved = [at for at in having if any(k["token"] != "balance" for k in states[at]["conflicts"])]
    assert moved  # the token moved at some point of the replay
    for at in sorted({having[0], having[-1], *moved[:2]}):
        _scrub(page, at)
        conflict = states[at]["conflicts"][-1]
        rolled = [f"{s['rolls']} rolled" for s in conflict["sides"]]
        page.wait_for_function(  # the token and each side's rolls as the state at `at` has them
            "([id, token, rolled]) => {"
            " const c = document.querySelector(`#conflicts .conflict[data-id='${id}']`);"
            " const sides = c ? [...c.querySelectorAll('.side')].map((e) => e.textContent) : [];"
            " return c?.querySelector('.gridiron li.token')?.dataset.space === token"
            "  && sides.length === rolled.length && rolled.every((r, i) => sides[i].includes(r)); }",
            arg=[conflict["id"], conflict["token"], rolled],
        )


def _open_replay(page: Any, server: str, log: str) -> int:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file-input", log)
    page.wait_for_function("document.getElementById('version').textContent !== '0'")
    page.wait_for_selector("#chart svg polyline", state="attached")
    return int(page.inner_text("#version"))


def test_the_charts_have_axes_and_each_series_starts_when_its_combatant_joins(server: str, page: Any) -> None:
    """ua2: wound points left (the edition's words) on a value axis, events and round starts
    below; a line per meter's hardened and failed notches (M2-*), not one sum per combatant."""
    version = _open_replay(page, server, "replays/knife-vs-22.jsonl")
    wounds = page.locator("#chart svg[data-chart='wound points']")
    assert wounds.count() == 1
    assert "wound points left" in (wounds.locator(".axis-label").text_content() or "")
    assert wounds.locator(".tick-value").count() >= 3 and wounds.locator(".tick-event").count() >= 3
    assert wounds.locator(".tick-round").first.text_content() == "r1"
    assert wounds.locator(".threshold").count() == 0  # ua2 counts points left: no threshold line
    with httpx.Client(base_url=server) as c:
        replay = c.post("/replays", json={"log": Path("replays/knife-vs-22.jsonl").read_text()}).json()["session"]
        timeline = c.get(f"/replays/{replay}/timeline").json()
    for line in wounds.locator("polyline").all():
        who = line.get_attribute("data-series")
        joined = next(i for i, p in enumerate(timeline["points"]) if any(x["id"] == who for x in p["combatants"]))
        assert int(line.get_attribute("data-start")) == joined > 0, who
    series = page.eval_on_selector_all("#chart svg[data-character] polyline", "ls => ls.map(l => l.dataset.series)")
    assert series and all(s.split(" ")[-1] in ("hardened", "failed") for s in series)
    assert version > 0


def test_the_ua3_wounds_chart_marks_each_threshold_u2(server: str, page: Any) -> None:
    _open_replay(page, server, "replays/ua3/the-hollow-church.jsonl")
    wounds = page.locator("#chart svg[data-chart='wounds toward the wound threshold']")
    assert "wounds taken" in (wounds.locator(".axis-label").text_content() or "")
    marks = wounds.locator("line.threshold")
    assert marks.count() == wounds.locator("polyline").count() > 0
    assert all(int(m.get_attribute("data-value")) > 0 for m in marks.all())


def test_scrubbing_back_stops_following_the_end(server: str, page: Any) -> None:
    with httpx.Client(base_url=server) as c:
        c.post("/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}).raise_for_status()
        page.goto(server + "/?session=duel")
        page.wait_for_selector("#log li")
        assert page.is_checked("#follow")
        _scrub(page, 2)
        assert not page.is_checked("#follow")
        c.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}).raise_for_status()
        version = c.get("/sessions/duel").json()["version"]
    page.wait_for_function("v => document.getElementById('version').textContent === String(v)", arg=version)
    assert page.inner_text("#position") == "2"  # it stayed where the GM looked back to


@pytest.mark.parametrize("log", ["replays/knife-vs-22.jsonl", "replays/ua3/the-hollow-church.jsonl"])
def test_the_viewer_fits_a_phone_without_scrolling_sideways(server: str, browser: Any, log: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    _open_replay(phone, server, log)
    phone.wait_for_selector("#chart svg")
    width = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    chart = phone.eval_on_selector("#chart svg", "s => s.getBoundingClientRect().width")
    context.close()
    assert width[0] <= width[1], width
    assert chart >= 300  # the chart keeps the phone's width, not a 100 px sliver
