"""The type checker: walks a program with abstract values and reports what would fail.

An abstract value is a type name plus a value: the real value where it is a constant of
the program (`1 / 0`, `int("abc")` are caught), otherwise a harmless SAMPLE of the type.
Operators and functions run on these values through the very code the evaluator uses, so
the checker and the evaluator cannot disagree on what a type accepts. A failure on
samples only is a type error when it is a TypeMismatch; value problems (division by a
sample zero) count only when every input is a constant.

A range's type names its elements, `range<color4>`; its sample holds one sample element, so
element-wise operators are checked on it. `range` alone (elements of an unknown type) has an
empty sample: everything done to its elements is allowed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.expr import ast
from kzplayer.expr.arithmetic import (BadValue, DivisionByZero, TypeMismatch, binary, fold, is_number, truthy,
                                     unary)
from kzplayer.expr.errors import diagnostic, not_evaluable
from kzplayer.expr.fields import FieldError, get_field, set_field
from kzplayer.expr.functions import lookup
from kzplayer.expr.limits import deep_recursion
from kzplayer.expr.suggest import unknown_function
from kzplayer.expr import ranges
from kzplayer.values import (BufferHandle, Color4, EnumValue, ItemRef, MaterialRef, Matrix, Range, Srt2D,
                             Srt3D, Vector, type_name)

_IDENTITY3 = (1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0)
_IDENTITY4 = (1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0)

SAMPLES: dict[str, Any] = {
    "bool": True, "int": 3, "float": 0.5, "string": "1",
    "vector2": Vector((0.5, 0.25)), "vector3": Vector((0.5, 0.25, 0.75)),
    "vector4": Vector((0.5, 0.25, 0.75, 1.0)), "color4": Color4(0.5, 0.25, 0.75, 1.0),
    "matrix3": Matrix(tuple(float(x) for x in _IDENTITY3)),
    "matrix4": Matrix(tuple(float(x) for x in _IDENTITY4)),
    "srt2d": Srt2D(), "srt3d": Srt3D(), "buffer": BufferHandle("EventBuffer", "/sample"),
    "item": ItemRef("/sample"), "material": MaterialRef("sample"), "enum": EnumValue("sample", 0),
}
TYPES = tuple(SAMPLES)
_ALIASES = {"color": "color4", "matrix3x3": "matrix3", "matrix4x4": "matrix4", "boolean": "bool",
            "integer": "int", "text": "string", "vector": "vector3"}


def normalize_type(name: str | None) -> str | None:
    """A type name as the checker spells it ("color4", "range<item>", "range"), or None."""
    if not name:
        return None
    key = name.strip().lower()
    if key.startswith("range"):
        inner = key[5:].strip()
        if not inner:
            return "range"
        if inner[0] == "<" and inner[-1] == ">":
            elem = normalize_type(inner[1:-1])
            return f"range<{elem}>" if elem else "range"
        return None
    key = _ALIASES.get(key, key)
    return key if key in SAMPLES else None


def sample(type_: str):
    """The sample value of a normalised type."""
    if type_.startswith("range"):
        return Range((sample(type_[6:-1]),)) if type_ != "range" else Range(())
    return SAMPLES[type_]


def type_of(value) -> str:
    """type_name, with a range's element type: `range<color4>` (`range` when it is empty)."""
    if isinstance(value, Range):
        return f"range<{type_of(value.items[0])}>" if value.items else "range"
    return type_name(value)


@dataclass(frozen=True)
class Abstract:
    type: str | None        # None: unknown, every use is allowed
    value: Any = None
    exact: bool = False     # value is the real one (a constant of the program)


UNKNOWN = Abstract(None)


def _of(value, exact: bool) -> Abstract:
    try:
        return Abstract(type_of(value), value, exact)
    except TypeError:
        return UNKNOWN


