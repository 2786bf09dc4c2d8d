"""A subemitter fed by an emitter that publishes no events.

An emitter writes events only when it has a GenerateEventsMaterial (`Event_Lifetime`,
`Event_OnHit`, `Event_Periodic`, ...). A subemitter whose `Emission.SourceEventBuffer` is
bound to the `ParticleEmitter.EventBuffer` of an emitter without one reads an event buffer
that stays empty, and never spawns: the wiring looks right and nothing happens. A
subemitter bound to particles (`EmissionCount_PerParticle`) needs none: it emits from every
live particle of its source, whatever events the source writes.

To fix: give the source emitter a `ParticleEmitter.GenerateEventsMaterial` (`Event_Lifetime`
for deaths), or bind the subemitter to the emitter that has one.

Failing (Source has no `ParticleEmitter.GenerateEventsMaterial`):

    <ParticleEmitter name="Source">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
    </ParticleEmitter>
    <ParticleEmitter name="Subemitter">
      <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
    </ParticleEmitter>

Passing: Source with

      <Property name="ParticleEmitter.GenerateEventsMaterial">Event_Lifetime</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import EVENT_BUFFER, SOURCE_EVENTS
from kzplayer.validate.engine import Problem

CODE = "KZ506"
RULE = "events.no-generator"
SEVERITY = Severity.ERROR
GENERATOR = "ParticleEmitter.GenerateEventsMaterial"
BOUND_COUNT = "ParticleEmitter.EmissionCountMaterial"


def check(context):
    for owner, b in context.bindings:
        if b.target != SOURCE_EVENTS or context.material_name(owner, BOUND_COUNT) == "EmissionCount_PerParticle":
            continue
        for item, name in sorted(context.reads(b), key=lambda node: node[0].path):
            if name == EVENT_BUFFER and item.type == "ParticleEmitter" \
                    and not context.material_name(item, GENERATOR):
                yield Problem(b.target_span or b.span,
                              f"'{item.name}' publishes no events (it has no {GENERATOR}): "
                              f"'{owner.name}' reads an event buffer that stays empty",
                              f"set {GENERATOR} of '{item.name}', for example to Event_Lifetime "
                              "(fires when a particle dies)")
