"""A binding that writes an emitter's output buffer, or another property the engine computes.

`ParticleEmitter.EventBuffer` and `ParticleEmitter.ParticleDataBuffer` are filled by the
engine; bindings read them (to feed a subemitter) and can never write them. Usually the
binding's Target and source are swapped. The same holds for what Kanzi's layout computes
(`Node.ActualWidth`, `Node.ActualHeight`, `Node.ActualDepth`) and `Node.Hover`: read-only
engine properties (`output = true` in the catalog).

To fix: bind the consumer property of the subemitter instead (`Emission.SourceEventBuffer`,
`Emission.SourceParticleDataBuffer`), reading the output.

Failing:

    <Binding target="ParticleEmitter.EventBuffer">{../Sub/Emission.SourceEventBuffer}</Binding>

Passing (on the subemitter):

    <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ110"
RULE = "binding.output-target"
SEVERITY = Severity.ERROR

# No check(): found while compiling the bindings; the engine reports it as found.
