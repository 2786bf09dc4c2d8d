"""What every draw of a frame binds, particles and scene models alike: the frame's uniforms
(view, projection, time, viewport), the scene's lights (a uniform block) and the particles'
lights (a storage block), the material's property values as uniforms, and its textures
(a white texel where a sampler names no image; the scene's depth for soft particles).
"""
from __future__ import annotations

import struct

import moderngl
import numpy as np

from kzplayer.gpu.materials import uniform_values
from kzplayer.project.catalog import catalog
from kzplayer.render.lights import PARTICLE_LIGHTS_BYTES, UBO_BYTES
from kzplayer.render.live_list import BINDING_PARTICLE_LIGHTS
from kzplayer.render.shaders import set_uniform
from kzplayer.render.textures import TextureCache, srgb_to_linear
from kzplayer.values import Color4

SAMPLER_TYPES = {0x8B5E}       # sampler2D
UBO_BINDING = 0
SCENE_DEPTH_UNIT = 7
SHADOW_UNIT = 12               # and 13: the shadow maps (render/shadows.py)


def linear_colour(value):
    """A Color4 property value decoded from sRGB to linear light (alpha as it is); any other
    value unchanged."""
    if isinstance(value, Color4):
        rgb = srgb_to_linear(np.clip(np.asarray(tuple(value)[:3], float), 0.0, None))
        return Color4(*(float(c) for c in rgb), float(tuple(value)[3]))
    return value


def packed(member, value) -> bytes:
    """The bytes moderngl's `Uniform.value = value` writes (its packing, done once)."""
    fmt = member.fmt
    if member.array_length > 1:
        if member.dimension > 1:
            return b"".join(struct.pack(fmt, *row) for row in value)
        return b"".join(struct.pack(fmt, item) for item in value)
    return struct.pack(fmt, *value) if member.dimension > 1 else struct.pack(fmt, value)


