"""The binding rules (stable slugs from cli.md and their codes) and how they become Diagnostics.

The validator stamps every diagnostic with its own rule module's code when it has one for the
slug; these codes are the ones the player and `inspect` show.
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.expr.errors import CODES as EXPR_CODES

CODES = {
    "path.unresolved": "KZ201",           # a reference, PushTarget or source item that leads nowhere
    "path.stale": "KZ209",                # an absolute source item left behind by a rename or move
    "binding.cycle": "KZ202",             # bindings that feed each other (the whole loop is named)
    "binding.type-mismatch": "KZ203",     # only like types bind; a buffer only to a buffer
    "binding.source-mismatch": "KZ204",   # SourceExpression and RawCode + sources disagree
    "binding.mode": "KZ205",              # unknown mode, or two-way/to-source without one plain reference
    "binding.data-context": "KZ206",      # {DataContext.x} with no value given (--set)
    "binding.output-target": "KZ207",     # a binding that writes an emitter's output buffer
    "cli.override": "KZ208",              # a --set argument that cannot be applied
    # expr.self-reference and expr.not-evaluable (material bindings) are also reported here
    **EXPR_CODES,
}


def problem(rule: str, message: str, span: Span | None, *, hint: str | None = None,
            severity: Severity = Severity.ERROR, related: tuple[Span, ...] = ()) -> Diagnostic:
    return Diagnostic(CODES[rule], rule, severity, message, span, hint, tuple(s for s in related if s))
