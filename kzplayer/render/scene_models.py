"""The scene's Model3D nodes drawn (render/frame.py's FrameModel): their mesh, lit by the
scene's lights (render/Model3D.*.glsl), their colours decoded to linear light, their texture
repeating. Opaque models are the frame's first pass; see-through ones are blended in tree
order with the particles (render/renderer.py).
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.render.draw_inputs import linear_colour
from kzplayer.render.shaders import set_uniform
from kzplayer.values import Color4

COLOURS = ("Model3D.Color", "Model3D.AmbientColor", "Model3D.EmissiveColor")


def draw_model(inputs, programs, meshes, model) -> None:
    """One model, with the frame's uniforms of `inputs` (render/draw_inputs.py)."""
    defines = inputs.fragment_defines(model.values, model.files, "Model3D.Texture", True)
    defines.update(inputs.shadow_defines())
    if inputs.depth_only:
        defines = {"KZ_DEPTH_ONLY": 1}
    program, initial = programs.render("render/Model3D.vert.glsl", "render/Model3D.frag.glsl", defines)
    inputs.common(program, initial, model.model, model.opacity)
    m = np.asarray(model.model, dtype=float)[:3, :3]
    try:
        normal = np.linalg.inv(m).T
    except np.linalg.LinAlgError:
        normal = m
    set_uniform(program, initial, "kz_normalMatrix", normal)
    for name in COLOURS:
        value = model.values(name)
        if value is not None:
            set_uniform(program, initial, name.replace(".", "_"),
                        tuple(float(c) for c in linear_colour(Color4(*tuple(value)))))
    inputs.bind_textures(program, initial, model.values, model.files, repeat=True)
    meshes.get(model.mesh).vao(program).render(moderngl.TRIANGLES)
