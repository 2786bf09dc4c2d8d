"""The one frame loop: a Player owns the simulation, the camera and the renderer of one
project, and both drivers run it through these methods only: the window (render/window.py)
and the offline writer (render/offline.py).

    player = Player(ctx, project, graph, (640, 360), seed=7, warn=show)
    player.prepare()                    # compile what the first frame draws: what is left out is said first
    player.advance(1 / 60)              # the clock's share of that wall time (paused: none; speed)
    player.step(1 / 60)                 # exactly that much effect time, even while paused (single step)
    player.draw()                       # the frame of rendering.md, into player.renderer
    image = player.image()              # (H, W, 3) uint8 sRGB
    player.seek(2.0, 1 / 60)            # the effect at 2 s, re-run from a checkpoint before it, nothing drawn
    player.finish()                     # what the whole run found (full pools, dropped steps), said
    player.release()

`player.clock` holds what the live preview sets: `paused`, `speed` (0.25: slow motion,
0.1 to 1). `gpu_timers=True` times each system's simulation and drawing with GL timer
queries (gpu/timers.py): the figures handed to `on_stats` carry `sim_gpu_ms` and
`draw_gpu_ms`, each frame's handed out once its times are in (never waited for but at the
end); `latest` / `gpu_ms` keep the last ones for the debug view (render/hud.py).

A restart puts the same Simulation back to its first frame in place (kzplayer.gpu.restart:
nothing generated, compiled or made again). A seek restores the latest of the checkpoints
the Player keeps of its runs (render/timeline.py: one a second of effect time, within
`checkpoint_budget` bytes) at or before its time, or restarts, and re-runs the rest; a live
save's edits make other checkpoints, so they are dropped (also by `forget_checkpoints()`).

`warn(diagnostics)` hears every problem found on the way, once: the simulation's (a stock
material not run yet, a pool capped, a broken material left out), the drawing's (a mesh that
cannot be read, a texture outside the project, a rendering material that does not compile,
left out: drawn with ParticlesDefault), a full pool that refused particles, steps
dropped over the per-frame budget. A frame past `frame_budget` seconds of wall-clock time raises
KzError (render/budget.py: an endless loop in a custom shader). The command line prints them
(kzplayer.commands.play); nothing here prints or imports the commands.

The camera (docs/play.md, "Camera") is the project's first Camera node, or one fitted to the
effect: a probe run of the first seconds (render/probe.py) finds where the particles go.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import replace
from typing import Callable

import numpy as np

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.gpu import Simulation
from kzplayer.gpu.checkpoint import CheckpointError
from kzplayer.gpu.host_events import DEFAULT_CAP
from kzplayer.gpu.materials import ComputePrograms
from kzplayer.gpu.restart import restart as restart_simulation
from kzplayer.gpu.timers import GpuTimers, available as timers_available
from kzplayer.render.budget import FrameWatch, Shortfall, dropped_steps
from kzplayer.render.camera import choose_camera, find_camera_item
from kzplayer.render.clock import Clock
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.lod import LevelOfDetail
from kzplayer.render.probe import PROBE_SECONDS, probe_positions
from kzplayer.render.renderer import Renderer
from kzplayer.render.timeline import DEFAULT_BUDGET, Timeline, player_checkpoint, restore_player, view_key
from kzplayer.scene import Scene


def no_warnings(diagnostics) -> None:
    """The default `warn`: hear nothing."""


class Player:
    """Simulation + camera + renderer of one project at one image size."""

    def __init__(self, ctx, project, graph, size: tuple[int, int], *, seed: int | None = None,
                 warn: Callable[[list[Diagnostic]], None] = no_warnings, probe_seconds: float = PROBE_SECONDS,
                 frame_budget: float | None = None, events_cap: int | None = None, lod: bool = True,
                 gpu_timers: bool = False, msaa: int = 0, checkpoint_budget: int = DEFAULT_BUDGET):
        self.ctx, self.project, self.graph, self.seed = ctx, project, graph, seed
        self.size = (int(size[0]), int(size[1]))
        self.warn = warn
        self.probe_seconds = probe_seconds
        self.events_cap = events_cap
        self.msaa = msaa                  # samples a pixel (--msaa; 0: none)
        self.clock = Clock()
        # GL timer queries per system and frame (gpu/timers.py): in the figures, never waited for
        self.timers = GpuTimers(ctx) if gpu_timers and timers_available() else None
        self._waiting: deque = deque()    # (frame, figures) whose GPU times are not in yet
        self.latest: dict = {}            # the last figures handed out, {path: EmitterStats} (the HUD's)
        self.latest_frame = None          # the frame they are of
        self.gpu_ms: dict = {}            # ("sim" | "draw", system path) -> its last measured GPU ms
        self.overlay = None               # the debug view's text drawer (render/hud.py), made when first drawn
        # compiled simulation programs by source text (a live save's new Simulation shares them)
        self._programs = ComputePrograms(ctx)
        self.timeline = Timeline(checkpoint_budget)   # checkpoints a seek restores (render/timeline.py)
        # one running scene for the simulation and the frames (a restart keeps it)
        self.scene = Scene(project, graph, seed=seed, leave_out_broken=True)
        self.sim = Simulation(ctx, self.scene, seed=seed, leave_out_broken=True,
                              events_cap=events_cap or DEFAULT_CAP, programs=self._programs)
        self.sim.gpu_timers = self.timers
        self.map_systems(self.sim)
        self.frames = FrameBuilder(self.scene)
        self.frame_budget = frame_budget
        self._watch = None
        self.frame = 0                    # output frames stepped (the budget spares the first)
        self.renderer = None              # made by the first prepare() or draw()
        self.time = 0.0
        self._said: set = set()
        self._seen = None                 # the probe's box, once (a restart keeps it)
        self.stalled = Shortfall()
        self.on_stats = None              # on_stats(frame, {path: EmitterStats}), each frame once
        self._listening = []              # (args, kwargs) of listen(): a live rebuild's Simulation listens again
        self.lod = LevelOfDetail(project.catalog, enabled=lod)
        self._lod_camera = None           # the view the LOD is decided for (the last one drawn)
        self._lod_frames: dict[int, tuple[dict, dict]] = {}     # frame -> (rates, sides), for --stats
        self._lod_needed = None
        self._lod_plan = None             # ((revision, view), plan): a frame's LOD, the same till either changes
        self._lod_chosen = None           # (revision, the camera chosen) while none is drawn
        self._say(self.sim.diagnostics)

    @property
    def frames(self) -> FrameBuilder:
        """What the frames draw, read from the scene once per revision of the simulation: an
        edit in place (a live save's values) is read again (FrameBuilder.refresh)."""
        if self.sim is not None and self._frames_read != self.sim.revision:
            self._builder.refresh()
            self._frames_read = self.sim.revision
        return self._builder

    @frames.setter
    def frames(self, builder: FrameBuilder) -> None:
        self._builder, self._frames_read = builder, self.sim.revision

    def reread(self, change) -> None:
        """A live edit's scene `Change`: only what it reached is read again for the frames."""
        self._builder.forget(change)
        self._frames_read = self.sim.revision

    def map_systems(self, sim) -> None:
        """Each emitter's system, for its draws' GPU times (also after a live rebuild)."""
        self._system_of = {em.path: runner.system.item.path for runner in sim.runners for em in runner.system.members}

    def _timed(self, em):
        """The timer query of an emitter's draw work in this frame (renderer hook)."""
        return self.timers.measure(("draw", self._system_of.get(em.key, em.key)), self.sim.frames - 1)

    def listen(self, emitter, callback, **kwargs):
        """The simulation's host events (Simulation.listen), kept across a restart."""
        self._listening.append((emitter, callback, kwargs))
        return self.sim.listen(emitter, callback, **kwargs)

    # -- time ------------------------------------------------------------------------------

    def advance(self, wall: float) -> float:
        """One turn of the loop over `wall` seconds: the effect moves on by the clock's share
        of them (none while paused). Returns the effect seconds stepped."""
        dt = self.clock.seconds(wall)
        if dt is None:
            return 0.0
        self.step(dt)
        return dt

    def step(self, dt: float) -> None:
        """Advance the effect by dt seconds (cut into ParticleSystem.Framerate steps, at most
        Simulation.max_steps of them), within the frame budget when there is one, its
        emission LOD decided for the camera first (render/lod.py)."""
        before = self.time
        plan = self._plan_lod()             # (a camera fitted by a probe run is not the frame's time)
        if plan != ({}, {}):
            self._lod_frames[self.sim.frames] = plan
            for old in [f for f in self._lod_frames if f < self.sim.frames - 64]:
                del self._lod_frames[old]       # frames nobody took (stats fold them in)
        self.sim.set_emission_lod(plan[0])
        if self.frame_budget is not None:
            if self._watch is None or self._watch.sim is not self.sim:
                self._watch = FrameWatch(self.sim, self.frame_budget)
            self._watch.start(self.frame)
        self.sim.step_frame(dt)
        if self._watch is not None:
            self._watch.stop(self.frame)
        self.frame += 1
        self.time += max(float(dt), 0.0)
        # each frame's figures come a couple of frames late: the loop never waits for the GPU
        self._figures(self.sim.take_stats())
        self.timeline.stepped(self, dt, before)

    def seek(self, t: float, dt: float) -> None:
        """The effect at `t` seconds: what a run from its first frame (same seed) in frames of
        `dt` (a last shorter one for the rest) has then, nothing drawn. The simulation is
        deterministic, so the run is taken up at the latest point of it the Player has: its
        own state when it is such a run not past `t` (a seek forward), else the latest
        checkpoint at or before `t` (render/timeline.py), else its first frame."""
        whole = max(int(math.floor(t / dt + 1e-9)), 0)
        here = self.sim.frames if self.timeline.on_grid(self, dt) and self.sim.frames <= whole else -1
        kept = self.timeline.latest(self, dt, whole)
        if kept is not None and kept.frame > here:
            self._resume(kept)
        elif here < 0:
            self.restart()
        for _ in range(whole - self.sim.frames):
            self.step(dt)
        rest = t - whole * dt
        if rest > 1e-9 * max(dt, 1.0):
            self.step(rest)

    def flush_stats(self) -> None:
        """The figures of the frames not handed out yet (the end of a run)."""
        self._figures(self.sim.take_stats(flush=True), flush=True)

    def _plan_lod(self) -> tuple[dict, dict]:
        """({path: emission factor}, {path: sides}) for the current view; empty when no
        emitter has a LOD (no camera is chosen for it then)."""
        if self._lod_needed is None:
            self._lod_needed = self.lod.applies(self.sim, self.frames.value)
        if not self._lod_needed:
            return {}, {}
        camera = self._lod_view()
        key = (self.sim.revision, view_key(camera))
        if self._lod_plan is None or self._lod_plan[0] != key:
            self._lod_plan = (key, self.lod.plan(self.sim, self.frames.value, camera, self.size))
        return self._lod_plan[1]

    def _lod_view(self):
        """The camera the emission LOD is decided for now: the last one drawn, or the one
        chosen (once per revision: choosing reads the camera node's values; None: no LOD)."""
        camera = self._lod_camera
        if camera is None and self.lod.enabled:
            if self._lod_chosen is None or self._lod_chosen[0] != self.sim.revision:
                self._lod_chosen = (self.sim.revision, self.camera()[0])
            camera = self._lod_chosen[1]
        return camera

    def _figures(self, done, flush: bool = False) -> None:
        """Hand out each frame's figures, in order, once its GPU times are in (a frame whose
        queries are still running waits for a later turn, unless `flush`)."""
        self._waiting.extend(done)
        while self._waiting:
            frame, figures = self._waiting[0]
            times = {} if self.timers is None else self.timers.take(frame, wait=flush)
            if times is None:
                break
            self._waiting.popleft()
            self.gpu_ms.update(times)
            rates, sides = self._lod_frames.pop(frame, ({}, {}))
            system = self._system_of
            figures = {path: replace(f, lod_rate=rates.get(path, 1.0), lod_sides=sides.get(path, 0),
                                     sim_gpu_ms=times.get(("sim", system.get(path)), 0.0),
                                     draw_gpu_ms=times.get(("draw", system.get(path)), 0.0))
                       for path, f in figures.items()}
            self.stalled.add(figures)
            self.latest, self.latest_frame = figures, frame
            if self.on_stats is not None:
                self.on_stats(frame, figures)

    def restart(self) -> None:
        """The effect from its first frame, with the same seed (the window's R key): the same
        Simulation reset in place, its listeners kept; the clock keeps its pause and speed."""
        restart_simulation(self.sim)
        self.time = 0.0
        self._lod_frames.clear()
        self._waiting.clear()
        if self.timers is not None:
            self.timers.clear()
        self.timeline.started()

    def _resume(self, kept) -> None:
        """Go on from a checkpoint of the timeline (a restart when it no longer restores)."""
        try:
            self.timeline.restore(self, kept)
        except CheckpointError:              # (never expected: the timeline checks its state)
            self.forget_checkpoints()
            self.restart()
            return
        self.time = kept.time
        self._lod_frames = dict(kept.lod_frames)
        self._waiting.clear()
        if self.timers is not None:
            self.timers.clear()

    def forget_checkpoints(self) -> None:
        """Drop the seeks' checkpoints: the effect was edited (a live save), so its future is
        not theirs; the next seek back re-runs from 0 (and keeps new ones on the way)."""
        self.timeline.forget()

    def timeline_state(self) -> tuple:
        """What, besides the particles, decides the frames a run goes through: the
        Simulation's revision (a new one at every refresh: an edit, a listener) and in a
        project with emission LOD the camera that LOD is decided for."""
        return self.sim.revision, view_key(self._lod_view()) if self._lod_needed else None

    # -- the picture -------------------------------------------------------------------------

    def camera(self, aspect: float | None = None, seconds: float | None = None):
        """(Camera, how it was chosen) for the image's aspect ratio (the window's may change)."""
        if self._seen is None and find_camera_item(self.project) is None:
            self._seen = probe_positions(self.ctx, self.scene, seed=self.seed, frame_budget=self.frame_budget,
                                         seconds=self.probe_seconds if seconds is None else seconds)
            if self._seen is None:
                self._seen = False
        aspect = aspect or self.size[0] / self.size[1]
        return choose_camera(self.project, self.frames.value, aspect,
                             seen=self._seen if self._seen is not False else None)

    def _renderer(self, size: tuple[int, int]) -> Renderer:
        if self.renderer is None:
            self.renderer = Renderer(self.ctx, size, samples=self.msaa)
            if self.timers is not None:
                self.renderer.particles.timed = self._timed
        self.renderer.resize(size)
        return self.renderer

    def prepare(self, camera=None) -> None:
        """Make the renderer and compile what the effect's first frame draws, before anything
        is simulated: a rendering material that does not compile is said (and left out) now."""
        if self.renderer is not None:
            return
        if camera is None:
            camera, _ = self.camera(self.size[0] / self.size[1])
        self._renderer(self.size).draw(self.frames.build(self.sim, self.time), camera)
        self._say_drawing()

    def draw(self, size: tuple[int, int] | None = None, camera=None) -> None:
        """Draw the current state of the effect (at `size`, the window's, when given)."""
        size = (int(size[0]), int(size[1])) if size is not None else self.size
        renderer = self._renderer(size)
        if camera is None:
            camera, _ = self.camera(size[0] / size[1])
        self._lod_camera = camera
        frame = self.frames.build(self.sim, self.time)
        if self._lod_needed:
            _, sides = self.lod.plan(self.sim, self.frames.value, camera, size)
            for em in frame.emitters:
                em.sides = sides.get(em.key)
        if self._watch is not None:          # the frame budget covers the draws too
            self._watch.resume(renderer)
        try:
            renderer.draw(frame, camera)
        finally:
            if self._watch is not None:
                self._watch.stop(self._watch.frame)
        self._say_drawing()

    def _say_drawing(self) -> None:
        """What drawing found: the frame's problems, a texture that cannot be read, a custom
        rendering material that does not compile (left out, drawn with ParticlesDefault)."""
        self._say(self.frames.problems)
        self._say(_texture_problems(self.renderer))
        self._say(self.renderer.problems)

    def image(self) -> np.ndarray:
        return self.renderer.read()

    def show(self, target) -> None:
        self.renderer.show(target)

    # -- the end ---------------------------------------------------------------------------

    def finish(self) -> None:
        """The end of a run: the figures not handed out yet, then what the run as a whole
        found, said once: pools that were full, steps dropped over the per-frame budget."""
        self.flush_stats()
        self._say(self.stalled.diagnostics(self.sim, self.frames.value))
        if (dropped := dropped_steps(self.sim)):
            self._say([dropped])

    def _say(self, diagnostics) -> None:
        new = [d for d in diagnostics if d not in self._said and d.severity != Severity.NOTE]
        if new:
            self._said.update(new)
            self.warn(new)

    def release(self) -> None:
        if self.overlay is not None:
            self.overlay.release()
            self.overlay = None
        if self.renderer is not None:
            self.renderer.release()
            self.renderer = None
        if self.sim is not None:
            self.sim.release()
            self.sim = None
        if self.timers is not None:
            self.timers.release()
        self._programs.release()
        self.timeline.forget()

    # -- checkpoints (kzplayer.gpu.checkpoint; docs/batch.md, "A long shot in segments") ----------

    def checkpoint(self) -> bytes:
        """The simulation's checkpoint with the player's own state in it (render/timeline.py)."""
        return player_checkpoint(self)

    def restore(self, data: bytes) -> None:
        """Go on from a Player.checkpoint of the same project, values and size: the frames
        drawn from here are those the checkpointed player would have drawn."""
        restore_player(self, data)


def _texture_problems(renderer) -> list[Diagnostic]:
    return [Diagnostic("KZ702", "texture.unreadable", Severity.WARNING,
                       f"{path}: not drawn ({why}); the material draws without it")
            for path, why in renderer.textures.problems.items()]
