"""The particle simulation: a running scene (kzplayer.scene) stepped on the GPU, frame by frame.

One `Simulation` holds every ParticleSystem of a scene. A frame (`step_frame(dt)`) is cut
into fixed steps of 1/ParticleSystem.Framerate per system, the remainder carried. One step
runs the stages of docs/player.md, each over every emitter of the system in one dispatch
(kzplayer.gpu.runner): count and emit, then one fused kernel per live particle (reset,
self-affect, the affectors in tree order, integrate, the colliders, events, the death
test), the event records put in slot order, the subemitters' levels, and the end passes
(freed slots back on the free stacks in slot order, the live lists rebuilt).

What runs is the scene's to say (its records, materials and values); the GPU's holders of
its nodes (kzplayer.gpu.nodes) are brought up to date by kzplayer.gpu.refresh. Particle
state stays on the GPU; the per-frame stats are copied on the GPU into a ring and read a
frame or more later (kzplayer.gpu.stats_ring); the pools are read when asked
(`read_particles`, `dump`).

Bounds (docs/player.md, "Limits"): a frame runs at most `max_steps` steps per system (steps
beyond are dropped and counted in `dropped_steps`, as game engines drop them); with
`timings` set to a dict, the steps of each system that runs custom materials are timed into
it (play's per-frame wall-clock budget names them); with `gpu_timers` set to a
kzplayer.gpu.timers.GpuTimers, each system's steps of a frame are timed by a GL timer
query ("sim", system path) of that frame; with `leave_out_broken`, a material
that cannot be resolved or compiled leaves its slot out with a diagnostic instead of
raising.
"""
from __future__ import annotations

import math
import time
from contextlib import nullcontext

import moderngl
import numpy as np

from kzplayer.gpu import gl
from kzplayer.gpu import checkpoint as checkpoints
from kzplayer.gpu import layout as L
from kzplayer.gpu.host_events import DEFAULT_CAP, HostEvents, Listener
from kzplayer.gpu.limits import max_pool, system_limit
from kzplayer.gpu.materials import ComputePrograms
from kzplayer.gpu.mesh_nodes import MeshNodes
from kzplayer.gpu.nodes import Emitter, EmitterStats
from kzplayer.gpu.refresh import carry_into_space, holders, refresh
from kzplayer.gpu.runner import PASSES, SystemRunner, runs
from kzplayer.gpu.stats_ring import DEPTH, StatsRing, system_figures
from kzplayer.scene import Scene

DUMP_FIELDS = ("position", "velocity", "age", "lifetime", "scale", "mass")
_STEP_EPSILON = 1e-9     # time that rounds to a whole step counts as one
MAX_STEPS_PER_FRAME = 1000   # per system; beyond it steps are dropped (Framerate 1e9, --fps 1e-9)


