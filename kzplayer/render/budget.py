"""The bounds of the frame loop (docs/play.md, "Limits"): a wall-clock budget per frame and
the simulation steps dropped over the per-frame step budget. Used by the Player
(render/player.py) for the window and offline alike; nothing here prints.

* A frame that takes longer than its budget (from the second frame on: the first compiles
  the shaders) stops the run with `play.frame-budget` (a KzError, exit code 1), naming the
  custom material that took the time: a loop in a shader that does not end. Custom
  materials are timed one by one (Simulation.timings) only in projects that have them.
* Steps beyond the simulation's budget per frame (Simulation.max_steps) are dropped by the
  simulation and reported once, after the run, as `play.steps-dropped`.
"""
from __future__ import annotations

import time

from kzplayer.diagnostics import Diagnostic, KzError, Severity

FRAME_BUDGET = 10.0          # seconds of wall-clock time one output frame may take


class FrameWatch:
    """Wall-clock time per output frame: past the budget the run stops (KzError, exit 1)
    with what was slowest. The systems that run custom materials are timed
    (Simulation.timings: a system's materials run fused in one kernel), since custom
    materials are what can loop without end; stock ones are kzplayer's own."""

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
        """After frame `frame`: a KzError when it took longer than the budget."""
        took = time.perf_counter() - self._start
        self.slowest = max(self.slowest, (took, frame))
        if took <= self.budget or frame == 0:       # the first frame compiles the shaders
            return
        timings = self.sim.timings or {}
        culprit = max(timings.items(), key=lambda kv: kv[1], default=None)
        if culprit is not None and culprit[1] > 0.5 * took:
            why = (f"{culprit[0]} took {culprit[1]:.3g} s of it: a loop in a shader that does not end "
                   "(or ends very late)?")
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


def dropped_steps(sim) -> Diagnostic | None:
    """What the per-frame step budget dropped over the run (None: nothing)."""
    dropped = getattr(sim, "dropped_steps", {}) or {}
    parts = [f"{path}: {n:,}" for path, n in dropped.items() if n]
    if not parts:
        return None
    return Diagnostic("KZ907", "play.steps-dropped", Severity.WARNING,
                      f"simulation steps dropped (at most {sim.max_steps:,} steps per system and output "
                      f"frame): {'; '.join(parts)}; the effect ran slower than real time", None,
                      "lower ParticleSystem.Framerate, or raise --fps")


def _materials(sim):
    for em in getattr(sim, "emitters", ()):
        yield from (m for m in (em.count, em.emission, em.self_affect, em.events) if m is not None)
    for system in getattr(sim, "systems", ()):
        yield from (n.material for n in (*system.affectors, *system.colliders) if n.material is not None)