class DrawInputs:
    """The frame's shared inputs; `begin()` sets the frame's uniforms, `common()` gives them
    (and the lights) to one program."""

    def __init__(self, ctx, targets):
        self.ctx = ctx
        self.targets = targets           # render/targets.py: the scene's depth lives there
        self.textures = TextureCache(ctx)
        self.lights = ctx.buffer(reserve=UBO_BYTES)
        self.particle_lights = ctx.buffer(reserve=PARTICLE_LIGHTS_BYTES)
        self.white = ctx.texture((1, 1), 4, np.ones(4, np.float16).tobytes(), dtype="f2")
        self.uniforms: dict = {}
        self._samplers: dict = {}        # program -> its sampler uniforms
        self._applied: dict = {}         # program -> the frame's uniform values it was last given
        self._material_values: dict = {}     # (program, emitter) -> its material_uniforms, by stamp
        self.shadow_maps: list = []      # this frame's shadow maps, once drawn (render/shadows.py)
        self.depth_only = False          # drawing a shadow map: models skip their shading

    def begin(self, frame, camera, size: tuple[int, int], min_pixels: float) -> None:
        width, height = size
        self.uniforms = {"kz_view": camera.view, "kz_projection": camera.projection(width / height),
                         "kz_cameraPosition": tuple(camera.position), "kz_time": float(frame.time),
                         "kz_viewport": (float(width), float(height)), "kz_minPixels": float(min_pixels),
                         "kz_depthRange": (float(camera.near), float(camera.far))}

    def common(self, program, initial, model, opacity: float) -> None:
        # the frame's uniforms once per program while they are the same objects (a frame of
        # 200 emitters of one program: 1 write of each, not 400; a shadow map's view is
        # another object, so the program is given the frame's again after it)
        values = tuple(self.uniforms.values())
        kept = self._applied.get(program)
        if kept is None or len(kept) != len(values) or any(a is not b for a, b in zip(kept, values)):
            for name, value in self.uniforms.items():
                set_uniform(program, initial, name, value)
            self._applied[program] = values
        set_uniform(program, initial, "kz_model", np.asarray(model, dtype=float))
        set_uniform(program, initial, "kz_opacity", float(opacity))
        if "KzLights" in program:
            program["KzLights"].binding = UBO_BINDING
        self.lights.bind_to_uniform_block(UBO_BINDING)
        self.particle_lights.bind_to_storage_buffer(BINDING_PARTICLE_LIGHTS)
        if self.shadow_maps and "kz_shadowMaps" in initial:
            for k in range(2):
                self.shadow_maps[min(k, len(self.shadow_maps) - 1)].use(location=SHADOW_UNIT + k)
            program["kz_shadowMaps"].value = [SHADOW_UNIT, SHADOW_UNIT + 1]

    def shadow_defines(self) -> dict:
        """KZ_SHADOWS for a lit program while the frame has shadow maps (render/lighting.glsl)."""
        return {"KZ_SHADOWS": 1} if self.shadow_maps else {}

    def material_uniforms(self, entry, em) -> list:
        """(uniform, value) from the emitter's properties, samplers left out; colour
        properties decoded to linear light (render/color.glsl). Kept per program and
        emitter while the emitter's values stay the same (its `stamp`): a frame of 200
        emitters asks 400 times."""
        return self._material(entry, em)[0]

    def set_material(self, entry, em) -> None:
        """Give the program the emitter's material_uniforms (packed once while kept)."""
        for member, data in self._material(entry, em)[1]:
            member.write(data)

    def _material(self, entry, em) -> tuple:
        program, _ = entry
        key = (id(program), em.key)
        kept = self._material_values.get(key)
        if kept is not None and kept[0] is program and kept[1] is em.stamp and kept[2] is em.material \
                and em.stamp is not None:
            return kept[3]
        cat = catalog()
        pairs = uniform_values(entry, em.material, lambda name: linear_colour(em.values(name)),
                               known=lambda name: cat.property(name) is not None)
        pairs = [(n, v) for n, v in pairs if program[n].gl_type not in SAMPLER_TYPES]
        found = (pairs, [(program[n], packed(program[n], v)) for n, v in pairs])
        self._material_values[key] = (program, em.stamp, em.material, found)
        return found

    def texture(self, values, files, prop: str, repeat: bool):
        """The texture of the image a string property names, or None (none, unreadable,
        refused)."""
        file = values(prop)
        if not (isinstance(file, str) and file.strip()):
            return None
        path = files(file)
        return self.textures.get(path, repeat) if path is not None else None

    def fragment_defines(self, values, files, prop: str, repeat: bool, opaque: bool = False,
                         soft: bool = False) -> dict:
        """The fragment variant: KZ_TEXTURED when `prop` names an image that loads,
        KZ_OPAQUE, KZ_SOFT_DEPTH (render/particle_fragment.glsl)."""
        defines = {}
        if self.texture(values, files, prop, repeat) is not None:
            defines["KZ_TEXTURED"] = 1
        if opaque:
            defines["KZ_OPAQUE"] = 1
        elif soft:
            defines["KZ_SOFT_DEPTH"] = 1
        return defines

    def bind_textures(self, program, initial, values, files, repeat: bool) -> None:
        """Bind every sampler the program reads to the image its property names (a white
        texel where it names none) and the scene's depth for soft particles."""
        unit = 0
        samplers = self._samplers.get(program)
        if samplers is None:            # (per program: its members are walked once)
            samplers = self._samplers[program] = [
                (name, member) for name, member in program._members.items()
                if isinstance(member, moderngl.Uniform) and member.gl_type in SAMPLER_TYPES]
        for name, member in samplers:
            if name == "kz_sceneDepth":
                self.targets.scene_depth.use(location=SCENE_DEPTH_UNIT)
                member.value = SCENE_DEPTH_UNIT
                continue
            texture = self.texture(values, files, name.replace("_", ".", 1), repeat)
            (texture or self.white).use(location=unit)
            member.value = unit
            unit += 1

    def release(self) -> None:
        self._applied.clear()
        self._samplers.clear()
        self.textures.release()
        for obj in (self.lights, self.particle_lights, self.white):
            obj.release()
