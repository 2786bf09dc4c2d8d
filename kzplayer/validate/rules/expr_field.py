"""A field the value does not have.

Fields after a reference or variable: `x y z w` (also `vectorX`...) on vectors, `r g b a`
on colours, `translationX/Y/Z`, `scaleX/Y/Z`, `rotation...` on SRTs. A Vector2 has no `z`,
a float has no fields at all.

To fix: use a field the value's type has (`x`, `y` on a Vector2; `r`, `g`, `b`, `a` on a
colour).

Failing:

    <Binding target="Emission.Rate">{./Emission.Lifetime}.x</Binding>

Passing:

    <Binding target="Emission.Rate">{./Emission.InitialVelocityDirection}.x * 100</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ205"
RULE = "expr.field"
SEVERITY = Severity.ERROR

# No check(): found while checking the expressions; the engine reports it as found.
