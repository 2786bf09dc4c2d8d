"""The particle simulation: a resolved project stepped on the GPU, frame by frame.

One `Simulation` holds every ParticleSystem of a project. A frame (`step_frame(dt)`) is cut
into fixed steps of 1/ParticleSystem.Framerate per system, the remainder carried. One step
runs the stages of docs/player.md as compute dispatches:

    1. per emitter (sources before their subemitters): count -> emit (indirect dispatch)
    2. reset the acceleration accumulators
    3. each emitter's SelfAffectMaterial
    4. the system's affectors in tree order, over every emitter's particles
    5. integrate (Euler or Verlet) and age
    6. the system's colliders in tree order: swept hits, bounce, friction, sinks
    7. per emitter in dependency order: a subemitter's count and emission from its source's
       events of this step, then the emitter's GenerateEventsMaterial into its Event Buffer
       (records put in slot order after the atomic appends)
    8. kill (age >= lifetime, or marked), slots back to the pool in slot order

Particle state stays on the GPU; Python reads back only the tiny emitter-state records once
per frame for `stats`, and the pools when asked (`read_particles`, `dump`).

Bounds (docs/player.md, "Limits"): a frame runs at most `max_steps` steps per system (steps
beyond are dropped and counted in `dropped_steps`, as game engines drop them); with
`timings` set to a dict, each custom material's dispatches are timed into it (play's
per-frame wall-clock budget names the slow one); with `leave_out_broken`, a material that
cannot be resolved or compiled leaves its slot out with a diagnostic instead of raising.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager

import moderngl
import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import layout as L
from kzplayer.gpu.buffers import EmitterBuffers
from kzplayer.gpu.events import dependency_order, ensure_tracks, event_source
from kzplayer.gpu.materials import Material, ProgramCache, resolve_material, uniform_values
from kzplayer.gpu.nodes import Affector, Collider, Emitter, EmitterStats, System
from kzplayer.gpu.properties import PropertyReader
from kzplayer.transforms import world_matrix

DUMP_FIELDS = ("position", "velocity", "age", "lifetime", "scale", "mass")
_BARRIER = moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.COMMAND_BARRIER_BIT
_STEP_EPSILON = 1e-9     # time that rounds to a whole step counts as one
MAX_STEPS_PER_FRAME = 1000   # per system; beyond it steps are dropped (Framerate 1e9, --fps 1e-9)


class Simulation:
    """`Simulation(ctx, project, graph=None, seed=None)`: `seed` overrides every Emission.Seed."""

    def __init__(self, ctx: moderngl.Context, project, graph=None, seed: int | None = None,
                 leave_out_broken: bool = False):
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
        self.programs = ProgramCache(ctx)
        self.systems: list[System] = []
        self.emitters: list[Emitter] = []
        self.stats: dict[str, EmitterStats] = {}
        self.diagnostics: list[Diagnostic] = []   # warnings: slots skipped, pools capped
        self.frames = 0
        self.max_steps = MAX_STEPS_PER_FRAME
        self.dropped_steps: dict[str, int] = {}   # system path -> steps dropped over the budget
        self.timings: dict[str, float] | None = None   # custom material -> seconds, when asked
        self.leave_out_broken = leave_out_broken
        try:
            self._build()
            self._refresh()
        except BaseException:        # a shader error, say: free what was made, then report
            self.release()
            raise
        for em in self.emitters:
            em.totals = em.buffers.read_state()
            self.stats[em.path] = EmitterStats(em.path)

    # -- the interface ----------------------------------------------------------------------

    def step_frame(self, dt: float) -> int:
        """Advance by `dt` seconds of wall or output time; returns the steps run (the most of
        any system). Fixed steps of 1/Framerate; a remainder waits for the next frame."""
        most = 0
        for system in self.systems:
            if not system.visible:
                continue
            # Counted in steps, not seconds, so a Framerate change applies from now on.
            system.clock += max(float(dt), 0.0) * system.framerate
            due = math.floor(system.clock + _STEP_EPSILON) - system.steps
            run = min(max(due, 0), self.max_steps)
            for _ in range(run):
                self._step(system)
            if due > run:               # over budget: the clock moves on, the work does not
                system.steps += due - run
                path = system.item.path
                self.dropped_steps[path] = self.dropped_steps.get(path, 0) + due - run
            most = max(most, run)
        self.frames += 1
        self._collect_stats()
        return most

    def step(self) -> None:
        """Exactly one fixed step of every system (tests, benchmarks)."""
        for system in self.systems:
            if system.visible:
                system.clock += 1.0
                self._step(system)
        self._collect_stats()

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
        (uniforms, transforms, pool sizes, materials)."""
        changed = self.graph.set_value(item, name, value)
        # Refresh even when the graph's value did not change: setting a property to its
        # catalog default still makes it the node's own, which beats a legacy preset.
        self._refresh()
        return changed

    def release(self) -> None:
        """Free every GL object; safe to call twice."""
        for em in self.emitters:
            em.buffers.release()
            if em.tracks is not None:
                em.tracks.release()
                em.tracks = None
        self.programs.release()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        number = 0
        for item in self.project.walk():
            if item.type != "ParticleSystem":
                continue
            system = System(item)
            emitters = []
            for node in _members(item):
                if node.type == "ParticleEmitter":
                    buffers = EmitterBuffers(self.ctx, 0, label=node.path)
                    emitters.append(Emitter(node, number, system, buffers))
                    number += 1
                elif node.type == "ParticleAffector":
                    system.affectors.append(Affector(node, None))
                elif node.type == "ParticleCollider":
                    system.colliders.append(Collider(node))
            system.emitters = emitters
            self.systems.append(system)
            self.emitters.extend(emitters)

    def _order_emitters(self) -> None:
        """Each subemitter's event source (same system only), and every system's emitters
        in dependency order: sources before the subemitters that read their events."""
        by_path = {em.path: em for em in self.emitters}
        for em in self.emitters:
            em.source, warning = event_source(em, self.values.value(em.item, "Emission.SourceEventBuffer"), by_path)
            if warning is not None:
                self._warn(warning)
            em.particle_source, _ = event_source(
                em, self.values.value(em.item, "Emission.SourceParticleDataBuffer"), by_path)
        for system in self.systems:
            system.emitters = dependency_order(system.emitters, lambda em: em.source)
        self.emitters = [em for system in self.systems for em in system.emitters]

    def _refresh(self) -> None:
        """Re-read everything the GPU side derives from property values."""
        for system in self.systems:
            item = system.item
            system.framerate = max(float(self.values.value(item, "ParticleSystem.Framerate") or 60.0), 1e-3)
            system.verlet = str(self.values.value(item, "ParticleSystem.IntegrationMethod")) == "Verlet"
            system.local_space = self.values.value(item, "ParticleSystem.LocalSpace") is True
            system.visible = self._visible(item)
            system_world = world_matrix(item, self.values.value)
            system.simulation_to_world = system_world if system.local_space else np.eye(4)
            to_sim = np.linalg.inv(system.simulation_to_world)
            for em in system.emitters:
                self._refresh_emitter(em, to_sim)
            for aff in system.affectors:
                aff.material = self._material(aff.item, "ParticleAffector.AffectorMaterial", "Affector")
                aff.transform = to_sim @ world_matrix(aff.item, self.values.value)
                aff.uniforms = self._uniforms(aff.item, aff.material)
                aff.visible = self._visible(aff.item)
            for col in system.colliders:
                col.material = self._material(col.item, "ParticleCollider.ColliderMaterial", "Collider")
                col.transform = to_sim @ world_matrix(col.item, self.values.value)
                col.uniforms = self._uniforms(col.item, col.material)
                col.visible = self._visible(col.item)
        self._order_emitters()          # a binding may have moved a buffer handle

    def _refresh_emitter(self, em: Emitter, to_sim: np.ndarray) -> None:
        item = em.item
        capacity = em.buffers.capacity
        em.buffers.resize(self._pool_size(item))
        if em.buffers.capacity != capacity:
            em.event_totals = (0, 0)    # a new Event Buffer counts from zero
        em.count = self._material(item, "ParticleEmitter.EmissionCountMaterial", "EmissionCount")
        em.emission = self._material(item, "ParticleEmitter.EmissionMaterial", "Emission")
        em.self_affect = self._material(item, "ParticleEmitter.SelfAffectMaterial", "Affector")
        em.events = self._material(item, "ParticleEmitter.GenerateEventsMaterial", "GenerateEvents")
        ensure_tracks(self.ctx, em)
        em.seed = int(self.seed if self.seed is not None else (self.values.value(item, "Emission.Seed") or 0))
        em.transform = to_sim @ world_matrix(item, self.values.value)
        em.uniforms = {slot: self._uniforms(item, mat) for slot, mat in
                       (("count", em.count), ("emission", em.emission), ("self", em.self_affect),
                        ("events", em.events))}
        em.visible = self._visible(item)

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
            if self.leave_out_broken and isinstance(found, Material):
                self.programs.material(found)       # compiled now: a broken shader leaves its slot out
        except KzError as exc:
            if not self.leave_out_broken:
                raise
            for d in exc.diagnostics:
                self._warn(d)
            return None
        if isinstance(found, Diagnostic):
            self._warn(found)
            return None
        return found

    def _uniforms(self, item, material: Material | None) -> list:
        if material is None:
            return []
        return uniform_values(self.programs.material(material), material, lambda name: self.values.value(item, name),
                              known=lambda name: self.catalog.property(name) is not None)

    # -- one step ---------------------------------------------------------------------------

    def _step(self, system: System) -> None:
        h = system.step_length
        frame = {"kz_dt": h, "kz_time": system.steps * h, "kz_step": system.steps,
                 "kz_worldToSimulation": np.linalg.inv(system.simulation_to_world)[:3, :3],
                 "kz_verlet": system.verlet}
        live = [em for em in system.emitters if _runs(em)]
        for em in live:                                           # 1. count, emit
            if em.source is None:          # subemitters emit in stage 7, after their source
                self._emit(em, frame)
        for em in live:                                           # 2. reset
            em.buffers.bind()
            self._run_stage("Particles/pass_reset.glsl", em, frame)
        for em in live:                                           # 3. self-affect
            if em.self_affect is not None:
                em.buffers.bind()
                self._run(em.self_affect, em, em.uniforms["self"], frame)
        for aff in system.affectors:                              # 4. affectors
            if aff.material is None or not aff.visible:
                continue
            for em in live:
                em.buffers.bind()
                self._run(aff.material, em, aff.uniforms, frame, affector=aff)
        defines = {"INTEGRATION_VERLET": 1 if system.verlet else 0}
        for em in live:                                           # 5. integrate, age; 8. kill
            em.buffers.bind()
            self._run_stage("Particles/pass_integrate.glsl", em, frame, defines)
        for col in system.colliders:                              # 6. colliders
            if col.material is None or not col.visible:
                continue
            for em in live:
                self._bind(em)
                self._run(col.material, em, col.uniforms, frame, collider=col)
        sources = {em.source for em in live}
        for em in live:                                           # 7. subemitters, events
            if em.source is not None:
                self._emit(em, frame)
            if em.events is not None or em in sources:
                self._generate_events(em, frame)
        for em in live:                                           # 8. kill
            em.buffers.bind()
            self._run_stage("Particles/pass_kill_count.glsl", em, frame, per_group=True)
            self._run_single("Particles/pass_group_scan.glsl", em, frame, {"SCAN_FREE_STACK": 1})
            self._run_stage("Particles/pass_kill.glsl", em, frame)
        system.steps += 1

    def _bind(self, em: Emitter) -> None:
        """The emitter's own buffers, its tracks, and its sources' buffers (read-only); an
        unbound source slot gets the emitter's own buffers, flagged absent (kz_hasSource*)."""
        em.buffers.bind()
        em.tracks.bind_to_storage_buffer(L.BINDING_TRACKS)
        source = em.source if em.source is not None and _runs(em.source) else None
        (source or em).buffers.events.bind_to_storage_buffer(L.BINDING_SOURCE_EVENTS)
        particles = em.particle_source if em.particle_source is not None and _runs(em.particle_source) else None
        (particles or em).buffers.particles.bind_to_storage_buffer(L.BINDING_SOURCE_PARTICLES)

    def _emit(self, em: Emitter, frame: dict) -> None:
        """Stage 1 of one emitter: the count (clamped to the free slots) writes the indirect
        arguments, then one emission invocation per new particle."""
        if em.count is None or em.emission is None:
            return
        self._bind(em)
        self._run(em.count, em, em.uniforms["count"], frame, groups=(1, 1, 1))
        program = self._prepare(em.emission, em, em.uniforms["emission"], frame)
        with self._timed(em.emission):
            program.run_indirect(em.buffers.state, 0)
            self.ctx.memory_barrier(_BARRIER)

    def _generate_events(self, em: Emitter, frame: dict) -> None:
        """Stage 7 of one emitter: this step's Event Buffer (count and drops start at 0,
        writers append, the end pass clamps to the capacity and adds to the totals)."""
        self._bind(em)
        self._run_single("Particles/pass_events_begin.glsl", em, frame)
        if em.events is not None:
            self._run(em.events, em, em.uniforms["events"], frame)
            # the records into slot order, whatever order the atomics gave (kill_groups.glsl)
            self._run_stage("Particles/pass_events_count.glsl", em, frame, per_group=True)
            self._run_single("Particles/pass_group_scan.glsl", em, frame, {"SCAN_FREE_STACK": 0})
            program, initial = self.programs.stage("Particles/pass_events_order.glsl")
            _set_frame(program, initial, em, frame, None)       # one invocation per kept record
            program.run_indirect(em.buffers.kill_groups, 3 * 4 * _groups(em.capacity)[0])
            self.ctx.memory_barrier(_BARRIER)
        self._run_single("Particles/pass_events_end.glsl", em, frame)

    def _run(self, material: Material, em: Emitter, uniforms, frame, groups=None, affector=None, collider=None):
        program = self._prepare(material, em, uniforms, frame, affector, collider)
        with self._timed(material):
            program.run(*(groups or _groups(em.capacity)))
            self.ctx.memory_barrier(_BARRIER)

    @contextmanager
    def _timed(self, material: Material):
        """Wall-clock time of a custom material's dispatch into `timings` (when asked): the GPU
        is drained before and after, so only projects that ask pay for it."""
        if self.timings is None or material.root is None:
            yield
            return
        self.ctx.finish()
        start = time.perf_counter()
        try:
            yield
        finally:
            self.ctx.finish()
            key = f"'{material.name}' ({material.display})"
            self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - start

    def _run_single(self, file: str, em: Emitter, frame, defines=None) -> None:
        program, initial = self.programs.stage(file, defines)
        _set_frame(program, initial, em, frame, None)
        program.run(1)
        self.ctx.memory_barrier(_BARRIER)

    def _run_stage(self, file: str, em: Emitter, frame, defines=None, per_group=False):
        """A built-in pass, one invocation per slot (or, `per_group`, per 64-slot group)."""
        program, initial = self.programs.stage(file, defines)
        _set_frame(program, initial, em, frame, None)
        slots = _groups(em.capacity)[0] if per_group else em.capacity
        program.run(*_groups(slots))
        self.ctx.memory_barrier(_BARRIER)

    def _prepare(self, material, em, uniforms, frame, affector=None, collider=None):
        program, initial = self.programs.material(material)
        _set_frame(program, initial, em, frame, affector, collider)
        for name, value in uniforms:
            program[name].value = value
        return program

    # -- stats --------------------------------------------------------------------------------

    def _collect_stats(self) -> None:
        for em in self.emitters:
            state = em.buffers.read_state()
            before = em.totals
            header = em.buffers.read_event_header()
            written = int(header["total_written"]) - int(em.event_totals[0])
            dropped = int(header["total_dropped"]) - int(em.event_totals[1])
            em.event_totals = (int(header["total_written"]), int(header["total_dropped"]))
            self.stats[em.path] = EmitterStats(
                emitter=em.path,
                alive=int(state["capacity"] - state["free_count"]),
                emitted=int(state["total_emitted"] - before["total_emitted"]) & 0xFFFFFFFF,
                died=int(state["total_died"] - before["total_died"]) & 0xFFFFFFFF,
                events_written=written & 0xFFFFFFFF,
                events_dropped=dropped & 0xFFFFFFFF,
                stalled=int(state["total_stalled"] - before["total_stalled"]) & 0xFFFFFFFF,
            )
            em.totals = state


