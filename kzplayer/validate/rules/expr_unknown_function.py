"""A call of a function the expression language does not have.

Function names are case-insensitive (`CLAMP` and `clamp` are the same); the hint names the
closest function (`mx()`: did you mean `max()`?). Engine-only functions of Kanzi materials
(`getWorldMatrix()`, `createView<N>()`, ...) are known but not evaluated: `expr.not-evaluable`.

To fix: use the function the hint names, or one of the expression language's functions.

Failing:

    <Binding target="Emission.Rate">mx({./Emission.Lifetime}, 2)</Binding>

Passing:

    <Binding target="Emission.Rate">max({./Emission.Lifetime}, 2)</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ202"
RULE = "expr.unknown-function"
SEVERITY = Severity.ERROR

# No check(): found while checking the expressions; the engine reports it as found.
