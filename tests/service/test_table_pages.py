"""The table in a real headless Chromium (Debian's, as the viewer's tests): a GM console and two
player pages play a ua2 round and a ua3 round together — invites from the console, declarations
on the players' phones, the NPCs' stretch from the console, a passion after a miss (C-10, U-21),
an undo — at 390 × 844 and 1280 × 800, with no console errors and no sideways scroll; and every
token tried where it does not belong, refused with nothing written."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.service.test_viewer import browser, pytestmark, server  # noqa: F401  (fixtures, skip mark)

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


class Pages:
    """Browser contexts (each its own sessionStorage: a participant per context), every page's
    errors kept: uncaught exceptions, console errors, and failed requests but the ones allowed."""

    def __init__(self, chromium: Any, viewport: dict[str, int], requests_supported: bool) -> None:
        self.browser = chromium
        self.viewport = viewport
        self.requests_supported = requests_supported
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str) -> Any:
        context = self.browser.new_context(viewport=self.viewport)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda e: self.errors.append(f"{url}: {e}"))
        page.on("response", lambda r: self._failed(url, r))
        page.on("console", lambda m: self._console(url, m))
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        return page

    def _failed(self, url: str, response: Any) -> None:
        # without the requests feature a page's GET …/requests is a 404: how it learns so
        unsupported = not self.requests_supported and response.url.endswith("/requests")
        if response.status >= 400 and not (unsupported and response.status == 404):
            self.errors.append(f"{url}: {response.status} {response.url}")

    def _console(self, url: str, message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(f"{url}: {message.text}")  # a failed load is judged by `_failed`

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(params=list(VIEWPORTS))
def pages(request: Any, browser: Any, server: str) -> Iterator[Pages]:  # noqa: F811
    supported = httpx.get(f"{server}/sessions/none/requests").status_code != 404
    made = Pages(browser, VIEWPORTS[request.param], supported)
    yield made
    made.close()
    assert not made.errors, made.errors


def no_sideways_scroll(*pages: Any) -> None:
    for page in pages:
        width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width <= client, (page.url, width, client)


def wait_until(check: Callable[[], bool], what: str, tries: int = 200) -> None:
    import time

    for _ in range(tries):
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def invite_from_console(gm: Any, character: str, player: str) -> str:
    """The GM invites a player from the console; the link it shows (the token in its fragment)."""
    gm.fill("#invite-name", player)
    gm.check(f"#invite-characters input[value='{character}']")
    before = gm.input_value("#invite-link")
    gm.click("#invite-form button[type=submit]")
    gm.wait_for_function(
        "v => document.getElementById('invite-link').value && document.getElementById('invite-link').value !== v",
        arg=before,
    )
    gm.uncheck(f"#invite-characters input[value='{character}']")
    gm.wait_for_selector(f"#participants li:has-text('{player} plays {character}')")
    gm.keyboard.press("Escape")  # out of the fields: the console's keys work again
    link: str = gm.input_value("#invite-link")
    assert "/play/" in link and "#" in link
    return link


def roll(page: Any, where: str, tens: int, ones: int) -> None:
    page.click(f"{where} .digits[data-die='0'] button[data-face='{tens}']")
    page.click(f"{where} .digits[data-die='1'] button[data-face='{ones}']")


class Table:
    """The GM's HTTP view of the session, to check what the pages did."""

    def __init__(self, base: str, name: str) -> None:
        self.client = httpx.Client(base_url=base)
        self.name = name

    def info(self) -> dict[str, Any]:
        return dict(self.client.get(f"/sessions/{self.name}").json())

    def log(self) -> list[dict[str, Any]]:
        return list(self.client.get(f"/sessions/{self.name}/log").json()["lines"])

    def passions_left(self, who: str) -> dict[str, int]:
        body = self.client.get(f"/sessions/{self.name}/passions/{who}").json()
        return {p["kind"]: p["left"] for p in body["passions"]}


