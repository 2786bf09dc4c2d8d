"""An unknown binding mode, or a two-way binding that cannot write back.

`BindingItem.BindingMode` (or `mode=` of `<Binding>`) is `ONE_WAY` (also `OneWay`),
`TWO_WAY` or `TO_SOURCE`. A binding that writes back to its source needs a source to write
to: its expression must be exactly one reference. A TWO_WAY binding with a computed
expression still works one way (a warning); a TO_SOURCE one does nothing (an error).

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
