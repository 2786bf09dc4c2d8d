"""An event-driven material with nothing bound to read.

`Emitter_FromEvents`, `Emitter_Sparks_FromHit`, `EmissionCount_FromEvents` and
`EmissionCount_PerEvent` spawn from the events of a source emitter. Without bindings that
fill `Emission.SourceEventBuffer` (and, for the emission materials,
`Emission.SourceParticleDataBuffer`) from the source's `ParticleEmitter.EventBuffer` and
`ParticleEmitter.ParticleDataBuffer`, the emitter never spawns anything.

To fix: add the two BindingItems of the events page that bind the consumer buffers to the
source emitter's outputs.

Failing:

    <ParticleEmitter name="Subemitter">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_FromEvents</Property>
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>
    </ParticleEmitter>

Passing: the same emitter with the two bindings of the events page's recipe
(see `tests/validate/cases/recipe_ok.kzm`).
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import FED_BY, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ502"
RULE = "subemitter.unbound"
SEVERITY = Severity.ERROR


def check(context):
    for emitter in context.emitters:
        driven = context.event_driven_slots(emitter)
        if not driven:
            continue
        needed = [c for c in FED_BY if any(c in spec.properties for _, spec in driven)]
        missing = [c for c in needed if not context.bindings_into(emitter, c)]
        if not missing:
            continue
        slot_property, spec = driven[0]
        verb = "is" if len(missing) == 1 else "are"
        yield Problem(value_span(emitter.properties[slot_property]),
                      f"'{emitter.name}' uses the event-driven {spec.name} but {' and '.join(missing)} {verb} "
                      "not bound: it never spawns",
                      "bind " + "; ".join(f"{c} to the source emitter's {FED_BY[c]}" for c in missing)
                      + " (events page: GPU buffer binding)")
