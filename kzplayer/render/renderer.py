"""The renderer: one Frame (kzplayer.render.frame) drawn in the order of rendering.md.

    compute   per emitter: its live list (render/live_list.py), the sort its SortingType
              asks for (render/sort.py), for CastLight the brightest particles gathered as
              lights; the scene's lights into a uniform block. Nothing is read back.
    1         opaque scene: Model3D meshes, lit, writing depth
    2         opaque particles: BlendMode Opaque emitters (mesh particles unless the node
              sets a blend mode), writing depth
    3         blended, in tree order: each emitter sorted within itself (Additive: ONE, ONE;
              Alpha: ONE, ONE_MINUS_SRC_ALPHA, premultiplied), and Model3D nodes with
              Node.Opacity < 1; depth test on, depth write off
    4         screen-space effects that read the opaque scene's depth: lens flares, added
              over the picture without depth test
    resolve   the linear float image, clamped and encoded as sRGB, into 8 bits

Billboards and meshes are drawn here; the NeL representations (points, lines, trails, fans,
rings, tubes, flares) are draws of render/representations.py's geometries, each of a fixed
vertex count per particle, instanced and indirect like the billboards.

A custom rendering material that does not compile is left out: its emitters are drawn with
ParticlesDefault and its errors are kept in `Renderer.problems` (the player reports them).

Every draw is indirect: the instance count is the live count the GPU wrote. The image is
blended into a 32-bit float target in linear light: an 8-bit target would round after every
blend (thousands of faint additive sprites would sum wrongly) and blending sRGB values is
not how light adds. `read()` returns (H, W, 3) uint8 sRGB, top row first; `show(target)`
resolves into another framebuffer (the window's).
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.diagnostics import KzError
from kzplayer.gpu import layout as L
from kzplayer.gpu.materials import uniform_values
from kzplayer.project.catalog import catalog
from kzplayer.render.gpu_mesh import MeshCache
from kzplayer.render.lights import LIGHTS_PER_CASTER, MAX_LIGHT_CASTERS, PARTICLE_LIGHTS_BYTES, UBO_BYTES
from kzplayer.render.live_list import (ARRAYS_COMMAND, BARRIER, BINDING_ORDER, BINDING_PARTICLE_LIGHTS,
                                       ELEMENTS_COMMAND, LIVE_DISPATCH_OFFSET, LiveList)
from kzplayer.render.materials import geometry_defines, left_out, stock_material
from kzplayer.render.representations import IndexBuffers, draw_counts, representation
from kzplayer.render.shaders import RenderPrograms, set_uniform
from kzplayer.render.sort import BRIGHTNESS, DEPTH, REVERSE_DEPTH, Sorter
from kzplayer.render.textures import TextureCache, srgb_to_linear
from kzplayer.values import Color4

MIN_PIXELS = 1.5      # below this, particles would flicker in and out between pixels
INTENSITY = 0.8       # one additive round sprite's centre: overlaps add up towards white
SAMPLER_TYPES = {0x8B5E}       # sampler2D
SORT_KEYS = {"Depth": DEPTH, "ReverseDepth": REVERSE_DEPTH}
UBO_BINDING = 0
SCENE_DEPTH_UNIT = 7
BINDING_PREPARED = 14
BINDING_HISTORY = 15          # render/history.glsl
PREPARED_BYTES, PREPARED_LIT = 64, 112       # a stock billboard's record (render/stock_vertex.glsl)


def linear_colour(value):
    """A Color4 property value decoded from sRGB to linear light (alpha as it is); any other
    value unchanged."""
    if isinstance(value, Color4):
        rgb = srgb_to_linear(np.clip(np.asarray(tuple(value)[:3], float), 0.0, None))
        return Color4(*(float(c) for c in rgb), float(tuple(value)[3]))
    return value


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


def _screen(em) -> bool:
    """Drawn in the frame's step 4, over the picture (lens flares)."""
    geometry = representation(em.material)
    return geometry is not None and geometry.screen


def _number(v) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


