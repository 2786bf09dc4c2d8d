"""The particle simulation: a resolved project stepped on the GPU, frame by frame.

One `Simulation` holds every ParticleSystem of a project. A frame (`step_frame(dt)`) is cut
into fixed steps of 1/ParticleSystem.Framerate per system, the remainder carried. One step
runs the stages of docs/player.md, each over every emitter of the system in one dispatch
(kzplayer.gpu.frame): count and emit, then one fused kernel per live particle (reset,
self-affect, the affectors in tree order, integrate, the colliders, events, the death
test), the event records put in slot order, the subemitters' levels, and the end passes
(freed slots back on the free stacks in slot order, the live lists rebuilt).

Particle state stays on the GPU; the per-frame stats are copied on the GPU into a ring and
read a frame or more later (kzplayer.gpu.stats); the pools are read when asked
(`read_particles`, `dump`).

Bounds (docs/player.md, "Limits"): a frame runs at most `max_steps` steps per system (steps
beyond are dropped and counted in `dropped_steps`, as game engines drop them); with
`timings` set to a dict, the steps of each system that runs custom materials are timed into
it (play's per-frame wall-clock budget names them); with `leave_out_broken`, a material
that cannot be resolved or compiled leaves its slot out with a diagnostic instead of
raising.
"""
from __future__ import annotations

import math
import time

import moderngl
import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import gl
from kzplayer.gpu import layout as L
from kzplayer.gpu.events import dependency_order, event_source
from kzplayer.gpu.frame import PASSES, SystemRunner, runs
from kzplayer.gpu.host_events import DEFAULT_CAP, HostEvents, Listener
from kzplayer.gpu.materials import Material, ProgramCache, resolve_material
from kzplayer.gpu.mesh_nodes import MeshNodes
from kzplayer.gpu.nodes import Affector, Collider, Emitter, EmitterStats, System
from kzplayer.gpu.properties import PropertyReader
from kzplayer.gpu.stats import DEPTH, StatsRing
from kzplayer.transforms import world_matrix

DUMP_FIELDS = ("position", "velocity", "age", "lifetime", "scale", "mass")
_STEP_EPSILON = 1e-9     # time that rounds to a whole step counts as one
MAX_STEPS_PER_FRAME = 1000   # per system; beyond it steps are dropped (Framerate 1e9, --fps 1e-9)


