"""A binding whose evaluation divides by zero.

The binding leaves its target unchanged (as Kanzi does when a binding fails). Guard the
divisor, for example with `max()` or `continueIf()`.

To fix: guard the divisor (`max({./A}, 0.001)`) or skip the binding while it is zero
(`continueIf(...)`).

Failing:

    <Binding target="Emission.Rate">100 / {./Emission.OffDuration}</Binding>   <!-- OffDuration 0 -->

Passing:

    <Binding target="Emission.Rate">100 / max({./Emission.OffDuration}, 0.01)</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ209"
RULE = "expr.division-by-zero"
SEVERITY = Severity.ERROR

# No check(): found while evaluating the bindings; the engine reports it as found.
