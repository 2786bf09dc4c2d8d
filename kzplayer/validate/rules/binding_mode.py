"""An unknown binding mode, or a two-way binding that cannot write back.

`BindingItem.BindingMode` (or `mode=` of `<Binding>`) is `ONE_WAY` (also `OneWay`),
`TWO_WAY` or `TO_SOURCE`. A TWO_WAY binding writes changes of its target back to its source,
so its expression must be exactly one reference; with a computed expression it still works
one way (a warning). A TO_SOURCE binding (Kanzi's to-source binding: the expression's value
is written into the push target's property, which other inputs may change again) takes any
expression, as in Kanzi's own example `{@../Slider/RangeConcept.Value} == 0 ? 0 : 1`.

To fix: write `ONE_WAY`, `TWO_WAY` or `TO_SOURCE`; a binding that writes back needs an
expression that is exactly one reference.

Failing:

    <Binding target="Emission.Rate" mode="TWO_WAY">{../A/Emission.Rate} * 2</Binding>

Passing:

    <Binding target="Emission.Rate" mode="TWO_WAY">{../A/Emission.Rate}</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ108"
RULE = "binding.mode"
SEVERITY = Severity.ERROR

# No check(): found while compiling the bindings; the engine reports it as found.
