"""A binding expression checked as it is typed: the first problem at its column in the
expression (the same messages `validate` gives), and the value it evaluates to.

The expression is tried in place of the item's binding (the short form: what it says is
what runs) with its text starting at line 1, column 1 of `<expression>`, the whole binding
graph resolved once with it, and the binding put back: nothing of the project changes.
"""
from __future__ import annotations

from kzplayer.bindings import resolve
from kzplayer.bindings.binding import compile_binding
from kzplayer.diagnostics import Severity, Span
from kzplayer.project.literal_format import format_literal
from kzplayer.project.model import Binding

WHERE = "<expression>"


def check_expression(project, item, index: int | None, expression: str, target: str | None = None) -> dict:
    """{"ok", "problems": [{message, hint, severity, line, column, end_column}], "value"}
    for the item's binding #index with `expression`; index None: a new binding of `target`."""
    if index is None:
        old = Binding(target=target, expression="", short=True, owner=item)
        item.bindings.append(old)
        try:
            return check_expression(project, item, len(item.bindings) - 1, expression)
        finally:
            item.bindings.remove(old)
    old = item.bindings[index]
    trial = Binding(target=old.target, expression=expression, name=old.name, field=old.field,
                    mode=old.mode, push_target=old.push_target, enabled=old.enabled, short=True,
                    owner=item)
    trial.span = trial.expression_span = trial.target_span = Span(WHERE, 1, 1)
    _, found = compile_binding(trial, 0, project)
    problems = [_problem(d) for d in found if d.severity != Severity.NOTE]
    value = None
    if not any(p["severity"] == "error" for p in problems):
        item.bindings[index] = trial
        try:
            graph = resolve(project)
            problems += [_problem(d) for d in graph.diagnostics
                         if d.span is not None and d.span.file == WHERE and d.severity != Severity.NOTE]
            target = _target(trial) or item
            if graph.is_evaluated(target, old.target):
                spec = project.property_spec(old.target)
                value = format_literal(graph.value(target, old.target), spec.type if spec else None)
        finally:
            item.bindings[index] = old
    return {"ok": not any(p["severity"] == "error" for p in problems), "problems": problems, "value": value}


def _target(binding):
    return binding.owner.find(binding.push_target) if binding.push_target else binding.owner


def _problem(d) -> dict:
    s = d.span
    inside = s is not None and s.file == WHERE
    return {"message": d.message, "hint": d.hint, "severity": d.severity.value, "rule": d.rule,
            "line": s.line if inside else None, "column": s.column if inside else None,
            "end_column": s.end_column if inside else None}
