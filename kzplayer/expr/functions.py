"""The function table: every function of the binding language, with Kanzi's argument order.

Names are case-insensitive (`CLAMP`, `clamp`, `createRotationZ`, `CreateRotationZ`):
FUNCTIONS is keyed by the lower-case name. Engine-only functions (camera and world
matrices, views, animations) have `evaluable=False`: they parse and type-check, and
kzplayer reports them as a note instead of computing them.

Decisions where Kanzi's documentation is silent (see docs/expressions.md):
* trigonometry takes and returns DEGREES; `atan2(y, x)`; `sinc(x) = sin(r) / r` with r the
  angle in radians (1 at 0); exact values at multiples of 90 degrees (`sin(180) == 0`).
* `round` rounds halves away from zero (C++ `std::round`); `floor ceil round abs sign`
  keep an int an int and a float a float.
* `mod(a, b)` has the sign of b (`mod(-13, 5) = 2`), `rem(a, b)` the sign of a
  (`rem(-13, 5) = -3`), for ints and floats; an int divisor of 0 is an error, a float one
  gives NaN.
* `linearStep(low, high, v)` with low == high is `step(low, v)`.
* single-argument math and `min max clamp mix step pow` work component-wise on vectors.
"""
from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from kzplayer.expr.arithmetic import (
    BadValue, DivisionByZero, TypeMismatch, arithmetic, as_matrix, cos_deg, euler_of, from_numpy,
    idiv, is_components, is_number, rotation_matrix, sin_deg, srt_of, to_numpy)
from kzplayer.values import Color4, Matrix, Srt2D, Srt3D, Vector, type_name


@dataclass(frozen=True)
class FunctionSpec:
    name: str                       # the spelling the documentation uses
    min_args: int
    max_args: int | None            # None: any number
    impl: Callable | None           # None: engine-only, or handled by the evaluator
    evaluable: bool = True
    result: str | None = None       # result type of an engine-only function, where known
    doc: str = ""

    def arity_text(self) -> str:
        if self.max_args is None:
            return f"at least {self.min_args}"
        if self.min_args == self.max_args:
            return str(self.min_args)
        return f"{self.min_args} to {self.max_args}"


FUNCTIONS: dict[str, FunctionSpec] = {}


def _define(name: str, args: int | tuple[int, int | None], doc: str = "", *, aliases=(),
            evaluable: bool = True, result: str | None = None):
    lo, hi = (args, args) if isinstance(args, int) else args

    def register(impl):
        for n in (name, *aliases):
            FUNCTIONS[n.lower()] = FunctionSpec(n, lo, hi, impl, evaluable, result, doc)
        return impl
    return register


def lookup(name: str) -> FunctionSpec | None:
    return FUNCTIONS.get(name.lower())


# -- helpers -------------------------------------------------------------------------------

def _number(v, what: str = "an argument"):
    if not is_number(v):
        raise TypeMismatch(f"{what} must be a number, not {type_name(v)}")
    return int(v) if isinstance(v, bool) else v


def _elementwise(f, *args):
    """f on numbers, or component by component where an argument is a vector or colour."""
    shape = next((a for a in args if is_components(a)), None)
    if shape is None:
        nums = [_number(a) for a in args]
        r = f(*nums)
        # int op float is float: min(1, 2.5) is 1.0, as in C++ with promoted operands
        return float(r) if isinstance(r, int) and any(isinstance(v, float) for v in nums) else r
    cols = []
    for a in args:
        if is_components(a):
            if type(a) is not type(shape) or len(a) != len(shape):
                raise TypeMismatch(f"cannot mix {type_name(shape)} and {type_name(a)}")
            cols.append(a)
        else:
            cols.append((float(_number(a)),) * len(shape))
    return type(shape)(float(f(*xs)) for xs in zip(*cols))


def _keep_type(x, r: float):
    """Rounding functions keep an int an int and a float a float."""
    return int(r) if isinstance(x, int) else float(r)