def check(program: ast.Program, ref_type: Callable[[ast.Reference], str | None] | None = None, *,
          target_type: str | None = None,
          is_target: Callable[[ast.Reference], bool] | None = None,
          property_type: Callable[[str], str | None] | None = None) -> list[Diagnostic]:
    """Diagnostics of a parsed program (syntax errors first, if any).

    ref_type(ref) gives the type of a reference's value ("float", "vector3", "range<item>"
    for a node list...; None when unknown). target_type is the bound property's type (for
    getCurrentValue()); is_target(ref) says whether a reference reads the binding's own
    target (reported: use getCurrentValue()); property_type(name) the type of a property that
    `{view ... Name}` reads from each node of a range (None: unknown)."""
    return infer(program, ref_type, target_type=target_type, is_target=is_target,
                 property_type=property_type)[1]


def infer(program: ast.Program, ref_type=None, *, target_type=None, is_target=None, property_type=None
          ) -> tuple[str | None, list[Diagnostic]]:
    """(the program's result type or None, diagnostics)."""
    if program.diagnostics:
        return None, list(program.diagnostics)
    checker = _Checker(ref_type or (lambda ref: None), normalize_type(target_type), is_target,
                       property_type or (lambda name: None))
    result = UNKNOWN
    with deep_recursion():
        for statement in program.statements:
            result = checker.statement(statement)
    return result.type, sorted(checker.diagnostics, key=Diagnostic.sort_key)


