"""The expression rules and ExprError.

Parse and check collect Diagnostics; only evaluation raises, with `ExprError`, because a
binding whose evaluation fails leaves its target unchanged and the caller must know.
"""
from __future__ import annotations

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span

# The rules: expr.syntax, expr.unknown-function, expr.arguments, expr.type, expr.field (not a
# field of the value), expr.unassigned (used before assignment), expr.self-reference (the
# target read in its own binding), expr.not-evaluable (engine-only, a note),
# expr.division-by-zero, expr.value ("abc" to int), expr.reference (the environment cannot
# resolve one). Their codes are in kzplayer/codes.py, the one table.


def not_evaluable(what: str) -> str:
    """The message of expr.not-evaluable; one wording for the checker's note and the evaluator."""
    return f"{what} is computed by the Kanzi engine; not evaluable in kzplayer"


def diagnostic(rule: str, message: str, span: Span | None, *, hint: str | None = None,
               severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(code_for(rule), rule, severity, message, span, hint)


class ExprError(KzError):
    """Evaluation failed; `.diagnostic` says where inside the expression and why."""

    def __init__(self, diag: Diagnostic):
        self.diagnostic = diag
        super().__init__(diag)

    @classmethod
    def at(cls, rule: str, message: str, span: Span | None, hint: str | None = None) -> "ExprError":
        return cls(diagnostic(rule, message, span, hint=hint))
