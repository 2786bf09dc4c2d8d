"""Program + environment -> value.

The environment gives reference values and the target's current value:

    class Env:
        def lookup(self, ref: Reference): ...      # the value of {path/Property} or {N}
        def current_value(self): ...              # for getCurrentValue()
        # optional, for ranges of nodes:
        def read_property(self, item: ItemRef, name: str): ...   # {view ... Name}
        def output_size(self) -> int | None: ...  # createView<OutputSize>: the uniform array length

Failures raise ExprError with the position of the node that failed; `continueIf(false)`
is not a failure: it returns `Result(skipped=True)` and the target keeps its value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from kzplayer.expr import ast
from kzplayer.expr import ranges
from kzplayer.expr.arithmetic import BadValue, DivisionByZero, TypeMismatch, binary, fold, truthy, unary
from kzplayer.expr.errors import ExprError, not_evaluable
from kzplayer.expr.fields import FieldError, get_field, set_field
from kzplayer.expr.functions import lookup
from kzplayer.expr.limits import deep_recursion, wrap32
from kzplayer.expr.suggest import unknown_function
from kzplayer.values import ItemRef, Range


class Environment(Protocol):
    def lookup(self, ref: ast.Reference) -> Any: ...

    def current_value(self) -> Any: ...


@dataclass
class Result:
    value: Any = None
    skipped: bool = False               # continueIf(false): leave the target unchanged
    variables: dict[str, Any] = field(default_factory=dict)


class _Skip(Exception):
    pass


def evaluate(program: ast.Program, env: Environment) -> Result:
    if program.diagnostics:
        raise ExprError(program.diagnostics[0])
    ev = _Evaluator(env)
    try:
        if getattr(program, "shallow", False):      # a cached tree a few levels deep (parser.shared)
            value = ev.run_all(program.statements)
        else:
            with deep_recursion():
                value = ev.run_all(program.statements)
    except _Skip:
        return Result(None, True, ev.variables)
    return Result(value, False, ev.variables)


class _Evaluator:
    def __init__(self, env: Environment):
        self.env = env
        self.variables: dict[str, Any] = {}

    def fail(self, node: ast.Node, rule: str, message: str, hint: str | None = None):
        raise ExprError.at(rule, message, node.span, hint)

    def guarded(self, node: ast.Node, f, *args):
        """Run an operation, giving its failure the node's position."""
        try:
            return f(*args)
        except DivisionByZero as e:
            self.fail(node, "expr.division-by-zero", str(e), "guard the divisor, e.g. b != 0 ? a / b : 0")
        except FieldError as e:
            self.fail(node, "expr.field", str(e))
        except TypeMismatch as e:
            self.fail(node, "expr.type", str(e))
        except BadValue as e:
            self.fail(node, "expr.value", str(e))
        except (OverflowError, ValueError) as e:
            self.fail(node, "expr.value", str(e))

    def run_all(self, statements):
        value = None
        for statement in statements:
            value = self.run(statement)
        return value

    def run(self, node: ast.Node):
        if isinstance(node, ast.Assign):
            value = self.run(node.value)
            if node.field:
                old = self.variable(node, node.name)
                value = self.guarded(node, set_field, old, node.field, value)
            self.variables[node.name] = value
            return value
        return self.eval(node)

    def variable(self, node: ast.Node, name: str):
        if name not in self.variables:
            self.fail(node, "expr.unassigned", f"'{name}' is used before it is assigned",
                      f"assign it first: {name} = ...")
        return self.variables[name]

    def eval(self, node: ast.Node):
        if isinstance(node, (ast.Number, ast.String, ast.Bool)):
            return node.value
        if isinstance(node, ast.Name):
            return self.variable(node, node.name)
        if isinstance(node, ast.Ref):
            try:
                value = self.env.lookup(node.reference)
                # Kanzi's ints are 32-bit, whatever a DataContext or an override holds
                return wrap32(value) if type(value) is int else value
            except ExprError:
                raise
            except LookupError as e:
                self.fail(node, "expr.reference", f"cannot resolve {node.reference.spelling}: {e}")
        if isinstance(node, ast.Unary):
            return self.guarded(node, unary, node.op, self.eval(node.operand))
        if isinstance(node, ast.Binary):
            left = self.eval(node.left)
            if node.op in ("&&", "||"):       # short-circuit, as in C++
                x = self.guarded(node.left, truthy, left, f"an operand of '{node.op}'")
                if x == (node.op == "||"):
                    return x
            return self.guarded(node, binary, node.op, left, self.eval(node.right))
        if isinstance(node, ast.Ternary):
            cond = self.guarded(node.cond, truthy, self.eval(node.cond), "the condition of '?:'")
            return self.eval(node.then if cond else node.otherwise)
        if isinstance(node, ast.Field):
            return self.guarded(node, get_field, self.eval(node.value), node.field)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.View):
            return self.view(node)
        if isinstance(node, ast.Fold):
            return self.guarded(node, fold, node.op, self.eval(node.operand))
        raise TypeError(f"cannot evaluate {node!r}")

    def view(self, node: ast.View) -> Range:
        """`{source ... Property}`: the property read from each node of the range."""
        src = self.eval(node.source)
        if not isinstance(src, Range):
            self.fail(node, "expr.type", ranges.not_a_range(node, src))
        read = getattr(self.env, "read_property", None)
        out = []
        for item in src.items:
            if not isinstance(item, ItemRef):
                self.fail(node, "expr.type", ranges.not_nodes(node, item))
            if read is None:
                self.fail(node, "expr.not-evaluable", not_evaluable(f"reading {node.property} from the nodes of a range"))
            try:
                out.append(read(item, node.property))
            except LookupError as e:
                self.fail(node, "expr.reference", f"cannot read {node.property} from {item}: {e}")
        return Range(tuple(out))

    def call(self, node: ast.Call):
        spec = lookup(node.name)
        if spec is None:
            message, hint = unknown_function(node)
            raise ExprError.at("expr.unknown-function", message, node.name_span or node.span, hint)
        n = len(node.args)
        if not spec.accepts(n):
            self.fail(node, "expr.arguments",
                      f"{spec.name}() takes {spec.arity_text()} argument(s), got {n}")
        if not spec.evaluable:
            raise ExprError.at("expr.not-evaluable", not_evaluable(f"{spec.name}()"), node.name_span or node.span)
        key = node.key
        if key == "continueif":
            if not self.guarded(node, truthy, self.eval(node.args[0]), "the condition of continueIf"):
                raise _Skip()
            return True
        if key == "getcurrentvalue":
            return self.env.current_value()
        args = [self.eval(a) for a in node.args]
        if key == "createview":
            return self.create_view(node, args)
        result = self.guarded(node, spec.impl, *args)
        if key in ranges.UPDATES_FIRST and isinstance(node.args[0], ast.Name):
            # evaluate(r) steps the iterator r; setField(m, i, x) changes m (Kanzi's examples)
            self.variables[node.args[0].name] = ranges.advanced(args[0]) if key == "evaluate" else result
        return result

    def create_view(self, node: ast.Call, args):
        length = args[1] if len(args) > 1 else None
        if node.type_args:
            if not ranges.view_length_ok(node.type_args):
                self.fail(node, "expr.arguments", ranges.bad_view_length(node))
            word = node.type_args[0]
            if word == ranges.OUTPUT_SIZE:
                size = getattr(self.env, "output_size", lambda: None)()
                if size is None:
                    self.fail(node, "expr.not-evaluable", not_evaluable(
                        "createView<OutputSize>(), the length of the uniform array the binding fills,"))
                length = size
            else:
                length = int(word)
        return self.guarded(node, ranges.create_view, args[0], length)
