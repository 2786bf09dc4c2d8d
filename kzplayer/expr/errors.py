"""The expression rules (stable slugs and codes) and ExprError.

Parse and check collect Diagnostics; only evaluation raises, with `ExprError`, because a
binding whose evaluation fails leaves its target unchanged and the caller must know.
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span

# rule slug -> stable code. The first four are the rules of cli.md.
CODES = {
    "expr.syntax": "KZ301",
    "expr.unknown-function": "KZ302",
    "expr.arguments": "KZ303",
    "expr.type": "KZ304",
    "expr.field": "KZ305",            # not a valid field of the value
    "expr.unassigned": "KZ306",       # identifier used before assignment
    "expr.self-reference": "KZ307",   # the target property read in its own binding
    "expr.not-evaluable": "KZ308",    # engine-only construct (note)
    "expr.division-by-zero": "KZ309",
    "expr.value": "KZ310",           # a value the operation cannot take ("abc" to int)
    "expr.reference": "KZ311",       # a reference the environment cannot resolve
}


def not_evaluable(what: str) -> str:
    """The message of expr.not-evaluable; one wording for the checker's note and the evaluator."""
    return f"{what} is computed by the Kanzi engine; not evaluable in kzplayer"


def diagnostic(rule: str, message: str, span: Span | None, *, hint: str | None = None,
               severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(CODES[rule], rule, severity, message, span, hint)


class ExprError(KzError):
    """Evaluation failed; `.diagnostic` says where inside the expression and why."""

    def __init__(self, diag: Diagnostic):
        self.diagnostic = diag
        super().__init__(diag)

    @classmethod
    def at(cls, rule: str, message: str, span: Span | None, hint: str | None = None) -> "ExprError":
        return cls(diagnostic(rule, message, span, hint=hint))
