"""Dask distributed: the executor of `--backend dask`, on an existing cluster (`--scheduler`) or
on a `LocalCluster` of this machine's processes (loopback only, no dashboard).

Imported only when a command asks for Dask (`executors.open_executor`), so the default install
never imports it. A batch is sent as tasks of about `task_seconds`, at most a window of them in
flight. They all depend on one task that holds the packed job (`tasks.py`): the job crosses the
network once per worker (never in every task: the client's messages stay small), and each worker
thread opens it once and keeps it for the tasks that follow. Before the first task, the engine of
the scheduler (which reads the tasks) and of every worker is checked against this one, and each
task checks again where it runs (a worker may join later): another engine is refused, never
merged. A worker lost mid-batch loses only its tasks under way, which the scheduler runs again
elsewhere; the results are the same.
"""

from __future__ import annotations

import logging
import re
import secrets
import socket
import struct
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from distributed import Client, Future, LocalCluster, get_worker
from distributed.client import FutureCancelledError
from distributed.scheduler import KilledWorker

from engine.errors import InvalidInput
from engine.logging import get_logger
from engine.simulate.executors import BackendError, Take, in_order, window_for
from engine.simulate.identity import OtherEngine, check_engine, engine_identity
from engine.simulate.interrupts import Interrupts, ignoring
from engine.simulate.spans import Span, Spans
from engine.simulate.tasks import Job, Packed, opened, pack
from engine.text import one_line

log = get_logger(__name__)

#: How long to try reaching a scheduler (seconds), and to wait for its first worker.
CONNECT_SECONDS = 10.0
WORKERS_SECONDS = 30.0
#: How long a scheduler may take to greet a connection (it writes its handshake on accepting one:
#: a peer that stays silent — an HTTP server, a dashboard — is not one), and the largest first
#: message a greeting may announce (a banner read as Dask's length header announces exabytes).
GREETING_SECONDS = 5.0
MAX_GREETING = 2**26
#: Dask's own diagnostics shown on stderr: errors only (a batch's lines are its own).
DASK_LOG_LEVEL = logging.ERROR
_ADDRESS = re.compile(r"(?:(?P<scheme>tcp|tls)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})")
_HINT_ADDRESS = "tcp://HOST:PORT, as `dask scheduler` prints it"


def scheduler_address(text: str) -> str:
    """`tcp://HOST:PORT` (or `tls://…`, or `HOST:PORT` meaning tcp), checked before any
    connection is tried."""
    m = _ADDRESS.fullmatch(text.strip())
    if m is None or not 1 <= int(m["port"]) <= 65535:
        raise InvalidInput(f"{text!r} is not a scheduler address", where="--scheduler", hint=_HINT_ADDRESS)
    return f"{m['scheme'] or 'tcp'}://{m['host']}:{int(m['port'])}"


def _job(engine: str, key: str, blob: bytes) -> Packed:
    """The packed job, as the one task every task of a batch depends on: it crosses the network
    once per worker (and is made again from these arguments if every copy is lost)."""
    return Packed(engine, key, blob)


def _task(packed: Packed, first: int, stop: int) -> Any:
    """One task on a Dask worker: fights `first…stop−1` of the packed job."""
    return opened(packed, where=f"worker {get_worker().address}")(first, stop)


def _check(runs: Any, made_by: str, where: str) -> None:
    if isinstance(runs, BaseException):
        raise OtherEngine(
            f"cannot run the engine ({type(runs).__name__}: {runs})",
            where=where,
            hint="install the same ua-engine, with its [distributed] extra, on the scheduler and every worker",
        )
    check_engine(made_by, where, runs=runs)


def check_cluster(client: Client, made_by: str) -> None:
    """Refuse the cluster if its scheduler (which reads the tasks) or any worker (which runs them)
    has another engine than the one that made the job, or none, naming the first such."""
    try:
        on_scheduler = client.run_on_scheduler(engine_identity)
    except Exception as exc:
        on_scheduler = exc
    _check(on_scheduler, made_by, f"the scheduler {getattr(client.scheduler, 'address', '')}".rstrip())
    found: dict[str, Any] = client.run(engine_identity, on_error="return")
    for address, runs in sorted(found.items()):
        _check(runs, made_by, f"worker {address}")
    for address, threads in sorted(client.nthreads().items()):
        if threads > 1:
            log.warning(
                "worker_threads_share_one_process",
                worker=address,
                threads=threads,
                hint="fights hold the GIL: start workers with --nworkers -1 --nthreads 1 (a process per core)",
            )