def step_to_a_players_turn(gm: Any, table: Table, players: set[str], npcs: set[str], gm_played: set[str]) -> str:
    """From the console: the NPCs act (key `n`), the GM acts for an uninvited player (does
    nothing), until an invited player's turn; whose it is."""
    for _ in range(12):
        turn = table.info()["turn"]
        if turn in players:
            return str(turn)
        version = table.info()["version"]
        if turn in npcs:
            gm.keyboard.press("n")
        elif turn in gm_played:
            gm.select_option("#actor", turn)
            gm.click(f"#act .turn-actions[data-actor='{turn}'] button.nothing")
        else:
            raise AssertionError(f"no one to act: {table.info()}")
        wait_until(lambda v=version: table.info()["version"] > v, "the console's step was written")
    raise AssertionError("no player's turn came")


def test_a_ua2_round_at_the_table(pages: Pages, server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server) as c:
        c.post("/sessions", json={"name": "brawl", "scenario": {"name": "bar-brawl"}, "seed": 7}).raise_for_status()
    table = Table(server, "brawl")
    gm = pages.open(f"{server}/gm/brawl")
    ana = pages.open(invite_from_console(gm, "Tommy", "Ana"))
    bo = pages.open(invite_from_console(gm, "Dana", "Bo"))
    assert ana.inner_text("#who") == "Ana plays Tommy" and bo.inner_text("#who") == "Bo plays Dana"
    gm.keyboard.press("b")  # the fight begins: each player chooses how to take initiative (I2-1, T-4)
    for page, who in ((ana, "Tommy"), (bo, "Dana")):
        card = f"#requests .request[data-id='{who}.initiative']"
        page.wait_for_selector(card)
        page.click(f"{card} button[data-value='default']")
    ana.wait_for_selector("#act form.declare[data-actor='Tommy']")  # declarations, slowest first (C2-4)
    ana.select_option("#act form.declare[data-actor='Tommy'] select[name=focus_target]", "Eddie")
    ana.select_option("#act form.declare[data-actor='Tommy'] select[name=focus]", "10")
    ana.click("#act form.declare[data-actor='Tommy'] button[type=submit]")
    bo.wait_for_selector("#act form.declare[data-actor='Dana']")
    bo.click("#act form.declare[data-actor='Dana'] button[type=submit]")
    wait_until(lambda: sum(1 for line in table.log() if line["type"] == "command_recorded") >= 6, "both declared")
    assert table.info()["phase"] == "declare"  # players' declarations leave the round open
    gm.click("#close")
    wait_until(lambda: table.info()["phase"] == "acting", "the GM closed the declarations")
    who = step_to_a_players_turn(gm, table, {"Tommy", "Dana"}, {"Eddie", "Sal", "Moe"}, {"Otis"})
    page = ana if who == "Tommy" else bo
    turn = f"#act .turn-actions[data-actor='{who}']"
    page.wait_for_selector(turn)
    roll(page, turn, 9, 8)  # 98: a miss
    page.click(f"{turn} button[data-command='attack']")
    passion = f"#act .passion[data-actor='{who}'] button[data-passion]"
    flip = f"#requests .request[data-id='{who}.flip']"  # an obsession roll: its player reads it (C-11)
    page.wait_for_selector(f"{passion}, {flip}")
    if page.query_selector(flip) is not None:
        page.click(f"{flip} button[data-value='as_rolled']")
    page.wait_for_selector(passion)
    gm.wait_for_function("w => document.getElementById('log').textContent.includes(w + ' attacks')", arg=who)
    before = table.passions_left(who)
    page.click(f"#act .passion[data-actor='{who}'] button[data-passion]")  # C-10: reroll the miss
    wait_until(lambda: sum(table.passions_left(who).values()) == sum(before.values()) - 1, "the passion was spent")
    version = table.info()["version"]
    gm.keyboard.press("u")  # the GM undoes the passion's amend
    wait_until(lambda: table.info()["version"] > version, "the undo was written")
    gm.wait_for_selector("#log li.struck")
    assert table.passions_left(who) == before
    page.wait_for_selector(f"#characters .card[data-id='{who}'] .passions")
    no_sideways_scroll(gm, ana, bo)


