"""Writing property values as literals: `format_literal(value, type_name)` gives the text
that `parse_literal` (literals.py) reads back to the same value exactly (floats through
`repr`). On its own, below the parser and the catalog, as both write values in messages.
"""
from __future__ import annotations

import math

from kzplayer.values import (BufferHandle, Color4, EnumValue, ItemRef, MaterialRef, Matrix,
                             ResourceRef, Srt2D, Srt3D, Vector)


def _num(x: float) -> str:
    """A compound component: integral values without '.0' (they parse back to the same
    float inside a vector), everything else through repr so it round-trips exactly."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x)) if x != 0 or math.copysign(1, x) > 0 else "-0.0"
    return repr(x)


def _quote(s: str) -> str:
    out = []
    for c in s:
        if c in ('"', "\\"):
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or 0xD800 <= ord(c) <= 0xDFFF or ord(c) in (0xFFFE, 0xFFFF):
            out.append(f"\\u{ord(c):04x}")   # not allowed in XML text
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def format_literal(value, type_name: str | None = None) -> str:
    """The literal text of a value; `parse_literal(format_literal(v, t), t)` gives `v` back.
    With the declared type "float", integral floats are written without '.0' (`800`)."""
    if type_name == "float" and isinstance(value, float) and not isinstance(value, bool):
        return _num(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, Vector):
        return "(" + ", ".join(_num(c) for c in value) + ")"
    if isinstance(value, Color4):
        return "Color4(" + ", ".join(_num(c) for c in value) + ")"
    if isinstance(value, Srt3D):
        return "Srt3D(" + ", ".join(_num(c) for c in (*value.scale, *value.rotation, *value.translation)) + ")"
    if isinstance(value, Srt2D):
        return "Srt2D(" + ", ".join(_num(c) for c in (*value.scale, value.rotation, *value.translation)) + ")"
    if isinstance(value, Matrix):
        return f"Matrix{value.size}(" + ", ".join(_num(c) for c in value.values) + ")"
    if isinstance(value, EnumValue):
        return value.word
    if isinstance(value, ItemRef):
        if type_name is None and ("/" not in value.path and value.path not in (".", "..")
                                  or value.path.startswith('"')):
            return f"Item({_quote(value.path)})"       # a path the untyped form would not read as one
        return value.path
    if isinstance(value, ResourceRef):
        return f"Resource({_quote(value.id)})"
    if isinstance(value, MaterialRef):
        return value.name
    if isinstance(value, BufferHandle):
        return ""            # buffers come from bindings, never from a literal
    raise TypeError(f"not a property value: {value!r}")
