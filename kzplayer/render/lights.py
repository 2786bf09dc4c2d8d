"""The scene's lights as the shaders read them (shaders/render/lighting.glsl).

DirectionalLight, PointLight and SpotLight nodes (Kanzi's three light types; their
properties in docs/catalog.md) that are on (`Light.Enabled`) and visible become one
std140 uniform block per frame: colours decoded from sRGB to linear and multiplied by
`Light.ColorScale`, positions and directions in world space from the node's world matrix
(a light shines along its local -Z, as a camera looks). At most MAX_SCENE_LIGHTS of each
type light anything (a warning names the rest). Light-casting particles are not here: their
lights are gathered on the GPU (render/light_gather.glsl) into their own storage block.

A DirectionalLight or SpotLight with `CastShadows` (the first MAX_SHADOWS of them) gets a
shadow map (render/shadows.py): its slot + 1 rides in the w of its direction (directional)
or cone (spot), 0 for none, and the block ends with the maps' matrices and parameters.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kzplayer.render.textures import srgb_to_linear
from kzplayer.transforms import world_matrix
from kzplayer.values import as_float

MAX_SCENE_LIGHTS = 8
MAX_LIGHT_CASTERS = 4          # emitters with CastLight whose particles light the scene
LIGHTS_PER_CASTER = 16         # the brightest live particles of each
LIGHT_TYPES = ("DirectionalLight", "PointLight", "SpotLight")
MAX_SHADOWS = 2                # shadow maps a frame (render/shadows.py, lighting.glsl)
_ARRAYS = ("dir_direction", "dir_color", "point_position", "point_color", "point_attenuation",
           "spot_position", "spot_direction", "spot_color", "spot_attenuation", "spot_cone")
UBO_BYTES = 16 + len(_ARRAYS) * MAX_SCENE_LIGHTS * 16 + MAX_SHADOWS * (64 + 16)
PARTICLE_LIGHTS_BYTES = 16 + MAX_LIGHT_CASTERS * LIGHTS_PER_CASTER * 32


@dataclass
class SceneLights:
    """Lights in world space, linear colours: lists of 4-tuples per field of the block."""
    directional: list = field(default_factory=list)     # (direction, colour)
    point: list = field(default_factory=list)           # (position, colour, attenuation)
    spot: list = field(default_factory=list)            # (position, direction, colour, attenuation, cone)
    casters: int = 0                                    # CastLight emitters this frame
    dropped: list = field(default_factory=list)         # items past the per-type cap
    shadows: list = field(default_factory=list)         # (kind, index in its list) per shadow map
    shadow_matrices: list = field(default_factory=list)  # world -> the map's clip space, per map
    shadow_params: list = field(default_factory=list)   # (texel m, depth bias, softness texels), per map

    def pack(self) -> bytes:
        """The KzLights uniform block (std140: an ivec4, then vec4 arrays)."""
        counts = np.array([len(self.directional), len(self.point), len(self.spot), self.casters], np.int32)
        arrays = {name: np.zeros((MAX_SCENE_LIGHTS, 4), np.float32) for name in _ARRAYS}
        for k, (d, c) in enumerate(self.directional):
            arrays["dir_direction"][k, :3], arrays["dir_color"][k, :3] = d, c
        for k, (p, c, a) in enumerate(self.point):
            arrays["point_position"][k, :3], arrays["point_color"][k, :3], arrays["point_attenuation"][k, :3] = p, c, a
        for k, (p, d, c, a, cone) in enumerate(self.spot):
            arrays["spot_position"][k, :3], arrays["spot_direction"][k, :3] = p, d
            arrays["spot_color"][k, :3], arrays["spot_attenuation"][k, :3] = c, a
            arrays["spot_cone"][k, :3] = cone
        for slot, (kind, k) in enumerate(self.shadows):
            arrays["dir_direction" if kind == "DirectionalLight" else "spot_cone"][k, 3] = slot + 1
        matrices = np.zeros((MAX_SHADOWS, 4, 4), np.float32)
        params = np.zeros((MAX_SHADOWS, 4), np.float32)
        for slot, (m, p) in enumerate(zip(self.shadow_matrices, self.shadow_params)):
            matrices[slot] = np.asarray(m, np.float32).T           # std140 matrices are column-major
            params[slot, :3] = p
        return (counts.tobytes() + b"".join(arrays[name].tobytes() for name in _ARRAYS)
                + matrices.tobytes() + params.tobytes())


def _linear(color, scale: float) -> np.ndarray:
    c = np.asarray(tuple(color)[:3] if color is not None else (1.0, 1.0, 1.0), float)
    return srgb_to_linear(np.clip(c, 0.0, None)) * scale


def scene_lights(project, value, visible) -> SceneLights:
    """The lights of the project's light nodes; `value(item, name)` reads properties after
    bindings, `visible(item)` is False for a hidden node (or one under a hidden node)."""
    lights = SceneLights()
    for item in project.walk():
        if item.type not in LIGHT_TYPES or value(item, "Light.Enabled") is False or not visible(item):
            continue
        world = world_matrix(item, value)
        position = world[:3, 3]
        forward = -world[:3, 2]
        forward = forward / max(np.linalg.norm(forward), 1e-12)
        scale = max(as_float(value(item, "Light.ColorScale"), 1.0), 0.0)
        kind = item.type
        bucket = {"DirectionalLight": lights.directional, "PointLight": lights.point, "SpotLight": lights.spot}[kind]
        if len(bucket) >= MAX_SCENE_LIGHTS:
            lights.dropped.append(item)
            continue
        color = _linear(value(item, f"{kind}.Color"), scale)
        if kind != "PointLight" and value(item, f"{kind}.CastShadows") is True and len(lights.shadows) < MAX_SHADOWS:
            lights.shadows.append((kind, len(bucket)))
        if kind == "DirectionalLight":
            bucket.append((forward, color))
            continue
        attenuation = np.asarray(tuple(value(item, f"{kind}.Attenuation") or (1.0, 0.0, 0.0))[:3], float)
        if kind == "PointLight":
            bucket.append((position, color, attenuation))
            continue
        cutoff = min(max(as_float(value(item, "SpotLight.CutoffAngle"), 30.0), 0.0), 90.0)
        inner = min(max(as_float(value(item, "SpotLight.InnerAngle"), 0.0), 0.0), cutoff)
        exponent = max(as_float(value(item, "SpotLight.Exponent"), 1.0), 0.0)
        cone = (math.cos(math.radians(cutoff)), math.cos(math.radians(inner)), exponent)
        bucket.append((position, forward, color, attenuation, cone))
    return lights
