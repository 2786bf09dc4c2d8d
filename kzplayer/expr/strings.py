"""Casts and text functions of the binding language: `bool int float string`, `format`,
`format_value` is how a value is written as text (splitString is a range function: ranges.py).

`string(2.0)` is "2" and `format("{}")` writes values like fmt's `{}` (the shortest text that
reads back); `{:.2}` is 2 significant digits as in fmt (see docs/expressions.md).
"""
from __future__ import annotations

import math
import re

from kzplayer.expr.arithmetic import BadValue, TypeMismatch, is_components, number as _number
from kzplayer.expr.limits import INT_MAX, INT_MIN, MAX_STRING, check_string_length, fits32
from kzplayer.expr.ranges import element
from kzplayer.expr.registry import define as _define
from kzplayer.values import Matrix, Srt2D, Srt3D, type_name


def format_value(v) -> str:
    """How `string()` and `format("{}")` write a value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    if isinstance(v, str):
        return v
    if is_components(v):
        return "(" + ", ".join(format_value(c) for c in v) + ")"
    return repr(v) if isinstance(v, (Matrix, Srt2D, Srt3D)) else str(v)


@_define("bool", 1, 'cast; bool("True") is true')
def f_bool(v):
    v = element(v)              # a range iterator: the element it is at
    if isinstance(v, str):
        word = v.strip().lower()
        if word in ("true", "false"):
            return word == "true"
        try:
            return float(word) != 0
        except ValueError:
            raise BadValue(f'cannot convert "{v}" to bool') from None
    return bool(_number(v, "the argument of bool"))


@_define("int", 1, "cast; floats truncate toward zero")
def f_int(v):
    v = element(v)              # a range iterator: the element it is at
    if isinstance(v, str):
        text = v.strip()
        if len(text) > 40:          # no 32-bit int is written in 40 characters; int() of a
            raise BadValue(f'cannot convert "{text[:20]}..." to int')    # huge text is slow
        try:
            v = int(text)
        except ValueError:
            try:
                v = float(text)
            except ValueError:
                raise BadValue(f'cannot convert "{v}" to int') from None
    v = _number(v, "the argument of int")
    if isinstance(v, float) and not math.isfinite(v):
        raise BadValue(f"cannot convert {v} to int")
    if not fits32(int(v)):
        raise BadValue(f"int({format_value(v)}) is outside Kanzi's 32-bit int range "
                       f"{INT_MIN}..{INT_MAX}")
    return int(v)


@_define("float", 1, "cast")
def f_float(v):
    v = element(v)              # a range iterator: the element it is at
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            raise BadValue(f'cannot convert "{v}" to float') from None
    return float(_number(v, "the argument of float"))


@_define("string", 1, "cast; string(5) is \"5\", string(2.0) is \"2\", string(true) is \"true\"")
def f_string(v):
    v = element(v)              # a range iterator: the element it is at
    return format_value(v)


# -- text ------------------------------------------------------------------------------------

# fmt's spec: [[fill]align][sign][#][0][width][,][.precision][type]
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d*)[,_]?(?:\.(?P<precision>\d+))?[a-zA-Z%]?")


def _format_one(v, spec: str) -> str:
    if not spec:
        return format_value(v)
    m = _SPEC.fullmatch(spec)
    for part in ("width", "precision"):
        digits = m.group(part) if m else ""
        if digits and (len(digits) > 6 or int(digits) > MAX_STRING):
            raise BadValue(f"format spec '{spec}': a {part} of {int(digits):,}; a binding's "
                           f"strings hold at most {MAX_STRING:,} characters")
    if isinstance(v, bool):
        v = format_value(v)
    elif isinstance(v, int) and "." in spec:
        v = float(v)
    if isinstance(v, float) and spec[-1:].isdigit():
        spec += "g"                 # fmt's `{:.2}` is 2 significant digits, 1.0 -> "1"
    try:
        return format(v, spec)
    except (ValueError, TypeError):
        raise BadValue(f"format spec '{spec}' does not apply to {type_name(v)}") from None


@_define("format", (1, None), 'format("{} of {:.2}", a, b): fmt-style placeholders')
def f_format(fmt, *args):
    if not isinstance(fmt, str):
        raise TypeMismatch(f"the format must be a string, not {type_name(fmt)}")
    out, i, auto = [], 0, 0
    length = len(fmt)          # an upper bound of the text copied from the format itself
    while i < len(fmt):
        ch = fmt[i]
        if ch in "{}" and fmt[i + 1:i + 2] == ch:
            out.append(ch)
            i += 2
            continue
        if ch == "}":
            raise BadValue("single '}' in a format string")
        if ch != "{":
            out.append(ch)
            i += 1
            continue
        end = fmt.find("}", i)
        if end < 0:
            raise BadValue("'{' without '}' in a format string")
        index, _, spec = fmt[i + 1:end].partition(":")
        if index.strip():
            if not index.strip().isdigit():
                raise BadValue(f"bad placeholder '{{{index}}}'")
            n = int(index)
        else:
            n, auto = auto, auto + 1
        if n >= len(args):
            raise BadValue(f"the format wants argument {n + 1} but has {len(args)}")
        piece = _format_one(args[n], spec)
        length += len(piece)
        check_string_length(length)
        out.append(piece)
        i = end + 1
    return "".join(out)