class _Checker:
    def __init__(self, ref_type, target_type, is_target, property_type):
        self.ref_type, self.target_type, self.is_target = ref_type, target_type, is_target
        self.property_type = property_type
        self.variables: dict[str, Abstract] = {}
        self.diagnostics: list[Diagnostic] = []

    def report(self, rule, message, span, hint=None, severity=Severity.ERROR):
        self.diagnostics.append(diagnostic(rule, message, span, hint=hint, severity=severity))

    def apply(self, node, f, *inputs: Abstract, span=None) -> Abstract:
        """Run f on the inputs' values; failures become diagnostics at the node."""
        if any(a.type is None for a in inputs):
            return UNKNOWN
        exact = all(a.exact for a in inputs)
        span = span or node.span
        try:
            return _of(f(*(a.value for a in inputs)), exact)
        except FieldError as e:
            self.report("expr.field", str(e), span)
        except TypeMismatch as e:
            self.report("expr.type", str(e), span)
        except DivisionByZero as e:
            if exact:
                self.report("expr.division-by-zero", str(e), span)
        except (BadValue, ValueError, OverflowError) as e:
            if exact:
                self.report("expr.value", str(e), span)
        return UNKNOWN

    def statement(self, node: ast.Node) -> Abstract:
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            if node.field:
                old = self.variable(node, node.name)
                value = self.apply(node, lambda o, v: set_field(o, node.field, v), old, value)
            self.variables[node.name] = value
            return value
        return self.expr(node)

    def variable(self, node, name: str) -> Abstract:
        if name not in self.variables:
            self.report("expr.unassigned", f"'{name}' is used before it is assigned", node.span,
                        f"assign it first: {name} = ...")
            self.variables[name] = UNKNOWN       # report each name once
        return self.variables[name]

    def expr(self, node: ast.Node) -> Abstract:
        if isinstance(node, (ast.Number, ast.String, ast.Bool)):
            return _of(node.value, True)
        if isinstance(node, ast.Name):
            return self.variable(node, node.name)
        if isinstance(node, ast.Ref):
            ref = node.reference
            if self.is_target and self.is_target(ref):
                self.report("expr.self-reference",
                            f"{ref.spelling} is the target property of this binding", node.span,
                            "read the target's own value with getCurrentValue()")
            t = normalize_type(self.ref_type(ref))
            return Abstract(t, sample(t)) if t else UNKNOWN
        if isinstance(node, ast.Unary):
            return self.apply(node, lambda v: unary(node.op, v), self.expr(node.operand))
        if isinstance(node, ast.Binary):
            return self.apply(node, lambda a, b: binary(node.op, a, b),
                              self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.Ternary):
            return self.ternary(node)
        if isinstance(node, ast.Field):
            return self.apply(node, lambda v: get_field(v, node.field), self.expr(node.value),
                              span=node.field_span)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.View):
            return self.view(node)
        if isinstance(node, ast.Fold):
            operand = self.expr(node.operand)
            if isinstance(operand.value, Range) and not operand.value.items:
                return UNKNOWN          # elements of an unknown type
            return self.apply(node, lambda r: fold(node.op, r), operand)
        return UNKNOWN

    def view(self, node: ast.View) -> Abstract:
        src = self.expr(node.source)
        if src.type is None:
            return UNKNOWN
        if not isinstance(src.value, Range):
            self.report("expr.type", ranges.not_a_range(node, src.value), node.span)
            return UNKNOWN
        if not src.value.items:
            return Abstract("range", Range(()))
        if not isinstance(src.value.items[0], ItemRef):
            self.report("expr.type", ranges.not_nodes(node, src.value.items[0]), node.span)
            return UNKNOWN
        t = normalize_type(self.property_type(node.property))
        return Abstract(f"range<{t}>", Range((sample(t),))) if t else Abstract("range", Range(()))

    def ternary(self, node: ast.Ternary) -> Abstract:
        cond = self.apply(node.cond, lambda c: truthy(c, "the condition of '?:'"), self.expr(node.cond))
        then, other = self.expr(node.then), self.expr(node.otherwise)
        if cond.exact and cond.type:
            return then if cond.value else other
        if then.type is None or other.type is None:
            return UNKNOWN
        if then.type == other.type:
            return Abstract(then.type, then.value)
        if is_number(then.value) and is_number(other.value):
            wider = "float" if "float" in (then.type, other.type) else "int"
            return Abstract(wider, SAMPLES[wider])
        self.report("expr.type", f"the branches of '?:' give {then.type} and {other.type}", node.span,
                    "both branches must have one type")
        return UNKNOWN

    def call(self, node: ast.Call) -> Abstract:
        spec = lookup(node.name)
        args = [self.expr(a) for a in node.args]
        if spec is None:
            message, hint = unknown_function(node)
            self.report("expr.unknown-function", message, node.name_span or node.span, hint)
            return UNKNOWN
        n = len(args)
        if not spec.accepts(n):
            self.report("expr.arguments", f"{spec.name}() takes {spec.arity_text()} argument(s), got {n}",
                        node.span)
            return UNKNOWN
        if not spec.evaluable:
            self.report("expr.not-evaluable", not_evaluable(f"{spec.name}()"), node.name_span or node.span,
                        severity=Severity.NOTE)
            return Abstract(spec.result, SAMPLES[spec.result]) if spec.result else UNKNOWN
        key = node.key
        if key == "continueif":
            self.apply(node, lambda c: truthy(c, "the condition of continueIf"), args[0])
            return Abstract("bool", True)
        if key == "getcurrentvalue":
            t = self.target_type
            return Abstract(t, sample(t)) if t else UNKNOWN
        if key == "createview":
            if node.type_args and not ranges.view_length_ok(node.type_args):
                self.report("expr.arguments", ranges.bad_view_length(node), node.span)
                return UNKNOWN
            return self.apply(node, lambda r, n=None: ranges.create_view(r, n), *args)
        result = self.apply(node, spec.impl, *args)
        if key in ranges.UPDATES_FIRST and isinstance(node.args[0], ast.Name) and result.type:
            # evaluate(r) steps r; setField(m, ...) changes m: what the evaluator does
            value = result.value
            if key == "evaluate":
                value = ranges.advanced(args[0].value)
            self.variables[node.args[0].name] = Abstract(type_of(value), value, result.exact)
        return result
