"""The bounds of `kzplayer play` (docs/play.md, "Limits"): what it checks before it simulates,
and what stops a run that would never end. Small functions, so the frame loop can live
wherever it lives.

* `--fps` is a finite number from 1 to 1000; `--seed` an integer from 0 to 4294967295 (the
  32 bits the simulation's hash takes: no two seeds give the same run).
* Every destination (`--output`, `--stats`, `--dump`) is tried for writing BEFORE anything
  is simulated: a run of minutes must not fail at the end.
* The image size and the work a project asks for stay within the catalog's work limits
  (validate's `property.work-limit` says so; the player clamps).
* A frame that takes longer than `--frame-budget` seconds of wall-clock time (from the
  second frame on: the first compiles the shaders) stops the run with a message naming the
  slowest custom material (an endless loop in a shader).
* Steps beyond the simulation's per-frame budget are dropped; the run says how many.
"""
from __future__ import annotations

import math
import os
import tempfile
import time
from pathlib import Path

import click

from kzplayer.diagnostics import Diagnostic, KzError, Severity

FPS_RANGE = (1.0, 1000.0)
SEED_RANGE = (0, 2 ** 32 - 1)
FRAME_BUDGET = 10.0          # seconds of wall-clock time one output frame may take


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
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where, prefix=".kzplayer-", suffix=".tmp") as probe:
            probe.write(b"\0" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
        if not folder and target.exists() and not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied", str(target))
    except OSError as exc:
        raise click.BadParameter(f"cannot write {path}: {exc.strerror or exc}", param_hint=option) from None


def clamp_size(size: tuple[int, int], limit: int) -> tuple[tuple[int, int], str | None]:
    """The image size within `limit` pixels a side (the driver's and the catalog's work
    limit), and a warning when it had to be cut."""
    w, h = size
    cw, ch = min(w, limit), min(h, limit)
    if (cw, ch) == (w, h):
        return size, None
    return (cw, ch), (f"warning: the image size {w}x{h} is more than {limit:,} pixels a side; "
                      f"rendering {cw}x{ch}")


class FrameWatch:
    """Wall-clock time per output frame: past the budget the run stops (KzError, exit 1)
    with what was slowest. Custom materials are timed one by one (Simulation.timings), since
    they are what can loop without end; stock ones are kzplayer's own."""

    def __init__(self, sim, budget: float):
        self.sim = sim
        self.budget = budget
        self.slowest = (0.0, -1)         # (seconds, frame)
        if any(getattr(m, "root", None) is not None for m in _materials(sim)):
            sim.timings = {}
        self._start = time.perf_counter()

    def start(self) -> None:
        self._start = time.perf_counter()
        if self.sim.timings is not None:
            self.sim.timings.clear()

    def stop(self, frame: int) -> None:
        took = time.perf_counter() - self._start
        self.slowest = max(self.slowest, (took, frame))
        if took <= self.budget or frame == 0:       # the first frame compiles the shaders
            return
        timings = self.sim.timings or {}
        culprit = max(timings.items(), key=lambda kv: kv[1], default=None)
        if culprit is not None and culprit[1] > 0.5 * took:
            why = (f"the custom material {culprit[0]} took {culprit[1]:.3g} s of it: a loop in its shader "
                   "that does not end (or ends very late)?")
            hint = ("bound every loop in the shader by a constant; a GPU driver resets the whole GPU on "
                    "an endless loop, llvmpipe stops each loop after 65,535 rounds")
        else:
            why = "the frame's work is more than this machine does in that time"
            hint = "a smaller pool, fewer steps (ParticleSystem.Framerate) or a smaller image"
        raise KzError(Diagnostic("KZ906", "play.frame-budget", Severity.ERROR,
                                 f"frame {frame} took {took:.3g} s, more than the budget of {self.budget:g} s "
                                 f"per frame (--frame-budget); stopped: {why}", None, hint), exit_code=1)


def dropped_steps_warning(sim) -> str | None:
    """What the per-frame step budget dropped over the run, as a warning (None: nothing)."""
    dropped = getattr(sim, "dropped_steps", {}) or {}
    if not any(dropped.values()):
        return None
    parts = [f"{path}: {n:,}" for path, n in dropped.items() if n]
    return (f"warning: simulation steps dropped (at most {sim.max_steps:,} steps per system and output "
            f"frame): {'; '.join(parts)}; the effect runs slower than real time\n"
            "    hint: lower ParticleSystem.Framerate, or raise --fps")


def _materials(sim):
    for em in getattr(sim, "emitters", ()):
        yield from (m for m in (em.count, em.emission, em.self_affect, em.events) if m is not None)
    for system in getattr(sim, "systems", ()):
        yield from (n.material for n in (*system.affectors, *system.colliders) if n.material is not None)
