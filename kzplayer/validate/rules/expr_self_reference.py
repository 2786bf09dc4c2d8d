"""A binding that reads its own target property.

A binding cannot depend on the value it produces. To modify the current value rather than
replace it, use `getCurrentValue()`.

To fix: read another property, or keep the value in a property of its own that the binding
reads.

Failing:

    <Binding target="Emission.Rate">{./Emission.Rate} * 2</Binding>

Passing:

    <Binding target="Emission.Rate">getCurrentValue() * 2</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ207"
RULE = "expr.self-reference"
SEVERITY = Severity.ERROR

# No check(): found while resolving the bindings; the engine reports it as found.