class Simulation:
    """`Simulation(ctx, scene)`, or `Simulation(ctx, project, graph=None, seed=None,
    leave_out_broken=False)`, which builds the Scene (`seed` overrides every Emission.Seed).
    `io="storage"` makes every program read and write particles through storage blocks
    instead of texel-buffer images (the same bits; for drivers without texel buffers, and
    the tests that compare the two). `programs` shares a ComputePrograms (programs by
    source text) with other simulations of one context. `walk="pool"` makes the step kernel walk every slot of
    every pool, skipping dead ones, instead of the live lists (the pipeline before v2's
    way, kept to test that both give the same particles)."""

    def __init__(self, ctx: moderngl.Context, scene, graph=None, seed: int | None = None, io: str | None = None,
                 walk: str = "live", leave_out_broken: bool = False, events_cap: int = DEFAULT_CAP,
                 programs: ComputePrograms | None = None):
        if not isinstance(scene, Scene):         # a project: its scene, read here
            scene = Scene(scene, graph, seed=seed, leave_out_broken=leave_out_broken)
        self.ctx = ctx
        self.scene = scene
        self.project = scene.project
        self.catalog = scene.catalog
        self.max_pool = max_pool(ctx)
        self.texel_buffers = gl.available(ctx)
        self.image_io = io != "storage" and self.texel_buffers
        block = int(ctx.info.get("GL_MAX_UNIFORM_BLOCK_SIZE", 16384) or 16384)
        self.uniform_block_vec4s = min(block, 65536) // 16
        self.table_vec4s = self.uniform_block_vec4s
        # `programs`: compiled programs shared with the caller, who releases them (a live save)
        self._own_programs = programs is None
        self.programs = programs if programs is not None else ComputePrograms(ctx)
        self.holders: dict = {}                  # id(scene node) -> its GPU holder (gpu.refresh)
        self.emitters: list[Emitter] = []
        self.frames = 0
        self.revision = 0             # a number of the process's own for each refresh (gpu.refresh)
        self.max_steps = MAX_STEPS_PER_FRAME
        self.dropped_steps: dict[str, int] = {}   # system path -> steps dropped over the budget
        self.timings: dict[str, float] | None = None   # custom materials' systems -> seconds, when asked
        self.gpu_timers = None        # a gpu.timers.GpuTimers: each system's steps of a frame timed on the GPU
        self.budget_check = None                  # called after each step (render/budget.py's FrameWatch)
        self.walk_full_pool = walk == "pool"
        self.events_cap = max(int(events_cap), 1)   # host event records per system and frame
        self.host_events = HostEvents()
        self._ring = StatsRing(ctx)
        self.meshes = MeshNodes(self)
        self._last_stats: dict[str, EmitterStats] | None = {}
        self._folded = None
        self._passes = {}
        self.runners: list[SystemRunner] = []
        try:
            holders(self)
            self.runners = [SystemRunner(self, system) for system in self.systems]
            self.passes = self.passes_for(False)
            self._refresh(reread=False)
        except BaseException:        # a shader error, say: free what was made, then report
            self.release()
            raise
        for em in self.emitters:
            em.totals = em.buffers.read_state()
            self._last_stats[em.path] = EmitterStats(em.path)

    # what the scene says, under the names the GPU side reads
    graph = property(lambda self: self.scene.graph)
    values = property(lambda self: self.scene.values)
    seed = property(lambda self: self.scene.seed)
    leave_out_broken = property(lambda self: self.scene.leave_out_broken)
    diagnostics = property(lambda self: self.scene.diagnostics, doc="warnings: slots skipped, pools capped")

    @property
    def systems(self) -> list:
        """The System holders, in the scene's order."""
        return [self.holders[id(n)] for n in self.scene.systems]

    # -- the interface ----------------------------------------------------------------------

    def step_frame(self, dt: float) -> int:
        """Advance by `dt` seconds of wall or output time; returns the steps run (the most of
        any system). Fixed steps of 1/Framerate; a remainder waits for the next frame."""
        most = 0
        for runner in self.runners:
            system = runner.system
            if not system.visible:
                continue
            # Counted in steps, not seconds, so a Framerate change applies from now on.
            system.clock += max(float(dt), 0.0) * system.framerate
            due = math.floor(system.clock + _STEP_EPSILON) - system.steps
            run = min(max(due, 0), self.max_steps)
            timed = self._timed_key(system)
            if timed:
                self.ctx.finish()
                start = time.perf_counter()
            with (self.gpu_timers.measure(("sim", system.item.path), self.frames)
                  if self.gpu_timers is not None and run else nullcontext()):
                for _ in range(run):
                    runner.step()
                    system.steps += 1
                    if self.budget_check is not None:     # the frame budget, between dispatches
                        self.budget_check(timed or f"ParticleSystem '{system.item.path}'", bool(timed))
            if timed:
                self.ctx.finish()
                self.timings[timed] = self.timings.get(timed, 0.0) + time.perf_counter() - start
            if due > run:               # over budget: the clock moves on, the work does not
                system.steps += due - run
                path = system.item.path
                self.dropped_steps[path] = self.dropped_steps.get(path, 0) + due - run
            most = max(most, run)
        self._end_frame()
        return most

    def set_emission_lod(self, factors: dict[str, float]) -> None:
        """The emission LOD of the coming steps (kzplayer/render/lod.py): {emitter path:
        factor}, what a count material leaves of its continuous rate (getEmissionLod());
        emitters not named go back to 1. One word per emitter whose factor changed. A bound
        subemitter's factor goes to its channel, whose parents thin their children by it
        (Particles/bound_emission.glsl)."""
        for runner in self.runners:
            for k, em in enumerate(runner.system.members):
                owner = em.channel_of if em.channel_of is not None else em
                factor = float(factors.get(owner.path, 1.0))
                if factor != em.lod:
                    em.lod = factor
                    runner.write_lod(k)

    def _timed_key(self, system) -> str | None:
        """What `timings` calls a system whose kernel runs custom materials (None: not timed;
        the GPU is drained around it, so only projects that ask pay)."""
        if self.timings is None:
            return None
        mats = [m for em in system.emitters for m in (em.count, em.emission, em.self_affect, em.events)]
        mats += [n.material for n in (*system.affectors, *system.colliders)]
        custom = list(dict.fromkeys(f"'{m.name}' ({m.display})" for m in mats
                                    if m is not None and getattr(m, "root", None) is not None))
        if not custom:
            return None
        which = "material" if len(custom) == 1 else "materials"
        return f"the custom {which} {', '.join(custom)} of ParticleSystem '{system.item.path}'"

    def step(self) -> None:
        """Exactly one fixed step of every system (tests, benchmarks)."""
        for runner in self.runners:
            if runner.system.visible:
                runner.system.clock += 1.0
                runner.step()
                runner.system.steps += 1
        self._end_frame()

    @property
    def stats(self) -> dict[str, EmitterStats]:
        """One EmitterStats per emitter path for the last frame (reads the GPU now: the frame
        loop itself uses `take_stats`, which never waits)."""
        self.take_stats(flush=True)
        if self._last_stats is None:            # the last frame was folded in: work it out now
            systems, befores = self._folded
            self._last_stats = {}
            for (emitters, states, headers), before in zip(systems, befores):
                self._last_stats.update(system_figures(emitters, states, headers, before))
        return self._last_stats

    def take_stats(self, flush: bool = False) -> list[tuple[int, dict[str, EmitterStats]]]:
        """[(frame, {path: EmitterStats})] of the frames whose figures are in: those a couple
        of frames old (no wait for the GPU), or every frame so far with `flush`. Frames count
        the calls of step_frame and step from 0; each frame comes out once, if taken within
        stats.DEPTH frames (a frame loop that never asks does not pile them up)."""
        return self._take(flush)

    def _take(self, flush: bool = False, keep: int = 0, fold: bool = False) -> list:
        out = []
        for frame, systems, hosts in self._ring.ready(self.frames - 1, flush, keep):
            if hosts or self.host_events.listeners:
                self.host_events.deliver(frame, hosts)
            befores = []
            for emitters, states, headers in systems:
                written = headers["total_written"].tolist()
                dropped = headers["total_dropped"].tolist()
                before = [(em.totals, em.event_totals) for em in emitters]
                for k, em in enumerate(emitters):
                    em.totals, em.event_totals = states[k], (written[k], dropped[k])
                befores.append(before)
            if fold:                    # nobody asked for this frame: its figures only if `stats` asks
                self._folded, self._last_stats = (systems, befores), None
                continue
            figures = {}
            for (emitters, states, headers), before in zip(systems, befores):
                figures.update(system_figures(emitters, states, headers, before))
            self._last_stats = figures
            out.append((frame, figures))
        return out

    def listen(self, emitter, callback, kinds=("birth", "death", "hit"), batch: bool = False) -> Listener:
        """Call `callback` for the births, deaths and hits of an emitter (an Emitter of
        `emitters` or its ProjectItemPath; None: every emitter): with one HostEvent each, or
        (batch=True) with one HostEventBatch per frame. Delivered after the frame, when its stats are read (the
        frame loop's take_stats, a couple of frames late; flush with take_stats(flush=True)),
        never by waiting for the GPU. At most `events_cap` records per system and frame;
        the rest are dropped and counted (`host_events.dropped`, the batch's `dropped`)."""
        em = None if emitter is None else self._emitter(emitter)
        kinds = frozenset((kinds,) if isinstance(kinds, str) else kinds)
        unknown = kinds - {"birth", "death", "hit"}
        if unknown or not kinds:
            raise ValueError(f"kinds are 'birth', 'death' and 'hit', not {sorted(unknown) or 'none'}")
        listener = Listener(em, callback, kinds, batch)
        self.take_stats(flush=True)     # the frames so far have nothing for it
        self.host_events.listeners.append(listener)
        self._listening_changed()
        return listener

    def unlisten(self, listener: Listener) -> None:
        """Stop calling a listener (events of frames already stepped are still delivered)."""
        self.take_stats(flush=True)
        if listener in self.host_events.listeners:
            self.host_events.listeners.remove(listener)
            self._listening_changed()

    def _listening_changed(self) -> None:
        for em in self.emitters:
            em.host_kinds = self.host_events.kinds_of(em)
        self._refresh()

    def _emitter(self, emitter) -> Emitter:
        if isinstance(emitter, Emitter):
            return emitter
        for em in self.emitters:
            if em.path == str(emitter) or em.path == str(emitter).strip("/"):
                return em
        raise KeyError(f"no ParticleEmitter '{emitter}' in this project "
                       f"(emitters: {', '.join(em.path for em in self.emitters) or 'none'})")

    def read_particles(self, emitter: Emitter) -> np.ndarray:
        """The live particles of an emitter (PARTICLE_DTYPE, simulation space), in spawn order."""
        records = emitter.buffers.read_records()
        return L.alive(records, next_serial=int(emitter.buffers.read_state()["total_emitted"]))

    def dump(self) -> dict[str, np.ndarray]:
        """Every emitter's live particles in world space, keyed `<emitter path>/<field>`."""
        out = {}
        for em in self.emitters:
            live = self.read_particles(em)
            m = em.simulation_to_world
            for name in DUMP_FIELDS:
                data = live[name].astype(np.float32)
                if name == "position":
                    data = (live[name] @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
                elif name == "velocity":
                    data = (live[name] @ m[:3, :3].T).astype(np.float32)
                out[f"{em.path}/{name}"] = data
        return out

    def set_value(self, item, name: str, value):
        """Set a property through the scene (kzplayer.scene.Scene.set_value) and bring the
        GPU side up to date (parameters, transforms, pool sizes, materials); returns the
        scene's Change (what it touches)."""
        self.take_stats(flush=True)      # figures of earlier frames belong to the old pools
        spaces = self._spaces()
        change = self.scene.set_value(item, name, value)
        self._update(spaces)
        return change

    def memory(self) -> dict[str, dict[str, int]]:
        """Bytes of GPU buffers each emitter holds in its system's storage: {path: {"particles"
        (hot and cold records), "tracks", "events" (records and staging), "slots" (live list
        and free stack), "history" (its position history, N x 16 bytes a slot)}}. A bound
        subemitter's figures include its channel's (the hidden emitter its parents write
        their emission records into). The renderer's are in Renderer.memory()."""
        out = {}
        for runner in self.runners:
            if runner.storage is None:
                continue
            for k, em in enumerate(runner.system.members):
                r = runner.storage.layout.ranges[k]
                slots = r.groups * L.WORKGROUP_SIZE
                figures = {"particles": slots * (L.HOT_DTYPE.itemsize + L.COLD_DTYPE.itemsize),
                           "tracks": slots * L.TRACK_DTYPE.itemsize,
                           "events": 2 * r.capacity * L.EVENT_RECORD_DTYPE.itemsize,
                           "slots": 2 * slots * 4,
                           "history": slots * r.history * L.HISTORY_DTYPE.itemsize}
                owner = em.channel_of.item.path if em.channel_of is not None else em.path
                mine = out.setdefault(owner, dict.fromkeys(figures, 0))
                for key, size in figures.items():
                    mine[key] += size
        return out

    def release(self) -> None:
        """Free every GL object; safe to call twice."""
        for runner in self.runners:
            runner.release()
        self._ring.release()
        if self._own_programs:
            self.programs.release()

    # -- building ---------------------------------------------------------------------------

    def _refresh(self, reread: bool = True) -> None:
        """Re-read the scene (when `reread`) and everything the GPU side derives from it."""
        spaces = self._spaces()
        if reread:
            self.scene.refresh()
        self._update(spaces)

    def _spaces(self) -> dict:
        return {id(em): (em.space_kind, em.simulation_to_world.copy())
                for system in self.systems for em in system.emitters}

    def _update(self, spaces: dict, only=None) -> None:
        with self.scene.values.steady():        # nothing changes a value while the GPU side is brought up to date
            refresh(self, only)
        for system in self.systems:
            for em in system.emitters:
                kind, was = spaces.get(id(em), ("", None))
                if kind and kind != em.space_kind:
                    carry_into_space(em, np.linalg.inv(em.simulation_to_world) @ was)

    def _warn(self, diagnostic) -> None:
        self.scene.warn(diagnostic)

    def passes_for(self, words_in_ssbo: bool) -> dict:
        """The fixed passes (Particles/pass_*.glsl), compiled for the emitter table in a
        uniform block or, for systems of hundreds of emitters, in a storage block."""
        if words_in_ssbo not in self._passes:
            defines = {"KZ_IMAGE_IO": 1 if self.image_io else 0, "KZ_TABLE_VEC4S": self.table_vec4s,
                       "KZ_SCHEDULE_VEC4S": self.table_vec4s}
            if words_in_ssbo:
                defines["KZ_WORDS_IN_SSBO"] = 1
            self._passes[words_in_ssbo] = {
                name: self.programs.stage(f"Particles/pass_{name.removesuffix('_wide')}.glsl",
                                          {**defines, "KZ_WIDE": int(name.endswith("_wide"))})
                for name in PASSES}
        return self._passes[words_in_ssbo]

    # -- stats --------------------------------------------------------------------------------

    def _end_frame(self) -> None:
        self._ring.snapshot(self.frames, self.runners)
        self.frames += 1
        if len(self._ring.pending) > DEPTH:         # nobody takes them: fold the oldest in
            self._take(keep=DEPTH, fold=True)

    # -- checkpoints (kzplayer.gpu.checkpoint) ---------------------------------------------------

    def checkpoint(self, extra: dict | None = None) -> bytes:
        """The whole state the next frame reads, as bytes (versioned; the header names the
        project and its values): `restore` it into a Simulation of the same project and
        values and it plays on bit for bit. `extra`: a caller's JSON-able state, kept too."""
        return checkpoints.checkpoint(self, extra)

    def restore(self, data: bytes) -> dict:
        """Put a checkpoint's state into this simulation; returns its header (its "extra"
        as given). A checkpoint of another project or other values raises CheckpointError."""
        return checkpoints.restore(self, data)


__all__ = ["Simulation", "max_pool", "system_limit", "runs"]
