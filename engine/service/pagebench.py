"""The table's figures in a real browser (a benchmark, not a test): how long after a player acts
on their page the GM's console shows it — with four players and the GM connected over loopback —
and how soon after loading a page is interactive.

    python -m engine.service.pagebench [--samples 40] [--json]

Needs the test extra's playwright and a Chromium (`UA_CHROMIUM`, default /usr/bin/chromium). Each
sample is a declaration made on a player's page (C2-4: a later one replaces the earlier), timed
from the click on that page to the console's log growing (both clocks are the pages' own
`performance.timeOrigin + now()`, one machine's)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from engine.service.bench import running_server

PLAYERS = ("Tommy", "Dana", "Otis", "Eddie")
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
#: On the console: when each log position was first shown (a reload's redraw does not count).
WATCH_LOG = """() => { window.__seen = {};
  new MutationObserver((changes) => { const t = performance.timeOrigin + performance.now();
    for (const c of changes) for (const n of c.addedNodes)
      if (n.dataset && n.dataset.position && !(n.dataset.position in window.__seen))
        window.__seen[n.dataset.position] = t; })
    .observe(document.getElementById('log'), {childList: true}); }"""
#: The duration of a page's latest POST of a command (its resource timing).
LAST_POST = """() => { const posts = performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('/commands'));
  return posts.length ? posts[posts.length - 1].duration : 0; }"""
#: The last log position the console shows.
SHOWN = "Math.max(0, ...[...document.querySelectorAll('#log li')].map((li) => Number(li.dataset.position)))"
#: The time the console first showed a position after `n` (null: none yet).
FIRST_AFTER = """n => { const t = Object.entries(window.__seen).filter(([p]) => Number(p) > n).map(([, t]) => t);
  return t.length ? Math.min(...t) : null; }"""
#: On a player's page: the time of each click on a declaration's button.
WATCH_CLICKS = """() => { window.__clicked = [];
  document.addEventListener('click',
    () => window.__clicked.push(performance.timeOrigin + performance.now()), true); }"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def measure(samples: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, running_server(Path(folder) / "bench.sqlite") as base:
        links = _table(base)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=os.environ.get("UA_CHROMIUM", "/usr/bin/chromium"), args=FLAGS)
            loads: list[float] = []
            gm = _open(browser, f"{base}/gm/brawl", loads)
            players = [_open(browser, link, loads) for link in links]
            gm.evaluate(WATCH_LOG)
            for page in players:
                page.evaluate(WATCH_CLICKS)
            latencies: list[float] = []
            posts: list[float] = []
            for i in range(samples):
                who, page = PLAYERS[i % len(PLAYERS)], players[i % len(players)]
                version = gm.evaluate(SHOWN)
                page.click(f"#act form.declare[data-actor='{who}'] button[type=submit]")
                gm.wait_for_function(f"n => ({FIRST_AFTER})(n) !== null", arg=version, timeout=10_000)
                clicked = page.evaluate("window.__clicked[window.__clicked.length - 1]")
                latencies.append(gm.evaluate(FIRST_AFTER, version) - clicked)
                posts.append(page.evaluate(LAST_POST))
            browser.close()
    return {
        "players": len(PLAYERS),
        "samples": samples,
        "shown_on_console_ms": {
            "p50": round(statistics.median(latencies), 1),
            "p95": round(percentile(latencies, 95), 1),
            "max": round(max(latencies), 1),
        },
        #: of which the command's own round trip (the POST, as the player's page timed it)
        "command_ms": {"p50": round(statistics.median(posts), 1), "p95": round(percentile(posts, 95), 1)},
        "interactive_ms": {
            "pages": len(loads),
            "max": round(max(loads), 1),
            "median": round(statistics.median(loads), 1),
        },
    }


def _table(base: str) -> list[str]:
    """A ua2 bar brawl in its declarations, four players invited; their links."""
    with httpx.Client(base_url=base) as c:
        c.post("/sessions", json={"name": "brawl", "scenario": {"name": "bar-brawl"}, "seed": 7}).raise_for_status()
        c.post("/sessions/brawl/commands", json={"command": {"command": "begin_fight"}}).raise_for_status()
        return [
            str(c.post("/sessions/brawl/participants", json={"characters": [who]}).raise_for_status().json()["link"])
            for who in PLAYERS
        ]


def _open(browser: Any, url: str, loads: list[float]) -> Any:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    loads.append(float(page.evaluate("Number(document.body.dataset.interactive)")))
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    figures = measure(args.samples)
    if args.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
        return 0
    shown, ready = figures["shown_on_console_ms"], figures["interactive_ms"]
    print(f"a player's action on the GM console ({figures['players']} players + GM, {figures['samples']} samples):")
    print(f"  p50 {shown['p50']} ms, p95 {shown['p95']} ms, max {shown['max']} ms (target: p95 <= 200 ms)")
    post = figures["command_ms"]
    print(f"  of which the command's own round trip: p50 {post['p50']} ms, p95 {post['p95']} ms")
    print(f"a page interactive after load: median {ready['median']} ms, max {ready['max']} ms (target: <= 1000 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
