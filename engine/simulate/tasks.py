"""What runs on a worker: a job packed once on the client, opened once per worker (thread) and
job, then span after span.

A task carries the client's engine identity, the job's key (a hash of its bytes) and the job's
bytes: the worker first checks the identity (before unpickling anything another engine might
read differently), then finds the job it opened for that key, or opens it — the prepared
scenario, its fights and their cache of openings — and keeps it for the tasks that follow.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import socket
import threading
from collections import OrderedDict
from typing import Any, NamedTuple, Protocol

from engine.simulate.identity import check_engine
from engine.simulate.spans import Runner

#: Jobs kept opened per worker thread (the newest): a long-lived worker serving batch after
#: batch holds only these.
KEEP_OPENED = 2


class Job(Protocol):
    """A batch's work as a serializable value: what to fight (the resolved scenario or
    variants, the seed, options), and the identity of the engine that made it."""

    @property
    def engine(self) -> str: ...

    def open(self) -> Runner:
        """The per-worker setup: a function of a span of fight indexes to its result."""
        ...


class Packed(NamedTuple):
    """A job as it travels: who made it, its key, its bytes."""

    engine: str
    key: str
    blob: bytes


def pack(job: Job) -> Packed:
    blob = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    return Packed(engine=job.engine, key=hashlib.sha256(blob).hexdigest()[:24], blob=blob)


class _Opened(threading.local):
    def __init__(self) -> None:
        self.runners: OrderedDict[str, Runner] = OrderedDict()


_opened = _Opened()
#: How many jobs this process has opened (what the tests read to see setup done once).
opens = 0


def opened(packed: Packed, where: str = "") -> Runner:
    """The job of `packed`, opened on this worker thread (once per job); refused (`OtherEngine`)
    if another engine made it. `where`: this worker, as an error names it."""
    global opens
    runners = _opened.runners
    run = runners.get(packed.key)
    if run is None:
        check_engine(packed.engine, where or f"worker process {os.getpid()} on {socket.gethostname()}")
        job: Job = pickle.loads(packed.blob)
        run = runners[packed.key] = job.open()
        opens += 1
        while len(runners) > KEEP_OPENED:
            runners.popitem(last=False)
    return run


def run_packed(engine: str, key: str, blob: bytes, first: int, stop: int) -> Any:
    """One task: fights `first…stop−1` of the packed job (a module-level function, so any
    executor can send it by reference)."""
    return opened(Packed(engine, key, blob))(first, stop)
