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

import math

import numpy as np

from kzplayer.expr.arithmetic import (
    DivisionByZero, TypeMismatch, arithmetic, as_matrix, cos_deg, elementwise as _elementwise,
    idiv, is_components, number as _number, sin_deg, srt_of)
from kzplayer.expr.registry import FUNCTIONS, FunctionSpec, define as _define, lookup  # noqa: F401
from kzplayer.values import Color4, Matrix, Srt2D, Srt3D, Vector, type_name

# -- helpers -------------------------------------------------------------------------------

def _keep_type(x, r: float):
    """Rounding functions keep an int an int and a float a float."""
    return int(r) if isinstance(x, int) else float(r)


def _vector(v, what="the argument") -> Vector:
    if not isinstance(v, Vector):
        raise TypeMismatch(f"{what} must be a vector, not {type_name(v)}")
    return v


# -- math and trigonometry: functions of numbers, component-wise on vectors and colours ------

def round_half_away(x):
    if isinstance(x, int) or not math.isfinite(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:          # x - trunc(x) is exact for doubles
        t += 1 if x > 0 else -1
    return float(t)


def _integral(f):
    """floor / ceil: an int stays an int, a float gives a float."""
    return lambda x: _keep_type(x, f(x)) if math.isfinite(x) else x


def _nan_outside_domain(f):
    def g(*xs):
        try:
            return f(*xs)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    return g


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


def tan_deg(d: float) -> float:
    if math.isfinite(d) and d % 45 == 0:
        return (0.0, 1.0, math.inf, -1.0)[int(d % 180) // 45]
    return math.tan(math.radians(d))


def _arc(f):
    return _nan_outside_domain(lambda x: math.degrees(f(x)))


_NUMERIC = (
    ("abs", 1, abs, "absolute value"),
    ("ceil", 1, _integral(math.ceil), "smallest integer not below"),
    ("floor", 1, _integral(math.floor), "largest integer not above"),
    ("round", 1, round_half_away, "nearest integer, halves away from zero"),
    ("sign", 1, lambda x: _keep_type(x, (x > 0) - (x < 0)), "-1, 0 or 1"),
    ("sqrt", 1, _nan_outside_domain(math.sqrt), "square root (NaN below 0)"),
    ("min", 2, min, "the smaller"),
    ("max", 2, max, "the larger"),
    ("pow", 2, _nan_outside_domain(math.pow), "pow(n, e): n to the power e"),
    ("clamp", 3, lambda lo, hi, v: min(max(v, lo), hi), "clamp(low, high, value): value limited to [low, high]"),
    ("mod", 2, kanzi_mod, "mod(a, b): remainder with the sign of b; mod(-13, 5) = 2"),
    ("rem", 2, kanzi_rem, "rem(a, b): remainder with the sign of a; rem(-13, 5) = -3"),
    ("sin", 1, sin_deg, "sine of degrees"),
    ("cos", 1, cos_deg, "cosine of degrees"),
    ("tan", 1, tan_deg, "tangent of degrees"),
    ("asin", 1, _arc(math.asin), "arc sine, in degrees"),
    ("acos", 1, _arc(math.acos), "arc cosine, in degrees"),
    ("atan", 1, _arc(math.atan), "arc tangent, in degrees"),
    ("atan2", 2, lambda y, x: math.degrees(math.atan2(y, x)), "atan2(y, x): angle of the point (x, y), in degrees"),
    ("sinc", 1, lambda d: 1.0 if d == 0 else sin_deg(d) / math.radians(d),
     "sin(r) / r for the angle r in radians; 1 at 0"),
)
for _name, _arity, _f, _doc in _NUMERIC:
    _define(_name, _arity, _doc)(lambda *args, _f=_f: _elementwise(_f, *args))


# -- interpolation ---------------------------------------------------------------------------

def _linear_step(low, high, v) -> float:
    if high == low:
        return 1.0 if v >= low else 0.0
    return min(max((v - low) / (high - low), 0.0), 1.0)


def _smooth(t: float) -> float:
    return t * t * (3 - 2 * t)


def _smoother(t: float) -> float:
    return t * t * t * (t * (6 * t - 15) + 10)


for _name, _arity, _f, _doc in (
        ("linearStep", 3, _linear_step, "clamp(0, 1, (v - low) / (high - low))"),
        ("smoothStep", 3, lambda a, b, x: _smooth(_linear_step(a, b, x)), "3t^2 - 2t^3 of linearStep"),
        ("smootherStep", 3, lambda a, b, x: _smoother(_linear_step(a, b, x)), "6t^5 - 15t^4 + 10t^3 of linearStep"),
        ("step", 2, lambda t, x: 1.0 if x >= t else 0.0, "step(threshold, v): 1 where v >= threshold, else 0")):
    _define(_name, _arity, _doc)(lambda *args, _f=_f: _elementwise(_f, *args))


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
    _define(f"Vector{_n}", {1, _n}, f"vector{_n}(x, y...) or a cast of one value")(_vector_ctor(_n))


@_define("Color4", {1, 3, 4}, "Color4(r, g, b, a); Color4(r, g, b) is opaque; color4(x) is (x, x, x, x)",
         aliases=("Color",))
def f_color4(*args):
    if len(args) == 3:
        return Color4(*(float(_number(a, "a colour component")) for a in args), 1.0)
    return Color4(_components(args, 4, "color4"))


def _numbers(args, n, what):
    if len(args) != n:
        raise TypeMismatch(f"{what} takes {n} numbers, got {len(args)}")
    return tuple(float(_number(a, f"an argument of {what}")) for a in args)


def _matrix_ctor(n: int, srt_type):
    def make(*args):
        if len(args) == 1 and isinstance(args[0], (srt_type, Matrix)):
            m = as_matrix(args[0])
            if m.size != n:
                raise TypeMismatch(f"matrix{n} of {type_name(args[0])}")
            return m
        return Matrix(_numbers(args, n * n, f"Matrix{n}"))
    return make


def _srt_ctor(n: int, srt_type, build):
    def make(*args):
        if len(args) == 1 and isinstance(args[0], Matrix) and args[0].size == n:
            return srt_of(args[0])
        return build(_numbers(args, 5 if n == 3 else 9, srt_type.__name__))
    return make


for _n, _srt, _fields, _build in (
        (3, Srt2D, "scaleX, scaleY, rotation, translationX, translationY",
         lambda v: Srt2D(v[0:2], v[2], v[3:5])),
        (4, Srt3D, "sx, sy, sz, rx, ry, rz, tx, ty, tz; rotations in degrees",
         lambda v: Srt3D(v[0:3], v[3:6], v[6:9]))):
    _define(f"Matrix{_n}", {1, _n * _n}, f"Matrix{_n}({_n * _n} values, column-major) or "
            f"matrix{_n}x{_n}({_srt.__name__.lower()})", aliases=(f"Matrix{_n}x{_n}",))(_matrix_ctor(_n, _srt))
    _define(_srt.__name__, {1, 5 if _n == 3 else 9}, f"{_srt.__name__}({_fields}) or of a matrix{_n}")(
        _srt_ctor(_n, _srt, _build))


# Casts and text live in their own module; importing it here keeps the table's order.
from kzplayer.expr import strings  # noqa: E402,F401
from kzplayer.expr import ranges  # noqa: E402,F401


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
        ("getNormalMatrix", 0, "matrix4", "the matrix taking normals from local to world space"),
        ("getCameraNormalMatrix", 0, "matrix4", "camera * normal matrix"),
        ("getViewPosition", 0, "vector4", "homogeneous position for the view direction"),
        ("getAmbient", 0, "color4", "the scene's ambient light"),
        ("acquire", (0, None), None, "acquire a resource (engine)"),
        ("animate", (0, None), None, "drive a property by an animation (engine)"),
        ("animation", (0, None), None, "Animation(property, \"resource id\") (engine)")):
    _define(_name, _args, _doc, evaluable=False, result=_result)(None)

# Mesh and texture functions: they read GPU resources, so they are the engine's. Their
# arguments are resources (a mesh or texture property: an item reference here).
for _name, _args, _result, _doc in (
        ("meshGetIndexBuffer", 1, None, "the mesh's index buffer (a GPU buffer resource)"),
        ("meshGetIndexCount", 1, "int", "the number of indices of the mesh"),
        ("meshGetNormalBuffer", 1, None, "the buffer of vertex normals"),
        ("meshGetPositionBuffer", 1, None, "the buffer of vertex positions"),
        ("meshGetTangentBuffer", 1, None, "the buffer of vertex tangents"),
        ("meshGetUVBuffer", 2, None, "meshGetUVBuffer(mesh, channel): the buffer of one UV set"),
        ("meshGetVertexCount", 1, "int", "the number of vertices of the mesh"),
        ("textureGetAddressingMode", 1, "int", "0 Repeat, 1 Mirror, 2 Clamp, 3 Mirror Once, -1 no texture"),
        ("textureGetAnisotropyLevel", 1, "int", "2, 4, 8 or 16; 0 off; -1 no texture"),
        ("textureGetDepthCompareFunction", 1, "int", "0 Never ... 8 Disabled; -1 no texture"),
        ("textureGetFilterMode", 1, "int", "0 Nearest, 1 Linear, -1 no texture"),
        ("textureGetHeight", 1, "int", "the texture's height; -1 no texture"),
        ("textureGetMipmapMode", 1, "int", "0 Base, 1 Nearest, 2 Linear, -1 no texture"),
        ("textureGetMultisampleLevel", 1, "int", "anti-aliasing samples; 0 off; -1 no texture"),
        ("textureGetPixelFormat", 1, "int", "a GraphicsFormat value; -1 no texture"),
        ("textureGetSize", 1, "vector2", "the texture's size; (-1, -1) no texture"),
        ("textureGetWidth", 1, "int", "the texture's width; -1 no texture")):
    _define(_name, _args, _doc, evaluable=False, result=_result)(None)

# The matrix, rotation and colour functions live in their own module; importing it here
# registers them after the functions above, so ties in did-you-mean favour the common ones.
from kzplayer.expr import matrix_functions  # noqa: E402,F401
