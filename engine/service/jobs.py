"""Batch simulations and what-if forks as jobs: each runs `engine.simulate` in a process of its
own (the server's threads keep answering), reports the fights done after each chunk, and is
cancelled as Ctrl-C stops `ua simulate`: the fights finished so far make a partial report."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from engine.errors import EngineError
from engine.service.errors import ServiceError, error_body, unexpected, without_folders
from engine.service.models import ErrorBody, Job, JobResult

#: Jobs running at once (each may use several worker processes); more are refused with 429.
MAX_RUNNING = 2
#: Finished jobs kept for their results (the oldest are forgotten first).
MAX_KEPT = 64


def _simulation(
    loaded: Any, n: int, seed: int, workers: int, precision: Any, progress: Callable[[int], None]
) -> dict[str, Any]:
    from engine.simulate.batch import batch_precision, run_batch
    from engine.simulate.stats import summary

    prep, tally, _ = run_batch(
        loaded, n, seed, workers=workers, progress=progress, interruptible=True, precision=precision
    )
    stop = None if precision is None else batch_precision(prep, tally, precision, n)
    report: dict[str, Any] = summary(prep, tally, seed=seed, requested=n, precision=stop)
    return report


def _fork(
    state: Any, loaded: Any, n: int, seed: int, workers: int, at: int, precision: Any, progress: Callable[[int], None]
) -> dict[str, Any]:
    from engine.simulate.whatif import fork_batch

    report: dict[str, Any] = fork_batch(
        state, loaded, n, seed, workers=workers, from_event=at, interruptible=True, progress=progress,
        precision=precision,
    )
    return report


KINDS: dict[str, Callable[..., dict[str, Any]]] = {"simulation": _simulation, "fork": _fork}


def _child(kind: str, args: tuple[Any, ...], done: Any, conn: Any) -> None:
    """The job's process: run it, send back ("ok", report JSON) or ("error", ErrorBody JSON)."""

    def progress(count: int) -> None:
        done.value = count

    try:
        report = KINDS[kind](*args, progress=progress)
        conn.send(("ok", msgspec.json.encode(report)))
    except EngineError as exc:
        conn.send(("error", msgspec.json.encode(error_body(exc))))
    except KeyboardInterrupt:
        conn.send(("error", msgspec.json.encode(ErrorBody(error="cancelled", message="cancelled", status=409))))
    except BaseException as exc:  # a bug: say so (its details in the log), never leave the job hanging
        conn.send(("error", msgspec.json.encode(unexpected(exc, f"job {kind}"))))
    finally:
        conn.close()


class _Running:
    def __init__(self, job: Job, process: Any, done: Any) -> None:
        self.job = job
        self.process = process
        self.done = done
        self.report: dict[str, Any] | None = None
        self.cancelled = False


class Jobs:
    """The jobs of one server: start, look at, cancel; results kept for the last `MAX_KEPT`."""

    def __init__(self, *, folders: Iterable[Path] = ()) -> None:
        self._folders = tuple(folders)  # the server's own, taken off what a failed job's error names
        self._jobs: OrderedDict[str, _Running] = OrderedDict()
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server

    def start(self, kind: str, args: tuple[Any, ...], requested: int) -> Job:
        with self._lock:
            running = sum(r.job.state == "running" for r in self._jobs.values())
            if running >= MAX_RUNNING:
                raise ServiceError(
                    429,
                    "too_many",
                    f"{running} jobs are running, the most this server runs at once",
                    hint="wait for one to finish, or cancel one (DELETE /jobs/ID)",
                )
            job_id = secrets.token_hex(8)
            done = self._context.Value("q", 0)
            receive, send = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_child, args=(kind, args, done, send), daemon=True)
            process.start()
            send.close()
            job = Job(id=job_id, kind=kind, state="running", requested=requested, done=0, started=time.time())  # type: ignore[arg-type]
            entry = self._jobs[job_id] = _Running(job, process, done)
            while len(self._jobs) > MAX_KEPT:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].job.state == "running":
                    break
                del self._jobs[oldest]
        threading.Thread(target=self._wait, args=(entry, receive), daemon=True, name=f"job-{job_id}").start()
        return job

    def _wait(self, entry: _Running, receive: Any) -> None:
        try:
            outcome, payload = receive.recv()
        except EOFError:
            outcome, payload = (
                "error",
                msgspec.json.encode(
                    ErrorBody(error="internal", message="the job's process ended without a result", status=500)
                ),
            )
        finally:
            receive.close()
        entry.process.join()
        with self._lock:
            done = int(entry.done.value)
            if outcome == "ok":
                entry.report = msgspec.json.decode(payload)
                fights = int(entry.report.get("fights", done)) if entry.report else done
                state = "cancelled" if entry.cancelled else "done"
                entry.job = msgspec.structs.replace(entry.job, state=state, done=fights, finished=time.time())
            else:
                error = without_folders(msgspec.json.decode(payload, type=ErrorBody), self._folders)
                state = "cancelled" if entry.cancelled else "failed"
                entry.job = msgspec.structs.replace(
                    entry.job, state=state, done=done, finished=time.time(), error=error
                )

    def _entry(self, job_id: str) -> _Running:
        entry = self._jobs.get(job_id)
        if entry is None:
            raise ServiceError(404, "not_found", f"no job {job_id!r}", where=job_id, hint="GET /jobs lists them")
        return entry

    def get(self, job_id: str) -> Job:
        with self._lock:
            entry = self._entry(job_id)
            if entry.job.state == "running":
                return msgspec.structs.replace(entry.job, done=int(entry.done.value))
            return entry.job

    def list(self) -> list[Job]:
        with self._lock:
            ids = list(self._jobs)
        return [self.get(i) for i in ids]

    def result(self, job_id: str) -> JobResult:
        with self._lock:
            entry = self._entry(job_id)
            job = entry.job
            if job.state == "running":
                raise ServiceError(
                    409,
                    "running",
                    f"job {job_id} is still running ({int(entry.done.value)} of {job.requested})",
                    where=job_id,
                    hint="poll GET /jobs/ID until its state is done",
                )
            if entry.report is None:
                body = job.error or ErrorBody(error="failed", message="the job failed", status=422)
                raise ServiceError(422, body.error, body.message, where=job_id, hint=body.hint)
            return JobResult(job=job, report=entry.report)

    def cancel(self, job_id: str) -> Job:
        """Stop a running job as Ctrl-C stops a batch: its finished fights are its report."""
        with self._lock:
            entry = self._entry(job_id)
            if entry.job.state == "running" and entry.process.pid is not None:
                entry.cancelled = True
                with contextlib.suppress(ProcessLookupError):
                    os.kill(entry.process.pid, signal.SIGINT)
        return self.get(job_id)

    def close(self) -> None:
        with self._lock:
            entries = list(self._jobs.values())
        for entry in entries:
            if entry.process.is_alive():
                entry.process.terminate()
                entry.process.join(timeout=5)
