"""Bound event buffers on an emitter whose materials do not read them (events page, gotcha 3).

Both the EmissionMaterial and the EmissionCountMaterial of a subemitter must be
event-driven: they are what reads `Emission.SourceEventBuffer` and
`Emission.SourceParticleDataBuffer`. With a shape emitter (`Emitter_Disc`) or a time-based
count (`EmissionCount_Schedule`) the bound buffers sit unused and the subemitter behaves as
if nothing were connected. The pairings that work out of the box are `Emitter_FromEvents`
or `Emitter_Sparks_FromHit` with `EmissionCount_FromEvents` (or `EmissionCount_PerEvent`);
a custom material is event-driven when it declares `Emission.SourceEventBuffer`.

To fix: use an event-driven pair: `Emitter_FromEvents` (or `Emitter_Sparks_FromHit`) with
`EmissionCount_FromEvents`.

Failing (the buffers are bound):

    <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
    <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>

Passing:

    <Property name="ParticleEmitter.EmissionMaterial">Emitter_FromEvents</Property>
    <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import EVENT_SLOTS, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ501"
RULE = "subemitter.not-event-driven"
SEVERITY = Severity.ERROR


def check(context):
    for emitter in context.emitters:
        bound = context.consumers_bound(emitter)
        if not bound:
            continue
        for slot_property in EVENT_SLOTS:
            name = context.material_name(emitter, slot_property)
            spec = context.catalog.material(name) if name else None
            if name and spec is None:
                continue    # material.unknown
            if spec is not None and spec.event_driven:
                continue
            slot = context.material_slots[slot_property]
            choices = sorted(m.name for m in context.catalog.materials_for_slot(slot) if m.event_driven)
            hint = f"use an event-driven {slot} material: {', '.join(choices)}"
            what = f"'{name}' does not read" if name else f"no {slot_property}: nothing reads"
            prop = emitter.properties.get(slot_property)
            yield Problem(value_span(prop) if prop else emitter.span,
                          f"{what} the bound {' and '.join(bound)}: '{emitter.name}' spawns as if nothing "
                          "were connected", hint)
