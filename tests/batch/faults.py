"""Jobs of the `call` kind that misbehave on purpose, for the robustness tests (imported by
the workers: `tests.batch.faults:NAME`). Each takes (job, folder) as every runner does."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def fine(job, folder: Path) -> dict:
    """Writes its variant name to out.txt: a complete, checkable output."""
    (folder / "out.txt").write_text(f"{job.variant}\n")
    return {"status": "ok", "outputs": ["out.txt"], "counts": {"pid": os.getpid()}}


def slow(job, folder: Path) -> dict:
    time.sleep(float(dict(job.options).get("sleep", 0.4)))
    return fine(job, folder)


def crash(job, folder: Path) -> dict:
    os.kill(os.getpid(), signal.SIGSEGV)      # a segfault in a driver, as far as the pool can tell
    time.sleep(5)


def hang(job, folder: Path) -> dict:
    time.sleep(3600)


def hog(job, folder: Path) -> dict:
    block = bytearray(8 * 2**30)              # past any memory limit the tests set
    return {"status": "ok", "outputs": [], "counts": {"got": len(block)}}


def dies_once(job, folder: Path) -> dict:
    """Its worker is killed mid-job on the first attempt (SIGKILL, as the OOM killer or a lost
    node does); the rescheduled attempt completes."""
    marker = Path(dict(job.options)["marker"])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return fine(job, folder)


def broken(job, folder: Path) -> dict:
    raise ValueError("a bug in the job")
