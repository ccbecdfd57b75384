"""Simulation on Dask: a ``distributed.LocalCluster`` of two worker processes gives the serial summary.

The ``dask`` extra (``pip install 'calabrasella[dask]'``) installs Dask's
distributed scheduler; CI installs it and sets ``CALABRASELLA_EXPECT_DASK=1``,
and there this test must run (it fails when the extra is missing, so a CI
without it cannot pass quietly). Elsewhere it skips without the extra. Starting the cluster's two worker
processes takes a second or two on a quiet machine and several on a busy
one, so it is marked slow (``python -m pytest -m slow`` runs it).
"""

from __future__ import annotations

import os

import pytest

import calabrasella as cb
from calabrasella.bots.base import RandomBot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.simulate import simulate

if os.environ.get("CALABRASELLA_EXPECT_DASK"):
    import distributed  # CI installs the dask extra: its absence is a failure there
else:
    distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow

LINEUP = (HeuristicBot, RandomBot, RandomBot)


def test_a_local_dask_cluster_gives_the_serial_summary() -> None:
    """Chunks pickled to two worker processes, finishing in any order: the very same Summary."""
    serial = simulate(cb.CAVENDISH, LINEUP, 36, seed=11, chunk_size=4)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        on_dask = simulate(cb.CAVENDISH, LINEUP, 36, seed=11, chunk_size=4, executor=executor)
        # the executor's workers are two processes other than this one
        workers = client.run(os.getpid)
    assert on_dask == serial
    assert on_dask.table() == serial.table()
    assert serial.deals == 36 and len(serial.contracts) >= 1
    assert len(set(workers.values())) == 2 and os.getpid() not in workers.values()