def _vector(v, what="the argument") -> Vector:
    if not isinstance(v, Vector):
        raise TypeMismatch(f"{what} must be a vector, not {type_name(v)}")
    return v


# -- math ------------------------------------------------------------------------------------

@_define("abs", 1, "absolute value")
def f_abs(v):
    return _elementwise(abs, v)


@_define("ceil", 1, "smallest integer not below")
def f_ceil(v):
    return _elementwise(lambda x: _keep_type(x, math.ceil(x)) if math.isfinite(x) else x, v)


@_define("floor", 1, "largest integer not above")
def f_floor(v):
    return _elementwise(lambda x: _keep_type(x, math.floor(x)) if math.isfinite(x) else x, v)


def round_half_away(x):
    if isinstance(x, int) or not math.isfinite(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:          # x - trunc(x) is exact for doubles
        t += 1 if x > 0 else -1
    return float(t)


@_define("round", 1, "nearest integer, halves away from zero")
def f_round(v):
    return _elementwise(round_half_away, v)


@_define("sign", 1, "-1, 0 or 1")
def f_sign(v):
    return _elementwise(lambda x: _keep_type(x, (x > 0) - (x < 0)), v)


@_define("sqrt", 1, "square root (NaN below 0)")
def f_sqrt(v):
    return _elementwise(lambda x: math.sqrt(x) if x >= 0 else math.nan, v)


@_define("min", 2, "the smaller")
def f_min(a, b):
    return _elementwise(min, a, b)


@_define("max", 2, "the larger")
def f_max(a, b):
    return _elementwise(max, a, b)


@_define("pow", 2, "n to the power e")
def f_pow(n, e):
    def p(x, y):
        try:
            r = math.pow(x, y)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
        return r
    return _elementwise(p, n, e)


@_define("clamp", 3, "clamp(low, high, value): value limited to [low, high]")
def f_clamp(low, high, value):
    return _elementwise(lambda lo, hi, v: min(max(v, lo), hi), low, high, value)


def kanzi_mod(a, b):
    """Mathematical modulo: the sign of the divisor."""
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise DivisionByZero("mod by zero")
        return a % b
    a, b = float(a), float(b)
    if b == 0 or not math.isfinite(a):
        return math.nan
    return a % b


def kanzi_rem(a, b):
    """Truncating remainder (C++ %, fmod): the sign of the dividend."""
    if isinstance(a, int) and isinstance(b, int):
        return a - b * idiv(a, b)
    a, b = float(a), float(b)
    if b == 0 or not math.isfinite(a):
        return math.nan
    return math.fmod(a, b)


@_define("mod", 2, "mod(a, b): remainder with the sign of b; mod(-13, 5) = 2")
def f_mod(a, b):
    return _elementwise(kanzi_mod, a, b)


@_define("rem", 2, "rem(a, b): remainder with the sign of a; rem(-13, 5) = -3")
def f_rem(a, b):
    return _elementwise(kanzi_rem, a, b)


# -- trigonometry in degrees -----------------------------------------------------------------

def tan_deg(d: float) -> float:
    if math.isfinite(d) and d % 45 == 0:
        return (0.0, 1.0, math.inf, -1.0)[int(d % 180) // 45]
    return math.tan(math.radians(d))


def _arc(f):
    def g(x):
        try:
            return math.degrees(f(x))
        except ValueError:
            return math.nan
    return g


@_define("sin", 1, "sine of degrees")
def f_sin(v):
    return _elementwise(sin_deg, v)


@_define("cos", 1, "cosine of degrees")
def f_cos(v):
    return _elementwise(cos_deg, v)


@_define("tan", 1, "tangent of degrees")
def f_tan(v):
    return _elementwise(tan_deg, v)


@_define("asin", 1, "arc sine, in degrees")
def f_asin(v):
    return _elementwise(_arc(math.asin), v)


@_define("acos", 1, "arc cosine, in degrees")
def f_acos(v):
    return _elementwise(_arc(math.acos), v)


@_define("atan", 1, "arc tangent, in degrees")
def f_atan(v):
    return _elementwise(_arc(math.atan), v)


@_define("atan2", 2, "atan2(y, x): angle of the point (x, y), in degrees")
def f_atan2(y, x):
    return _elementwise(lambda a, b: math.degrees(math.atan2(a, b)), y, x)


@_define("sinc", 1, "sin(r) / r for the angle r in radians; 1 at 0")
def f_sinc(v):
    return _elementwise(lambda d: 1.0 if d == 0 else sin_deg(d) / math.radians(d), v)


# -- interpolation ---------------------------------------------------------------------------

def _linear_step(low, high, v):
    if high == low:
        return 1.0 if v >= low else 0.0
    return min(max((v - low) / (high - low), 0.0), 1.0)


@_define("linearStep", 3, "clamp(0, 1, (v - low) / (high - low))")
def f_linear_step(low, high, v):
    return _elementwise(lambda a, b, x: _linear_step(float(a), float(b), float(x)), low, high, v)


@_define("smoothStep", 3, "3t^2 - 2t^3 of linearStep")
def f_smooth_step(low, high, v):
    def s(a, b, x):
        t = _linear_step(float(a), float(b), float(x))
        return t * t * (3 - 2 * t)
    return _elementwise(s, low, high, v)


@_define("smootherStep", 3, "6t^5 - 15t^4 + 10t^3 of linearStep")
def f_smoother_step(low, high, v):
    def s(a, b, x):
        t = _linear_step(float(a), float(b), float(x))
        return t * t * t * (t * (6 * t - 15) + 10)
    return _elementwise(s, low, high, v)


@_define("step", 2, "step(threshold, v): 1 where v >= threshold, else 0")
def f_step(threshold, v):
    return _elementwise(lambda t, x: 1.0 if x >= t else 0.0, threshold, v)


@_define("mix", 3, "mix(a, b, w) = a * (1 - w) + b * w")
def f_mix(a, b, w):
    if is_components(w):
        one_minus = arithmetic("-", 1.0, w)
    else:
        w = float(_number(w, "the weight"))
        one_minus = 1.0 - w
    return arithmetic("+", arithmetic("*", a, one_minus), arithmetic("*", b, w))


# -- vectors ---------------------------------------------------------------------------------

@_define("length", 1, "Euclidean length of a vector")
def f_length(v):
    return math.sqrt(sum(c * c for c in _vector(v)))


@_define("normalize", 1, "the vector scaled to length 1 (a zero vector stays zero)")
def f_normalize(v):
    n = f_length(v)
    return Vector([c / n for c in v]) if n else v


@_define("dot", 2, "dot product")
def f_dot(a, b):
    a, b = _vector(a, "the first argument"), _vector(b, "the second argument")
    if len(a) != len(b):
        raise TypeMismatch(f"dot of {type_name(a)} and {type_name(b)}")
    return float(sum(x * y for x, y in zip(a, b)))


@_define("cross", 2, "cross product of two vector3")
def f_cross(a, b):
    if not (isinstance(a, Vector) and isinstance(b, Vector) and len(a) == len(b) == 3):
        raise TypeMismatch(f"cross takes two vector3, not {type_name(a)} and {type_name(b)}")
    return Vector(np.cross(a, b).tolist())


# -- constructors and casts ------------------------------------------------------------------

def _components(args, n: int, what: str) -> list[float]:
    """n numbers, one number splatted, or a vector/colour truncated or padded with 0 (w = 1)."""
    if len(args) == 1 and is_components(args[0]):
        comps = list(args[0])[:n]
        comps += [0.0, 0.0, 0.0, 1.0][len(comps):n]
        return comps
    if len(args) == 1:
        return [float(_number(args[0], f"the argument of {what}"))] * n
    if len(args) != n:
        raise TypeMismatch(f"{what} takes {n} numbers or one vector, got {len(args)} arguments")
    return [float(_number(a, f"an argument of {what}")) for a in args]


def _vector_ctor(n):
    def make(*args):
        return Vector(_components(args, n, f"vector{n}"))
    return make


for _n in (2, 3, 4):
    _define(f"Vector{_n}", (1, _n), f"vector{_n}(x, y...) or a cast of one value")(_vector_ctor(_n))


@_define("Color4", (1, 4), "Color4(r, g, b, a); Color4(r, g, b) is opaque; color4(x) is (x, x, x, x)",
         aliases=("Color",))
def f_color4(*args):
    if len(args) == 3:
        return Color4(*(float(_number(a, "a colour component")) for a in args), 1.0)
    if len(args) == 2:
        raise TypeMismatch("Color4 takes 1, 3 or 4 arguments, not 2")
    return Color4(_components(args, 4, "color4"))


def _numbers(args, n, what):
    if len(args) != n:
        raise TypeMismatch(f"{what} takes {n} numbers, got {len(args)}")
    return tuple(float(_number(a, f"an argument of {what}")) for a in args)


@_define("Matrix3", (1, 9), "Matrix3(9 values, column-major) or matrix3(srt2d)", aliases=("Matrix3x3",))
def f_matrix3(*args):
    if len(args) == 1 and isinstance(args[0], (Srt2D, Matrix)):
        m = as_matrix(args[0])
        if m.size != 3:
            raise TypeMismatch(f"matrix3 of {type_name(args[0])}")
        return m
    return Matrix(_numbers(args, 9, "Matrix3"))


@_define("Matrix4", (1, 16), "Matrix4(16 values, column-major) or matrix4(srt3d)", aliases=("Matrix4x4",))
def f_matrix4(*args):
    if len(args) == 1 and isinstance(args[0], (Srt3D, Matrix)):
        m = as_matrix(args[0])
        if m.size != 4:
            raise TypeMismatch(f"matrix4 of {type_name(args[0])}")
        return m
    return Matrix(_numbers(args, 16, "Matrix4"))


@_define("Srt2D", (1, 5), "Srt2D(scaleX, scaleY, rotation, translationX, translationY)")
def f_srt2d(*args):
    if len(args) == 1 and isinstance(args[0], Matrix) and args[0].size == 3:
        return srt_of(args[0])
    sx, sy, rot, tx, ty = _numbers(args, 5, "Srt2D")
    return Srt2D((sx, sy), rot, (tx, ty))


@_define("Srt3D", (1, 9), "Srt3D(sx, sy, sz, rx, ry, rz, tx, ty, tz), rotations in degrees")
def f_srt3d(*args):
    if len(args) == 1 and isinstance(args[0], Matrix) and args[0].size == 4:
        return srt_of(args[0])
    v = _numbers(args, 9, "Srt3D")
    return Srt3D(v[0:3], v[3:6], v[6:9])


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
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            try:
                v = float(v.strip())
            except ValueError:
                raise BadValue(f'cannot convert "{v}" to int') from None
    v = _number(v, "the argument of int")
    if isinstance(v, float) and not math.isfinite(v):
        raise BadValue(f"cannot convert {v} to int")
    return int(v)


@_define("float", 1, "cast")
def f_float(v):
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            raise BadValue(f'cannot convert "{v}" to float') from None
    return float(_number(v, "the argument of float"))


@_define("string", 1, "cast; string(5) is \"5\", string(2.0) is \"2\", string(true) is \"true\"")
def f_string(v):
    return format_value(v)


# -- transforms ------------------------------------------------------------------------------

def _angle(v, what="the angle"):
    return float(_number(v, what))


@_define("createRotation", 3, "createRotation(x, y, z): an Srt3D rotating by Euler degrees")
def f_create_rotation(x, y, z):
    return Srt3D(rotation=(_angle(x), _angle(y), _angle(z)))


for _i, _axis in enumerate("XYZ"):
    def _create(angle, _i=_i):
        r = [0.0, 0.0, 0.0]
        r[_i] = _angle(angle)
        return Srt3D(rotation=tuple(r))
    _define(f"createRotation{_axis}", 1, f"an Srt3D rotating about {_axis} by degrees")(_create)


def _rotation_of(r) -> np.ndarray:
    if isinstance(r, Srt3D):
        return rotation_matrix(*r.rotation)
    if isinstance(r, Vector) and len(r) == 3:
        return rotation_matrix(*r)
    if isinstance(r, Matrix) and r.size == 4:
        lin = to_numpy(r)[:3, :3]
        return lin / np.where(np.linalg.norm(lin, axis=0) == 0, 1, np.linalg.norm(lin, axis=0))
    raise TypeMismatch(f"a rotation is an Srt3D, a matrix4 or a vector3 of degrees, not {type_name(r)}")


@_define("rotate", 2, "rotate(t, r): t with rotation r applied in its local frame")
def f_rotate(t, r):
    if isinstance(t, Srt3D):
        rot = rotation_matrix(*t.rotation) @ _rotation_of(r)
        return Srt3D(t.scale, euler_of(rot), t.translation)
    if isinstance(t, Matrix) and t.size == 4:
        m = np.eye(4)
        m[:3, :3] = _rotation_of(r)
        return from_numpy(to_numpy(t) @ m)
    if isinstance(t, Srt2D):
        return Srt2D(t.scale, t.rotation + _angle(r, "a 2D rotation"), t.translation)
    raise TypeMismatch(f"rotate takes an Srt3D, Srt2D or matrix4, not {type_name(t)}")


for _i, _axis in enumerate("XYZ"):
    def _rotate_axis(t, angle, _i=_i):
        r = [0.0, 0.0, 0.0]
        r[_i] = _angle(angle)
        if isinstance(t, Srt2D) and _i == 2:
            return f_rotate(t, r[2])
        return f_rotate(t, Vector(r))
    _define(f"rotate{_axis}", 2, f"rotate{_axis}(t, degrees)")(_rotate_axis)


def _euler(t) -> tuple[float, float, float]:
    if isinstance(t, Srt3D):
        return euler_of(rotation_matrix(*t.rotation))
    if isinstance(t, Matrix) and t.size == 4:
        return euler_of(_rotation_of(t))
    raise TypeMismatch(f"Euler angles of an Srt3D or matrix4, not {type_name(t)}")


for _i, _axis in enumerate("XYZ"):
    _define(f"extractEuler{_axis}", 1, f"the {_axis} Euler angle, degrees")(
        lambda t, _i=_i: _euler(t)[_i])


@_define("inverse", 1, "inverse matrix (an SRT gives a matrix)")
def f_inverse(m):
    a = to_numpy(as_matrix(m))
    if abs(np.linalg.det(a)) < 1e-12:
        raise BadValue("the matrix is not invertible")
    return from_numpy(np.linalg.inv(a))


@_define("transpose", 1, "transposed matrix")
def f_transpose(m):
    if not isinstance(m, Matrix):
        raise TypeMismatch(f"transpose takes a matrix, not {type_name(m)}")
    return from_numpy(to_numpy(m).T)


@_define("transform", 2, "transform(m, v): a point (vector3 with matrix4) or a full vector")
def f_transform(m, v):
    a = to_numpy(as_matrix(m))
    n = a.shape[0]
    if not isinstance(v, Vector) or len(v) not in (n - 1, n):
        raise TypeMismatch(f"transform of {type_name(v)} by {type_name(m)}")
    if len(v) == n:
        return Vector((a @ np.array(v)).tolist())
    return Vector((a @ np.array([*v, 1.0]))[:n - 1].tolist())


# -- colour ----------------------------------------------------------------------------------

def _color(c) -> Color4:
    if isinstance(c, Color4):
        return c
    if isinstance(c, Vector) and len(c) in (3, 4):
        return Color4(*c) if len(c) == 4 else Color4(*c, 1.0)
    raise TypeMismatch(f"a colour argument must be color4, not {type_name(c)}")


@_define("hslToSrgb", 1, "Color4(h, s, l, a), all in [0, 1] -> sRGB Color4")
def f_hsl_to_srgb(c):
    h, s, lum, a = _color(c)
    return Color4(*colorsys.hls_to_rgb(h % 1.0, lum, s), a)


@_define("srgbToHsl", 1, "sRGB Color4 -> Color4(h, s, l, a), all in [0, 1]")
def f_srgb_to_hsl(c):
    r, g, b, a = _color(c)
    h, lum, s = colorsys.rgb_to_hls(r, g, b)
    return Color4(h, s, lum, a)


def _to_srgb(x: float) -> float:
    return 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055


def _to_linear(x: float) -> float:
    return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4


def _transfer(f, v):
    if isinstance(v, Color4):
        return Color4(f(v[0]), f(v[1]), f(v[2]), v[3])
    return _elementwise(lambda x: f(float(x)), v)


@_define("linearTosRGB", 1, "linear -> sRGB encoding (alpha unchanged)")
def f_linear_to_srgb(v):
    return _transfer(_to_srgb, v)


@_define("sRGBToLinear", 1, "sRGB encoding -> linear (alpha unchanged)")
def f_srgb_to_linear(v):
    return _transfer(_to_linear, v)


@_define("premultiplyColor", 1, "(r a, g a, b a, a)")
def f_premultiply(c):
    r, g, b, a = _color(c)
    return Color4(r * a, g * a, b * a, a)


# -- text ------------------------------------------------------------------------------------

def _format_one(v, spec: str) -> str:
    if not spec:
        return format_value(v)
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
        out.append(_format_one(args[n], spec))
        i = end + 1
    return "".join(out)


@_define("splitString", (2, 3), "splitString(s, delim, index=0): the index-th piece ('' past the end)")
def f_split_string(s, delim, index=0):
    if not isinstance(s, str) or not isinstance(delim, str):
        raise TypeMismatch("splitString takes a string and a delimiter string")
    if not delim:
        raise BadValue("splitString needs a non-empty delimiter")
    parts = s.split(delim)
    i = int(_number(index, "the index"))
    return parts[i] if 0 <= i < len(parts) else ""


# -- evaluated by the evaluator itself ---------------------------------------------------------

_define("continueIf", 1, "when false: stop, leave the target unchanged")(None)
_define("getCurrentValue", 0, "the target property's own current value")(None)

# -- engine-only: parse and check, never evaluated here ------------------------------------------

for _name, _args, _result, _doc in (
        ("getWorldMatrix", 0, "matrix4", "the node's world matrix"),
        ("getProjectionCameraWorldMatrix", 0, "matrix4", "projection * camera * world"),
        ("getCameraWorldMatrix", 0, "matrix4", "camera * world"),
        ("getProjectionMatrix", 0, "matrix4", "the camera projection"),
        ("getCameraMatrix", 0, "matrix4", "the camera's inverse world matrix"),
        ("getCameraPosition", 0, "vector3", "the camera position in world space"),
        ("getNormalMatrix", 0, None, "the normal matrix"),
        ("getAmbient", 0, "color4", "the scene's ambient light"),
        ("createView", (0, None), None, "a view of a range (engine)"),
        ("acquire", (0, None), None, "acquire a resource (engine)"),
        ("animate", (0, None), None, "drive a property by an animation (engine)"),
        ("animation", (0, None), None, "Animation(property, \"resource id\") (engine)")):
    _define(_name, _args, _doc, evaluable=False, result=_result)(None)
