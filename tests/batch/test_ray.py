"""The Ray backend on a real local instance (2 CPUs): the same bytes as the local pool,
and the same reports for a crashing, a hanging and a killed job."""
from __future__ import annotations

import pytest

from kzplayer import batch

from .common import call, render_sweep, tree

pytestmark = pytest.mark.ray


def test_ray_writes_the_same_bytes_as_the_local_pool(ray_instance, tmp_path, sweep_on_two_workers):
    local, local_out = sweep_on_two_workers
    on_ray = batch.run(render_sweep(), out=tmp_path / "ray", backend="ray")
    assert local.counts() == on_ray.counts() == {"ok": 12}
    assert tree(tmp_path / "ray") == tree(local_out)
    assert len(tree(tmp_path / "ray")) == 18
    # Ray's workers are other processes than this one
    import os
    assert all(not r.worker.endswith(f":{os.getpid()}") for r in on_ray.records)


def test_ray_reports_crashes_timeouts_and_reruns_a_killed_worker(ray_instance, tmp_path):
    jobs = [call("fine", "first"), call("crash"), call("hang", timeout=3.0), call("hog", memory=256 * 2**20),
            call("dies_once", marker=str(tmp_path / "killed-once")), call("fine", "last")]
    result = batch.run(jobs, out=tmp_path / "out", backend="ray", retries=1)
    by = {r.job.variant: r for r in result.records}
    assert {k: r.status for k, r in by.items()} == {
        "first": "ok", "crash": "crashed", "hang": "timeout", "hog": "out-of-memory", "dies_once": "ok", "last": "ok"}
    first_pid = int((tmp_path / "killed-once").read_text())
    assert by["dies_once"].counts["pid"] != first_pid         # Ray reran it on another worker
    assert (tmp_path / "out/call/faults/last/out.txt").read_text() == "last\n"


def test_a_resumed_batch_on_ray_keeps_the_local_pools_outputs(ray_instance, tmp_path):
    jobs = render_sweep()[:4]
    batch.run(jobs[:2], out=tmp_path, workers=1)
    result = batch.run(jobs, out=tmp_path, backend="ray")
    assert [r.reused for r in result.records] == [True, True, False, False]
    assert result.counts() == {"ok": 4}


def test_test_jobs_on_ray_report_what_the_local_pool_reports(ray_instance, tmp_path):
    from .common import FOUNTAIN, NOZZLE
    jobs = batch.plan(["test"], [FOUNTAIN], batch.sweep([f"{NOZZLE}:Emission.Rate=400,100"]))
    local = batch.run(jobs, out=tmp_path / "local", workers=1)
    on_ray = batch.run(jobs, out=tmp_path / "ray", backend="ray")
    assert local.counts() == on_ray.counts() == {"ok": 1, "failed": 1}
    assert tree(tmp_path / "ray") == tree(tmp_path / "local")      # tests.json, byte for byte
    assert [r.message for r in on_ray.records] == [r.message for r in local.records]
