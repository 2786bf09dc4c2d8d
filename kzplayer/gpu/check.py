"""Compile-check a project's custom materials without running anything (for `validate`).

    from kzplayer.gpu import check_material_shaders
    diagnostics = check_material_shaders(project)          # [] when every shader compiles

Each custom MaterialType of a slot the simulation runs is compiled into the programs a
system with it in that slot generates (kzplayer.gpu.generate), exactly as the player
will; the driver's errors come back as `shader.compile` Diagnostics at the line and
column of the material's own file (or of a file it includes), the file named by its
absolute path. A missing shader file is not reported here (the loader's
`material.unknown`). Needs an OpenGL 4.3 context: pass one, or one is made and released;
where none can be had, create_context's KzError propagates.
"""
from __future__ import annotations

from types import SimpleNamespace

from kzplayer.diagnostics import Diagnostic, KzError


def check_material_shaders(project, ctx=None) -> list[Diagnostic]:
    from kzplayer.gpu.context import create_context
    from kzplayer.gpu.materials import SLOTS, Material, ProgramCache, resolve_material

    cat = project.catalog       # the stock catalog plus the project's custom types
    materials = []
    for item in project.walk():
        spec = cat.material(item.name) if item.type == "MaterialType" else None
        if spec is None or not spec.custom or spec.slot not in SLOTS:
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
                for source in _sources(material):
                    programs.compile(source)
            except KzError as exc:
                found.extend(d for d in exc.diagnostics if d not in found)
    finally:
        programs.release()
        if own:
            ctx.release()
    return found


class _Emitter(SimpleNamespace):
    """A stand-in emitter node, hashed by identity as the generator keys its instances."""
    __hash__ = object.__hash__


def _sources(material):
    """The programs of a one-emitter system with `material` in its slot."""
    import numpy as np

    from kzplayer.gpu.generate import Generator

    item = SimpleNamespace(path=f"<{material.name}>")
    node = SimpleNamespace(item=item, material=material, transform=np.eye(4), visible=True)
    emitter = _Emitter(item=item, level=0, count=None, emission=None, self_affect=None, events=None)
    affectors, colliders = [], []
    if material.slot == "Affector":
        affectors.append(node)
    elif material.slot == "Collider":
        colliders.append(node)
    else:
        field = {"EmissionCount": "count", "Emission": "emission", "GenerateEvents": "events"}[material.slot]
        setattr(emitter, field, material)
    code = Generator([emitter], affectors, colliders, verlet=False, image_io=True, table_vec4s=1024,
                     params_limit_vec4s=4096, system_name=f"'check {material.name}'").build()
    return list(code.sources.values())
