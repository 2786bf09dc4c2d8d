"""Compile-check a project's custom materials without running anything (for `validate`).

    from kzplayer.gpu import check_material_shaders
    diagnostics = check_material_shaders(project)          # [] when every shader compiles

Each custom MaterialType of a slot the simulation runs is compiled into the programs a
system with it in that slot generates (kzplayer.gpu.generate), exactly as the player
will; the driver's errors come back as `shader.compile` Diagnostics at the line and
column of the material's own file (or of a file it includes), the file named by its
absolute path. A missing shader file is not reported here (validate's
`material.unknown`). Needs an OpenGL 4.3 context: pass one, or one is made and released;
where none can be had, create_context's KzError propagates.
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError
from kzplayer.gpu import context as gl_context
from kzplayer.gpu.generate import Generator
from kzplayer.gpu.materials import ComputePrograms
from kzplayer.scene.materials import SLOTS, Material, resolve_material
from kzplayer.gpu.program_spec import EmitterSpec, NodeSpec, ProgramSpec

# The emitter slot of each emitter material's slot.
_EMITTER_SLOT = {"EmissionCount": "count", "Emission": "emission", "GenerateEvents": "events"}


def check_material_shaders(project, ctx=None) -> list[Diagnostic]:
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
    ctx = ctx or gl_context.create_context(headless=True)
    programs = ComputePrograms(ctx)
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


def one_slot_spec(material: Material) -> ProgramSpec:
    """A one-emitter system with `material` in its slot (and nothing in the others)."""
    name = f"<{material.name}>"
    node = (NodeSpec(name, material),)
    slot = _EMITTER_SLOT.get(material.slot)
    emitter = EmitterSpec(name, **({slot: material} if slot else {}))
    return ProgramSpec(f"'check {material.name}'", (emitter,),
                       affectors=node if material.slot == "Affector" else (),
                       colliders=node if material.slot == "Collider" else (),
                       table_vec4s=1024, params_limit_vec4s=4096)


def _sources(material: Material):
    """The programs of a one-emitter system with `material` in its slot."""
    return list(Generator(one_slot_spec(material)).build().sources.values())
