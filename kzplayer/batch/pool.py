"""The local backend: N worker processes (spawned, each with its own EGL context, kept for
all its jobs), fed one job at a time over a pipe.

The parent watches every worker: a job past its timeout has its worker killed (status
timeout) and a fresh worker takes the slot; a worker that dies mid-job (a crash, a kill,
the kernel's OOM killer) is replaced and its job rescheduled, up to `retries` times, then
reported crashed. The batch goes on in every case.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from multiprocessing.connection import wait
from kzplayer.batch.worker import execute

POLL = 0.25                     # seconds between checks of the deadlines


def _worker_main(conn, out) -> None:
    """A worker's life: run the jobs it is sent until it is sent None."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's to handle
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        conn.send((job.id, execute(job, out)))


class _Slot:
    def __init__(self, index: int, context, out):
        self.index = index
        parent, child = context.Pipe()
        self.conn = parent
        self.process = context.Process(target=_worker_main, args=(child, str(out)), daemon=True,
                                       name=f"kzplayer-batch-{index}")
        self.process.start()
        child.close()
        self.job = None
        self.started = 0.0

    @property
    def name(self) -> str:
        return f"worker {self.index} (pid {self.process.pid})"

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class LocalPool:
    name = "local"

    def __init__(self, workers: int | None = None, retries: int = 1):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.retries = retries

    def execute(self, jobs, out):
        """Yield ("start", job, worker), ("retry", job, why) and ("done", job, result). A
        deque of jobs is taken as it is: jobs the caller appends while this runs are run too
        (the runner's jobs that wait for others). Workers are started as jobs need them, at
        most `workers`."""
        context = mp.get_context("spawn")
        queue = jobs if isinstance(jobs, deque) else deque(jobs)
        attempts: dict[str, int] = {}
        slots: list[_Slot] = []
        try:
            while queue or any(s.job for s in slots):
                idle = sum(s.job is None for s in slots)
                while len(queue) > idle and len(slots) < self.workers:
                    slots.append(_Slot(len(slots), context, out))
                    idle += 1
                for s in slots:
                    if s.job is None and queue:
                        s.job, s.started = queue.popleft(), time.monotonic()
                        attempts[s.job.id] = attempts.get(s.job.id, 0) + 1
                        s.conn.send(s.job)
                        yield "start", s.job, s.name
                busy = [s for s in slots if s.job]
                ready = wait([s.conn for s in busy] + [s.process.sentinel for s in busy], timeout=POLL)
                for i, s in enumerate(slots):
                    if s.job is None:
                        continue
                    lost = False
                    if s.conn in ready:
                        try:
                            job_id, result = s.conn.recv()
                        except (EOFError, OSError):         # the worker's end closed: it died
                            job_id, lost = None, True
                        if job_id == s.job.id:
                            job, s.job = s.job, None
                            yield "done", job, result
                            continue
                    if lost or s.process.sentinel in ready or not s.process.is_alive():
                        s.process.join(5)                   # reaped, so its exit code is known
                        job, code = s.job, s.process.exitcode
                        s.kill()
                        slots[i] = _Slot(s.index, context, out)
                        why = _death(code)
                        if attempts[job.id] <= self.retries:
                            queue.appendleft(job)
                            yield "retry", job, f"{s.name} {why}; rescheduled"
                        else:
                            yield "done", job, _lost(job, "crashed", f"the worker {why} "
                                                     f"({attempts[job.id]} attempts)", s.name)
                    elif s.job.timeout and time.monotonic() - s.started > s.job.timeout:
                        job = s.job
                        s.kill()
                        slots[i] = _Slot(s.index, context, out)
                        yield "done", job, _lost(job, "timeout", f"ran past its timeout of {job.timeout:g} s", s.name)
            for s in slots:
                s.conn.send(None)
            for s in slots:
                s.process.join(10)
        finally:
            for s in slots:
                s.kill()


def _death(code) -> str:
    if code is not None and code < 0:
        import signal
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _lost(job, status: str, message: str, worker: str) -> dict:
    return {"status": status, "outputs": [], "findings": {}, "counts": {}, "message": message,
            "worker": worker, "seconds": None, "key": job.key()}
