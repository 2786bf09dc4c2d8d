"""The particles of a frame: the compute work before any draw, then each emitter's draw.

    prepare   per emitter: its live list (render/live_list.py), the sort its SortingType
              asks for (render/sort.py), for CastLight the brightest particles gathered as
              lights (render/light_gather.glsl); then, every light known, the stock
              billboard materials' per-particle records (KZ_PREPARE_PASS)
    draw      billboards, mesh particles and the NeL representations (render/
              representations.py: points, lines, trails, fans, rings, tubes, flares), each
              one indirect draw whose instance count is the live count the GPU wrote

What is kept per emitter between frames (its live list, sorters and records) is dropped
when the emitter is no longer drawn.
"""
from __future__ import annotations

from contextlib import nullcontext

import moderngl
import numpy as np

from kzplayer.gpu import layout as L
from kzplayer.render.lights import MAX_LIGHT_CASTERS
from kzplayer.render.live_list import (ARRAYS_COMMAND, BARRIER, BINDING_ORDER, BINDING_PARTICLE_LIGHTS,
                                       ELEMENTS_COMMAND, LIVE_DISPATCH_OFFSET, LiveList)
from kzplayer.render.materials import geometry_defines
from kzplayer.render.representations import IndexBuffers, draw_counts, representation
from kzplayer.render.shaders import set_uniform
from kzplayer.render.sort import BRIGHTNESS, DEPTH, REVERSE_DEPTH, Sorter
from kzplayer.values import as_float

SORT_KEYS = {"Depth": DEPTH, "ReverseDepth": REVERSE_DEPTH}
BLEND_MODES = {"Additive": 0, "Alpha": 1, "Opaque": 2}
BINDING_PREPARED = 14
BINDING_HISTORY = 15          # render/history.glsl
BINDING_BOLT_TARGETS, BINDING_BOLT_TARGET_LIST = 16, 17    # render/Particles_Lightning.vert.glsl
PREPARED_BYTES, PREPARED_LIT = 64, 112       # a stock billboard's record (render/stock_vertex.glsl)


def emitter_defines(em, mesh: bool) -> dict:
    """The program variant an emitter draws with: its geometry, and lighting only if lit."""
    defines = geometry_defines(em.material, mesh)
    geometry = representation(em.material)
    if geometry is not None:
        if str(em.values("Faces.Basis") or "") == "Velocity":
            defines["KZ_FACES_VELOCITY"] = 1
    elif em.values("Particle.ReceiveLight") is True:
        defines["KZ_RECEIVE_LIGHT"] = 1
    return defines


def prepared(em, mesh: bool) -> bool:
    """Whether the emitter's billboards are drawn from per-particle records (a stock
    billboard material: its vertex file also compiles as the per-particle pass)."""
    return not mesh and not em.material.custom and representation(em.material) is None


def on_screen(em) -> bool:
    """Drawn in the frame's step 4, over the picture (lens flares)."""
    geometry = representation(em.material)
    return geometry is not None and geometry.screen


def soft(em) -> bool:
    """Faded where it meets the opaque scene (Particle.SoftDepth): it reads the scene's depth."""
    return as_float(em.values("Particle.SoftDepth")) > 0


def _blend(ctx, blend: str) -> None:
    if blend == "Additive":
        ctx.blend_func = (ctx.ONE, ctx.ONE)
    elif blend == "Alpha":
        ctx.blend_func = (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)


class _EmitterState:
    """What is kept per emitter between frames: its live list, sorters and the stock
    materials' per-particle records."""

    def __init__(self, ctx, programs):
        self.ctx = ctx
        self.live = LiveList(ctx, programs)
        self.sorter = Sorter(ctx, programs)
        self.light_sorter = Sorter(ctx, programs)
        self.order = None
        self.prepared = None
        self.counts = None              # a representation's DrawCounts this frame
        self.seen = True
        self.stamp = None               # the emitter's stamp its `kept` variants are of
        self.kept: dict = {}            # (what, key) -> a variant worked out (ParticleDraws._kept)

    def prepared_buffer(self, capacity: int, lit: bool):
        size = max(capacity, 1) * (PREPARED_LIT if lit else PREPARED_BYTES)
        if self.prepared is None or self.prepared.size != size:
            if self.prepared is not None:
                self.prepared.release()
            self.prepared = self.ctx.buffer(reserve=size)
        return self.prepared

    def release(self):
        self.live.release()
        self.sorter.release()
        self.light_sorter.release()
        if self.prepared is not None:
            self.prepared.release()


