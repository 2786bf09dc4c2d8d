"""What makes a value a property value, below the literal parser and the catalog (both use
it): `coerce` (a TOML or Python value into the declared type), `number_problem` (NaN,
infinite, an int past Kanzi's 32 bits), `range_words`. The range and work-limit checks are
`PropertySpec.problem` (catalog_specs.py), built on these.
"""
from __future__ import annotations

import math

from kzplayer import values as V
from kzplayer.project.literal_format import format_literal

_VECTOR_SIZES = {"vector2": 2, "vector3": 3, "vector4": 4}

INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1      # Kanzi's int properties are 32-bit


def numbers_of(value) -> tuple:
    """The numeric components of a property value (a number is its own one component)."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, (int, float)):
        return (value,)
    if isinstance(value, (V.Vector, V.Color4)):
        return tuple(value)
    if isinstance(value, V.Srt3D):
        return (*value.scale, *value.rotation, *value.translation)
    if isinstance(value, V.Srt2D):
        return (*value.scale, value.rotation, *value.translation)
    if isinstance(value, V.Matrix):
        return tuple(value.values)
    return ()


def number_problem(value) -> str | None:
    """What makes a value no property value whatever its range: a component that is NaN or
    infinite (a literal such as 1e400 reads as infinite), an int beyond Kanzi's 32 bits."""
    for c in numbers_of(value):
        if isinstance(c, int):
            if not INT_MIN <= c <= INT_MAX:
                return f"must fit Kanzi's 32-bit int ({INT_MIN:,} to {INT_MAX:,}), not {shown(c)}"
        elif not math.isfinite(c):
            return f"must be a finite number, not {shown(value)}"
    return None


def range_words(spec) -> str:
    """'must be at least 0', 'must be at most 1' or 'must be between 0 and 1'."""
    lo, hi = (shown(spec.coerce_number(x), spec.type) if x is not None else None for x in (spec.min, spec.max))
    if hi is None:
        return f"must be at least {lo}"
    if lo is None:
        return f"must be at most {hi}"
    return f"must be between {lo} and {hi}"


def shown(value, type_name: str | None = None) -> str:
    """A value as written in a message: its literal, shortened past 60 characters."""
    text = format_literal(value, type_name) if not isinstance(value, int) or abs(value) < 10 ** 30 \
        else f"an int of {len(str(abs(value)))} digits"
    return text if len(text) <= 60 else text[:57] + "..."


def coerce(type_name: str, raw):
    """Turn a native TOML value (number, bool, string, array) into the kzplayer value of the
    declared type. None stays None (no value). Raises ValueError on a mismatch."""
    if raw is None:
        return None
    if type_name == "bool":
        if not isinstance(raw, bool):
            raise ValueError(f"expected true or false, not {raw!r}")
        return raw
    if type_name == "int":
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"expected an integer, not {raw!r}")
        return raw
    if type_name == "float":
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ValueError(f"expected a number, not {raw!r}")
        return float(raw)
    if type_name in ("string",):
        if not isinstance(raw, str):
            raise ValueError(f"expected a string, not {raw!r}")
        return raw
    if type_name in _VECTOR_SIZES:
        return V.Vector(_numbers(raw, _VECTOR_SIZES[type_name]))
    if type_name == "color4":
        nums = _numbers(raw, (3, 4))
        return V.Color4(nums)
    if type_name == "srt3d":
        n = _numbers(raw, 9)
        return V.Srt3D(tuple(n[0:3]), tuple(n[3:6]), tuple(n[6:9]))
    if type_name == "srt2d":
        n = _numbers(raw, 5)
        return V.Srt2D(tuple(n[0:2]), n[2], tuple(n[3:5]))
    if type_name in ("matrix3", "matrix4"):
        return V.Matrix(tuple(_numbers(raw, 9 if type_name == "matrix3" else 16)))
    if type_name == "enum":
        return V.EnumValue(_text(raw))
    if type_name == "item":
        return V.ItemRef(_text(raw)) if raw != "" else None
    if type_name == "material":
        return V.MaterialRef(_text(raw)) if raw != "" else None
    if type_name == "buffer":
        raise ValueError("a buffer has no literal value; only a binding fills it")
    raise ValueError(f"unknown type {type_name!r}")


def _numbers(raw, sizes) -> list[float]:
    sizes = (sizes,) if isinstance(sizes, int) else sizes
    if not isinstance(raw, (list, tuple)) or len(raw) not in sizes:
        raise ValueError(f"expected {' or '.join(map(str, sizes))} numbers, not {raw!r}")
    if any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in raw):
        raise ValueError(f"expected numbers, not {raw!r}")
    return [float(c) for c in raw]


def _text(raw) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"expected a word, not {raw!r}")
    return raw