class DaskExecutor:
    """A batch's spans as tasks on a Dask cluster, their results taken in span order."""

    name = "dask"
    task_seconds = 3.0

    def __init__(self, client: Client, where: str) -> None:
        self.client = client
        #: The cluster as the reports name it: a scheduler's address, or this machine's.
        self.where = where

    @property
    def slots(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def run(self, job: Job, spans: Spans, take: Take, interrupts: Interrupts) -> None:
        check_cluster(self.client, job.engine)
        packed = pack(job)
        batch = f"ua-{packed.key[:12]}-{secrets.token_hex(4)}"
        shared = self.client.submit(_job, *packed, key=f"{batch}-job")

        def submit(span: Span) -> Future[Any]:
            return self.client.submit(_task, shared, *span, key=f"{batch}-{span[0]}")

        def stop(futures: list[Any]) -> None:
            with suppress(Exception):  # a cluster already gone has nothing left to cancel
                self.client.cancel(futures)

        try:
            in_order(
                submit, spans, window_for(self.slots), take, finished=lambda f: f.status == "finished", stop=stop
            )
        except KilledWorker as exc:
            deaths = exc.allowed_failures + 1
            raise BackendError(
                f"workers died {deaths} time{'s' if deaths > 1 else ''} running task {exc.task} (the last: "
                f"{exc.last_worker.address}), so it is not tried again",
                where=self.where,
                hint="see that worker's log: it may have run out of memory",
            ) from None
        except FutureCancelledError as exc:
            raise BackendError(
                f"the cluster cancelled the batch's tasks ({exc.reason})",
                where=self.where,
                hint="is the scheduler still up, with the same ua-engine?",
            ) from None


def _quiet_dask() -> None:
    logging.getLogger("distributed").setLevel(DASK_LOG_LEVEL)


@contextmanager
def dask_executor(
    *, workers: int | None, scheduler: str | None, oversubscribe: bool = False
) -> Iterator[DaskExecutor]:
    """The cluster at `scheduler` (its workers are other machines': never clamped), or a
    `LocalCluster` of `workers` processes (one thread each, at most one a usable CPU unless
    `oversubscribe`) on 127.0.0.1 with no dashboard; closed (the local one shut down) after."""
    _quiet_dask()
    if scheduler is None:
        with _local_cluster(workers, oversubscribe) as client:
            yield DaskExecutor(client, where="the local Dask cluster")
        return
    if workers is not None:
        raise InvalidInput(
            "--workers sizes a Dask cluster on this machine; the cluster at --scheduler has its own workers",
            where="--workers",
            hint="drop --workers, or start more `dask worker` processes",
        )
    address = scheduler_address(scheduler)
    check_greeting(address)
    with _connect(address) as client:
        yield DaskExecutor(client, where=f"--scheduler {address}")


@contextmanager
def _local_cluster(workers: int | None, oversubscribe: bool) -> Iterator[Client]:
    from engine.simulate.pool import clamp_workers, default_workers

    # Started with SIGINT ignored, the worker processes keep ignoring it: a terminal's Ctrl-C
    # reaches the whole process group, and is this process's to handle.
    with ignoring():
        cluster = LocalCluster(
            n_workers=default_workers() if workers is None else clamp_workers(workers, oversubscribe=oversubscribe),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # no dashboard; the scheduler's health page on a free loopback port, not 8787
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            silence_logs=DASK_LOG_LEVEL,
        )
    try:
        with Client(cluster, set_as_default=False) as client:
            yield client
    finally:
        with ignoring():
            cluster.close()


def check_greeting(address: str) -> None:
    """Refuse, in one line and within CONNECT_SECONDS + GREETING_SECONDS, a `tcp://` address where
    no Dask scheduler listens, before Dask's client reads a banner's bytes as a length (and asks
    for exabytes) or waits forever on an HTTP server. A scheduler greets every connection with a
    small message, at once; this one is closed after its length is read. (With `tls://` the
    client speaks first: Dask's own timeout applies.)"""
    scheme, _, rest = address.partition("://")
    if scheme != "tcp":
        return
    host, _, port = rest.rpartition(":")
    try:
        peer = socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS)
    except OSError as exc:
        raise _unreachable(address, exc) from None
    with peer:
        head = _greeting(peer)
    if head is None:
        problem = f"it said nothing in {GREETING_SECONDS:.0f} s, as an HTTP server (ua serve, a dashboard) does"
    elif len(head) < 8:
        problem = "it closed the connection without a greeting" if not head else f"it greets with {head!r}"
    elif not 0 < struct.unpack("Q", head)[0] <= MAX_GREETING:
        problem = f"it greets with {head!r}…, not as a Dask scheduler does"
    else:
        return
    raise BackendError(
        one_line(f"{address} is not a Dask scheduler: {problem}"),
        where="--scheduler",
        hint="give the address `dask scheduler` prints (tcp://HOST:8786 by default), not its dashboard's",
    )


def _greeting(peer: socket.socket) -> bytes | None:
    """The first 8 bytes the peer sends (fewer if it closes first), or None if it stays silent."""
    peer.settimeout(GREETING_SECONDS)
    head = b""
    try:
        while len(head) < 8:
            chunk = peer.recv(8 - len(head))
            if not chunk:
                break
            head += chunk
    except TimeoutError:
        return head or None
    except OSError:
        pass  # reset while greeting: what came is what it said
    return head


def _unreachable(address: str, exc: BaseException) -> BackendError:
    return BackendError(
        f"cannot reach the Dask scheduler at {address} ({_reason(exc)})",
        where="--scheduler",
        hint="start one with `dask scheduler` and give the address it prints; check the host, port and firewall",
    )


@contextmanager
def _connect(address: str) -> Iterator[Client]:
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, MemoryError, ValueError) as exc:  # a peer that is no scheduler
        raise _unreachable(address, exc) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKERS_SECONDS)
        except TimeoutError:
            raise BackendError(
                f"the Dask scheduler at {address} has no workers (waited {WORKERS_SECONDS:.0f} s)",
                where="--scheduler",
                hint=f"start some: dask worker {address} --nworkers -1 --nthreads 1",
            ) from None
        yield client


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
