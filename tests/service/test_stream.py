"""Live streams on a real server (uvicorn on a free loopback port): every event in order, to many
followers at once, resumable with Last-Event-ID, and commands from another writer (the CLI) too."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.commands import Ruling
from engine.service.bench import running_server
from engine.session.live import LiveEncounter
from engine.store.sqlite import SqliteStore


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with running_server(tmp_path / "s.sqlite") as base:
        with httpx.Client(base_url=base) as c:
            c.post(
                "/sessions", json={"name": "duel", "scenario": {"name": "knife-vs-22"}, "seed": 7}
            ).raise_for_status()
        yield base


def ids_until(
    base: str, last: int, headers: dict[str, str] | None = None, params: dict[str, int] | None = None
) -> list[int]:
    """The SSE ids a follower receives until `last` (bounded by the client's timeout)."""
    seen: list[int] = []
    with (
        httpx.Client(base_url=base, timeout=20) as c,
        c.stream("GET", "/sessions/duel/events", headers=headers, params=params) as r,
    ):
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            assert line != "data: " and line != "data:"  # comments carry no empty message
            if line.startswith("id:"):
                seen.append(int(line[3:]))
                if seen[-1] >= last:
                    break
    return seen


def test_ten_followers_get_every_event_in_order_while_commands_arrive(server: str, tmp_path: Path) -> None:
    got: list[list[int]] = [[] for _ in range(10)]
    final = 6 + 2 * 30 + 2 * 2  # the setup, 30 API rulings, 2 from another writer

    def follow(i: int) -> None:
        got[i] = ids_until(server, final)

    threads = [threading.Thread(target=follow, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    with httpx.Client(base_url=server) as c:
        for i in range(30):
            c.post(
                "/sessions/duel/commands", json={"command": {"command": "ruling", "note": f"n{i}"}}
            ).raise_for_status()
    other = SqliteStore(tmp_path / "s.sqlite")  # as `ua session ruling` would, from another process
    live = LiveEncounter(other, "duel")
    live.execute(Ruling(note="cli 1"))
    live.execute(Ruling(note="cli 2"))
    other.close()
    for t in threads:
        t.join(timeout=30)
    assert all(ids == list(range(1, final + 1)) for ids in got)


def test_a_follower_resumes_after_its_last_event_id(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        for i in range(3):
            c.post(
                "/sessions/duel/commands", json={"command": {"command": "ruling", "note": f"n{i}"}}
            ).raise_for_status()
    assert ids_until(server, 12, headers={"Last-Event-ID": "8"}) == [9, 10, 11, 12]
    assert ids_until(server, 12, params={"after": 10}) == [11, 12]


def test_a_stream_of_no_session_is_a_404(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        assert c.get("/sessions/nope/events").status_code == 404
