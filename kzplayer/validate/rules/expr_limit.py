"""An expression beyond the language's limits: too long, nested too deep, too deep a chain.

The limits are generous and explicit (kzplayer/expr/limits.py, docs/expressions.md):
an expression of at most 100,000 characters, brackets, calls, unary operators and `?:`
nested at most 200 deep, and a syntax tree at most 2,000 levels deep, where each operator
of a chain such as `a + b + c` is one level (so a sum of 2,000 terms is the most). Past a
limit the binding does not run; the diagnostic points at the spot where the limit is
crossed.

To fix: split the computation: give an inner part its own variable (`A = ...` on a line of
its own, then use `A`), or its own binding on a property of its own.

Failing (201 brackets inside one another):

    <Binding target="Emission.Rate">((((( ... 1 ... )))))</Binding>

Passing:

    <Binding target="Emission.Rate">(({./Emission.Lifetime} + 1) * 2)</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ212"
RULE = "expr.limit"
SEVERITY = Severity.ERROR

# No check(): found by the expression parser; the engine reports it as found.
