"""A material slot names a material that does not exist.

A material slot (`ParticleEmitter.EmissionMaterial`, `.EmissionCountMaterial`,
`.GenerateEventsMaterial`, `.ParticleMaterial`, `ParticleAffector.AffectorMaterial`,
`ParticleCollider.ColliderMaterial`, ...) takes a stock material by name (`Gravity`), by its
asset-package path (`ParticlesAssetPackage/Materials/Particles/Gravity`), or the path of a
`<MaterialType>` in the project's `<Materials>` library. The hint names the closest one.

To fix: correct the material's name (the hint names the closest one), or add the
`<MaterialType>` to `<Materials>`.

Failing:

    <Property name="ParticleAffector.AffectorMaterial">Gravty</Property>

Passing:

    <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
"""
from kzplayer.diagnostics import Severity
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