class _EmitterState:
    """What the renderer keeps per emitter between frames: its live list, sorters and the
    stock materials' per-particle records."""

    def __init__(self, ctx, programs):
        self.ctx = ctx
        self.live = LiveList(ctx, programs)
        self.sorter = Sorter(ctx, programs)
        self.light_sorter = Sorter(ctx, programs)
        self.order = None
        self.prepared = None
        self.counts = None              # a representation's DrawCounts this frame
        self.seen = True

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


class Renderer:
    """Draws Frames into an offscreen image of exactly `size` = (W, H)."""

    def __init__(self, ctx, size: tuple[int, int], *, min_pixels: float = MIN_PIXELS, intensity: float = INTENSITY):
        self.ctx = ctx
        self.min_pixels = min_pixels
        self.intensity = intensity
        self.programs = RenderPrograms(ctx)
        self.textures = TextureCache(ctx)
        self.meshes = MeshCache(ctx)
        self.lights = ctx.buffer(reserve=UBO_BYTES)
        self.particle_lights = ctx.buffer(reserve=PARTICLE_LIGHTS_BYTES)
        self._states: dict[str, _EmitterState] = {}
        self.problems: list = []          # compile errors of the custom materials left out, each once
        self._empty_vaos: dict[int, object] = {}
        self._white = ctx.texture((1, 1), 4, np.ones(4, np.float16).tobytes(), dtype="f2")
        self.tubes = IndexBuffers(ctx)
        self._no_history = ctx.buffer(reserve=16)
        self.resolve_program = self.programs.render("render/resolve.vert.glsl", "render/resolve.frag.glsl")
        self.size = None
        self.fbo = self.out_fbo = None
        self._targets = []
        self.resize(size)

    # -- targets ------------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        size = (int(size[0]), int(size[1]))
        if self.fbo is not None and size == self.size:
            return
        for obj in self._targets:
            obj.release()
        self.size = size
        ctx = self.ctx
        self.color = ctx.texture(size, 4, dtype="f4")
        self.color.filter = (ctx.NEAREST, ctx.NEAREST)
        self.depth = ctx.depth_texture(size)
        self.depth.filter = (ctx.NEAREST, ctx.NEAREST)
        self.fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)
        # the opaque scene's view distance, for soft particles (copied after the opaque passes)
        self.scene_depth = ctx.texture(size, 1, dtype="f4")
        self.scene_depth.filter = (ctx.NEAREST, ctx.NEAREST)
        self.scene_depth_fbo = ctx.framebuffer(color_attachments=[self.scene_depth])
        self.out = ctx.renderbuffer(size, components=4)
        self.out_fbo = ctx.framebuffer(color_attachments=[self.out])
        self._targets = [self.out_fbo, self.out, self.scene_depth_fbo, self.scene_depth, self.fbo, self.depth,
                         self.color]

    # -- a frame --------------------------------------------------------------------------------

    def draw(self, frame, camera) -> None:
        ctx = self.ctx
        width, height = self.size
        previous = ctx.fbo
        view = camera.view
        projection = camera.projection(width / height)
        self._frame = {"kz_view": view, "kz_projection": projection, "kz_cameraPosition": tuple(camera.position),
                       "kz_time": float(frame.time), "kz_viewport": (float(width), float(height)),
                       "kz_minPixels": float(self.min_pixels), "kz_depthRange": (float(camera.near), float(camera.far))}
        for st in self._states.values():
            st.seen = False
        try:
            self._leave_out_broken(frame)
            self._prepare(frame, view)
            self.fbo.use()
            ctx.viewport = (0, 0, width, height)
            self.fbo.depth_mask = True
            self.fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
            ctx.enable(ctx.DEPTH_TEST)
            ctx.depth_func = "<"
            ctx.memory_barrier(BARRIER)
            ctx.disable(ctx.BLEND)
            for model in frame.models:                                   # 1. opaque scene
                if model.opaque:
                    self._draw_model(model)
            screen = [e for e in frame.emitters if _screen(e)]
            drawn = [e for e in frame.emitters if not _screen(e)]
            for em in drawn:                                             # 2. opaque particles
                if em.opaque:
                    self._draw_emitter(em)
            if screen or any(not e.opaque and _number(e.values("Particle.SoftDepth")) > 0 for e in drawn):
                self._copy_scene_depth()
            self.fbo.depth_mask = False                                  # 3. blended, tree order
            ctx.enable(ctx.BLEND)
            ctx.blend_equation = ctx.FUNC_ADD
            blended = [m for m in frame.models if not m.opaque] + [e for e in drawn if not e.opaque]
            for thing in sorted(blended, key=lambda t: t.order):
                if hasattr(thing, "particles"):
                    self._draw_emitter(thing)
                else:
                    # a see-through model shows its front faces only: drawing its back faces
                    # too would composite it twice over itself
                    ctx.blend_func = (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
                    ctx.enable(ctx.CULL_FACE)
                    self._draw_model(thing)
                    ctx.disable(ctx.CULL_FACE)
            ctx.disable(ctx.DEPTH_TEST)                                  # 4. over the picture
            for em in screen:
                self._draw_emitter(em)
        finally:
            ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
            self.fbo.depth_mask = True
            # Leave the framebuffer binding as found (the default one where there was none).
            (previous or ctx.detect_framebuffer(0)).use()
        for key in [k for k, st in self._states.items() if not st.seen]:
            self._states.pop(key).release()          # an emitter no longer drawn

    def _leave_out_broken(self, frame) -> None:
        """A custom rendering material that does not compile (or link) for an emitter is left
        out: its errors go to `problems`, once, and the emitter is drawn with ParticlesDefault
        (billboards; its ParticleMesh where it has one), as a material that cannot be resolved
        is (render/frame.py). Tried for the variant the emitter draws, before any compute work
        of the frame (the stand-in needs its live list and records); a failure is compiled
        once (RenderPrograms)."""
        for em in frame.emitters:
            if not em.material.custom:
                continue
            try:
                self._program(em)
            except KzError as exc:
                self.problems.extend(d for d in left_out(exc.diagnostics, em.material) if d not in self.problems)
                em.material = stock_material(catalog())

    def _program(self, em):
        """(program, initial) of the variant the emitter draws with."""
        geometry = representation(em.material)
        defines = (self._representation_defines(em, geometry) if geometry is not None
                   else self._billboard_variant(em)[1])
        return self.programs.render(em.material.vertex, em.material.fragment, defines)

    def _copy_scene_depth(self) -> None:
        """The opaque scene's depth as view distance into scene_depth (soft particles read
        it; the depth attachment itself cannot be sampled while it is being tested)."""
        ctx = self.ctx
        program, initial = self.programs.render("render/resolve.vert.glsl", "render/scene_depth.frag.glsl")
        self.scene_depth_fbo.use()
        ctx.disable(ctx.DEPTH_TEST)
        self.depth.use(location=0)
        set_uniform(program, initial, "kz_depth", 0)
        set_uniform(program, initial, "kz_depthRange", self._frame["kz_depthRange"])
        self._empty_vao(program).render(moderngl.TRIANGLES, vertices=3)
        self.fbo.use()
        ctx.enable(ctx.DEPTH_TEST)

    def _state(self, key: str) -> _EmitterState:
        if key not in self._states:
            self._states[key] = _EmitterState(self.ctx, self.programs)
        st = self._states[key]
        st.seen = True
        return st

    def _prepare(self, frame, view) -> None:
        """The compute work of the frame: live lists, sorts, the particles' lights, then
        (every light known) the stock materials' per-particle records."""
        # CPU writes into buffers the last frame's shaders read (the barrier orders them)
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        self.particle_lights.write(np.zeros(MAX_LIGHT_CASTERS, np.uint32).tobytes())
        casters = 0
        for em in frame.emitters:
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
                st.sorter.sort(st.live, em.capacity, SORT_KEYS[em.sorting], em.model, view)
                st.order = st.sorter.order
            if em.cast_light and casters < MAX_LIGHT_CASTERS:
                self._gather_lights(em, st, casters)
                casters += 1
        frame.lights.casters = casters
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        self.lights.write(frame.lights.pack())
        for em in frame.emitters:
            if prepared(em, em.mesh is not None and "mesh" in em.material.geometry):
                self._prepare_billboards(em, self._state(em.key))

    def _prepare_billboards(self, em, st) -> None:
        """The stock material's per-particle pass: one record per live particle in draw
        order (dispatched over the live count the GPU wrote)."""
        defines = {**emitter_defines(em, False), "KZ_PREPARE_PASS": 1}
        program, initial = self.programs.compute(em.material.vertex, defines)
        self._common(program, initial, em.model, em.opacity)
        for name, value in self._material_uniforms((program, initial), em):
            program[name].value = value
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        st.prepared_buffer(em.capacity, "KZ_RECEIVE_LIGHT" in defines).bind_to_storage_buffer(BINDING_PREPARED)
        program.run_indirect(st.live.args, LIVE_DISPATCH_OFFSET)
        self.ctx.memory_barrier(BARRIER)

    def _gather_lights(self, em, st, caster: int) -> None:
        defines = {"KZ_LIGHT_COLOR": em.material.light_color}
        keys_program, keys_initial = self.programs.compute("render/sort_keys.glsl", {"SORT_KEY": BRIGHTNESS, **defines})
        st.light_sorter.sort(st.live, em.capacity, BRIGHTNESS, em.model, defines=defines,
                             uniforms=self._material_uniforms((keys_program, keys_initial), em))
        program, initial = self.programs.compute("render/light_gather.glsl", defines)
        for name, v in self._material_uniforms((program, initial), em):
            program[name].value = v
        set_uniform(program, initial, "kz_model", np.asarray(em.model))
        set_uniform(program, initial, "kz_caster", caster)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.light_sorter.order.bind_to_storage_buffer(BINDING_ORDER)
        self.particle_lights.bind_to_storage_buffer(BINDING_PARTICLE_LIGHTS)
        program.run(1)
        self.ctx.memory_barrier(BARRIER)

    def _material_uniforms(self, entry, em) -> list:
        """(uniform, value) from the emitter's properties, samplers left out; colour
        properties decoded to linear light (render/color.glsl)."""
        program, _ = entry
        cat = catalog()
        pairs = uniform_values(entry, em.material, lambda name: linear_colour(em.values(name)),
                               known=lambda name: cat.property(name) is not None)
        return [(n, v) for n, v in pairs if program[n].gl_type not in SAMPLER_TYPES]

    # -- draws ---------------------------------------------------------------------------------

    def _common(self, program, initial, model, opacity: float) -> None:
        for name, value in self._frame.items():
            set_uniform(program, initial, name, value)
        set_uniform(program, initial, "kz_model", np.asarray(model, dtype=float))
        set_uniform(program, initial, "kz_opacity", float(opacity))
        if "KzLights" in program:
            program["KzLights"].binding = UBO_BINDING
        self.lights.bind_to_uniform_block(UBO_BINDING)
        self.particle_lights.bind_to_storage_buffer(BINDING_PARTICLE_LIGHTS)

    def _texture(self, values, files, prop: str, repeat: bool):
        """The texture of the image a string property names, or None (none, unreadable,
        refused)."""
        file = values(prop)
        if not (isinstance(file, str) and file.strip()):
            return None
        path = files(file)
        return self.textures.get(path, repeat) if path is not None else None

    def _fragment_defines(self, values, files, prop: str, repeat: bool, opaque: bool = False,
                          soft: bool = False) -> dict:
        """The fragment variant: KZ_TEXTURED when `prop` names an image that loads,
        KZ_OPAQUE, KZ_SOFT_DEPTH (render/particle_fragment.glsl)."""
        defines = {}
        if self._texture(values, files, prop, repeat) is not None:
            defines["KZ_TEXTURED"] = 1
        if opaque:
            defines["KZ_OPAQUE"] = 1
        elif soft:
            defines["KZ_SOFT_DEPTH"] = 1
        return defines

    def _bind_textures(self, program, initial, values, files, repeat: bool) -> None:
        """Bind every sampler the program reads to the image its property names (a white
        texel where it names none) and the scene's depth for soft particles."""
        unit = 0
        for name, member in program._members.items():
            if not isinstance(member, moderngl.Uniform) or member.gl_type not in SAMPLER_TYPES:
                continue
            if name == "kz_sceneDepth":
                self.scene_depth.use(location=SCENE_DEPTH_UNIT)
                member.value = SCENE_DEPTH_UNIT
                continue
            texture = self._texture(values, files, name.replace("_", ".", 1), repeat)
            (texture or self._white).use(location=unit)
            member.value = unit
            unit += 1

    def _empty_vao(self, program):
        key = id(program)
        if key not in self._empty_vaos:
            self._empty_vaos[key] = self.ctx.vertex_array(program, [])
        return self._empty_vaos[key]

    def _billboard_variant(self, em):
        """(GPU mesh or None, defines) of a billboard or mesh draw."""
        mat = em.material
        mesh = self.meshes.get(em.mesh) if em.mesh is not None and "mesh" in mat.geometry else None
        defines = emitter_defines(em, mesh is not None)
        defines.update(self._fragment_defines(em.values, em.files, "Particle.Texture", mesh is not None, em.opaque,
                                              _number(em.values("Particle.SoftDepth")) > 0))
        if prepared(em, mesh is not None):
            defines["KZ_PREPARED"] = 1
        return mesh, defines

    def _representation_defines(self, em, geometry) -> dict:
        defines = emitter_defines(em, False)
        defines.update(self._fragment_defines(em.values, em.files, "Particle.Texture", geometry.repeat,
                                              em.opaque and not geometry.screen,
                                              not geometry.screen and _number(em.values("Particle.SoftDepth")) > 0))
        if geometry.name == "fan" and self._texture(em.values, em.files, "FanLight.Gradient", False) is not None:
            defines["KZ_GRADIENT"] = 1
        return defines

    def _draw_emitter(self, em) -> None:
        if representation(em.material) is not None:
            self._draw_representation(em, self._state(em.key))
            return
        ctx = self.ctx
        st = self._state(em.key)
        mat = em.material
        mesh, defines = self._billboard_variant(em)
        if "KZ_PREPARED" in defines:
            st.prepared.bind_to_storage_buffer(BINDING_PREPARED)
        program, initial = self.programs.render(mat.vertex, mat.fragment, defines)
        self._common(program, initial, em.model, em.opacity)
        for name, value in self._material_uniforms((program, initial), em):
            program[name].value = value
        self._bind_textures(program, initial, em.values, em.files, repeat=mesh is not None)
        set_uniform(program, initial, "kz_blend", {"Additive": 0, "Alpha": 1, "Opaque": 2}[em.blend])
        set_uniform(program, initial, "kz_intensity", float(self.intensity))
        if em.blend == "Additive":
            ctx.blend_func = (ctx.ONE, ctx.ONE)
        elif em.blend == "Alpha":
            ctx.blend_func = (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        if mesh is not None:
            if em.opaque:
                ctx.enable(ctx.CULL_FACE)       # a solid mesh: its back faces never show
            mesh.vao(program).render_indirect(st.live.args, moderngl.TRIANGLES, count=1, first=ELEMENTS_COMMAND)
            ctx.disable(ctx.CULL_FACE)
        else:
            self._empty_vao(program).render_indirect(st.live.args, moderngl.TRIANGLE_STRIP, count=1,
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
        self._common(program, initial, em.model, em.opacity)
        for name, value in self._material_uniforms((program, initial), em):
            program[name].value = value
        self._bind_textures(program, initial, em.values, em.files, repeat=geometry.repeat)
        blend = "Additive" if geometry.screen else em.blend
        set_uniform(program, initial, "kz_blend", {"Additive": 0, "Alpha": 1, "Opaque": 2}[blend])
        set_uniform(program, initial, "kz_intensity", 1.0)
        set_uniform(program, initial, "kz_sides", counts.sides)
        history = em.history
        set_uniform(program, initial, "kz_historyLength", history.length if history else 0)
        set_uniform(program, initial, "kz_historyNewest", history.newest if history else 0)
        set_uniform(program, initial, "kz_historyStride", history.stride if history else 0)
        (history.buffer if history else self._no_history).bind_to_storage_buffer(BINDING_HISTORY)
        if blend == "Additive":
            ctx.blend_func = (ctx.ONE, ctx.ONE)
        elif blend == "Alpha":
            ctx.blend_func = (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
        em.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        st.order.bind_to_storage_buffer(BINDING_ORDER)
        mode = getattr(moderngl, geometry.mode)
        if geometry.name == "point":
            ctx.enable(ctx.PROGRAM_POINT_SIZE)
        if geometry.indexed:
            self.tubes.vao(program, counts.history, counts.sides).render_indirect(
                st.live.args, mode, count=1, first=ELEMENTS_COMMAND)
        else:
            self._empty_vao(program).render_indirect(st.live.args, mode, count=1, first=ARRAYS_COMMAND)
        if geometry.name == "point":
            ctx.disable(ctx.PROGRAM_POINT_SIZE)

    def _draw_model(self, model) -> None:
        defines = self._fragment_defines(model.values, model.files, "Model3D.Texture", True)
        program, initial = self.programs.render("render/Model3D.vert.glsl", "render/Model3D.frag.glsl", defines)
        self._common(program, initial, model.model, model.opacity)
        m = np.asarray(model.model, dtype=float)[:3, :3]
        try:
            normal = np.linalg.inv(m).T
        except np.linalg.LinAlgError:
            normal = m
        set_uniform(program, initial, "kz_normalMatrix", normal)
        for name in ("Model3D.Color", "Model3D.AmbientColor", "Model3D.EmissiveColor"):
            value = model.values(name)
            if value is not None:
                set_uniform(program, initial, name.replace(".", "_"),
                            tuple(float(c) for c in linear_colour(Color4(*tuple(value)))))
        self._bind_textures(program, initial, model.values, model.files, repeat=True)
        self.meshes.get(model.mesh).vao(program).render(moderngl.TRIANGLES)

    # -- the picture ---------------------------------------------------------------------------

    def _resolve(self, target) -> None:
        ctx = self.ctx
        previous = ctx.fbo
        program, initial = self.resolve_program
        target.use()
        ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
        self.color.use(location=0)
        set_uniform(program, initial, "kz_image", 0)
        self._empty_vao(program).render(moderngl.TRIANGLES, vertices=3)
        (previous or ctx.detect_framebuffer(0)).use()

    def read(self) -> np.ndarray:
        """The last drawn image, (H, W, 3) uint8 sRGB, top row first (GL's rows run bottom-up)."""
        self.out_fbo.viewport = (0, 0, *self.size)
        self._resolve(self.out_fbo)
        data = self.out_fbo.read(components=3, alignment=1)
        return np.frombuffer(data, dtype=np.uint8).reshape(self.size[1], self.size[0], 3)[::-1].copy()

    def read_linear(self) -> np.ndarray:
        """The last drawn image before the sRGB encode, (H, W, 3) float32 linear (tests)."""
        data = self.color.read()
        return np.frombuffer(data, dtype=np.float32).reshape(self.size[1], self.size[0], 4)[::-1, :, :3].copy()

    def show(self, target) -> None:
        """Resolve the last drawn image into `target` (the window's framebuffer)."""
        self._resolve(target)

    def live_list(self, key: str):
        """The LiveList of an emitter drawn in the last frame (tests, benchmarks)."""
        st = self._states.get(key)
        return None if st is None else st.live

    def sorter(self, key: str):
        st = self._states.get(key)
        return None if st is None else st.sorter

    def release(self) -> None:
        for st in self._states.values():
            st.release()
        self._states.clear()
        for vao in self._empty_vaos.values():
            vao.release()
        self._empty_vaos.clear()
        self.textures.release()
        self.meshes.release()
        self.tubes.release()
        self.programs.release()
        for obj in (*self._targets, self.lights, self.particle_lights, self._white, self._no_history):
            obj.release()
        self._targets = []
