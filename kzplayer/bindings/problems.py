"""How the binding rules become Diagnostics. The rules (codes in kzplayer/codes.py):

* path.unresolved: a reference, PushTarget or source item that leads nowhere
* path.stale: an absolute source item left behind by a rename or move
* property.unknown: a BindingSourceItem's Source that names no property of its item
* binding.cycle: bindings that feed each other (the whole loop is named)
* binding.type-mismatch: only like types bind; a buffer only to a buffer
* binding.source-mismatch: SourceExpression and RawCode + sources disagree
* binding.mode: unknown mode, or two-way/to-source without one plain reference
* binding.data-context: {DataContext.x} with no value given (--set)
* binding.output-target: a binding that writes an emitter's output buffer
* cli.override: a --set argument that cannot be applied
and the expression rules (kzplayer/expr/errors.py) where the graph meets them.
"""
from __future__ import annotations

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, Severity, Span


def problem(rule: str, message: str, span: Span | None, *, hint: str | None = None,
            severity: Severity = Severity.ERROR, related: tuple[Span, ...] = ()) -> Diagnostic:
    return Diagnostic(code_for(rule), rule, severity, message, span, hint, tuple(s for s in related if s))
