"""Ranges (Kanzi's "Range functions" and "Light uniform bindings"): `createView`, `evaluate`
and `splitString`, and what `{view ... Property}` needs.

A reference to a node list (`{##RenderPass/DrawObjectsRenderPass.PointLights}`) gives a
range of nodes; `createView<N>(range)` / `createView(range, n)` / `createView<OutputSize>(range)`
keep its first N elements (OutputSize: the length of the uniform array the binding fills);
`{view ... PointLightColor}` reads a property from each node. `splitString(s, delimiter)`
gives a range iterator over the pieces; `evaluate(r)` returns the iterator's location and
steps the variable `r` to the next element; a cast (`string(r)`, `float(r)`) reads the
element at the iterator.
"""
from __future__ import annotations

from kzplayer.expr.arithmetic import BadValue, TypeMismatch, number
from kzplayer.expr.registry import define as _define
from kzplayer.values import Range, type_name

# Functions whose first argument, when it is a variable, the evaluator updates in place:
# evaluate steps the iterator, setField / setRow / setColumn change one element.
UPDATES_FIRST = frozenset({"evaluate", "setfield", "setrow", "setcolumn"})
OUTPUT_SIZE = "OutputSize"


def as_range(v, what: str = "the argument") -> Range:
    if not isinstance(v, Range):
        raise TypeMismatch(f"{what} must be a range, not {type_name(v)}")
    return v


def create_view(r, length=None) -> Range:
    """The first `length` elements of a range (all of them when length is None)."""
    r = as_range(r, "the first argument of createView")
    if length is None:
        return Range(r.items)
    n = number(length, "the length of createView")
    if isinstance(n, float):
        n = int(n)
    if n < 0:
        raise BadValue(f"createView of a negative length ({n})")
    return Range(r.items[:n])


def view_length_ok(type_args: tuple[str, ...]) -> bool:
    """`createView<N>`: one constant count or OutputSize."""
    return len(type_args) == 1 and (type_args[0] == OUTPUT_SIZE or type_args[0].isdigit())


def bad_view_length(node) -> str:
    return (f"createView<{', '.join(node.type_args)}>: the length is a constant count or "
            f"OutputSize, e.g. createView<2>(range)")


def not_a_range(node, value) -> str:
    return f"{{... {node.property}}} reads {node.property} from each element of a range, not of {type_name(value)}"


def not_nodes(node, element) -> str:
    return (f"{{... {node.property}}} reads a property from each node of a range; this range holds "
            f"{type_name(element)} values")


def advanced(r: Range) -> Range:
    """A variable after evaluate(): an iterator one element on; a location as it was."""
    return r if r.location else Range(r.items, r.position + 1)


def element(v):
    """What a cast of a range reads: the element at its iterator."""
    if isinstance(v, Range):
        try:
            return v.current
        except IndexError as exc:
            raise BadValue(str(exc)) from None
    return v


@_define("evaluate", 1, "evaluate(range): the iterator's location; the variable steps to the next element")
def f_evaluate(r):
    r = as_range(r)
    if r.location:           # a location returned by evaluate(): the next one, itself unchanged
        return Range(r.items, r.position + 1, True)
    return Range(r.items, r.position, True)


@_define("splitString", 2, "splitString(s, delimiter): a range iterator over the pieces (see evaluate)")
def f_split_string(s, delim):
    if not isinstance(s, str) or not isinstance(delim, str):
        raise TypeMismatch("splitString takes a string and a delimiter string")
    if not delim:
        raise BadValue("splitString needs a non-empty delimiter")
    return Range(tuple(s.split(delim)))


_define("createView", {1, 2}, "createView<N>(range), createView(range, n), createView<OutputSize>(range): "
        "the first N elements")(None)
