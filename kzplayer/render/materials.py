"""Rendering materials: what `ParticleEmitter.ParticleMaterial` names, as a shader pair.

A rendering material is a vertex and a fragment GLSL file (docs/rendering.md): the stock
ones under shaders/render/ (`<Name>.vert.glsl`, `<Name>.frag.glsl`, one pair per stock
material, their shared code in #included helpers), a custom one a `<MaterialType
slot="Particle" vertex="..." fragment="...">` of the project. Its uniforms come from the
emitter's properties exactly as a compute material's do: the property `Type.Name` is the
uniform `Type_Name` (kzplayer.gpu.materials.uniform_values), a string property read by a
`sampler2D` uniform names an image file. The geometry it can draw per particle is the
catalog's `geometry` (`billboard`, `mesh`, or one of NeL's representations: `point`, `line`,
`quad`, `trail`, `strip`, `fan`, `ring`, `tube`, `flare`, render/representations.py); the
renderer picks the emitter's mesh when it has a ParticleMesh and the material can draw one,
with `KZ_MESH` defined in both stages (`KZ_GEOMETRY_<NAME>` for a representation).

Adding a stock material: a `[material.Name]` entry with slot "Particle" in the catalog, and
its two files (include render/stock_vertex.glsl or render/particle_vertex.glsl).
"""
from __future__ import annotations

from dataclasses import dataclass

from kzplayer.diagnostics import Diagnostic, KzError, Severity, a_or_an
from kzplayer.project.files import Outside, inside, is_file, project_folder
from kzplayer.render.shaders import ShaderFile
from kzplayer.render.representations import representation

DEFAULT = "ParticlesDefault"
# How a stock material colours its particles, for CastLight (render/cast_light.glsl)
LIGHT_COLOR = {"ParticlesDefault": 1, "ParticlesColorOverLife": 2, "ColorOverLife_ImageUV": 2,
               "ParticlesColorOverLife3Stop": 3,
               # the NeL representations colour their particles over life (render/representation.glsl)
               **{f"Particles_{name}": 2 for name in ("Dot", "Line", "GradientLine", "Stretched", "Faces", "FanLight",
                                                       "Shockwave", "Ribbon", "FlatRibbon", "LensFlare")}}


@dataclass(frozen=True)
class RenderMaterial:
    name: str
    vertex: ShaderFile
    fragment: ShaderFile
    reads: tuple[str, ...] = ()
    geometry: tuple[str, ...] = ("billboard",)
    custom: bool = False

    @property
    def light_color(self) -> int:
        return LIGHT_COLOR.get(self.name, 0) if not self.custom else 0


def stock_material(cat, name: str = DEFAULT) -> RenderMaterial:
    spec = cat.material(name)
    return RenderMaterial(spec.name, ShaderFile.stock(spec.vertex), ShaderFile.stock(spec.fragment),
                          tuple(spec.properties), tuple(spec.geometry) or ("billboard",))


def resolve_render_material(project, cat, ref, where: str, span=None) -> RenderMaterial | Diagnostic:
    """The rendering material a ParticleMaterial value names; ParticlesDefault for an empty
    slot. An unknown name, a material of another slot, or a custom one whose files are
    missing or lie outside the project folder (kzplayer.project.files.inside: never opened)
    raise (as the simulation's materials do); a custom one without a vertex and fragment
    pair comes back as a warning (the emitter is drawn with ParticlesDefault)."""
    if ref is None or str(ref).strip() == "":
        return stock_material(cat)
    name = str(ref)
    spec = cat.material(name)
    if spec is None:
        raise _error("material.unknown", f"{where}: unknown material '{name}'", span)
    if spec.legacy:
        spec = cat.material(spec.replacement)
    if spec.slot != "Particle":
        raise _error("material.slot", f"{where}: '{spec.name}' is {a_or_an(spec.slot)} material, "
                                      "not a Particle one", span)
    if not spec.custom:
        return stock_material(cat, spec.name)
    if not (spec.vertex and spec.fragment):
        return Diagnostic("KZ405", "material.unsupported", Severity.WARNING,
                          f"{where}: the rendering material '{spec.name}' names no vertex= and fragment= "
                          "shader pair; its particles are drawn with ParticlesDefault", span,
                          hint='give the MaterialType vertex="....vert.glsl" fragment="....frag.glsl"')
    root = project_folder(project).resolve()
    files = []
    for stage, rel in (("vertex", spec.vertex), ("fragment", spec.fragment)):
        try:     # the loader reported it (path.outside-project): never read, never compiled
            path = inside(root, rel, [root], f"the {stage} shader of material '{spec.name}' ({rel})")
        except Outside as exc:
            raise _error("path.outside-project", f"{where}: {exc}", span) from None
        if not is_file(path):
            raise _error("material.unknown", f"{where}: the shader of '{spec.name}' is missing: {path}", span)
        files.append(ShaderFile(path, str(path), root))
    return RenderMaterial(spec.name, files[0], files[1], tuple(spec.properties),
                          tuple(spec.geometry) or ("billboard",), custom=True)


def left_out(diagnostics: list[Diagnostic], material: RenderMaterial) -> list[Diagnostic]:
    """A custom material's compile errors as `play` leaves it out (and `validate` says it
    will): the first one says that its emitters are drawn with ParticlesDefault."""
    from dataclasses import replace
    hint = (f"until it compiles, `kzplayer play` leaves '{material.name}' out: its emitters are drawn "
            f"with {DEFAULT}")
    return [replace(d, hint=d.hint or hint) if n == 0 else d for n, d in enumerate(diagnostics)]


def _error(rule: str, message: str, span) -> KzError:
    return KzError(Diagnostic("KZ802", rule, Severity.ERROR, message, span), exit_code=1)


def custom_render_materials(project) -> list[tuple[RenderMaterial, object]]:
    """Every custom rendering material of the project that has a shader pair, with its
    MaterialType item (for `validate`'s shader.compile)."""
    cat = project.catalog
    out = []
    for item in project.walk():
        spec = cat.material(item.name) if item.type == "MaterialType" else None
        if spec is None or not spec.custom or spec.slot != "Particle":
            continue
        try:
            found = resolve_render_material(project, cat, spec.name, f"material '{spec.name}'", item.span)
        except KzError:
            continue       # a missing file: the loader's and validator's material.unknown
        if isinstance(found, RenderMaterial):
            out.append((found, item))
    return out


def geometry_defines(material: RenderMaterial, mesh: bool) -> dict:
    """KZ_MESH for a mesh, KZ_GEOMETRY_<NAME> for a representation (render/representations.py)."""
    geometry = representation(material)
    if geometry is not None:
        return {f"KZ_GEOMETRY_{geometry.name.upper()}": 1}
    return {"KZ_MESH": 1} if mesh and "mesh" in material.geometry else {}
