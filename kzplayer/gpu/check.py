"""Compile-check a project's custom materials without running anything (for `validate`).

    from kzplayer.gpu import check_material_shaders
    diagnostics = check_material_shaders(project)          # [] when every shader compiles

Each custom MaterialType of a slot the simulation runs is compiled behind its slot's main,
exactly as the player will; the driver's errors come back as `shader.compile` Diagnostics
at the line and column of the material's own file (or of a file it includes), the file
named by its absolute path. A missing shader file is not reported here (the loader's
`material.unknown`). Needs an OpenGL 4.3 context: pass one, or one is made and released;
where none can be had, create_context's KzError propagates.
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError


def check_material_shaders(project, ctx=None) -> list[Diagnostic]:
    from kzplayer.gpu.context import create_context
    from kzplayer.gpu.materials import SLOT_MAINS, Material, ProgramCache, resolve_material

    cat = project.catalog       # the stock catalog plus the project's custom types
    materials = []
    for item in project.walk():
        spec = cat.material(item.name) if item.type == "MaterialType" else None
        if spec is None or not spec.custom or spec.slot not in SLOT_MAINS:
            continue
        try:
            found = resolve_material(project, cat, spec.name, spec.slot, f"material '{spec.name}'", item.span)
        except KzError:
            continue
        if isinstance(found, Material):
            materials.append(found)
    if not materials:
        return []
    own = ctx is None
    ctx = ctx or create_context(headless=True)
    programs = ProgramCache(ctx)
    found: list[Diagnostic] = []
    try:
        for material in materials:
            try:
                programs.material(material)
            except KzError as exc:
                found.extend(exc.diagnostics)
    finally:
        programs.release()
        if own:
            ctx.release()
    return found
