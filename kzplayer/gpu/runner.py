"""One ParticleSystem on the GPU: its storage, its generated programs and parameter blocks,
and the dispatches of one fixed step (docs/player.md, The frame):

    count        the emitters' counts, the plans, the per-step constants      1 invocation
    emit         every emitter's new particles                                indirect
    step         every live particle: reset ... death test, fused              indirect
    order events records into slot order (4 passes), when the level has events
    per subemitter level: count, emit, the children's events, order events
    end          freed slots on the free stacks in slot order, live lists     3 passes

A fixed number of dispatches per step whatever the number of emitters; Python sets no
uniform but the level of the ordering passes, and writes one 128-byte block per step.
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import layout as L
from kzplayer.gpu import mesh_data
from kzplayer.gpu.generate import Generator, zero_bakes
from kzplayer.gpu.program_spec import system_spec
from kzplayer.gpu.gl import TexelBuffer, available
from kzplayer.gpu.params import (EMITTER_WORDS, FRAME_WORDS, LOD_WORD, frame_words, lod_word, parameter_words,
                                 table_words)
from kzplayer.gpu.storage import Layout, SystemStorage
from kzplayer.gpu.views import EmitterBuffers

# The next pass reads what this one wrote as storage, as images, as indirect arguments and
# as a uniform block (the schedule).
BARRIER = (moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.SHADER_IMAGE_ACCESS_BARRIER_BIT
           | moderngl.COMMAND_BARRIER_BIT | moderngl.UNIFORM_BARRIER_BIT)
# The last dispatch of a step is also followed by the CPU's view: the next step's block
# write, a stats copy or a read may follow.
END_BARRIER = BARRIER | moderngl.BUFFER_UPDATE_BARRIER_BIT

PASSES = ("end_runs", "end_emitters", "end_groups", "events_runs", "events_emitters", "events_plan",
          "events_move", "end_emitters_wide", "events_emitters_wide")
WIDE_RUNS = 64              # an emitter with more runs is scanned by a workgroup, not an invocation
MESH_UNIT = 8               # the texture unit of the mesh data (Particles/mesh_data.glsl)


def runs(em) -> bool:
    """Does the emitter take part in this step (a pool, and visible)?"""
    return em.capacity > 0 and em.visible


class SystemRunner:
    """The GPU side of one System record (kzplayer.gpu.nodes.System)."""

    def __init__(self, sim, system):
        self.sim = sim
        self.ctx = sim.ctx
        self.system = system
        self.storage: SystemStorage | None = None
        self.code = None
        self._code_key = None
        self._generator = None
        self._bakes = None
        self.programs = {}
        self.frame = self.ctx.buffer(reserve=FRAME_WORDS * 4)
        self.table = None
        self.params = None
        self.image_io = False
        self.host_events = 0
        self.mesh_buffer = None             # the system's mesh data (kzplayer.gpu.mesh_data)
        self.mesh_texels = None
        self._mesh_bytes = None
        self.buffer_bytes = None            # its buffers and sorters, as the buffer budget counts them
        self.param_words = None             # the parameter words and table bytes last written
        self.table_bytes = None

    # -- building ------------------------------------------------------------------------

    def refresh(self, pool_sizes: list[int]) -> None:
        """Bring programs, storage and parameter blocks up to date with the node records."""
        system = self.system
        sim = self.sim
        # host event records per frame: the cap when the host listens to one of its emitters
        self.host_events = sim.events_cap if any(em.host_kinds for em in system.members) else 0
        key = (tuple((id(em), _m(em.count), _m(em.emission), _m(em.self_affect), _m(em.events), em.level,
                      em.space is not None, bool(em.history))
                     for em in system.members),
               tuple(_m(a.material) for a in system.affectors), tuple(_m(c.material) for c in system.colliders),
               system.verlet, sim.image_io, sim.walk_full_pool, self.host_events > 0)
        if key != self._code_key:
            kept_time_scales = self.code is not None and self.code.time_scale
            self._generator = Generator(system_spec(
                system, image_io=sim.image_io, table_vec4s=sim.table_vec4s, params_limit_vec4s=sim.uniform_block_vec4s,
                full_walk=sim.walk_full_pool, host_events=self.host_events > 0, history_image=sim.texel_buffers))
            self.code = sim.programs.code.layout(self._generator)     # generated once per spec and files
            self._code_key, self._bakes = key, None
            if kept_time_scales and not self.code.time_scale and self.storage is not None:
                self._reset_time_scales()
        self._upload_meshes()
        params = self._parameters()
        bakes = self.zero_bakes(params)
        if bakes != self._bakes:
            sim.programs.code.write(self._generator, self.code, bakes)
            self.programs = {k: sim.programs.compile(src) for k, src in self.code.sources.items()}
            self._bakes = bakes
        self.image_io = sim.image_io and not self.code.raw_programs
        layout = Layout(pool_sizes, self.code.derived_words, host_events=self.host_events,
                        histories=[em.history for em in system.members])
        if self.code.history and not sim.texel_buffers and self.words_in_ssbo:
            raise KzError(Diagnostic(
                "KZ804", "emitter.pool-limit", Severity.ERROR,
                f"{system.item.path}: {len(system.emitters)} emitters, one of them drawing trails, are more than one "
                "ParticleSystem can hold with this OpenGL driver (no texel buffers: the position history needs the "
                "storage binding of the parameters, which outgrow a uniform block); split them over several systems",
                None), exit_code=1)
        if layout.schedule_words > 4 * sim.uniform_block_vec4s:
            raise KzError(Diagnostic(
                "KZ804", "emitter.pool-limit", Severity.ERROR,
                f"{system.item.path}: {len(system.members)} emitters are more than one ParticleSystem can hold "
                f"with this OpenGL driver (its plans must fit one uniform block of "
                f"{sim.uniform_block_vec4s * 16:,} bytes); split them over several systems", None), exit_code=1)
        if self.storage is None or self.storage.layout.key != layout.key:
            self._relayout(layout)
        self._write_blocks(params)

    def zero_bakes(self, params) -> dict:
        """The parameters compiled in as constants for these parameter words (variants.zero_bakes)."""
        bound = {(id(cb.item), cb.name) for cb in self.sim.graph.bindings}
        return zero_bakes(self.code, params, lambda owner, u: any(
            (id(owner.item), p) in bound for p in _properties(self.sim.catalog, u)))

    def _upload_meshes(self) -> None:
        """The system's mesh data (collision meshes, mesh emitters) in one buffer read as a
        buffer texture (Particles/mesh_data.glsl); each node's block gets its first texel."""
        blocks = [n.mesh_block for n in (*self.system.colliders, *self.system.members) if n.mesh_block is not None]
        texels = mesh_data.pack(blocks)
        data = texels.tobytes()
        if self.mesh_buffer is not None and self.mesh_buffer.size == len(data) and self._mesh_bytes == data:
            return
        self._release_meshes()
        if not blocks:
            return
        limit = int(self.ctx.info.get("GL_MAX_TEXTURE_BUFFER_SIZE", 0) or 0)
        if not available(self.ctx) or len(texels) > limit:
            raise KzError(Diagnostic(
                "KZ804", "emitter.pool-limit", Severity.ERROR,
                f"{self.system.item.path}: its mesh colliders and emitters need {len(texels):,} texels of mesh "
                f"data; this OpenGL driver offers {'no buffer textures' if not available(self.ctx) else f'{limit:,}'}",
                None), exit_code=1)
        self.mesh_buffer = self.ctx.buffer(data)
        self.mesh_texels = TexelBuffer(self.mesh_buffer, "rgba32f")
        self._mesh_bytes = data

    def _release_meshes(self) -> None:
        if self.mesh_texels is not None:
            self.mesh_texels.release()
            self.mesh_texels = None
        if self.mesh_buffer is not None:
            self.mesh_buffer.release()
            self.mesh_buffer = None
        self._mesh_bytes = None

    def _reset_time_scales(self) -> None:
        """No material sets time scales any more: the step treats them as 1 without reading
        them, so the stored ones (what a TimeDilation left) become 1 too."""
        for k in range(len(self.system.members)):
            cold = self.storage.read_cold(k)
            if len(cold) and np.any(cold["time_scale"] != 1.0):
                cold["time_scale"] = 1.0
                r = self.storage.layout.ranges[k]
                self.storage._write(self.storage.cold, r.first * L.COLD_DTYPE.itemsize, cold.tobytes())

    def _relayout(self, layout: Layout) -> None:
        """New storage for new pool sizes: an emitter whose size is unchanged is copied on the
        GPU; a resized one keeps its live particles (the youngest when they do not fit),
        packed into its first slots, with its free stack rebuilt; its tracks and Event Buffer
        start afresh."""
        old = self.storage
        self.storage = SystemStorage(self.ctx, layout, texels=self.sim.image_io, label=self.system.item.path,
                                     schedule_bytes=self.sim.uniform_block_vec4s * 16,
                                     history_image=self.sim.texel_buffers)
        for k, em in enumerate(self.system.members):
            previous = em.buffers
            if old is not None and previous is not None and previous.storage is old \
                    and previous.capacity == layout.ranges[k].capacity:
                self.storage.copy_emitter(old, previous.index, k)
                if layout.ranges[k].history != previous.history_length:
                    # a new trail length: every trail starts afresh where its particle is
                    self.storage.collapse_history(k, self.storage.read_records(k))
            elif old is not None and previous is not None and previous.storage is old:
                self._resize_into(em, previous, k)
            em.buffers = EmitterBuffers(self.storage, k, label=em.path)
        if old is not None:
            old.release()

    def _resize_into(self, em, previous: EmitterBuffers, k: int) -> None:
        state = previous.read_state()
        old_records = previous.read_records()
        slots = L.alive_slots(old_records, next_serial=int(state["total_emitted"]))
        live = old_records[slots]
        capacity = self.storage.layout.ranges[k].capacity
        kept = min(len(live), capacity)
        records = np.zeros(capacity, L.PARTICLE_DTYPE)
        if kept:
            records[:kept] = live[len(live) - kept:]        # keep the youngest
        self.storage.write_records(k, records)
        history = self.storage.layout.ranges[k].history
        if history and history == previous.history_length and kept:
            # each kept particle's trail moves with it to its new slot
            self.storage.write_history(k, previous.read_history()[slots[len(live) - kept:]], np.arange(kept))
        elif history:
            self.storage.collapse_history(k, records)
        self.storage.write_free_list(k, np.arange(capacity - 1, kept - 1, -1, dtype=np.uint32))
        state["capacity"] = capacity
        state["free_count"] = capacity - kept
        state["total_died"] += len(live) - kept
        self.storage.write_state(k, state)
        em.event_totals = (0, 0)        # a new Event Buffer counts from zero

    def _write_blocks(self, params=None) -> None:
        """The emitter table and the node parameters (one write each); `params`: the
        parameter words when the caller has them already."""
        sim = self.sim
        table = table_words(self.system.members, self.storage.layout, self.code, runs).tobytes()
        self.param_words = self._parameters() if params is None else params
        self.table_bytes = table            # what the blocks hold: gpu.word_edit rewrites part of them
        params = self.param_words.tobytes()
        if self.words_in_ssbo:      # one storage block: the table, then the parameters
            self.table = _sized(self.ctx, self.table, 16)
            self.params = _sized(self.ctx, self.params, len(table) + len(params))
            self.params.write(table + params)
            return
        self.table = _sized(self.ctx, self.table, max(len(table), sim.table_vec4s * 16))
        self.table.write(table)
        self.params = _sized(self.ctx, self.params, max(-(-len(params) // 16), 1) * 16)
        self.params.write(params)

    def write_lod(self, k: int) -> None:
        """Member k's emission LOD word of the table (Simulation.set_emission_lod; k counts
        the system's members: its emitters, then its channels)."""
        if self.table is None:
            return
        word = np.asarray([lod_word(self.system.members[k].lod)], np.uint32).tobytes()
        at = (k * EMITTER_WORDS + LOD_WORD) * 4
        (self.params if self.words_in_ssbo else self.table).write(word, offset=at)
        self.table_bytes = self.table_bytes[:at] + word + self.table_bytes[at + 4:]

    @property
    def words_in_ssbo(self) -> bool:
        return self._generator.words_in_ssbo(self.code)

    def _parameters(self):
        sim = self.sim
        return parameter_words(self.code, sim.values.value, known=lambda name: sim.catalog.property(name) is not None)

    # -- one step ----------------------------------------------------------------------------

    def step(self) -> None:
        system, storage, code = self.system, self.storage, self.code
        if not system.members:
            return
        h = system.step_length
        self.frame.write(frame_words(storage.layout, dt=h, time=system.steps * h, step=system.steps,
                                     world_to_simulation=system.world_to_simulation, history_step=system.runs))
        system.runs += 1
        self.bind()
        words = storage.layout.schedule
        e = len(system.members)
        self._run(self.programs[("count", 0)], 1)
        self._indirect(self.programs[("emit", 0)], words["plan_emit"] + e + 1)
        self._indirect(self.programs[("step", 0)], words["plan_step"] + e + 1)
        if 0 in code.events_levels:
            self._order_events(0)
        for level in code.levels[1:]:
            self._run(self.programs[("count", level)], 1)
            self._indirect(self.programs[("emit", level)], words["plan_emit"] + e + 1)
            if level in code.events_levels:
                self._indirect(self.programs[("children", level)], words["plan_emit"] + e + 1)
                self._order_events(level)
        lay = storage.layout
        passes = self.sim.passes_for(self.words_in_ssbo)
        self._run(passes["end_runs"], _groups(lay.runs))
        if self._wide:
            self._run(passes["end_emitters_wide"], e)
        else:
            self._run(passes["end_emitters"], _groups(e))
        passes["end_groups"].run_indirect(storage.schedule, lay.schedule["end_args"] * 4)
        self.ctx.memory_barrier(END_BARRIER)

    def _order_events(self, level: int) -> None:
        passes = self.sim.passes_for(self.words_in_ssbo)
        lay = self.storage.layout
        wide = "events_emitters_wide" if self._wide else "events_emitters"
        for name in ("events_runs", wide, "events_plan"):
            passes[name]["kz_level"].value = level
        self._run(passes["events_runs"], _groups(lay.runs))
        self._run(passes[wide], len(self.system.members) if self._wide else _groups(len(self.system.members)))
        self._run(passes["events_plan"], 1)
        self._indirect(passes["events_move"], lay.schedule["plan_move"] + len(self.system.members) + 1)

    @property
    def _wide(self) -> bool:
        return self.storage.layout.max_runs > WIDE_RUNS

    def bind(self) -> None:
        self.storage.bind()
        self.frame.bind_to_uniform_block(L.UNIFORM_FRAME)
        self.table.bind_to_uniform_block(L.UNIFORM_TABLE)
        self.params.bind_to_uniform_block(L.UNIFORM_PARAMS)
        self.params.bind_to_storage_buffer(L.BINDING_PARAMS_SSBO)
        if self.mesh_texels is not None:
            self.mesh_texels.bind_texture(MESH_UNIT)

    def _run(self, program, groups: int, barrier: int = BARRIER) -> None:
        program.run(max(int(groups), 1))
        self.ctx.memory_barrier(barrier)

    def _indirect(self, program, word: int) -> None:
        program.run_indirect(self.storage.schedule, word * 4)
        self.ctx.memory_barrier(BARRIER)

    def release(self) -> None:
        self._release_meshes()
        if self.storage is not None:
            self.storage.release()
            self.storage = None
        for name in ("frame", "table", "params"):
            buf = getattr(self, name)
            if buf is not None:
                buf.release()
                setattr(self, name, None)


def _properties(cat, uniform: str) -> tuple:
    """The property names a uniform `Type_Name` may be read from: `Type.Name` under every
    spelling of the catalog (Collider_Bounce reads the entry ParticleCollider.Bounce)."""
    name = uniform.replace("_", ".", 1)
    return cat.spellings(name) if cat is not None else (name,)


def _m(material) -> tuple | None:
    return None if material is None else (material.name, str(material.shader))


def _groups(n: int) -> int:
    return max(-(-int(n) // L.WORKGROUP_SIZE), 1)


def _sized(ctx, buf, size: int):
    if buf is not None and buf.size == size:
        return buf
    if buf is not None:
        buf.release()
    return ctx.buffer(reserve=size)