def test_a_ua3_round_at_the_table(pages: Pages, server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server) as c:
        made = {"name": "amb", "scenario": {"name": "ua3/full-auto-ambush"}, "seed": 3}
        c.post("/sessions", json=made).raise_for_status()
    table = Table(server, "amb")
    gm = pages.open(f"{server}/gm/amb")
    cy = pages.open(invite_from_console(gm, "Dana", "Cy"))
    di = pages.open(invite_from_console(gm, "Sam", "Di"))
    gm.keyboard.press("b")
    wait_until(lambda: table.info()["phase"] == "declare", "the fight began")
    version = table.info()["version"]
    gm.keyboard.press("n")  # the crew declares (U-22: the NPCs first)
    wait_until(lambda: table.info()["version"] > version, "the NPCs declared")
    form = "#act form.declare[data-actor='Dana']"
    cy.wait_for_selector(form)
    cy.select_option(f"{form} select[name=action]", "attack")
    cy.select_option(f"{form} select[name=target]", "Vasquez")
    cy.click(f"{form} button[type=submit]")
    wait_until(lambda: "Dana" in json.dumps(table.log()[-3:]), "Dana declared")
    assert table.info()["phase"] == "declare"
    form = "#act form.declare[data-actor='Sam']"
    di.wait_for_selector(form)
    di.select_option(f"{form} select[name=action]", "dodge")
    di.click(f"{form} button[type=submit]")  # the last to declare: the order is set (U-22)
    wait_until(lambda: table.info()["phase"] == "acting", "everyone declared")
    gm.wait_for_selector("#tracker li.now")
    for _ in range(6):  # the round's turns: the NPCs from the console, the players on their pages
        who = step_to_a_players_turn(gm, table, {"Dana", "Sam"}, {"Vasquez", "Dink"}, set())
        page = cy if who == "Dana" else di
        act = f"#act .turn-actions[data-actor='{who}']"
        page.wait_for_selector(f"{act} button.act")
        roll(page, act, 9, 8)
        version = table.info()["version"]
        page.click(f"{act} button.act")
        wait_until(lambda v=version: table.info()["version"] > v, f"{who} acted")
        if who == "Dana":
            gm.wait_for_function("() => document.getElementById('log').textContent.includes('Dana')")
            break
    # U-21: a passion on a failed ability check, the check called by the GM from the command box
    dana_passion = "#act .passion[data-actor='Dana'] button[data-passion]"
    gm.fill("#command", json.dumps({"command": "ua3_check", "actor": "Dana", "name": "notice", "dice": [9, 8]}))
    gm.click("#command-form button[type=submit]")
    cy.wait_for_selector(dana_passion)
    before = table.passions_left("Dana")
    cy.click(dana_passion)
    wait_until(lambda: sum(table.passions_left("Dana").values()) == sum(before.values()) - 1, "Dana's passion")
    version = table.info()["version"]
    gm.click("#undo")
    wait_until(lambda: table.info()["version"] > version, "the undo was written")
    assert table.passions_left("Dana") == before
    no_sideways_scroll(gm, cy, di)


def test_requests_are_answered_on_the_player_page(pages: Pages, server: str) -> None:  # noqa: F811
    """T-1…T-4: a GM's command for a played character waits on its player's die; the player's
    page shows the request with its rule, target and odds, and the dice given there finish it."""
    if not pages.requests_supported:
        pytest.skip("GET /sessions/NAME/requests is a 404: this server has no requests yet")
    with httpx.Client(base_url=server) as c:
        c.post(
            "/sessions", json={"name": "amb", "scenario": {"name": "ua3/full-auto-ambush"}, "seed": 3}
        ).raise_for_status()
        link = c.post("/sessions/amb/participants", json={"characters": ["Dana"], "player": "Cy"}).json()["link"]
        gm = pages.open(f"{server}/gm/amb")
        cy = pages.open(link)
        waiting = c.post(
            "/sessions/amb/commands", json={"command": {"command": "ua3_check", "actor": "Dana", "name": "notice"}}
        )
        assert waiting.status_code == 202, waiting.text
        (asked,) = waiting.json()["requests"]
        card = f"#requests .request[data-id='{asked['id']}']"
        cy.wait_for_selector(card)
        assert asked["rule"] in cy.inner_text(card)
        gm.wait_for_selector(f"#requests .request[data-id='{asked['id']}']")  # who is being waited on
        roll(cy, card, 1, 2)
        cy.click(f"{card} button.send")
        cy.wait_for_selector(card, state="detached")
        gm.wait_for_function("() => document.getElementById('log').textContent.includes('1,2')")


