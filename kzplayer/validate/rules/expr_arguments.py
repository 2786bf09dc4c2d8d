"""A function called with the wrong number of arguments.

`clamp(low, high, value)` takes three (value last), `min`/`max`/`pow` two, `Vector3` three,
`Srt3D` nine and so on; the message says how many the function takes.

To fix: pass as many arguments as the message says the function takes.

Failing:

    <Binding target="Emission.Rate">clamp(0, 100)</Binding>

Passing:

    <Binding target="Emission.Rate">clamp(0, 100, {./Emission.Lifetime} * 50)</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ203"
RULE = "expr.arguments"
SEVERITY = Severity.ERROR

# No check(): found while checking the expressions; the engine reports it as found.
