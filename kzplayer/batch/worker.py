"""One job, run inside a worker process (either backend): the memory limit, the runner of
its kind (kzplayer.batch.jobs), timings, and the marker that says its outputs are complete.

Statuses: ok, failed (the job ran and found errors / failing tests), error (bad input: an
unreadable project, a wrong --set; or a bug), out-of-memory (past the job's memory limit);
the backends add crashed (the worker died every time), timeout and interrupted.
"""
from __future__ import annotations

import json
import os
import resource
import socket
import time
from pathlib import Path
from kzplayer.batch import jobs as adapter
from kzplayer.batch import segments

DONE = ".done.json"           # in a job's folder: its key and result, written last
COMPLETE = ("ok", "failed")   # results a rerun keeps; the others run again


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def execute(job, out) -> dict:
    """Run `job`, its outputs under out/KIND/NAME/VARIANT; never raises for the job's own
    failures (a worker that dies is the backend's to see)."""
    folder = job.folder(Path(out))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.time()
    clock = time.perf_counter()
    result = {"status": "error", "outputs": [], "findings": {}, "counts": {}, "message": ""}
    try:
        with memory_limit(job.memory):
            runner = segments.run_part if segments.is_piece(job) else adapter.RUNNERS[job.kind]
            result.update(runner(job, folder))
    except MemoryError:
        result.update(status="out-of-memory", message=f"past the job's memory limit ({_mib(job.memory)})")
    except Exception as exc:        # bad input or a bug: reported, the batch goes on
        result.update(status="error", message=adapter.error_text(exc))
    result.update(started=started, seconds=round(time.perf_counter() - clock, 4), worker=worker_name(),
                  key=job.key())
    if result["status"] in COMPLETE:
        adapter.write_json(folder / DONE, result)
    return result


def completed(job, out) -> dict | None:
    """The result a previous run left for this job when its outputs are complete: its marker
    with the same key and every output it names present; else None."""
    folder = job.folder(Path(out))
    try:
        done = json.loads((folder / DONE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if done.get("key") != job.key() or done.get("status") not in COMPLETE:
        return None
    if not all((folder / name).is_file() for name in done.get("outputs", [])):
        return None
    return done


class memory_limit:
    """The address space a job may add (RLIMIT_AS, soft limit only, so it can be lifted after
    the job): past it an allocation fails (MemoryError) instead of the machine swapping."""

    def __init__(self, extra: int | None):
        self.extra = extra
        self.saved = None

    def __enter__(self):
        if self.extra:
            self.saved = resource.getrlimit(resource.RLIMIT_AS)
            hard = self.saved[1]
            want = _address_space() + int(self.extra)
            resource.setrlimit(resource.RLIMIT_AS, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
        return self

    def __exit__(self, *_):
        if self.saved is not None:
            resource.setrlimit(resource.RLIMIT_AS, self.saved)


def _address_space() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _mib(n) -> str:
    return f"{(n or 0) / 2**20:.0f} MiB"
