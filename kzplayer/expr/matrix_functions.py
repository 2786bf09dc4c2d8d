"""Matrix, SRT, rotation and colour functions of the binding language.

Euler angles are degrees applied X first, then Y, then Z (R = Rz * Ry * Rx); an SRT is the
matrix T * R * S; matrices are column-major (see docs/expressions.md).
"""
from __future__ import annotations

import colorsys

import numpy as np

from kzplayer.expr.arithmetic import (
    BadValue, TypeMismatch, as_matrix, elementwise, euler_of, from_numpy, number, rotation_matrix, srt_of,
    to_numpy)
from kzplayer.expr.registry import define as _define
from kzplayer.values import Color4, Matrix, Srt2D, Srt3D, Vector, type_name


# -- transforms ------------------------------------------------------------------------------

def _angle(v, what="the angle"):
    return float(number(v, what))


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


@_define("extractSRT2D", 1, "extractSRT2D(matrix3): the Srt2D of a 3x3 matrix")
def f_extract_srt2d(m):
    if not (isinstance(m, Matrix) and m.size == 3):
        raise TypeMismatch(f"extractSRT2D takes a matrix3, not {type_name(m)}")
    return srt_of(m)


@_define("extractSRT3D", 1, "extractSRT3D(matrix4): the Srt3D of a 4x4 matrix")
def f_extract_srt3d(m):
    if not (isinstance(m, Matrix) and m.size == 4):
        raise TypeMismatch(f"extractSRT3D takes a matrix4, not {type_name(m)}")
    return srt_of(m)


# -- accessors: elements, rows and columns of vectors and matrices -------------------------------
# Matrices are column-major, as Kanzi stores them: getField(Matrix3(0, 1, ..., 8), 2) is 2.0,
# getColumn(m, 2) is Vector3(6, 7, 8) and getRow(m, 2) is Vector3(2, 5, 8). The set*
# functions give the changed value; on a variable they also change it (Kanzi's examples).

def _index(i, size: int, what: str) -> int:
    n = number(i, f"the index of {what}")
    if isinstance(n, float):
        if not n.is_integer():
            raise BadValue(f"the index of {what} must be a whole number, not {n}")
        n = int(n)
    if not 0 <= n < size:
        raise BadValue(f"index {n} is outside {what}'s 0..{size - 1}")
    return n


def _elements(v, what: str) -> list[float]:
    if isinstance(v, Vector):
        return list(v)
    if isinstance(v, Matrix):
        return list(v.values)
    raise TypeMismatch(f"{what} takes a vector or a matrix, not {type_name(v)}")


def _square(m, what: str) -> Matrix:
    if not isinstance(m, Matrix):
        raise TypeMismatch(f"{what} takes a matrix3 or matrix4, not {type_name(m)}")
    return m


def _line(v, n: int, what: str) -> list[float]:
    if not (isinstance(v, Vector) and len(v) == n):
        raise TypeMismatch(f"{what} takes a vector{n} for a matrix{n}, not {type_name(v)}")
    return list(v)


@_define("getField", 2, "getField(vectorOrMatrix, index): one element (matrices column-major)")
def f_get_field(v, i):
    items = _elements(v, "getField")
    return float(items[_index(i, len(items), "getField")])


@_define("setField", 3, "setField(vectorOrMatrix, index, value): the value with one element replaced")
def f_set_field(v, i, x):
    items = _elements(v, "setField")
    items[_index(i, len(items), "setField")] = float(number(x, "the value of setField"))
    return Vector(items) if isinstance(v, Vector) else Matrix(tuple(items))


@_define("getRow", 2, "getRow(matrix, index): row `index` as a vector")
def f_get_row(m, i):
    m = _square(m, "getRow")
    n = m.size
    r = _index(i, n, "getRow")
    return Vector(m.values[c * n + r] for c in range(n))


@_define("setRow", 3, "setRow(matrix, index, vector): the matrix with one row replaced")
def f_set_row(m, i, v):
    m = _square(m, "setRow")
    n = m.size
    r, line = _index(i, n, "setRow"), _line(v, n, "setRow")
    values = list(m.values)
    for c in range(n):
        values[c * n + r] = line[c]
    return Matrix(tuple(values))


@_define("getColumn", 2, "getColumn(matrix, index): column `index` as a vector")
def f_get_column(m, i):
    m = _square(m, "getColumn")
    n = m.size
    c = _index(i, n, "getColumn")
    return Vector(m.values[c * n:(c + 1) * n])


@_define("setColumn", 3, "setColumn(matrix, index, vector): the matrix with one column replaced")
def f_set_column(m, i, v):
    m = _square(m, "setColumn")
    n = m.size
    c, line = _index(i, n, "setColumn"), _line(v, n, "setColumn")
    values = list(m.values)
    values[c * n:(c + 1) * n] = line
    return Matrix(tuple(values))


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
    return elementwise(lambda x: f(float(x)), v)


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
