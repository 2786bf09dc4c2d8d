"""Operators on values, shared by the evaluator and (on sample values) the type checker.

Numbers: bool, int and float promote as in C++ (bool op int is int, int op float is float).
Kanzi's ints are 32-bit: every int result wraps in two's complement (limits.wrap32), shift
counts are 0..31. `int / int` divides as C++ does (truncating toward zero); an integer
division or remainder by zero is an error, a float one gives IEEE inf/nan as on the GPU. Vectors and colours are
component-wise, with a scalar on either side broadcast; `*` on matrices and SRTs is the
matrix product (column vectors: in `a * b`, `b` applies first). Ranges are element-wise
(`{lights ... PointLightColor} * 0.5`; two ranges pair their elements, as long as the
shorter one), and `fold` reduces one to a value (`...* range`).
"""
from __future__ import annotations

import math

import numpy as np

from kzplayer.expr.limits import check_string_length, wrap32
from kzplayer.transforms import cos_deg, rotation_matrix, sin_deg, srt_matrix  # noqa: F401 (re-exported)
from kzplayer.values import (Color4, EnumValue, ItemRef, Matrix, MaterialRef, Range, Srt2D, Srt3D, Vector,
                             type_name)


class TypeMismatch(TypeError):
    """An operand or argument of the wrong type; the caller adds the position."""


class DivisionByZero(ArithmeticError):
    pass


class BadValue(ValueError):
    """A value of the right type that the operation cannot take ("abc" to int, a singular matrix)."""


def is_number(v) -> bool:
    return isinstance(v, (bool, int, float))


def is_components(v) -> bool:
    return isinstance(v, (Vector, Color4))


def number(v, what: str = "an argument"):
    if not is_number(v):
        raise TypeMismatch(f"{what} must be a number, not {type_name(v)}")
    return int(v) if isinstance(v, bool) else v


def elementwise(f, *args):
    """f on numbers, or component by component where an argument is a vector or colour."""
    shape = next((a for a in args if is_components(a)), None)
    if shape is None:
        nums = [number(a) for a in args]
        r = f(*nums)
        # int op float is float: min(1, 2.5) is 1.0, as in C++ with promoted operands
        if isinstance(r, int) and not isinstance(r, bool):
            return float(r) if any(isinstance(v, float) for v in nums) else wrap32(r)
        return r
    cols = []
    for a in args:
        if is_components(a):
            if type(a) is not type(shape) or len(a) != len(shape):
                raise TypeMismatch(f"cannot mix {type_name(shape)} and {type_name(a)}")
            cols.append(a)
        else:
            cols.append((float(number(a)),) * len(shape))
    return type(shape)(float(f(*xs)) for xs in zip(*cols))


def truthy(v, what: str = "a condition") -> bool:
    if not is_number(v):
        raise TypeMismatch(f"{what} must be bool, int or float, not {type_name(v)}")
    return bool(v)


def to_int(v, what: str = "an operand") -> int:
    if isinstance(v, (bool, int)):
        return int(v)
    raise TypeMismatch(f"{what} must be an int or bool, not {type_name(v)}")


