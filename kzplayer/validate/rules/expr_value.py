"""A value an operation cannot take, met while evaluating a binding.

Casts and functions check their input when the binding runs: `int("abc")`, `sqrt(-1)`.
The binding leaves its target unchanged.

To fix: give the operation a value it takes (a number string to `int()`, a non-negative
number to `sqrt()`).

Failing:

    <Binding target="Emission.Rate">float("fast")</Binding>

Passing:

    <Binding target="Emission.Rate">float("2.5") * 100</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ210"
RULE = "expr.value"
SEVERITY = Severity.ERROR

# No check(): found while evaluating the bindings; the engine reports it as found.
