"""The bounds of `kzplayer play` that the command line checks (docs/play.md, "Limits"), before
anything is simulated; the frame loop's own bounds (the wall-clock budget per frame, the
dropped steps) are kzplayer/render/budget.py.

* `--fps` is a finite number from 1 to 1000; `--seed` an integer from 0 to 4294967295 (the
  32 bits the simulation's hash takes: no two seeds give the same run).
* `--frames` (or `--seconds` x `--fps`) at most MAX_FRAMES output frames, `--events-cap` at
  most MAX_EVENTS_CAP events per ParticleSystem and frame (its buffer is made up front).
* Every destination (`--output`, `--stats`, `--events`, `--dump`) is tried for writing BEFORE anything
  is simulated: a run of minutes must not fail at the end.
* `--frame-budget` is a number of seconds above 0; `--buffer-budget` a number of GiB above 0
  and at most MAX_BUFFER_BUDGET_GIB (the GPU buffer budget of kzplayer.gpu.limits).
"""
from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

import click

from kzplayer.render.budget import FRAME_BUDGET
from kzplayer.atomic import check_target
from kzplayer.gpu.limits import buffer_budget_of

FPS_RANGE = (1.0, 1000.0)
SEED_RANGE = (0, 2 ** 32 - 1)
MAX_FRAMES = 1_000_000          # 4.6 hours at 60 fps (the soak runs 216,000)
MAX_EVENTS_CAP = 1_000_000      # host event records per ParticleSystem and frame (its buffer is made up front)
MAX_BUFFER_BUDGET_GIB = 1024.0  # --buffer-budget: more than any GPU has


def check_frames(n_frames: int, option: str = "--frames") -> int:
    if n_frames > MAX_FRAMES:
        raise click.BadParameter(f"{n_frames:,} frames: a run is at most {MAX_FRAMES:,} output frames "
                                 "(split a longer one)", param_hint=option)
    return n_frames


def check_events_cap(cap: int | None) -> int | None:
    if cap is not None and not 1 <= cap <= MAX_EVENTS_CAP:
        raise click.BadParameter(f"{cap:,}: the cap is a number of events from 1 to {MAX_EVENTS_CAP:,} "
                                 "per ParticleSystem and frame", param_hint="--events-cap")
    return cap


def check_fps(fps: float) -> float:
    lo, hi = FPS_RANGE
    if not (isinstance(fps, (int, float)) and math.isfinite(fps) and lo <= fps <= hi):
        raise click.BadParameter(f"{fps!r}: the output frame rate must be a number from {lo:g} to {hi:g}",
                                 param_hint="--fps")
    return float(fps)


def check_seed(seed: int | None) -> int | None:
    lo, hi = SEED_RANGE
    if seed is not None and not lo <= seed <= hi:
        raise click.BadParameter(f"{seed}: a seed is an integer from {lo} to {hi:,} (the 32 bits the "
                                 "simulation's hash takes)", param_hint="--seed")
    return seed


def check_frame_budget(seconds: float | None) -> float:
    budget = FRAME_BUDGET if seconds is None else seconds
    if not (math.isfinite(budget) and budget > 0):
        raise click.BadParameter(f"{seconds!r}: the budget is a number of seconds above 0",
                                 param_hint="--frame-budget")
    return float(budget)


def buffer_budget_scope(gib: float | None):
    """The GPU buffer budget of `--buffer-budget GIB` in force for the run (a context)."""
    from contextlib import nullcontext
    if gib is None:
        return nullcontext()
    if not (math.isfinite(gib) and 0 < gib <= MAX_BUFFER_BUDGET_GIB):
        raise click.BadParameter(f"{gib!r}: the budget is a number of GiB above 0 and at most "
                                 f"{MAX_BUFFER_BUDGET_GIB:g}", param_hint="--buffer-budget")
    return buffer_budget_of(int(gib * 2**30))


def check_destination(path: str | None, option: str, folder: bool = False) -> None:
    """Can `path` be written (a file, or with `folder` a folder of files)? Tried for real
    before anything is simulated: the folder is made and a temporary file created in it, so
    a read-only file system, a path under a file or a full disk fail now, with exit code 2."""
    if not path:
        return
    target = Path(path)
    where = target if folder else target.parent
    if not folder and target.is_dir():
        raise click.BadParameter(f"{path} is a folder, not a file", param_hint=option)
    try:
        if folder:
            if target.is_symlink():
                raise OSError(40, "it is a symbolic link; kzplayer does not write through links")
        else:
            check_target(target)         # no link, no special file where the file goes
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where, prefix=".kzplayer-", suffix=".tmp") as probe:
            probe.write(b"\0" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
        if not folder and target.exists() and not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied", str(target))
    except OSError as exc:
        raise click.BadParameter(f"cannot write {path}: {exc.strerror or exc}", param_hint=option) from None
