"""A binding whose value cannot go into its target property.

Only like types bind: a float into a float (int and bool convert), a Vector3 into a
Vector3, a colour into a colour, and a buffer only into a buffer. A subemitter's
`Emission.SourceEventBuffer` takes the source emitter's `ParticleEmitter.EventBuffer`,
nothing else. A TargetPropertyAttribute (`VECTOR_X`, `TRANSLATION_Y`, ...) must be a field
the target's type has.

Failing:

    <Binding target="Emission.SourceEventBuffer">{../Source/Emission.Rate}</Binding>

Passing:

    <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import from_pipeline

CODE = "KZ106"
RULE = "binding.type-mismatch"
SEVERITY = Severity.ERROR


def check(context):
    return from_pipeline(context, RULE)   # found while evaluating the bindings