def max_pool(ctx) -> int:
    """The most particles one emitter can hold on this driver. Two limits: one dispatch of
    WORKGROUP_SIZE-wide groups covers every slot (GL_MAX_COMPUTE_WORK_GROUP_COUNT, 65,535 at
    least), and the pool is one shader storage block (GL_MAX_SHADER_STORAGE_BLOCK_SIZE,
    128 MiB at least and on Mesa, 2 GiB and more on desktop GPUs). Past the second, a
    driver may clamp the bound range and silently drop the slots beyond it (llvmpipe
    happens not to)."""
    groups = int(ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT", (65535,))[0])
    block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
    # The particle record is the largest per-slot record (tracks 48, event records 2 x 64 + header).
    return min(groups * L.WORKGROUP_SIZE, block // L.PARTICLE_DTYPE.itemsize)


def _members(system_item):
    """Emitters and affectors of a system in tree order, not descending into nested systems."""
    for child in system_item.children:
        yield child
        if child.type != "ParticleSystem":
            yield from _members(child)


def _groups(count: int) -> tuple[int, int, int]:
    return (max((count + L.WORKGROUP_SIZE - 1) // L.WORKGROUP_SIZE, 1), 1, 1)


def _runs(em: Emitter) -> bool:
    """Does the emitter take part in this step (a pool, and visible)?"""
    return em.capacity > 0 and em.visible


def _set_frame(program, initial: dict, em: Emitter, frame: dict, affector, collider=None) -> None:
    """The kz_* uniforms a program declares (the driver drops the ones it does not use)."""
    values = dict(frame)
    values.update(kz_seed=em.seed & 0xFFFFFFFF, kz_emitter=em.index, kz_capacity=em.capacity,
                  kz_emitterTransform=em.transform,
                  kz_hasSourceEvents=em.source is not None and _runs(em.source),
                  kz_hasSourceParticles=em.particle_source is not None and _runs(em.particle_source))
    # a SelfAffectMaterial's affector is its emitter; set it always, or a program shared with
    # a ParticleAffector keeps that node's transform
    values["kz_affectorTransform"] = affector.transform if affector is not None else em.transform
    if collider is not None:
        values["kz_colliderTransform"] = collider.transform
        values["kz_colliderInverse"] = np.linalg.inv(collider.transform)
    for name, value in values.items():
        if name not in initial:
            continue
        if isinstance(value, np.ndarray):
            program[name].write(np.asarray(value, dtype="f4").T.tobytes())
        else:
            program[name].value = value
