"""Batches of fights as jobs: a scenario simulated (`ua simulate`), a session's what-if fork
(`ua session fork --simulate`), and the jobs polled, read and cancelled."""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, delete, get, post
from litestar.params import FromPath

from engine.service import bodies, models
from engine.service.context import body_of, run, service_of
from engine.simulate.pool import clamp_workers


@post("/simulations", status_code=202, opt={"body": models.Simulation}, summary="Simulate a scenario")
async def simulate(request: Request[Any, Any, Any]) -> models.Job:
    """A batch of fights as a job (`ua simulate`): poll `/jobs/ID`, then `/jobs/ID/result`."""
    body = await body_of(request, models.Simulation)
    loaded = await run(bodies.load_source, body.scenario)
    workers = clamp_workers(body.workers)  # silently: more processes than CPUs only share them
    most = body.most()
    return service_of(request).jobs.start("simulation", (loaded, most, body.seed, workers, body.stop()), most)


@post("/sessions/{name:str}/fork", status_code=202, opt={"body": models.Fork}, summary="Fork a session: what if")
async def fork(request: Request[Any, Any, Any], name: FromPath[str]) -> models.Job:
    """What if: fight the rest from event `at` many times, as a job (`ua session fork --simulate`)."""
    body = await body_of(request, models.Fork)
    service = service_of(request)
    state, loaded = await run(service.sessions.fork_point, name, body.at)
    workers = clamp_workers(body.workers)  # silently: more processes than CPUs only share them
    most = body.most()
    return service.jobs.start("fork", (state, loaded, most, body.seed, workers, body.at, body.stop()), most)


@get("/jobs", sync_to_thread=False, summary="List the jobs")
def list_jobs(request: Request[Any, Any, Any]) -> models.JobList:
    """Every job this server started, running or not."""
    return models.JobList(jobs=service_of(request).jobs.list())


@get("/jobs/{job_id:str}", sync_to_thread=False, summary="Get a job")
def job(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.Job:
    """A job's state and progress (fights done of those requested)."""
    return service_of(request).jobs.get(job_id)


@get("/jobs/{job_id:str}/result", sync_to_thread=False, summary="Get a job's report")
def job_result(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.JobResult:
    """The report of a finished (or cancelled: partial) job, as `ua simulate --json` prints it."""
    return service_of(request).jobs.result(job_id)


@delete("/jobs/{job_id:str}", status_code=200, sync_to_thread=False, summary="Cancel a job")
def cancel_job(request: Request[Any, Any, Any], job_id: FromPath[str]) -> models.Job:
    """Cancel a running job; the fights it finished make its (partial) report."""
    return service_of(request).jobs.cancel(job_id)


ROUTER = Router(path="/", route_handlers=[simulate, fork, list_jobs, job, job_result, cancel_job], tags=["simulations"])
