"""A material slot names a material that does not exist.

A material slot (`ParticleEmitter.EmissionMaterial`, `.EmissionCountMaterial`,
`.GenerateEventsMaterial`, `.ParticleMaterial`, `ParticleAffector.AffectorMaterial`,
`ParticleCollider.ColliderMaterial`, ...) takes a stock material by name (`Gravity`), by its
asset-package path (`ParticlesAssetPackage/Materials/Particles/Gravity`), or the path of a
`<MaterialType>` in the project's `<Materials>` library. The hint names the closest one.
A custom material whose shader file (`shader=`, `vertex=`, `fragment=`) is missing, or is a
folder, a pipe or a device, is reported here too, at the slot, as `play` reports it (and
leaves the material out).

To fix: correct the material's name (the hint names the closest one), or add the
`<MaterialType>` to `<Materials>`.

Failing:

    <Property name="ParticleAffector.AffectorMaterial">Gravty</Property>

Passing:

    <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
"""
import os
import stat

from kzplayer.diagnostics import Severity
from kzplayer.project.files import Outside, inside, project_folder
from kzplayer.validate.context import did_you_mean, slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ401"
RULE = "material.unknown"
SEVERITY = Severity.ERROR


def check(context):
    for item, slot_property, name, spec in slotted_materials(context):
        if spec is None:
            prop = item.properties[slot_property]
            yield Problem(value_span(prop), f"unknown material '{name}' in {slot_property} of '{item.name}'",
                          did_you_mean(context.catalog.suggest_material(name)))
        elif spec.custom:
            for problem in _missing_shaders(context, spec):
                yield Problem(value_span(item.properties[slot_property]),
                              f"{item.path}: {slot_property}: {problem}")


def _missing_shaders(context, spec):
    """The shader files of a custom material that play cannot read, as play words it
    (kzplayer.scene.materials / render.materials); one outside the project is the
    loader's path.outside-project, not repeated here. Only stat: nothing is opened."""
    root = project_folder(context.project).resolve()
    for rel in (spec.shader, spec.vertex, spec.fragment):
        if not rel:
            continue
        try:
            path = inside(root, rel, [root], rel)
            kind = stat.S_IFMT(os.stat(path).st_mode)
        except Outside:
            continue
        except (OSError, ValueError):
            kind = None
        if kind != stat.S_IFREG:
            what = {None: "", stat.S_IFDIR: " (a folder, not a file)"}.get(kind, " (not a regular file)")
            yield f"the shader of '{spec.name}' is missing: {path}{what}"