class ParticleDraws:
    """The emitters' compute passes and draws, with the frame's inputs (render/draw_inputs.py)."""

    def __init__(self, ctx, programs, inputs, meshes, vaos, intensity: float):
        self.ctx = ctx
        self.programs = programs
        self.inputs = inputs
        self.meshes = meshes
        self.vaos = vaos
        self.intensity = intensity
        self._states: dict[str, _EmitterState] = {}
        self.tubes = IndexBuffers(ctx)
        self._no_history = ctx.buffer(reserve=16)
        # timed(em): a context the emitter's GPU work runs in (the player's timer queries,
        # gpu/timers.py); by default none
        self.timed = lambda em: nullcontext()
        self._drawn: dict = {}                # this frame's emitters by key (a bolt's target)

    def begin(self) -> None:
        for st in self._states.values():
            st.seen = False

    def end(self) -> None:
        for key in [k for k, st in self._states.items() if not st.seen]:
            self._states.pop(key).release()          # an emitter no longer drawn

    def _state(self, key: str) -> _EmitterState:
        if key not in self._states:
            self._states[key] = _EmitterState(self.ctx, self.programs)
        st = self._states[key]
        st.seen = True
        return st

    def program(self, em):
        """(program, initial) of the variant the emitter draws with."""
        geometry = representation(em.material)
        defines = (self._representation_defines(em, geometry) if geometry is not None
                   else self._billboard_variant(em)[1])
        return self.programs.render(em.material.vertex, em.material.fragment, defines)

    # -- compute ---------------------------------------------------------------------------

    def prepare(self, frame, view, between=None) -> None:
        """The compute work of the frame: live lists, sorts, the particles' lights, then
        `between()` (the shadow maps: they draw mesh particles, and lit records read them),
        then (every light known) the stock materials' per-particle records."""
        inputs = self.inputs
        # CPU writes into buffers the last frame's shaders read (the barrier orders them)
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        inputs.particle_lights.write(np.zeros(MAX_LIGHT_CASTERS, np.uint32).tobytes())
        self._drawn = {em.key: em for em in frame.emitters}
        casters = 0
        for em in frame.emitters:
            with self.timed(em):
                casters = self._prepare_emitter(em, view, casters)
        frame.lights.casters = casters
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        inputs.lights.write(frame.lights.pack())
        if between is not None:
            between()
        for em in frame.emitters:
            if prepared(em, em.mesh is not None and "mesh" in em.material.geometry):
                with self.timed(em):
                    self._prepare_billboards(em, self._state(em.key))

    def _prepare_emitter(self, em, view, casters: int) -> int:
        """An emitter's live list, sort and gathered lights; returns the casters so far."""
        st = self._state(em.key)
        mesh = self.meshes.get(em.mesh) if em.mesh is not None else None
        geometry = representation(em.material)
        if geometry is not None:
            st.counts = draw_counts(geometry, em.values, em.history.length if em.history else 0, em.sides)
            st.live.update(em.particles, em.capacity, st.counts.vertices, st.counts.indices)
        else:
            st.live.update(em.particles, em.capacity, 4, mesh.index_count if mesh else 0)
        st.order = st.live.buffer
        if em.sorting in SORT_KEYS:
            if em.sort_view is None:
                st.sorter.sort(st.live, em.capacity, SORT_KEYS[em.sorting], em.model, view)
            else:       # the system's sorting camera: by the distance to it
                st.sorter.sort(st.live, em.capacity, SORT_KEYS[em.sorting], em.model, em.sort_view,
                               defines={"SORT_DISTANCE": 1})
            st.order = st.sorter.order
        if em.cast_light and casters < MAX_LIGHT_CASTERS:
            self._gather_lights(em, st, casters)
            casters += 1
        return casters

    def _prepare_billboards(self, em, st) -> None:
        """The stock material's per-particle pass: one record per live particle in draw
        order (dispatched over the live count the GPU wrote)."""
        def make():
            defines = {**emitter_defines(em, False), "KZ_PREPARE_PASS": 1}
            if "KZ_RECEIVE_LIGHT" in defines:
                defines.update(self.inputs.shadow_defines())
            return (*self.programs.compute(em.material.vertex, defines), "KZ_RECEIVE_LIGHT" in defines)
        program, initial, lit = self._kept(em, st, "prepare", (bool(self.inputs.shadow_maps),), make)
        self.inputs.common(program, initial, em.model, em.opacity)
        self.inputs.set_material((program, initial), em)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        st.prepared_buffer(em.capacity, lit).bind_to_storage_buffer(BINDING_PREPARED)
        program.run_indirect(st.live.args, LIVE_DISPATCH_OFFSET)
        self.ctx.memory_barrier(BARRIER)

    def _kept(self, em, st, what: str, key: tuple, make):
        """`make()` once while the emitter's values (its stamp), its material and the
        compiled programs stay the same, and `key` (what else the variant depends on); an
        emitter without a stamp (hand-made draws) works it out every time."""
        if em.stamp is None:
            return make()
        if st.stamp is not em.stamp:
            st.stamp, st.kept = em.stamp, {}
        full = (what, id(em.material), id(em.mesh), self.programs.generation, *key)
        kept = st.kept.get(full)
        if kept is None or kept[0] is not em.material or kept[1] is not em.mesh:
            kept = st.kept[full] = (em.material, em.mesh, make())
        return kept[2]

    def _gather_lights(self, em, st, caster: int) -> None:
        defines = {"KZ_LIGHT_COLOR": em.material.light_color}
        material_uniforms = self.inputs.material_uniforms
        keys_program, keys_initial = self.programs.compute("render/sort_keys.glsl", {"SORT_KEY": BRIGHTNESS, **defines})
        st.light_sorter.sort(st.live, em.capacity, BRIGHTNESS, em.model, defines=defines,
                             uniforms=material_uniforms((keys_program, keys_initial), em))
        program, initial = self.programs.compute("render/light_gather.glsl", defines)
        self.inputs.set_material((program, initial), em)
        set_uniform(program, initial, "kz_model", np.asarray(em.model))
        set_uniform(program, initial, "kz_caster", caster)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.light_sorter.order.bind_to_storage_buffer(BINDING_ORDER)
        self.inputs.particle_lights.bind_to_storage_buffer(BINDING_PARTICLE_LIGHTS)
        program.run(1)
        self.ctx.memory_barrier(BARRIER)

    # -- draws -----------------------------------------------------------------------------

    def _billboard_variant(self, em, caster: bool = False):
        """(GPU mesh or None, defines) of a billboard or mesh draw; `caster`: into a shadow
        map (unlit, cut where less than half opaque, its geometry from the light's view)."""
        mat = em.material
        mesh = self.meshes.get(em.mesh) if em.mesh is not None and "mesh" in mat.geometry else None
        defines = emitter_defines(em, mesh is not None)
        defines.update(self.inputs.fragment_defines(em.values, em.files, "Particle.Texture", mesh is not None,
                                                    em.opaque or caster, soft(em) and not caster))
        if caster:
            defines.pop("KZ_RECEIVE_LIGHT", None)
        elif prepared(em, mesh is not None):
            defines["KZ_PREPARED"] = 1
        elif "KZ_RECEIVE_LIGHT" in defines:
            defines.update(self.inputs.shadow_defines())
        return mesh, defines

    def _representation_defines(self, em, geometry) -> dict:
        inputs = self.inputs
        defines = emitter_defines(em, False)
        defines.update(inputs.fragment_defines(em.values, em.files, "Particle.Texture", geometry.repeat,
                                               em.opaque and not geometry.screen,
                                               not geometry.screen and soft(em)))
        if geometry.name == "fan" and inputs.texture(em.values, em.files, "FanLight.Gradient", False) is not None:
            defines["KZ_GRADIENT"] = 1
        if geometry.name == "bolt" and self._bolt_source(em) is not None:
            defines["KZ_BOLT_PARTICLES"] = 1
        return defines

    def _bolt_source(self, em):
        """The drawn emitter whose live particles a bolt ends at (Lightning.TargetParticles)."""
        target = self._drawn.get(em.bolt_source) if em.bolt_source else None
        return target if target is not None and target.key in self._states else None

    def _bind_bolt(self, program, initial, em) -> None:
        set_uniform(program, initial, "kz_boltHasNode", int(em.bolt_node is not None))
        set_uniform(program, initial, "kz_boltTarget", tuple(em.bolt_node or (0.0, 0.0, 0.0)))
        target = self._bolt_source(em)
        if target is not None:
            target.particles.hot.bind_to_storage_buffer(BINDING_BOLT_TARGETS)
            self._states[target.key].live.buffer.bind_to_storage_buffer(BINDING_BOLT_TARGET_LIST)
            set_uniform(program, initial, "kz_boltTargetModel", np.asarray(target.model, dtype=float))

    def _material(self, program, initial, em, repeat: bool) -> None:
        """The frame's uniforms, the emitter's property values and its textures."""
        inputs = self.inputs
        inputs.common(program, initial, em.model, em.opacity)
        inputs.set_material((program, initial), em)
        inputs.bind_textures(program, initial, em.values, em.files, repeat=repeat)

    def draw(self, em, caster: bool = False) -> None:
        """The emitter's draw; `caster`: its silhouette into a shadow map (render/shadows.py)."""
        with self.timed(em):
            self._draw(em, caster)

    def _draw(self, em, caster: bool = False) -> None:
        if representation(em.material) is not None:
            self._draw_representation(em, self._state(em.key))
            return
        ctx = self.ctx
        st = self._state(em.key)
        mat = em.material

        def make():
            mesh, defines = self._billboard_variant(em, caster)
            return (mesh, "KZ_PREPARED" in defines, *self.programs.render(mat.vertex, mat.fragment, defines))
        # what the variant depends on beyond the values: whether the texture loads (a texture
        # save reloads it), the shadow maps of this frame
        textured = self.inputs.texture(em.values, em.files, "Particle.Texture",
                                       em.mesh is not None and "mesh" in mat.geometry) is not None
        mesh, prepared_records, program, initial = self._kept(
            em, st, "draw", (caster, bool(self.inputs.shadow_maps), textured), make)
        if prepared_records:
            st.prepared.bind_to_storage_buffer(BINDING_PREPARED)
        self._material(program, initial, em, repeat=mesh is not None)
        set_uniform(program, initial, "kz_blend", BLEND_MODES["Opaque" if caster else em.blend])
        set_uniform(program, initial, "kz_intensity", float(self.intensity))
        if not caster:
            _blend(ctx, em.blend)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        if mesh is not None:
            if em.opaque:
                ctx.enable(ctx.CULL_FACE)       # a solid mesh: its back faces never show
            mesh.vao(program).render_indirect(st.live.args, moderngl.TRIANGLES, count=1, first=ELEMENTS_COMMAND)
            ctx.disable(ctx.CULL_FACE)
        else:
            self.vaos.of(program).render_indirect(st.live.args, moderngl.TRIANGLE_STRIP, count=1,
                                                  first=ARRAYS_COMMAND)

    def _draw_representation(self, em, st) -> None:
        """A NeL representation (render/representations.py): the material's vertex shader
        builds the particle's geometry from gl_VertexID; one indirect draw of the live
        particles in the emitter's order."""
        ctx = self.ctx
        geometry = representation(em.material)
        counts = st.counts
        defines = self._representation_defines(em, geometry)
        program, initial = self.programs.render(em.material.vertex, em.material.fragment, defines)
        self._material(program, initial, em, repeat=geometry.repeat)
        blend = "Additive" if geometry.screen else em.blend
        set_uniform(program, initial, "kz_blend", BLEND_MODES[blend])
        set_uniform(program, initial, "kz_intensity", 1.0)
        set_uniform(program, initial, "kz_sides", counts.sides)
        history = em.history
        set_uniform(program, initial, "kz_historyLength", history.length if history else 0)
        set_uniform(program, initial, "kz_historyNewest", history.newest if history else 0)
        set_uniform(program, initial, "kz_historyStride", history.stride if history else 0)
        (history.buffer if history else self._no_history).bind_to_storage_buffer(BINDING_HISTORY)
        if geometry.name == "bolt":
            self._bind_bolt(program, initial, em)
        _blend(ctx, blend)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        mode = getattr(moderngl, geometry.mode)
        if geometry.name == "point":
            ctx.enable(ctx.PROGRAM_POINT_SIZE)
        if geometry.indexed:
            self.tubes.vao(program, counts.history, counts.sides).render_indirect(
                st.live.args, mode, count=1, first=ELEMENTS_COMMAND)
        else:
            self.vaos.of(program).render_indirect(st.live.args, mode, count=1, first=ARRAYS_COMMAND)
        if geometry.name == "point":
            ctx.disable(ctx.PROGRAM_POINT_SIZE)

    # -- what tests and benchmarks look at ---------------------------------------------------

    def live_list(self, key: str):
        st = self._states.get(key)
        return None if st is None else st.live

    def sorter(self, key: str):
        st = self._states.get(key)
        return None if st is None else st.sorter

    def release(self) -> None:
        for st in self._states.values():
            st.release()
        self._states.clear()
        self.tubes.release()
        self._no_history.release()
