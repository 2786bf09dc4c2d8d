"""The bounds of the frame loop (docs/play.md, "Limits"): a wall-clock budget per frame and
the simulation steps dropped over the per-frame step budget. Used by the Player
(render/player.py) for the window and offline alike; nothing here prints.

* A frame (its steps and its draws, the first frame too, less the time the GL compiler
  takes) that takes longer than its budget stops the run with `play.frame-budget` (a
  KzError, exit code 1), checked after every step and every draw, naming the step or draw
  that took the time: a loop in a shader that does not end. Custom materials are timed one
  by one (Simulation.timings) only in projects that have them.
* Steps beyond the simulation's budget per frame (Simulation.max_steps) are dropped by the
  simulation and reported once, after the run, as `play.steps-dropped`.
* Particles a full pool refused are tallied over the frames stepped (`Shortfall`) and
  reported once, after the run, as `emitter.pool-full`.
"""
from __future__ import annotations

import time

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu.shader_limits import CompileClock

FRAME_BUDGET = 10.0          # seconds of wall-clock time one output frame may take


class FrameWatch:
    """Wall-clock time per output frame, the simulation's steps and the draws together, less
    the time the GL compiler took (kzplayer.gpu.shader_limits.CompileClock): the first frame
    is bounded too. Checked between dispatches, not only at the end: the simulation calls
    `check` after every step (Simulation.budget_check), the renderer after every draw
    (Renderer.budget_check), so a frame stops (KzError, exit 1) as soon as it is past the budget,
    naming the step or the draw that took the time. Only custom materials are drained
    (ctx.finish) to be timed one by one: they are what can loop without end; kzplayer's own
    work is bounded by the limits of docs/hardening.md."""

    def __init__(self, sim, budget: float, frames: str = "frame"):
        self.sim = sim
        self.budget = budget
        self.frames = frames             # what a frame is called in the message
        self.slowest = (0.0, -1)         # (seconds, frame)
        if any(getattr(m, "root", None) is not None for m in _materials(sim)):
            sim.timings = {}
        self.frame = 0
        self.took = 0.0                  # of the frame so far, before the clock last started
        self.parts: dict[str, float] = {}
        self._restart()

    def _restart(self) -> None:
        self._start = self._mark = time.perf_counter()
        self._compiled = self._mark_compiled = CompileClock.seconds

    def _elapsed(self) -> float:
        return time.perf_counter() - self._start - (CompileClock.seconds - self._compiled)

    def start(self, frame: int | None = None) -> None:
        """A new frame begins (its simulation steps)."""
        self.frame = self.frame + 1 if frame is None else frame
        self.took = 0.0
        self.parts.clear()
        self._restart()
        self.sim.budget_check = self.check
        if self.sim.timings is not None:
            self.sim.timings.clear()

    def resume(self, renderer) -> None:
        """The frame's draws begin (Player.draw): the clock runs on from where stop() left it."""
        self._restart()
        self._renderer = renderer
        renderer.budget_check = self.check

    def check(self, what: str, finish: bool = False) -> None:
        """After a step or a draw: the part is charged to `what`; past the budget, stop."""
        if finish:
            self.sim.ctx.finish()
        now, compiled = time.perf_counter(), CompileClock.seconds
        part = (now - self._mark) - (compiled - self._mark_compiled)
        self.parts[what] = self.parts.get(what, 0.0) + max(part, 0.0)
        self._mark, self._mark_compiled = now, compiled
        took = self.took + self._elapsed()
        if took > self.budget:
            self._overrun(self.frame, took, "stopped in the middle of it")

    def stop(self, frame: int) -> None:
        """After the frame's steps (and again after its draws): a KzError past the budget."""
        self.frame = frame
        self.sim.budget_check = None           # between frames nothing is charged
        if getattr(self, "_renderer", None) is not None:
            self._renderer.budget_check, self._renderer = None, None
        self.took += self._elapsed()
        self._restart()
        self.slowest = max(self.slowest, (self.took, frame))
        if self.took > self.budget:
            self._overrun(frame, self.took, "stopped")

    def _overrun(self, frame: int, took: float, how: str) -> None:
        culprit = max(self.parts.items(), key=lambda kv: kv[1], default=None)
        timings = self.sim.timings or {}
        slow = max(timings.items(), key=lambda kv: kv[1], default=None)
        if slow is not None and (culprit is None or slow[1] > culprit[1]):
            culprit = slow
        if culprit is not None and culprit[1] > 0.5 * took:
            why = (f"{culprit[0]} took {culprit[1]:.3g} s of it: a loop in a shader that does not end "
                   "(or ends very late)?")
            hint = ("bound every loop in the shader by a constant; a GPU driver resets the whole GPU on "
                    "an endless loop, llvmpipe stops each loop after 65,535 rounds")
        else:
            why = "the frame's work is more than this machine does in that time"
            if culprit is not None:
                why += f" (the most: {culprit[0]}, {culprit[1]:.3g} s)"
            hint = "a smaller pool, fewer steps (ParticleSystem.Framerate) or a smaller image"
        raise KzError(Diagnostic("KZ906", "play.frame-budget", Severity.ERROR,
                                 f"{self.frames} {frame} took {took:.3g} s, more than the budget of {self.budget:g} s "
                                 f"per frame (--frame-budget); {how}: {why}", None, hint), exit_code=1)


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


class Shortfall:
    """Particles a full pool refused, per emitter, over the run: an effect that looks thin
    for this reason should say so (--stats has the per-frame figures)."""

    def __init__(self):
        self.stalled: dict[str, int] = {}
        self.frames: dict[str, int] = {}

    def add(self, stats) -> None:
        for path, s in stats.items():
            self.stalled[path] = self.stalled.get(path, 0) + int(s.stalled)
            self.frames[path] = self.frames.get(path, 0) + (s.stalled > 0)

    def diagnostics(self, sim, value) -> list[Diagnostic]:
        out = []
        for em in sim.emitters:
            if self.stalled.get(em.path):
                pool = value(em.item, "ParticleEmitter.MaximumAmount")
                capped = isinstance(pool, (int, float)) and em.capacity < pool
                held = f"; this driver caps it at {em.capacity:,}" if capped else ""
                hint = ("the OpenGL driver, not MaximumAmount, caps this pool (emitter.pool-limit): split the "
                        "effect over several emitters, or play it on a GPU whose driver allows more"
                        if capped else
                        "raise MaximumAmount, or bind it to the emission rate x lifetime (emission page, "
                        "Sizing MaximumAmount)")
                out.append(Diagnostic(
                    "KZ805", "emitter.pool-full", Severity.WARNING,
                    f"{em.path}: its pool (ParticleEmitter.MaximumAmount = {pool}{held}) was full on "
                    f"{self.frames[em.path]} frame(s): {self.stalled[em.path]:,} particle(s) not emitted",
                    hint=f"{hint}; --stats shows when"))
        return out
