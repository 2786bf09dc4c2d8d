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
from kzplayer.validate.engine import from_pipeline

CODE = "KZ203"
RULE = "expr.arguments"
SEVERITY = Severity.ERROR


def check(context):
    return from_pipeline(context, RULE)   # found while checking the expressions
