"""Batches on Dask distributed (a 2-worker LocalCluster, shared): the same tallies as the local
pool for any chunk size, comparisons and what-ifs too; a worker killed mid-batch changes nothing;
each worker opens a batch once, not once per task; a scheduler or worker of another engine is
refused, before the batch and where a task lands; a cluster that cannot be reached, or has no
workers, and a bad address are one error each."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path
from typing import Any

import msgspec
import pytest

pytest.importorskip("distributed", reason="needs Dask distributed: pip install -e '.[test,distributed]'")

from engine.dice.source import derive_seed
from engine.errors import InvalidInput
from engine.reducers import fold
from engine.scenario.scenario import load_scenario
from engine.simulate import cluster, identity, tasks
from engine.simulate.batch import BatchJob, run_batch
from engine.simulate.compare import Variant, run_compare
from engine.simulate.executors import BackendError, run_job
from engine.simulate.fight import prepare, run_fight
from engine.simulate.identity import OtherEngine
from engine.simulate.pool import LocalPool
from engine.simulate.tasks import pack
from tests.conftest import OTHER_ENGINE as OTHER

ROOT = Path(__file__).resolve().parents[1]
KNIFE = load_scenario(ROOT / "scenarios" / "knife-vs-22.toml")
BRAWL = load_scenario(ROOT / "scenarios" / "bar-brawl.toml")


def _picks(picks: Any) -> list[list[int]]:
    return [picks.indices(which) for which in ("best", "worst", "random")]


@pytest.fixture(scope="module")
def brawl_on_the_pool() -> tuple[Any, list[list[int]]]:
    _, tally, picks = run_batch(BRAWL, 3_000, 11, keep=4, executor=LocalPool(2))
    return tally, _picks(picks)


@pytest.mark.parametrize("chunk", [7, 97, 1000, None])
def test_a_batch_on_dask_is_the_batch_on_the_local_pool_for_any_chunk_size(
    dask_cluster: Any, brawl_on_the_pool: tuple[Any, list[list[int]]], chunk: int | None
) -> None:
    _, tally, picks = run_batch(BRAWL, 3_000, 11, keep=4, executor=dask_cluster, chunk_size=chunk)
    assert (tally, _picks(picks)) == brawl_on_the_pool


def test_a_comparison_on_dask_is_the_comparison_on_the_local_pool(dask_cluster: Any) -> None:
    arms = [Variant(name="knife", loaded=KNIFE), Variant(name="brawl", loaded=BRAWL)]
    assert run_compare(arms, 1_500, 4, executor=dask_cluster, chunk_size=100) == run_compare(arms, 1_500, 4)


def test_a_what_if_from_a_state_mid_fight_runs_on_dask_as_locally(dask_cluster: Any) -> None:
    events = run_fight(prepare(KNIFE), derive_seed(1, 0), keep_log=True).events
    state = fold(events[:20])
    assert state.fight.phase == "acting"
    here = run_batch(KNIFE, 800, 3, start=state)[1]
    assert run_batch(KNIFE, 800, 3, start=state, executor=dask_cluster, chunk_size=50)[1] == here


def _pids(client: Any) -> dict[str, int]:
    return dict(client.run(os.getpid))


def test_a_worker_killed_mid_batch_loses_nothing_and_changes_nothing(dask_cluster: Any) -> None:
    client = dask_cluster.client
    pids = _pids(client)
    killed: list[tuple[str, int]] = []

    def kill_a_busy_worker(done: int) -> None:
        busy = [address for address, keys in client.processing().items() if keys]
        if not killed and busy and done < 30_000:  # the first time a worker is fighting, well before the end
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append((busy[0], done))

    try:
        _, tally, _ = run_batch(KNIFE, 40_000, 21, executor=dask_cluster, chunk_size=2_000, progress=kill_a_busy_worker)
    finally:
        client.wait_for_workers(2, timeout=60)  # the nanny starts another; later tests want two
    assert killed, "a worker was killed while it was fighting"
    assert pids[killed[0][0]] not in _pids(client).values(), "the worker really died"
    assert tally == run_batch(KNIFE, 40_000, 21, workers=2)[1]


class _DiesWithItsWorker(msgspec.Struct, frozen=True):
    """A job whose every task kills the worker process that runs it."""

    engine: str = msgspec.field(default_factory=identity.engine_identity)

    def open(self) -> Any:
        return lambda first, stop: os._exit(1)


def _allow_failures(dask_scheduler: Any, count: int) -> int:
    before: int = dask_scheduler.allowed_failures
    dask_scheduler.allowed_failures = count
    return before


def test_a_task_that_kills_every_worker_it_runs_on_is_one_error_not_a_hang(dask_cluster: Any) -> None:
    client = dask_cluster.client
    before = client.run_on_scheduler(_allow_failures, count=0)  # the first death is final
    try:
        with pytest.raises(BackendError) as caught:
            run_job(_DiesWithItsWorker(), 10, lambda result: None, executor=dask_cluster, chunk_size=10)
    finally:
        client.run_on_scheduler(_allow_failures, count=before)
        client.wait_for_workers(2, timeout=60)
    assert caught.value.message.startswith("workers died 1 time running task ua-")
    assert caught.value.message.endswith("), so it is not tried again")
    assert caught.value.where == "the local Dask cluster" and "out of memory" in caught.value.hint


def _opens() -> int:
    return tasks.opens


def test_each_worker_opens_a_batch_once_not_once_per_task(dask_cluster: Any) -> None:
    client = dask_cluster.client
    before = sum(client.run(_opens).values())
    run_batch(KNIFE, 6_000, 31, executor=dask_cluster, chunk_size=100)  # 60 tasks
    opened = sum(client.run(_opens).values()) - before
    assert 1 <= opened <= len(client.nthreads())


def test_a_cluster_with_a_worker_of_another_engine_is_refused_naming_it(
    dask_cluster: Any, one_worker_of_another_engine: str
) -> None:
    with pytest.raises(OtherEngine) as caught:
        run_batch(KNIFE, 500, 1, executor=dask_cluster)
    error = caught.value
    assert error.where == f"worker {one_worker_of_another_engine}"
    assert error.message == f"runs {OTHER}, but the batch was made by {identity.engine_identity()}"


def test_a_task_that_lands_on_a_worker_of_another_engine_runs_nothing_there(
    dask_cluster: Any, one_worker_of_another_engine: str
) -> None:
    packed = pack(BatchJob(loaded=KNIFE, seed=77))  # a job no worker has opened yet
    future = dask_cluster.client.submit(cluster._task, packed, 0, 10, workers=[one_worker_of_another_engine])
    with pytest.raises(OtherEngine) as caught:
        future.result()
    assert caught.value.where == f"worker {one_worker_of_another_engine}"
    assert caught.value.message.startswith(f"runs {OTHER}")


class _SchedulerWithoutTheEngine:
    """A client whose scheduler cannot import the engine (its workers could)."""

    class scheduler:
        address = "tcp://10.0.0.5:8786"

    def run_on_scheduler(self, function: Any) -> Any:
        raise ModuleNotFoundError("No module named 'engine'")

    def run(self, function: Any, **kwargs: Any) -> dict[str, str]:
        return {"tcp://10.0.0.6:40000": identity.engine_identity()}


class _WorkerOfFourThreads(_SchedulerWithoutTheEngine):
    """A cluster of the same engine whose one worker runs four threads in one process."""

    def run_on_scheduler(self, function: Any) -> Any:
        return identity.engine_identity()

    def nthreads(self) -> dict[str, int]:
        return {"tcp://10.0.0.6:40000": 4}


def test_a_worker_of_several_threads_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    cluster.check_cluster(_WorkerOfFourThreads(), identity.engine_identity())  # type: ignore[arg-type]
    said = capsys.readouterr().err
    assert "worker_threads_share_one_process" in said and "tcp://10.0.0.6:40000" in said
    assert "--nworkers -1 --nthreads 1" in said


def test_a_scheduler_that_cannot_read_the_engine_s_tasks_is_refused_naming_it() -> None:
    with pytest.raises(OtherEngine) as caught:
        cluster.check_cluster(_SchedulerWithoutTheEngine(), identity.engine_identity())  # type: ignore[arg-type]
    assert caught.value.where == "the scheduler tcp://10.0.0.5:8786"
    assert caught.value.message == "cannot run the engine (ModuleNotFoundError: No module named 'engine')"
    assert "on the scheduler and every worker" in caught.value.hint


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_scheduler_nobody_listens_at_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    with pytest.raises(BackendError) as caught, cluster.dask_executor(workers=None, scheduler=address):
        pass
    assert caught.value.message.startswith(f"cannot reach the Dask scheduler at {address} (")
    assert caught.value.where == "--scheduler" and "dask scheduler" in caught.value.hint
    assert "\n" not in str(caught.value)


def test_a_scheduler_without_workers_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    monkeypatch.setattr(cluster, "WORKERS_SECONDS", 0.5)
    quiet = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
    with (
        LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None, scheduler_kwargs=quiet) as empty,
        pytest.raises(BackendError) as caught,
        cluster.dask_executor(workers=None, scheduler=empty.scheduler_address),
    ):
        pass
    address = empty.scheduler_address
    assert caught.value.message.startswith(f"the Dask scheduler at {address} has no workers")
    assert caught.value.hint == f"start some: dask worker {address} --nworkers -1 --nthreads 1"


@pytest.mark.parametrize(
    ("given", "address"),
    [
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("tls://sched.lab:8786", "tls://sched.lab:8786"),
        (" 127.0.0.1:8786 ", "tcp://127.0.0.1:8786"),
        ("tcp://[::1]:08786", "tcp://[::1]:8786"),
    ],
)
def test_scheduler_addresses_are_read_as_dask_prints_them(given: str, address: str) -> None:
    assert cluster.scheduler_address(given) == address


@pytest.mark.parametrize(
    "given", ["", "tcp://", "10.0.0.5", "http://10.0.0.5:8786", "tcp://h:0", "tcp://h:70000", "a b:1"]
)
def test_a_malformed_scheduler_address_is_refused_before_any_connection(given: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        cluster.scheduler_address(given)
    assert caught.value.where == "--scheduler" and "tcp://HOST:PORT" in caught.value.hint


def test_workers_are_not_given_to_a_cluster_that_has_its_own() -> None:
    with pytest.raises(InvalidInput, match="--workers sizes a Dask cluster on this machine"), cluster.dask_executor(
        workers=4, scheduler="tcp://127.0.0.1:8786"
    ):
        pass
