"""A variable used before it is assigned.

A binding program may set variables on earlier lines (`A = {./Emission.Rate}`) and use them
later; a name that was never assigned is an error (a misspelt variable, or a function call
without parentheses).

To fix: assign the variable before its first use, or correct its spelling.

Failing:

    <Binding target="Emission.Rate">Rate * 2</Binding>

Passing:

    <Binding target="Emission.Rate">Rate = {./Emission.Lifetime} * 10
    Rate * 2</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ206"
RULE = "expr.unassigned"
SEVERITY = Severity.ERROR

# No check(): found while checking the expressions; the engine reports it as found.
