"""A clean shared tree (parser.shared) turned once into one Python function of its reference
values, so that running a binding is one call, not a walk of its tree.

    run = compiled(tree)          # None where the tree needs the evaluator (see below)
    value = run(values)           # values[k]: the value of tree.shared_references[k]

It makes the evaluator's calls (arithmetic.binary, unary, the function table's impl, ...)
in the evaluator's order, so a value it returns is the value `evaluate` returns, bit for
bit. Only shallow trees (parser.SHALLOW levels) are compiled: a call a level. It has no
positions and no messages: any exception means "run the evaluator instead" (the caller
does, and the evaluator raises the same problem with its place). Trees with
variables, ranges of nodes, continueIf, getCurrentValue or createView, and calls the
checker would refuse, are left to the evaluator (None).
"""
from __future__ import annotations

import operator

from kzplayer.expr import ast
from kzplayer.expr.arithmetic import binary, fold, truthy, unary
from kzplayer.expr.fields import get_field
from kzplayer.expr.functions import lookup

_NOT_COMPILED = object()
_ENGINE = frozenset({"continueif", "getcurrentvalue", "createview"})   # need the environment
_NUMBERS = frozenset({int, float, bool})


class _Refused(Exception):
    """The tree holds something only the evaluator runs."""


def compiled(tree: ast.Program):
    """The function of `tree` (made on first use, kept on the tree), or None."""
    run = getattr(tree, "compiled", _NOT_COMPILED)
    if run is _NOT_COMPILED and not getattr(tree, "shallow", False):
        run = tree.compiled = None      # as deep as the limits allow: the evaluator's recursion guard
    if run is _NOT_COMPILED:
        slots = {ref.key: k for k, ref in enumerate(tree.shared_references)}
        try:
            parts = [_node(s, slots) for s in tree.statements]
        except _Refused:
            run = None
        else:
            run = _sequence(parts) if parts else (lambda values: None)
        tree.compiled = run
    return run


def _sequence(parts):
    if len(parts) == 1:
        return parts[0]
    *first, last = parts

    def run(values):
        for p in first:           # evaluated for what they may raise, as the evaluator does
            p(values)
        return last(values)
    return run


def _node(node, slots):
    cls = node.__class__
    if cls in (ast.Number, ast.String, ast.Bool):
        value = node.value
        return lambda values: value
    if cls is ast.Ref:
        k = slots[node.reference.key]
        return lambda values: values[k]
    if cls is ast.Unary:
        op, operand = node.op, _node(node.operand, slots)
        return lambda values: unary(op, operand(values))
    if cls is ast.Binary:
        return _binary(node.op, _node(node.left, slots), _node(node.right, slots))
    if cls is ast.Ternary:
        cond, then, otherwise = (_node(n, slots) for n in (node.cond, node.then, node.otherwise))
        return lambda values: then(values) if truthy(cond(values)) else otherwise(values)
    if cls is ast.Field:
        value, name = _node(node.value, slots), node.field
        return lambda values: get_field(value(values), name)
    if cls is ast.Fold:
        op, operand = node.op, _node(node.operand, slots)
        return lambda values: fold(op, operand(values))
    if cls is ast.Call:
        return _call(node, slots)
    raise _Refused()          # Name, Assign, View: variables and ranges of nodes


def _binary(op, left, right):
    if op in ("&&", "||"):
        stop = op == "||"      # the value of the left operand that decides alone

        def logic(values):
            a = left(values)
            x = truthy(a)
            if x == stop:
                return x
            return binary(op, a, right(values))
        return logic
    if op in ("+", "-", "*"):
        # a float with a number: what arithmetic._scalar computes (`a + b`), without its dispatch
        python = {"+": operator.add, "-": operator.sub, "*": operator.mul}[op]

        def arithmetic(values):
            a, b = left(values), right(values)
            if (a.__class__ is float and b.__class__ in _NUMBERS) or (b.__class__ is float and a.__class__ in _NUMBERS):
                return python(a, b)
            return binary(op, a, b)
        return arithmetic
    return lambda values: binary(op, left(values), right(values))


def _call(node: ast.Call, slots):
    spec = lookup(node.name)
    key = node.key
    if spec is None or not spec.accepts(len(node.args)) or not spec.evaluable or key in _ENGINE:
        raise _Refused()
    impl, args = spec.impl, [_node(a, slots) for a in node.args]
    if len(args) == 1:
        (a,) = args
        return lambda values: impl(a(values))
    if len(args) == 2:
        a, b = args
        return lambda values: impl(a(values), b(values))
    if len(args) == 3:
        a, b, c = args
        return lambda values: impl(a(values), b(values), c(values))
    return lambda values: impl(*[a(values) for a in args])