def test_every_token_where_it_does_not_belong_is_refused_with_nothing_written(browser: Any, server: str) -> None:  # noqa: F811
    """From the pages' own origin, as a script on them would: another player's character, a
    viewer writing, a revoked link, a link used on another session — each refused, the log
    unchanged; and a revoked player's page says its link no longer works."""
    with httpx.Client(base_url=server) as c:
        for name in ("duel", "other"):
            c.post("/sessions", json={"name": name, "scenario": {"name": "knife-vs-22"}, "seed": 7}).raise_for_status()
        c.post("/sessions/duel/commands", json={"command": {"command": "begin_fight"}}).raise_for_status()
        rosa = c.post("/sessions/duel/participants", json={"characters": ["Rosa"]}).json()["link"]
        viewer = c.post("/sessions/duel/participants", json={"viewer": True}).json()["link"]
        before = {n: c.get(f"/sessions/{n}").json()["version"] for n in ("duel", "other")}
        context = browser.new_context(viewport=VIEWPORTS["phone"])
        page = context.new_page()
        page.goto(rosa)
        page.wait_for_selector("body[data-ready='1']")
        assert page.inner_text("#who") == "Rosa plays Rosa"
        assert "#" not in page.url  # the token left the address bar

        def attempt(token_of: str, path: str, body: Any) -> int:
            status: int = page.evaluate(
                "async ([token, path, body]) => (await fetch(path, {method: 'POST', headers: {Authorization:"
                " 'Bearer ' + token, 'Content-Type': 'application/json'}, body: JSON.stringify(body)})).status",
                [token_of.split("#", 1)[1], path, body],
            )
            return status

        vic = {"command": {"command": "declare", "declarations": [{"id": "Vic"}], "open": True}}
        assert attempt(rosa, "/sessions/duel/commands", vic) == 403
        assert attempt(rosa, "/sessions/other/commands", {"command": {"command": "begin_fight"}}) == 403
        assert attempt(rosa, "/sessions/duel/undo", {}) == 403
        assert attempt(rosa, "/sessions/duel/participants", {"viewer": True}) == 403
        assert attempt(viewer, "/sessions/duel/commands", {"command": {"command": "end_fight"}}) == 403
        assert attempt(viewer, "/sessions/duel/passions", {"actor": "Rosa", "passion": "rage"}) == 403
        c.delete("/sessions/duel/participants/Rosa").raise_for_status()
        mine = {"command": {"command": "declare", "declarations": [{"id": "Rosa"}], "open": True}}
        assert attempt(rosa, "/sessions/duel/commands", mine) == 401
        c.post(
            "/sessions/duel/commands", json={"command": {"command": "ruling", "note": "a new event"}}
        ).raise_for_status()
        page.wait_for_function("() => document.getElementById('status').textContent.includes('no longer works')")
        after = {n: c.get(f"/sessions/{n}").json()["version"] for n in ("duel", "other")}
        assert after == {"duel": before["duel"] + 2, "other": before["other"]}  # only the GM's ruling
        context.close()


def test_the_tables_figures_are_measured_and_printed() -> None:
    """The benchmark runs end to end, as a user runs it (its own process: its own browser); its
    figures are reported, not asserted (a shared machine)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "engine.service.pagebench", "--samples", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["players"] == 4 and figures["samples"] == 4 and figures["interactive_ms"]["pages"] == 5
    assert 0 < figures["shown_on_console_ms"]["p50"] <= figures["shown_on_console_ms"]["max"]
    assert figures["command_ms"]["p50"] > 0
