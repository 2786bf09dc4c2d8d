"""A stock material or property that Kanzi Particles does not ship (a note).

kzplayer ships more than Kanzi Particles does: the forces and the particle representations
of the NeL particle system design (`CentralGravity`, `Vortex`, `BrownianMotion`...,
`Particles_Ribbon`, `Particles_FanLight`...), its colliders beyond Kanzi's stock shapes
(`Collider_Rectangle`, `Collider_Disc`, `Collider_Mesh`, `Collider.KillOnHit`), emitters bound
to particles (`EmissionCount_PerParticle`), its emission basis and emission LOD
(`Emission.EmissionBasis`, `Emission.LodNear` / `LodFar` / `LodMinimumRate`), a few of
kzplayer's own (`Particles_Stretched`), `Event_AccelerationRange` (the events page holds it
back from Kanzi's shipped catalog) and the demo's `ColorOverLife_ImageUV` (not in the asset
package). They play here; a project that uses them and is
moved to Kanzi Studio does not work there as it is: the material is missing, or the property
has no effect. This note names each use, once per material slot that holds one and once per
item that sets such properties (the others it sets are related positions), so a project
meant for Kanzi can be ported first. It is a note: the project is right for kzplayer, and
`--strict` stays green.

The catalog's `origin` says which entries these are; it is set only where it is known that
Kanzi does not ship them (docs/catalog.md, "Where the stock entries come from", lists them
with what comes nearest in Kanzi). A project's own material type of the same name is its
own material, which travels with the project: no note.

To fix: nothing to fix for kzplayer. To port the project to Kanzi, replace the material with
the one the hint names (what Kanzi ships that comes nearest) or with a custom material (a
`MaterialType` with its shader), and remove the properties.

Noted:

    <Property name="ParticleAffector.AffectorMaterial">Vortex</Property>

Passing (a force Kanzi ships):

    <Property name="ParticleAffector.AffectorMaterial">CurlNoise</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.catalog import ORIGINS
from kzplayer.project.literals import format_literal
from kzplayer.validate.context import on_material, slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ406"
RULE = "material.kzplayer-only"
SEVERITY = Severity.NOTE


def check(context):
    own = {i.name for i in context.project.items("MaterialType")}
    for item, slot_property, name, spec in slotted_materials(context):
        if spec is None or not spec.origin or spec.custom or spec.name in own:
            continue
        port = spec.port + _preset_words(context, item, spec) if spec.port else ""
        yield Problem(value_span(item.properties[slot_property]),
                      f"{spec.name} comes from {ORIGINS[spec.origin]}: it plays in kzplayer; Kanzi Particles "
                      f"has no such material",
                      f"to port the project to Kanzi, replace it with {port}, or with a custom material"
                      if port else "to port the project to Kanzi, replace it with a custom material (a "
                      "MaterialType with its shader)")
    yield from _properties(context)


def _properties(context):
    """One Problem per item that sets or binds properties Kanzi does not have."""
    cat = context.catalog
    uses: dict[int, list] = {}              # id(item) -> [(spec, span)], in the file's order
    owners = {}
    for item in context.items:
        if on_material(item):
            continue
        for name, prop in item.properties.items():
            spec = cat.property(name)
            if spec is not None and spec.origin:
                uses.setdefault(id(item), []).append((spec, context.name_span(prop)))
                owners[id(item)] = item
    for owner, b in context.bindings:
        spec = cat.property(b.target) if b.target and not on_material(owner) else None
        if spec is not None and spec.origin:
            uses.setdefault(id(owner), []).append((spec, b.target_span or b.span))
            owners[id(owner)] = owner
    for key, found in uses.items():
        names = list(dict.fromkeys(spec.name for spec, _ in found))
        origins = list(dict.fromkeys(ORIGINS[spec.origin] for spec, _ in found))
        ports = list(dict.fromkeys(spec.port for spec, _ in found if spec.port))
        one = len(names) == 1
        they = f"{names[0]} comes" if one else f"{_listed(names)} come"
        yield Problem(found[0][1],
                      f"{they} from {_listed(origins)} (on {owners[key].name}): "
                      f"{'it plays' if one else 'they play'} in kzplayer; Kanzi Particles has no such "
                      f"{'property' if one else 'properties'}",
                      "to port the project to Kanzi, " + "; ".join(ports) if ports
                      else f"to port the project to Kanzi, remove {'it' if one else 'them'}",
                      related=tuple(span for _, span in found[1:] if span is not None))


def _preset_words(context, item, spec) -> str:
    """A stock variant of a Kanzi material (TurbulentWind is Wind with a preset): the preset
    values the node does not set itself, to write on it in Kanzi."""
    unset = [(k, format_literal(v, getattr(context.catalog.property(k), "type", None)))
             for k, v in spec.preset.items() if k not in item.properties]
    return " with " + ", ".join(f"{k} = {v}" for k, v in unset) if unset else ""


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
