"""A material in a slot made for another kind of material.

Each material is written for one slot: emission materials (`Emitter_Point`,
`Emitter_FromEvents`, ...) set up new particles, emission-count materials
(`EmissionCount_Schedule`, ...) decide how many, affectors (`Gravity`, `Wind`, ...) move them,
colliders bounce them, event generators (`Event_Lifetime`, ...) publish events, particle
materials draw them. A material in the wrong slot has none of the inputs or outputs that
slot's pass provides, so it cannot run there.

To fix: put a material of the slot's kind there (the hint lists them), and this material in
the slot it is made for.

Failing:

    <Property name="ParticleEmitter.EmissionMaterial">Gravity</Property>

Passing:

    <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
"""
from kzplayer.diagnostics import Severity, a_or_an
from kzplayer.validate.context import slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ402"
RULE = "material.slot"
SEVERITY = Severity.ERROR


def check(context):
    for item, slot_property, name, spec in slotted_materials(context):
        want = context.material_slots[slot_property]
        if spec is None or not spec.slot or spec.slot == want:
            continue
        prop = item.properties[slot_property]
        choices = [m.name for m in context.catalog.materials_for_slot(want) if not m.legacy]
        hint = f"{want} materials: {', '.join(sorted(choices))}" if choices else None
        yield Problem(value_span(prop), f"'{name}' is {a_or_an(spec.slot)} material; {slot_property} takes {a_or_an(want)} "
                      "material", hint)
