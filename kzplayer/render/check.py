"""Compile-check a project's custom rendering materials (for `validate`'s shader.compile).

Each `<MaterialType slot="Particle" vertex="..." fragment="...">` is compiled and linked as
the renderer will, once per geometry it declares (a billboard, and with KZ_MESH defined a
mesh), and the driver's errors come back as `shader.compile` Diagnostics at the line of the
material's own file or of a file it includes (the first one's hint says that `play` draws
its emitters with ParticlesDefault, as render/renderer.py does). Needs an OpenGL 4.3
context: pass one, or one is made and released; where none can be had, create_context's
KzError propagates.
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError
from kzplayer.gpu import context as gl_context      # looked up per call: tests stand in a fake
from kzplayer.render.materials import custom_render_materials, geometry_defines, left_out
from kzplayer.render.shaders import RenderPrograms


def check_render_shaders(project, ctx=None) -> list[Diagnostic]:
    materials = custom_render_materials(project)
    if not materials:
        return []
    own = ctx is None
    ctx = ctx or gl_context.create_context(headless=True)
    programs = RenderPrograms(ctx)
    found: list[Diagnostic] = []
    try:
        for material, _ in materials:
            for mesh in (False, True) if "mesh" in material.geometry else (False,):
                try:
                    programs.render(material.vertex, material.fragment, geometry_defines(material, mesh))
                except KzError as exc:
                    found.extend(d for d in left_out(exc.diagnostics, material) if d not in found)
                    break          # the billboard's errors; the mesh variant would repeat them
    finally:
        programs.release()
        if own:
            ctx.release()
    return found
