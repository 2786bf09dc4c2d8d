"""AST -> text that parses back to the same tree, with the fewest parentheses the
precedence table allows. References print in brace spelling."""
from __future__ import annotations

from kzplayer.expr import ast
from kzplayer.expr.limits import deep_recursion

# Binding strength of each binary operator (higher binds tighter); the parser's levels.
PRECEDENCE = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
              "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8,
              "+": 9, "-": 9, "*": 10, "/": 10}
TERNARY, UNARY, POSTFIX, ATOM = 0, 11, 12, 13
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def precedence(node: ast.Node) -> int:
    if isinstance(node, ast.Ternary):
        return TERNARY
    if isinstance(node, ast.Binary):
        return PRECEDENCE[node.op]
    if isinstance(node, (ast.Unary, ast.Fold)) or (isinstance(node, ast.Number) and node.value < 0):
        return UNARY
    if isinstance(node, ast.Field):
        return POSTFIX
    return ATOM


def to_text(node) -> str:
    """A Program (one statement a line) or a node as source text."""
    with deep_recursion():
        return _text(node)


def _text(node) -> str:
    if isinstance(node, ast.Program):
        return "\n".join(_text(s) for s in node.statements)
    if isinstance(node, ast.Assign):
        target = node.name + (f".{node.field}" if node.field else "")
        return f"{target} = {_text(node.value)}"
    if isinstance(node, ast.Number):
        return _number(node.value)
    if isinstance(node, ast.String):
        return '"' + "".join(_ESCAPES.get(c, c) for c in node.value) + '"'
    if isinstance(node, ast.Bool):
        return "true" if node.value else "false"
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Ref):
        return node.reference.canonical
    if isinstance(node, ast.View):
        src = node.source.name if isinstance(node.source, ast.Name) else node.source.reference.canonical[1:-1]
        return "{" + src + " ... " + node.property + "}"
    if isinstance(node, ast.Fold):
        return "..." + node.op + " " + _wrap(node.operand, precedence(node.operand) < UNARY)
    if isinstance(node, ast.Unary):
        inner = _wrap(node.operand, precedence(node.operand) < UNARY)
        return node.op + (" " + inner if inner.startswith(node.op) else inner)
    if isinstance(node, ast.Binary):
        p = PRECEDENCE[node.op]
        left = _wrap(node.left, precedence(node.left) < p)
        right = _wrap(node.right, precedence(node.right) <= p)
        return f"{left} {node.op} {right}"
    if isinstance(node, ast.Ternary):
        cond = _wrap(node.cond, precedence(node.cond) <= TERNARY)
        return f"{cond} ? {_text(node.then)} : {_text(node.otherwise)}"
    if isinstance(node, ast.Field):
        inner = _wrap(node.value, precedence(node.value) < POSTFIX or isinstance(node.value, ast.Number))
        return f"{inner}.{node.field}"
    if isinstance(node, ast.Call):
        generic = f"<{', '.join(node.type_args)}>" if node.type_args else ""
        return f"{node.name}{generic}({', '.join(_text(a) for a in node.args)})"
    raise TypeError(f"not an expression node: {node!r}")


def _wrap(node: ast.Node, parens: bool) -> str:
    text = _text(node)
    return f"({text})" if parens else text


def _number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    text = repr(float(value))
    return text if any(c in text for c in ".e") else text + ".0"
