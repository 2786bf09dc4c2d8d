"""The Ray backend (`pip install kzplayer[ray]`): each job a Ray task of one CPU running the
same kzplayer.batch.worker.execute as the local pool, so outputs are the same bytes.

`address="auto"` starts a local Ray instance (its workers import the kzplayer the driver
imports) and stops it at the end; any other address joins that cluster (`ray start
--head` on one machine, `ray start --address HEAD:6379` on the others; every node needs
kzplayer installed and the projects and the output folder at the same paths: a shared
file system). A worker that dies has its task rerun by Ray (max_retries); a job past its
timeout is cancelled, its worker killed (ray.cancel force=True).
"""
from __future__ import annotations

import os
import time
from collections import deque
from pathlib import Path

POLL = 0.25


class BackendError(RuntimeError):
    """A backend that cannot start (Ray missing, a cluster address that does not answer)."""


def _run(job, out):
    # lazy: this function runs in a Ray worker process, which imports the worker there
    from kzplayer.batch.worker import execute
    return execute(job, out)


class RayBackend:
    name = "ray"

    def __init__(self, address: str = "auto", workers: int | None = None, retries: int = 1):
        self.address = address or "auto"
        self.workers = workers
        self.retries = retries

    def _start(self):
        try:
            import ray      # optional: the `kzplayer[ray]` extra
        except ImportError:
            raise BackendError("the Ray backend needs Ray: pip install 'kzplayer[ray]'") from None
        if ray.is_initialized():
            return ray, False
        if self.address == "auto":
            here = str(Path(__file__).resolve().parents[2])      # the folder holding kzplayer/
            path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
            ray.init(num_cpus=self.workers or os.cpu_count() or 1, include_dashboard=False,
                     log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
        else:
            try:
                ray.init(address=self.address, log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise BackendError(f"cannot join the Ray cluster at {self.address}: {exc}") from None
        return ray, True

    def execute(self, jobs, out):
        """Yield ("start", job, where) and ("done", job, result) as the local pool does."""
        ray, started = self._start()
        try:
            task = ray.remote(num_cpus=1, max_retries=self.retries)(_run)
            slots = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            queue = jobs if isinstance(jobs, deque) else deque(jobs)     # the caller may append (pool.py)
            flying: dict = {}             # ref -> (job, submitted)
            out = str(out)
            while queue or flying:
                while queue and len(flying) < slots:
                    job = queue.popleft()
                    flying[task.remote(job, out)] = (job, time.monotonic())
                    yield "start", job, "ray"
                ready, _ = ray.wait(list(flying), num_returns=1, timeout=POLL)
                for ref in ready:
                    job, _ = flying.pop(ref)
                    yield "done", job, self._result(ray, ref, job)
                now = time.monotonic()
                for ref, (job, submitted) in list(flying.items()):
                    if job.timeout and now - submitted > job.timeout:
                        ray.cancel(ref, force=True)
                        flying.pop(ref)
                        yield "done", job, _lost(job, "timeout", f"ran past its timeout of {job.timeout:g} s")
        finally:
            if started:
                ray.shutdown()

    def _result(self, ray, ref, job) -> dict:
        try:
            return ray.get(ref)
        except ray.exceptions.RayError as exc:
            text = str(exc).strip().splitlines()
            return _lost(job, "crashed", f"the worker died ({self.retries + 1} attempts): "
                         f"{type(exc).__name__}: {text[0] if text else ''}"[:400])


def _lost(job, status: str, message: str) -> dict:
    return {"status": status, "outputs": [], "findings": {}, "counts": {}, "message": message,
            "worker": "ray", "seconds": None, "key": job.key()}
