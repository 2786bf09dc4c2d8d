"""Bindings that feed each other in a loop.

A binding runs after every binding it reads from. When A's value depends on B and B's on A,
there is no order: Kanzi re-evaluates them forever or not at all. kzplayer runs none of the
bindings on the loop and names each member. To make a binding adjust its own target, read
`getCurrentValue()` instead of the target property.

To fix: remove one binding of the loop, or make one of them read a property no binding of
the loop writes.

Failing:

    <ParticleEmitter name="A">
      <Binding target="Emission.Rate">{../B/Emission.Rate} + 1</Binding>
    </ParticleEmitter>
    <ParticleEmitter name="B">
      <Binding target="Emission.Rate">{../A/Emission.Rate} + 1</Binding>
    </ParticleEmitter>

Passing:

    <ParticleEmitter name="A">
      <Property name="Emission.Rate">100</Property>
    </ParticleEmitter>
    <ParticleEmitter name="B">
      <Binding target="Emission.Rate">{../A/Emission.Rate} + 1</Binding>
    </ParticleEmitter>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ105"
RULE = "binding.cycle"
SEVERITY = Severity.ERROR

# No check(): found while ordering the bindings; the engine reports it as found.
