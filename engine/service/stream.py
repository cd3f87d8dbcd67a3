"""A session's events as Server-Sent Events, following the store.

One watcher thread per server asks SQLite for its `data_version` (a number that changes when any
other connection commits: this server's writers or a CLI process on the same file) every
`POLL` seconds and wakes the followers; the API's own writes wake them at once. Each follower
then reads only the events after the last one it sent. Event ids are log positions, so a client
that reconnects with `Last-Event-ID` (or `?after=N`) misses nothing and gets nothing twice."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread
import msgspec
from litestar.response import ServerSentEventMessage

from engine.events.commands import MARKERS
from engine.service.sessions import event_view
from engine.session.audit import rounds
from engine.session.live import stored_events
from engine.store.sqlite import SqliteStore

#: Seconds between two looks at the file for other writers' commits.
POLL = 0.05
#: Seconds between keep-alive comments on an idle stream.
KEEPALIVE = 15.0
#: Events sent in one go at most (a long log is sent in pieces).
BATCH = 500


class Changes:
    """Wakes every follower when the store may have new events."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="ua-store-watcher")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _watch(self) -> None:
        try:
            seen = self.store.data_version()
        except Exception:  # a store already closed: nothing to watch
            return
        while not self._stop.wait(POLL):
            try:
                now = self.store.data_version()
            except Exception:  # a store closing under us: stop quietly
                return
            if now != seen:
                seen = now
                self.poke()

    def poke(self) -> None:
        """Something was written: wake the followers (callable from any thread)."""
        loop, event = self._loop, self._event
        if loop is not None and event is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, event)

    def _wake(self, event: asyncio.Event) -> None:
        event.set()
        # the followers waiting now run; the next wait needs a fresh event
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        event = self._event
        if event is None:
            await asyncio.sleep(timeout)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


def _messages(
    store: SqliteStore, name: str, after: int, round_now: int | None
) -> tuple[list[ServerSentEventMessage], int, int | None]:
    """The SSE messages for the events after position `after` (at most `BATCH`), the last
    position sent and the round it ends in. The round of each event is followed from round starts;
    it is found from the whole log only where it cannot be (a first batch that does not start the
    log, or one holding an undo, redo or amend marker)."""
    records = list(stored_events(store, name, after + 1))[:BATCH]
    if not records:
        return [], after, round_now
    if round_now is None and after == 0:
        round_now = 0
    if round_now is None or any(isinstance(e, MARKERS) for _, e in records):
        everything = list(stored_events(store, name))[: records[-1][0]]
        round_of = {p: r for p, r, _ in rounds(everything) if p > after}
    else:
        round_of = {}
        current = round_now
        for p, e in records:
            opened = e.opens_round()
            current = current if opened is None else opened
            round_of[p] = current
    out = []
    for position, event in records:
        view = event_view(position, event, round_of.get(position, 0), full=False)
        out.append(ServerSentEventMessage(data=msgspec.json.encode(view).decode(), id=position, event="event"))
    return out, records[-1][0], round_of.get(records[-1][0], 0)


async def follow(
    store: SqliteStore, changes: Changes, name: str, after: int, *, until: Callable[[], bool] | None = None
) -> AsyncIterator[ServerSentEventMessage]:
    """The stream of one session from position `after` on, until the client goes away: its
    events (`id` = position), and `request` events (no id: never a log position) — the open
    requests first, then each one opened, answered or dropped (`RequestEvents`)."""
    from engine.service.table import RequestEvents

    yield ServerSentEventMessage(comment="ua session stream", retry=1000, data=None)
    idle = 0.0
    round_now: int | None = None
    requests = RequestEvents(store, name)
    while until is None or not until():
        for message in await anyio.to_thread.run_sync(requests.messages):
            yield message
        messages, last, round_now = await anyio.to_thread.run_sync(_messages, store, name, after, round_now)
        if messages:
            for message in messages:
                yield message
            after, idle = last, 0.0
            continue
        await changes.wait(1.0)
        idle += 1.0
        if idle >= KEEPALIVE:
            idle = 0.0
            yield ServerSentEventMessage(comment="keep-alive", data=None)


def start_after(last_event_id: str | None, after: int | None) -> Any:
    """Where a stream starts: after `Last-Event-ID` (a reconnecting client), else `?after=N`, else 0."""
    if last_event_id is not None and last_event_id.strip().isdigit():
        return int(last_event_id.strip())
    return after or 0
