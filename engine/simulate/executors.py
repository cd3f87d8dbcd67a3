"""The executor seam: a batch's work is a value (a `Job`); an executor runs it over spans of fight
indexes and hands back each span's result in span order. The merged result is therefore the
same whatever ran it: this process, the local process pool (`pool.py`) or a Dask cluster
(`cluster.py`, imported only when asked for), on any number of workers, in chunks of any size.

`run_job` is the one driver: it plans the spans from a measured cost, lets Ctrl-C stop a batch
cleanly (the chunks finished by then are kept, in order), and leaves the rest to the executor.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, Protocol

from engine.errors import EngineError, InvalidInput
from engine.simulate.interrupts import Interrupts, handling, ignoring
from engine.simulate.spans import Span, Spans, plan, seconds_per_index

if TYPE_CHECKING:
    from engine.simulate.tasks import Job

Backend = Literal["local", "dask"]
#: `take(result, stop)`: the result of the span that ends at `stop`, in span order.
Take = Callable[[Any, int], None]
#: Batches at least this large time a sample of their fights to size their chunks.
MEASURE_FROM = 5_000
#: Tasks in flight per slot: enough to keep every worker busy while results come back.
WINDOW_PER_SLOT = 4


class BackendError(EngineError):
    """Raised when a batch backend cannot be used: its extra is not installed, its scheduler
    cannot be reached or has no workers."""


class Executor(Protocol):
    """Runs a job's spans and hands back their results in span order."""

    @property
    def name(self) -> str:
        """What the reports call it."""
        ...

    @property
    def slots(self) -> int:
        """Tasks it runs at once (its workers)."""
        ...

    @property
    def task_seconds(self) -> float:
        """How long a task should take on it (seconds): its per-task cost is small beside that."""
        ...

    def run(self, job: Job, spans: Spans, take: Take, interrupts: Interrupts) -> None:
        """`take(result, stop)` for each span, in order. On KeyboardInterrupt: stop, take the
        spans finished by then (in order, up to the first that is not), and re-raise."""
        ...


class InProcess:
    """Every span in this process, one after another. Ctrl-C waits for the span under way, which
    is kept."""

    name = "in-process"
    slots = 1
    task_seconds = 0.25

    def run(self, job: Job, spans: Spans, take: Take, interrupts: Interrupts) -> None:
        run = job.open()
        for first, stop in spans:
            with interrupts.deferred():
                take(run(first, stop), stop)


class Handle(Protocol):
    """A task under way (a `concurrent.futures` or a Dask future)."""

    def result(self) -> Any: ...


def in_order(
    submit: Callable[[Span], Handle],
    spans: Iterable[Span],
    window: int,
    take: Take,
    *,
    finished: Callable[[Any], bool],
    stop: Callable[[list[Any]], None],
) -> None:
    """Keep `window` tasks in flight and take their results in span order: the client holds at
    most `window` tasks, whatever the size of the batch. On any exception `stop(handles)` ends
    the tasks left; on KeyboardInterrupt, those `finished` by then are taken first (in order, up
    to the first that is not), so a stopped batch is always the report of its first fights."""
    pending: deque[tuple[Any, int]] = deque()

    def take_oldest() -> None:
        handle, end = pending[0]
        result = handle.result()  # the oldest stays pending until its result is in
        pending.popleft()
        take(result, end)

    def take_finished() -> None:
        while pending and finished(pending[0][0]):
            take_oldest()

    try:
        for span in spans:
            pending.append((submit(span), span[1]))
            if len(pending) >= window:
                take_oldest()
        while pending:
            take_oldest()
    except KeyboardInterrupt:
        with ignoring():  # a second Ctrl-C must not cut the clean-up short
            take_finished()
            stop([h for h, _ in pending])  # the pool lets the chunks under way finish: kept too
            take_finished()
        raise
    except BaseException:
        with ignoring():
            stop([h for h, _ in pending])
        raise


def window_for(slots: int) -> int:
    """How many tasks a driver keeps in flight for `slots` workers."""
    return max(2, slots * WINDOW_PER_SLOT)


def run_job(
    job: Job,
    n: int,
    merge: Callable[[Any], None],
    *,
    executor: Executor | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    interruptible: bool = False,
    chunk_size: int | None = None,
    sampled: Callable[[float], object] | None = None,
) -> bool:
    """Run fights 0…n−1 of `job` on `executor` (default: this process for one worker, else a
    local pool of `workers`), in chunks of `chunk_size` (default: sized from a timed sample to
    the executor's task length); `merge(result)` each in order, then `progress(fights done)`.
    A batch of at least MEASURE_FROM fights is sampled here first (when its chunks need sizing,
    or `sampled` wants the seconds a fight took). Returns True when Ctrl-C stopped it early
    (only if `interruptible`; else KeyboardInterrupt goes on, after the workers have stopped):
    what was merged is the first chunks."""
    executor = executor or local_executor(workers)
    interrupts = Interrupts()

    def take(result: Any, stop: int) -> None:
        with interrupts.deferred():
            merge(result)
            if progress is not None:
                progress(stop)

    with handling(interrupts):
        try:
            per_index = None
            if n >= MEASURE_FROM and (chunk_size is None or sampled is not None):
                with interrupts.deferred():  # the sample runs here, like a chunk of InProcess
                    per_index = seconds_per_index(job.open())
                if sampled is not None:
                    sampled(per_index)
            spans = plan(n, executor.slots, task_seconds=executor.task_seconds, per_index=per_index, size=chunk_size)
            executor.run(job, spans, take, interrupts)
        except KeyboardInterrupt:
            if not interruptible:
                raise
            return True
    return False


def local_executor(workers: int, *, oversubscribe: bool = False) -> Executor:
    """This process for one worker, else the local process pool (at most a process a usable CPU
    unless `oversubscribe`)."""
    if workers <= 1:
        return InProcess()
    from engine.simulate.pool import LocalPool

    return LocalPool(workers, oversubscribe=oversubscribe)


def require_dask() -> None:
    """Refuse `--backend dask` in one line when Dask distributed (the `distributed` extra) is not
    installed, or cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        missing = isinstance(exc, ModuleNotFoundError) and exc.name in ("distributed", "dask")
        raise BackendError(
            f"--backend dask needs Dask distributed, which {'is not installed' if missing else f'fails: {exc}'}",
            where="--backend",
            hint="pip install -e '.[distributed]' (or pip install 'ua-engine[distributed]')",
        ) from None


@contextmanager
def open_executor(
    backend: Backend, *, workers: int | None, scheduler: str | None = None, oversubscribe: bool = False
) -> Iterator[Executor]:
    """The executor of a command: `local` (this process or its pool of `workers`), or `dask` (the
    cluster at `scheduler`, else a cluster of `workers` processes on this machine), closed after.
    Processes on this machine are at most one a usable CPU unless `oversubscribe`."""
    from engine.simulate.pool import default_workers

    if backend == "local":
        if scheduler is not None:
            raise InvalidInput("--scheduler is for a Dask cluster", where="--scheduler", hint="add --backend dask")
        yield local_executor(default_workers() if workers is None else workers, oversubscribe=oversubscribe)
        return
    require_dask()
    from engine.simulate.cluster import dask_executor

    with dask_executor(workers=workers, scheduler=scheduler, oversubscribe=oversubscribe) as executor:
        yield executor