def fdiv(a: float, b: float) -> float:
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def idiv(a: int, b: int) -> int:
    """C++ integer division: truncates toward zero."""
    if b == 0:
        raise DivisionByZero("integer division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _scalar(op: str, a, b):
    if isinstance(a, (bool, int)) and isinstance(b, (bool, int)):   # 32-bit, wrapping
        a, b = int(a), int(b)
        if op == "+":
            return wrap32(a + b)
        if op == "-":
            return wrap32(a - b)
        if op == "*":
            return wrap32(a * b)
        return wrap32(idiv(a, b))          # -2147483648 / -1 wraps to -2147483648
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return fdiv(float(a), float(b))


def _componentwise(op: str, a, b):
    kind = a if is_components(a) else b
    if is_components(a) and is_components(b) and (type(a) is not type(b) or len(a) != len(b)):
        raise TypeMismatch(f"'{op}' needs operands of one type, not {type_name(a)} and {type_name(b)}")
    xs = a if is_components(a) else (a,) * len(kind)
    ys = b if is_components(b) else (b,) * len(kind)
    comps = [_scalar(op, float(x), float(y)) for x, y in zip(xs, ys)]
    return type(kind)(comps)


def arithmetic(op: str, a, b):
    """`+ - * /` on any pair of values they apply to."""
    if is_number(a) and is_number(b):
        return _scalar(op, a, b)
    if op == "+" and isinstance(a, str) and isinstance(b, str):
        check_string_length(len(a) + len(b))
        return a + b
    if isinstance(a, str) or isinstance(b, str):
        raise TypeMismatch(f"'{op}' cannot combine {type_name(a)} and {type_name(b)}"
                           + ("; convert with string() first" if op == "+" else ""))
    if (is_components(a) or is_components(b)) and all(is_components(v) or is_number(v) for v in (a, b)):
        return _componentwise(op, a, b)
    if op == "*" and is_transform(a) and is_transform(b):
        ma, mb = as_matrix(a), as_matrix(b)
        if ma.size != mb.size:
            raise TypeMismatch(f"cannot multiply {type_name(a)} by {type_name(b)}")
        return from_numpy(to_numpy(ma) @ to_numpy(mb))
    if (isinstance(a, Matrix) and is_number(b) and op in "*/") or (isinstance(b, Matrix) and is_number(a) and op == "*"):
        m, k = (a, b) if isinstance(a, Matrix) else (b, a)
        return Matrix(tuple(_scalar(op, x, float(k)) for x in m.values))
    if isinstance(a, Matrix) and isinstance(b, Matrix) and op in "+-" and a.size == b.size:
        return Matrix(tuple(_scalar(op, x, y) for x, y in zip(a.values, b.values)))
    raise TypeMismatch(f"'{op}' does not apply to {type_name(a)} and {type_name(b)}")


def _worded(v) -> bool:
    return isinstance(v, (EnumValue, ItemRef, MaterialRef))


def _enum_number(v):
    """An enum compared with a number: Kanzi's enums are integers underneath."""
    if v.value is None:
        raise TypeMismatch(f"the enum word {v.word!r} has no known integer value; compare it with "
                           f"the word, e.g. == \"{v.word}\"")
    return v.value


def compare(op: str, a, b) -> bool:
    if isinstance(a, EnumValue) and is_number(b):
        a = _enum_number(a)
    elif isinstance(b, EnumValue) and is_number(a):
        b = _enum_number(b)
    if op in ("==", "!="):
        if is_number(a) and is_number(b):
            same = a == b
        elif _worded(a) and isinstance(b, str) or _worded(b) and isinstance(a, str):
            same = str(a) == str(b)        # enum words, item paths, material names are text
        elif type_name(a) == type_name(b):
            same = a == b
        else:
            raise TypeMismatch(f"cannot compare {type_name(a)} with {type_name(b)}")
        return same if op == "==" else not same
    if not (is_number(a) and is_number(b) or isinstance(a, str) and isinstance(b, str)):
        raise TypeMismatch(f"'{op}' orders numbers or strings, not {type_name(a)} and {type_name(b)}")
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def bitwise(op: str, a, b) -> int:
    """`& | ^ << >>` on Kanzi's 32-bit ints. A shift count outside 0..31 is an error (C++
    leaves it undefined, and CPUs disagree); `>>` keeps the sign (arithmetic shift)."""
    x = wrap32(to_int(a, f"an operand of '{op}'"))
    y = wrap32(to_int(b, f"an operand of '{op}'"))
    if op in ("<<", ">>"):
        if not 0 <= y <= 31:
            raise BadValue(f"a shift count of {y}: Kanzi's ints have 32 bits, so it must be 0..31")
        return wrap32(x << y) if op == "<<" else x >> y
    if op == "&":
        return x & y
    return x | y if op == "|" else x ^ y


def over_range(f, *args):
    """f element by element where an argument is a range (a scalar is paired with every
    element; two ranges pair theirs, up to the shorter one's length)."""
    ranges = [a for a in args if isinstance(a, Range)]
    n = min(len(r) for r in ranges)
    cols = [a.items[:n] if isinstance(a, Range) else (a,) * n for a in args]
    return Range(tuple(f(*xs) for xs in zip(*cols)))


# The element a fold of an empty range gives: `...+` sums nothing to 0, `...*` multiplies to 1.
_FOLD_IDENTITY = {"+": 0, "*": 1}


def fold(op: str, r):
    """`...op range`: the elements combined left to right with `op`."""
    if not isinstance(r, Range):
        raise TypeMismatch(f"'...{op}' folds a range, not {type_name(r)}")
    if not r.items:
        if op in _FOLD_IDENTITY:
            return _FOLD_IDENTITY[op]
        raise BadValue(f"'...{op}' of an empty range has no value")
    out = r.items[0]
    for x in r.items[1:]:
        out = binary(op, out, x)
    return out


def binary(op: str, a, b):
    if isinstance(a, Range) or isinstance(b, Range):
        if op in ("&&", "||"):
            raise TypeMismatch(f"'{op}' takes conditions, not a range; fold it first (...+ range)")
        return over_range(lambda x, y: binary(op, x, y), a, b)
    if op in ("+", "-", "*", "/"):
        return arithmetic(op, a, b)
    if op in ("==", "!=", "<", ">", "<=", ">="):
        return compare(op, a, b)
    if op in ("&&", "||"):
        x, y = truthy(a, f"an operand of '{op}'"), truthy(b, f"an operand of '{op}'")
        return (x and y) if op == "&&" else (x or y)
    return bitwise(op, a, b)


def unary(op: str, v):
    if isinstance(v, Range):
        return over_range(lambda x: unary(op, x), v)
    if op == "-":
        if isinstance(v, (bool, int)):
            return wrap32(-int(v))
        if is_number(v):
            return -v
        if is_components(v):
            return type(v)(-c for c in v)
        if isinstance(v, Matrix):
            return Matrix(tuple(-c for c in v.values))
        raise TypeMismatch(f"'-' does not apply to {type_name(v)}")
    if op == "!":
        return not truthy(v, "the operand of '!'")
    return wrap32(~to_int(v, "the operand of '~'"))


# -- matrices and SRTs -----------------------------------------------------------------------

def is_transform(v) -> bool:
    return isinstance(v, (Matrix, Srt2D, Srt3D))


def to_numpy(m: Matrix) -> np.ndarray:
    n = m.size
    return np.array(m.values, dtype=float).reshape(n, n).T     # column-major storage


def from_numpy(a: np.ndarray) -> Matrix:
    return Matrix(tuple(float(x) for x in np.asarray(a).T.reshape(-1)))


def euler_of(r: np.ndarray) -> tuple[float, float, float]:
    """Euler degrees (x, y, z) of a rotation R = Rz @ Ry @ Rx."""
    sy = -max(-1.0, min(1.0, r[2, 0]))
    y = math.asin(sy)
    if abs(sy) < 1 - 1e-12:
        x = math.atan2(r[2, 1], r[2, 2])
        z = math.atan2(r[1, 0], r[0, 0])
    else:                       # gimbal lock: put everything into x
        x = math.atan2(-r[1, 2], r[1, 1])
        z = 0.0
    return tuple(_clean(math.degrees(a)) for a in (x, y, z))


def _clean(x: float) -> float:
    r = round(x, 9)
    return 0.0 if r == 0 else (r if abs(r - x) < 1e-9 else x)


def as_matrix(v) -> Matrix:
    """SRT -> the matrix T @ R @ S (scale first, then rotation, then translation)."""
    if isinstance(v, Matrix):
        return v
    if isinstance(v, Srt3D):
        return from_numpy(srt_matrix(v))
    if isinstance(v, Srt2D):
        c, s = cos_deg(v.rotation), sin_deg(v.rotation)
        m = np.eye(3)
        m[:2, :2] = np.array([[c, -s], [s, c]]) @ np.diag(v.scale)
        m[:2, 2] = v.translation
        return from_numpy(m)
    raise TypeMismatch(f"{type_name(v)} is not a matrix or an SRT")


def srt_of(m: Matrix):
    """Decompose a matrix without shear back into an SRT (Srt2D for 3x3, Srt3D for 4x4)."""
    a = to_numpy(m)
    n = m.size - 1
    lin = a[:n, :n]
    scale = np.linalg.norm(lin, axis=0)
    if np.linalg.det(lin) < 0:
        scale[0] = -scale[0]
    rot = lin / np.where(scale == 0, 1, scale)
    t = tuple(_clean(float(c)) for c in a[:n, n])
    s = tuple(_clean(float(c)) for c in scale)
    if n == 2:
        return Srt2D(s, _clean(math.degrees(math.atan2(rot[1, 0], rot[0, 0]))), t)
    return Srt3D(s, euler_of(rot), t)