class Simulation:
    """`Simulation(ctx, project, graph=None, seed=None)`: `seed` overrides every Emission.Seed.
    `io="storage"` makes every program read and write particles through storage blocks
    instead of texel-buffer images (the same bits; for drivers without texel buffers, and
    the tests that compare the two). `walk="pool"` makes the step kernel walk every slot of
    every pool, skipping dead ones, instead of the live lists (the pipeline before v2's
    way, kept to test that both give the same particles)."""

    def __init__(self, ctx: moderngl.Context, project, graph=None, seed: int | None = None, io: str | None = None,
                 walk: str = "live", leave_out_broken: bool = False, events_cap: int = DEFAULT_CAP):
        if graph is None:
            from kzplayer.bindings import resolve
            graph = resolve(project)
        self.ctx = ctx
        self.project = project
        self.graph = graph
        self.seed = seed
        self.catalog = project.catalog      # the stock catalog plus the project's custom types
        self.values = PropertyReader(graph, self.catalog)
        self.max_pool = max_pool(ctx)
        self.texel_buffers = gl.available(ctx)
        self.image_io = io != "storage" and self.texel_buffers
        block = int(ctx.info.get("GL_MAX_UNIFORM_BLOCK_SIZE", 16384) or 16384)
        self.uniform_block_vec4s = min(block, 65536) // 16
        self.table_vec4s = self.uniform_block_vec4s
        self.programs = ProgramCache(ctx)
        self.systems: list[System] = []
        self.runners: list[SystemRunner] = []
        self.emitters: list[Emitter] = []
        self.diagnostics: list[Diagnostic] = []   # warnings: slots skipped, pools capped
        self.frames = 0
        self.max_steps = MAX_STEPS_PER_FRAME
        self.dropped_steps: dict[str, int] = {}   # system path -> steps dropped over the budget
        self.timings: dict[str, float] | None = None   # custom materials' systems -> seconds, when asked
        self.leave_out_broken = leave_out_broken
        self.walk_full_pool = walk == "pool"
        self.events_cap = max(int(events_cap), 1)   # host event records per system and frame
        self.host_events = HostEvents()
        self._ring = StatsRing(ctx)
        self._meshes = MeshNodes(self)
        self._last_stats: dict[str, EmitterStats] | None = {}
        self._folded = None
        self._passes = {}
        try:
            self._build()
            self.passes = self.passes_for(False)
            self._refresh()
        except BaseException:        # a shader error, say: free what was made, then report
            self.release()
            raise
        for em in self.emitters:
            em.totals = em.buffers.read_state()
            self._last_stats[em.path] = EmitterStats(em.path)

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
            for _ in range(run):
                runner.step()
                system.steps += 1
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
                self._last_stats.update(_system_figures(emitters, states, headers, before))
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
                figures.update(_system_figures(emitters, states, headers, before))
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

    def set_value(self, item, name: str, value) -> set:
        """Set a property through the binding graph and bring the GPU side up to date
        (parameters, transforms, pool sizes, materials)."""
        changed = self.graph.set_value(item, name, value)
        # Refresh even when the graph's value did not change: setting a property to its
        # catalog default still makes it the node's own, which beats a legacy preset.
        self.take_stats(flush=True)      # figures of earlier frames belong to the old pools
        self._refresh()
        return changed

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
        self.programs.release()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        number = 0
        self._affector_items = [item for item in self.project.walk() if item.type == "ParticleAffector"]
        for item in self.project.walk():
            if item.type != "ParticleSystem":
                continue
            system = System(item)
            emitters = []
            for node in _members(item):
                if node.type == "ParticleEmitter":
                    emitters.append(Emitter(node, number, system))
                    number += 1
                elif node.type == "ParticleAffector":
                    system.own_affectors.add(id(node))
                elif node.type == "ParticleCollider":
                    system.colliders.append(Collider(node))
            system.emitters = emitters
            self.systems.append(system)
            self.runners.append(SystemRunner(self, system))
            self.emitters.extend(emitters)

    def _affectors_of(self, system: System) -> list[Affector]:
        """The affectors that act on a system, in tree order over the project: its own, and,
        when it accepts global forces (ParticleSystem.AcceptGlobalForces), every affector of
        its scene flagged ParticleAffector.Global, wherever it sits in the scene (inside
        another system, or at the scene's level). One record per system and affector node:
        a global force acts in each system's space."""
        accepts = self.values.value(system.item, "ParticleSystem.AcceptGlobalForces") is not False
        scene = _scene_of(system.item)
        chosen = []
        for item in self._affector_items:
            if id(item) in system.own_affectors:
                chosen.append(item)
            elif accepts and self.values.value(item, "ParticleAffector.Global") is True and _scene_of(item) is scene:
                chosen.append(item)
        records = {id(a.item): a for a in system.affectors}
        return [records.get(id(item)) or Affector(item) for item in chosen]

    def _order_emitters(self) -> None:
        """Each subemitter's event source (same system only), every system's emitters in
        dependency order (sources before the subemitters that read their events), and each
        emitter's level (a source's subemitters run one level after it, in the same step)."""
        by_path = {em.path: em for em in self.emitters}
        for em in self.emitters:
            em.source, warning = event_source(em, self.values.value(em.item, "Emission.SourceEventBuffer"), by_path)
            if warning is not None:
                self._warn(warning)
            em.particle_source, _ = event_source(
                em, self.values.value(em.item, "Emission.SourceParticleDataBuffer"), by_path)
        for system in self.systems:
            system.emitters = dependency_order(system.emitters, lambda em: em.source)
            for em in system.emitters:           # sources come first
                em.level = em.source.level + 1 if em.source is not None else 0
            self._channels(system)
        self.emitters = [em for system in self.systems for em in system.emitters]

    def _channels(self, system: System) -> None:
        """A channel per bound subemitter (its count material EmissionCount_PerParticle): a
        hidden emitter record at its source's level whose Event Buffer receives the emission
        records the source's particles write in the fused step, one per child, in slot order;
        the subemitter reads them as events, one level later (docs/player.md)."""
        keep = {id(ch.channel_of): ch for ch in system.channels}
        system.channels = []
        for em in system.emitters:
            em.per_event = max(int(self.values.value(em.item, "Emission.ParticlesPerEvent") or 1), 1)
            em.basis = str(self.values.value(em.item, "Emission.EmissionBasis") or "Emitter")
            bound = em.count is not None and em.count.name == "EmissionCount_PerParticle" and em.source is not None
            if not bound:
                em.channel = None
                continue
            parent = em.source
            ch = keep.get(id(em)) or Emitter(em.item, em.index, system)
            ch.channel_of, ch.level, ch.source, ch.particle_source = em, parent.level, None, parent
            ch.pool = max(parent.pool, em.pool)      # its slots mirror the parent's; a record per child
            ch.visible = parent.visible and em.visible
            rate = self.values.value(em.item, "Emission.RatePerParticle")
            variance = self.values.value(em.item, "Emission.RatePerParticleVariance")
            ch.channel_rate = (max(float(rate or 0.0), 0.0), max(float(variance or 0.0), 0.0))
            em.channel = ch
            em.particle_source = em.particle_source or parent   # the parent's record: inheritance
            em.source = ch
            em.level = ch.level + 1
            system.channels.append(ch)

    def _refresh(self) -> None:
        """Re-read everything the GPU side derives from property values."""
        spaces = {id(em): (em.space_kind, em.simulation_to_world.copy())
                  for system in self.systems for em in system.emitters}
        for system in self.systems:
            item = system.item
            system.framerate = max(float(self.values.value(item, "ParticleSystem.Framerate") or 60.0), 1e-3)
            system.verlet = str(self.values.value(item, "ParticleSystem.IntegrationMethod")) == "Verlet"
            system.local_space = self.values.value(item, "ParticleSystem.LocalSpace") is True
            system.visible = self._visible(item)
            system_world = world_matrix(item, self.values.value)
            system.node_world = system_world
            system.simulation_to_world = system_world if system.local_space else np.eye(4)
            to_sim = np.linalg.inv(system.simulation_to_world)
            system.world_to_simulation = to_sim
            for em in system.emitters:
                self._refresh_emitter(em, to_sim)
            system.affectors = self._affectors_of(system)
            for aff in system.affectors:
                aff.material = self._material(aff.item, "ParticleAffector.AffectorMaterial", "Affector")
                aff.transform = to_sim @ world_matrix(aff.item, self.values.value)
                aff.visible = self._visible(aff.item)
            for col in system.colliders:
                col.material = self._material(col.item, "ParticleCollider.ColliderMaterial", "Collider")
                col.transform = to_sim @ world_matrix(col.item, self.values.value)
                col.visible = self._visible(col.item)
                col.mesh_block = None
                if col.material is not None and col.material.name == "Collider_Mesh":
                    col.mesh_block = self._meshes.collider(col)
                    if col.mesh_block is None:
                        col.material = None         # refused (a warning says why): the collider is left out
            for em in system.emitters:
                em.mesh_block = None
                if em.emission is not None and em.emission.name == "Emitter_Mesh":
                    em.mesh_block = self._meshes.emitter(em, system.simulation_to_world @ em.transform)
                    if em.mesh_block is None:
                        em.emission = None
        self._order_emitters()          # a binding may have moved a buffer handle
        for runner in self.runners:
            sizes = self._system_pools(runner.system)
            while True:
                try:
                    runner.refresh(sizes)
                    break
                except KzError as exc:    # a custom material that does not compile
                    if not (self.leave_out_broken and self._leave_out(runner.system, exc)):
                        raise
        for system in self.systems:
            for em in system.emitters:
                kind, was = spaces.get(id(em), ("", None))
                em.space_kind = self._particle_space(em)
                if kind and kind != em.space_kind:
                    self._carry_into_space(em, np.linalg.inv(em.simulation_to_world) @ was)

    def _particle_space(self, em: Emitter) -> str:
        """Where an emitter's particles are kept: "Local" (the system's basis) or "World"."""
        space = str(self.values.value(em.item, "ParticleEmitter.Space") or "Inherit")
        local = self.values.value(em.system.item, "ParticleSystem.LocalSpace") is True
        return space if space in ("Local", "World") else ("Local" if local else "World")

    def _carry_into_space(self, em: Emitter, m: np.ndarray) -> None:
        """A new ParticleEmitter.Space (or ParticleSystem.LocalSpace) keeps the particles
        where they are in the world: records and position history go through `m`, the old
        particles' space -> the new one (a property change, not a frame: a readback is fine)."""
        if em.buffers is None or not em.capacity:
            return
        storage, k = em.buffers.storage, em.buffers.index
        records = storage.read_records(k)
        live = (records["flags"] & L.FLAG_ALIVE) != 0
        if not live.any():
            return
        r, t = m[:3, :3], m[:3, 3]
        for name in ("position", "previous_position"):
            records[name][live] = records[name][live] @ r.T + t
        for name in ("velocity", "acceleration"):
            records[name][live] = records[name][live] @ r.T
        storage.write_records(k, records)
        if em.buffers.history_length:
            rings = storage.read_history(k)
            rings["position"][live] = rings["position"][live] @ r.T + t
            storage.write_history(k, rings)

    def _leave_out(self, system, exc: KzError) -> bool:
        """With leave_out_broken: the custom material a compile error points into leaves its
        slot out (its diagnostics kept), so the system's kernel can be built without it.
        False when no custom material of the system is to blame."""
        files = {str(d.span.file) for d in exc.diagnostics if d.span is not None}
        slots = [(em, name) for em in system.emitters for name in ("count", "emission", "self_affect", "events")]
        slots += [(node, "material") for node in (*system.affectors, *system.colliders)]
        custom = [(owner, name) for owner, name in slots
                  if getattr(getattr(owner, name), "root", None) is not None]
        blamed = [(o, n) for o, n in custom if {str(getattr(o, n).shader), getattr(o, n).display} & files]
        if not blamed and len(custom) == 1:
            blamed = custom            # an error in a file the one custom material includes
        if not blamed:
            return False
        for d in exc.diagnostics:
            self._warn(d)
        for owner, name in blamed:
            setattr(owner, name, None)
        return True

    def _refresh_emitter(self, em: Emitter, to_sim: np.ndarray) -> None:
        item = em.item
        em.pool = self._pool_size(item)
        em.count = self._material(item, "ParticleEmitter.EmissionCountMaterial", "EmissionCount")
        em.emission = self._material(item, "ParticleEmitter.EmissionMaterial", "Emission")
        em.self_affect = self._material(item, "ParticleEmitter.SelfAffectMaterial", "Affector")
        em.events = self._material(item, "ParticleEmitter.GenerateEventsMaterial", "GenerateEvents")
        em.seed = int(self.seed if self.seed is not None else (self.values.value(item, "Emission.Seed") or 0))
        em.transform = to_sim @ world_matrix(item, self.values.value)
        em.visible = self._visible(item)
        em.space = _emitter_space(str(self.values.value(item, "ParticleEmitter.Space") or "Inherit"), em.system)
        em.ignore_colliders = self.values.value(item, "ParticleEmitter.IgnoreColliders") is True
        em.destroy_on_collision = self.values.value(item, "ParticleEmitter.DestroyOnCollision") is True
        em.history = self._history_length(item)

    def _history_length(self, item) -> int:
        """N, the positions per particle the emitter's rendering material draws from (its
        catalog `history`: a property name or a number; docs/player.md, "Position history"),
        0 for none; at most MAX_HISTORY."""
        from kzplayer.gpu.history import history_length
        return history_length(self.catalog, self.values.value(item, "ParticleEmitter.ParticleMaterial"),
                              lambda name: self.values.value(item, name))

    def _pool_size(self, item) -> int:
        """MaximumAmount, at most what the driver allows (`max_pool`; a warning says so)."""
        asked = max(int(self.values.value(item, "ParticleEmitter.MaximumAmount") or 0), 0)
        if asked <= self.max_pool:
            return asked
        self._warn(Diagnostic(
            "KZ804", "emitter.pool-limit", Severity.WARNING,
            f"{item.path}: ParticleEmitter.MaximumAmount = {asked:,} is more than this OpenGL driver "
            f"allows one emitter (one compute dispatch and one storage buffer must hold the pool); "
            f"the pool holds {self.max_pool:,} particles",
            self.values.span(item, "ParticleEmitter.MaximumAmount")))
        return self.max_pool

    def _system_pools(self, system: System) -> list[int]:
        """The emitters' pools in dependency order, the later ones cut where the system's
        buffers would pass what one texel buffer (or storage block) and one dispatch hold."""
        limit = system_limit(self.ctx, self.image_io)
        sizes, total = [], 0
        for em in system.members:
            size = min(em.pool, max(limit - total, 0))
            if size < em.pool:
                self._warn(Diagnostic(
                    "KZ804", "emitter.pool-limit", Severity.WARNING,
                    f"{em.path}: the emitters of this ParticleSystem together need more than this OpenGL "
                    f"driver allows one system ({limit:,} particles: its buffers and one dispatch hold them "
                    f"all); this pool holds {size:,}",
                    self.values.span(em.item, "ParticleEmitter.MaximumAmount")))
            sizes.append(size)
            total += -(-size // L.WORKGROUP_SIZE) * L.WORKGROUP_SIZE
        return sizes

    def _warn(self, diagnostic: Diagnostic) -> None:
        if diagnostic not in self.diagnostics:
            self.diagnostics.append(diagnostic)

    def _visible(self, item) -> bool:
        """False when the node or an ancestor has Node.Visible = false (the catalog: a hidden
        node and everything below it is neither simulated nor drawn)."""
        node = item
        while node is not None:
            if self.values.value(node, "Node.Visible") is False:
                return False
            node = node.parent
        return True

    def _material(self, item, slot_property: str, slot: str) -> Material | None:
        ref = self.values.value(item, slot_property)
        if ref is None or str(ref) == "":
            return None
        try:
            found = resolve_material(self.project, self.catalog, ref, slot, f"{item.path}: {slot_property}",
                                     span=self.values.span(item, slot_property))
        except KzError as exc:           # unknown, another slot's, outside the project
            if not self.leave_out_broken:
                raise
            for d in exc.diagnostics:
                self._warn(d)
            return None
        if isinstance(found, Diagnostic):
            self._warn(found)
            return None
        return found

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


def _system_figures(emitters, states, headers, befores) -> dict[str, EmitterStats]:
    """{path: EmitterStats} of a system's emitters. A bound subemitter's channel is no
    emitter of the project: it has no row, and the children it dropped (past BOUND_PER_STEP
    a parent and step, or past its records) are the subemitter's `stalled`, children it was
    due and did not emit, as a full pool's are."""
    figures, channels = {}, []
    for em, state, header, (totals, events) in zip(emitters, states, headers, befores):
        if em.channel_of is None:
            figures[em.path] = _figures(em.path, state, header, totals, events)
        else:
            channels.append((em.channel_of.path, (int(header["total_dropped"]) - int(events[1])) & 0xFFFFFFFF))
    for path, dropped in channels:
        if path in figures:
            figures[path].stalled += dropped
    return figures


def _figures(path: str, state, header, before, event_before) -> EmitterStats:
    """An emitter's figures for a frame: its totals after it less its totals before."""
    return EmitterStats(
        emitter=path,
        alive=int(state["capacity"]) - int(state["free_count"]),
        emitted=(int(state["total_emitted"]) - int(before["total_emitted"])) & 0xFFFFFFFF,
        died=(int(state["total_died"]) - int(before["total_died"])) & 0xFFFFFFFF,
        events_written=(int(header["total_written"]) - int(event_before[0])) & 0xFFFFFFFF,
        events_dropped=(int(header["total_dropped"]) - int(event_before[1])) & 0xFFFFFFFF,
        stalled=(int(state["total_stalled"]) - int(before["total_stalled"])) & 0xFFFFFFFF,
        hits=(int(state["total_hits"]) - int(before["total_hits"])) & 0xFFFFFFFF,
    )


def max_pool(ctx) -> int:
    """The most particles one emitter can hold on this driver. Two limits: one dispatch of
    WORKGROUP_SIZE-wide groups covers every slot (GL_MAX_COMPUTE_WORK_GROUP_COUNT, 65,535 at
    least), and the pool, drawn as one storage-block range of its whole records
    (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, 128 MiB at least and on Mesa, 2 GiB and more on
    desktop GPUs). Past the second, a driver may clamp the bound range and silently drop the
    slots beyond it (llvmpipe happens not to)."""
    groups = int(ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT", (65535,))[0])
    block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
    # The whole particle record (hot + cold) is the largest per-slot record.
    return min(groups * L.WORKGROUP_SIZE, block // L.PARTICLE_DTYPE.itemsize)


def system_limit(ctx, image_io: bool) -> int:
    """The most slots one ParticleSystem's emitters hold together: its step is one dispatch,
    and each of its buffers one texel buffer (or, without them, one storage block). The
    events buffer is the largest per slot (a record and a staging record: 128 bytes)."""
    groups = int(ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT", (65535,))[0])
    if image_io:
        texels = int(ctx.info.get("GL_MAX_TEXTURE_BUFFER_SIZE", 65536) or 65536)
        per_buffer = texels // (2 * L.EVENT_TEXELS)
    else:
        block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
        per_buffer = block // (2 * L.EVENT_RECORD_DTYPE.itemsize)
    return min(groups * L.WORKGROUP_SIZE, per_buffer)


def _emitter_space(space: str, system) -> np.ndarray | None:
    """ParticleEmitter.Space as the matrix from its particles' space to the system's
    simulation space: World in a local-space system, Local (the system's basis) in a
    world-space one; None when they are the same space."""
    if space == "World" and system.local_space:
        m = np.linalg.inv(system.node_world)
    elif space == "Local" and not system.local_space:
        m = np.array(system.node_world, np.float64)
    else:
        return None
    return None if np.allclose(m, np.eye(4), atol=0, rtol=0) else m


def _scene_of(item):
    """The Scene a node is in (the project's root when it is in none)."""
    node = item
    while node.parent is not None and node.type != "Scene":
        node = node.parent
    return node


def _members(system_item):
    """Emitters and affectors of a system in tree order, not descending into nested systems."""
    for child in system_item.children:
        yield child
        if child.type != "ParticleSystem":
            yield from _members(child)


__all__ = ["Simulation", "max_pool", "system_limit", "runs"]
