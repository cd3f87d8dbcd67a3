"""Hypothesis settings for the suite: no per-example deadline (a loaded machine is slow, not
wrong); under CI the examples are derandomized so a run is reproducible. One Dask cluster for
the tests that need one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session")
def dask_cluster() -> Iterator[Any]:
    """One 2-worker Dask `LocalCluster` (processes, one thread each, loopback, no dashboard) for
    every test that needs Dask, as `ua simulate --backend dask` starts it; the tests that use it
    are skipped where the `distributed` extra is not installed."""
    pytest.importorskip("distributed", reason="needs Dask distributed: pip install -e '.[test,distributed]'")
    from engine.simulate.cluster import dask_executor

    with dask_executor(workers=2, scheduler=None) as executor:
        yield executor


#: What a worker installed from other sources would say it runs.
OTHER_ENGINE = "ua-engine 0.0.9, sources 0000000000000000"


def _pretend_another_engine() -> None:
    from engine.simulate import identity

    identity.__dict__.setdefault("_real_identity", identity.engine_identity)
    identity.engine_identity = lambda: OTHER_ENGINE  # type: ignore[assignment]


def _be_this_engine_again() -> None:
    from engine.simulate import identity

    identity.engine_identity = identity.__dict__.pop("_real_identity", identity.engine_identity)


@pytest.fixture
def one_worker_of_another_engine(dask_cluster: Any) -> Iterator[str]:
    """A worker of the shared cluster that says it runs another engine (as one installed from
    other sources would), named by its address; itself again afterwards."""
    client = dask_cluster.client
    address: str = sorted(client.nthreads())[0]
    client.run(_pretend_another_engine, workers=[address])
    try:
        yield address
    finally:
        client.run(_be_this_engine_again, workers=[address])
