"""A binding expression that does not parse.

The position is inside the expression text, mapped into the file. Common slips: a `%`
(use `mod()` or `rem()`), `if`/`else` (use `cond ? a : b`), an unclosed `{` or `(`, two
statements on one line. Remember that `<` and `&` must be written `&lt;` and `&amp;` in XML.

To fix: correct the expression at the caret (an unclosed bracket or brace, a missing
operand).

Failing:

    <Binding target="Emission.Rate">{./Emission.Lifetime} % 2</Binding>

Passing:

    <Binding target="Emission.Rate">mod({./Emission.Lifetime}, 2)</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ201"
RULE = "expr.syntax"
SEVERITY = Severity.ERROR

# No check(): found while parsing the expressions; the engine reports it as found.
