"""An operation on values of the wrong type.

Arithmetic is component-wise on vectors and colours; int, float and bool convert
implicitly; strings only concatenate with `+` and convert to and from numbers only with an
explicit cast (`string(5)`, `float("2.5")`).

To fix: convert explicitly (`float(...)`, `string(...)`) or use a value of the type the
operation takes.

Failing:

    <Binding target="Emission.Rate">"5" * {./Emission.Lifetime}</Binding>

Passing:

    <Binding target="Emission.Rate">float("5") * {./Emission.Lifetime}</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ204"
RULE = "expr.type"
SEVERITY = Severity.ERROR

# No check(): found while checking the expressions; the engine reports it as found.
