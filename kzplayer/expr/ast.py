"""The syntax tree. Every node carries a `span` in the file; spans do not take part in
equality, so two parses of the same program compare equal wherever they were written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kzplayer.diagnostics import Diagnostic, Span
from kzplayer.expr.limits import MAX_DEPTH, deep_recursion

def _span():
    return field(default=None, compare=False, repr=False)

REF_KINDS = ("relative", "absolute", "alias", "template", "datacontext", "index")


@dataclass(frozen=True)
class Reference:
    """`{./Emission.Rate}`, `<./Emission.Rate>`, `{@../Box/Node.Width}`, `{0}`, `{DataContext.a.b}`.

    `path` is the item path as written without `@` ("." for this item, "#Alias",
    "##Template", "DataContext" for data-context references, None for `{N}`); `property` is
    the property name (None for `{N}`); `tracked` is the `@` mark.
    """
    spelling: str = field(compare=False)
    kind: str
    path: str | None
    property: str | None
    index: int | None = None
    tracked: bool = False
    span: Span | None = _span()

    @property
    def key(self) -> tuple:
        """What makes two references the same source (Kanzi gives them one index)."""
        return (self.path, self.property, self.index)

    @property
    def canonical(self) -> str:
        """The reference in brace spelling, as the printer writes it."""
        if self.kind == "index":
            return f"{{{self.index}}}"
        at = "@" if self.tracked else ""
        if self.kind == "datacontext":
            return f"{{{at}{self.path}{'.' + self.property if self.property else ''}}}"
        sep = "" if self.path == "/" else "/"      # `{a//b}` keeps its empty segment
        return f"{{{at}{self.path}{sep}{self.property}}}"


class Node:
    span: Span | None


@dataclass(frozen=True)
class Number(Node):
    value: int | float
    span: Span | None = _span()


@dataclass(frozen=True)
class String(Node):
    value: str
    span: Span | None = _span()


@dataclass(frozen=True)
class Bool(Node):
    value: bool
    span: Span | None = _span()


@dataclass(frozen=True)
class Name(Node):
    """A variable."""
    name: str
    span: Span | None = _span()


@dataclass(frozen=True)
class Ref(Node):
    reference: Reference
    span: Span | None = _span()


@dataclass(frozen=True)
class View(Node):
    """`{lightsView ... PointLightColor}`: `property` read from each element of the range that
    `source` gives (a Name, or a Ref to a node list such as
    `{##RenderPass/DrawObjectsRenderPass.PointLights ... PointLightColor}`): a range of values."""
    source: Node
    property: str
    span: Span | None = _span()


@dataclass(frozen=True)
class Fold(Node):
    """`...* range`: the range reduced to one value with `op`, left to right."""
    op: str
    operand: Node
    span: Span | None = _span()


@dataclass(frozen=True)
class Unary(Node):
    op: str
    operand: Node
    span: Span | None = _span()


@dataclass(frozen=True)
class Binary(Node):
    op: str
    left: Node
    right: Node
    span: Span | None = _span()


@dataclass(frozen=True)
class Ternary(Node):
    cond: Node
    then: Node
    otherwise: Node
    span: Span | None = _span()


@dataclass(frozen=True)
class Field(Node):
    value: Node
    field: str
    field_span: Span | None = _span()
    span: Span | None = _span()


@dataclass(frozen=True)
class Call(Node):
    """`name(args)`; `type_args` holds the `<N>` of engine generics like createView<N>()."""
    name: str
    args: tuple[Node, ...]
    type_args: tuple[str, ...] = ()
    name_span: Span | None = _span()
    span: Span | None = _span()

    @property
    def key(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Assign(Node):
    """`A = expr`, or with `field` set, `v.x = expr`."""
    name: str
    value: Node
    field: str | None = None
    span: Span | None = _span()


@dataclass
class Program:
    """A parsed binding: statements, the references in source order, syntax diagnostics."""
    statements: list[Node]
    text: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    span: Span | None = None

    def __eq__(self, other: Any) -> bool:
        with deep_recursion():        # trees as deep as the limits allow compare too
            return isinstance(other, Program) and self.statements == other.statements

    @property
    def ok(self) -> bool:
        return not self.diagnostics

    @property
    def references(self) -> list[Reference]:
        return [n.reference for n in walk(self) if isinstance(n, Ref)]

    @property
    def unique_references(self) -> list[Reference]:
        """One per source, in order of first use: the index `{N}` RawCode would give each."""
        seen: dict[tuple, Reference] = {}
        for ref in self.references:
            seen.setdefault(ref.key, ref)
        return list(seen.values())


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, (Unary, Fold)):
        return (node.operand,)
    if isinstance(node, View):
        return (node.source,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Ternary):
        return (node.cond, node.then, node.otherwise)
    if isinstance(node, Field):
        return (node.value,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Assign):
        return (node.value,)
    return ()


def walk(node):
    """Every node, parents before children, in source order."""
    stack = list(reversed(node.statements)) if isinstance(node, Program) else [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def too_deep(statements) -> tuple[object, int] | None:
    """(the first node, in source order, that lies deeper than MAX_DEPTH levels below its
    statement, and the tree's depth), or None. Iterative, so it is safe on any tree."""
    found, deepest = None, 0
    for statement in statements:
        stack = [(statement, 1)]
        while stack:
            node, depth = stack.pop()
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH and found is None:
                found = node
            stack.extend((c, depth + 1) for c in reversed(children(node)))
    return (found, deepest) if found is not None else None


def depth(statements) -> int:
    """Levels of the deepest statement (a leaf is 1). Iterative, so it is safe on any tree."""
    deepest = 0
    for statement in statements:
        stack = [(statement, 1)]
        while stack:
            node, level = stack.pop()
            deepest = max(deepest, level)
            stack.extend((c, level + 1) for c in children(node))
    return deepest


def relocate(program: Program, file: str, where) -> Program:
    """A copy of `program` (parsed as if it started at line 1, column 1 of '<expression>') with
    every span moved into `file`: `where(line, column) -> (line, column)` maps each position.
    Copying a tree is a fraction of parsing it again: the parser's cache (parser.py) keeps one
    tree per distinct text and hands out relocated copies. Syntax diagnostics are not moved:
    only clean programs are cached."""
    spans: dict[Span, Span] = {}
    new = object.__new__

    def span(s: Span) -> Span:
        out = spans.get(s)
        if out is None:
            (l0, c0), (l1, c1) = where(s.line, s.column), where(s.end_line, s.end_column)
            out = spans[s] = Span(file, l0, c0, l1, c1)
        return out

    def copy(obj):
        d = obj.__dict__.copy()
        for k, v in d.items():
            cls = v.__class__
            if cls is Span:
                d[k] = span(v)
            elif cls is tuple:
                if v and isinstance(v[0], Node):
                    d[k] = tuple(copy(x) for x in v)
            elif isinstance(v, (Node, Reference)):
                d[k] = copy(v)
        out = new(obj.__class__)
        out.__dict__.update(d)         # frozen dataclasses: set as their own __init__ does
        return out

    with deep_recursion():
        statements = [copy(s) for s in program.statements]
    return Program(statements, program.text, [], span(program.span) if program.span else None)
