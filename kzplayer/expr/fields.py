"""Fields of values: `{./Color}.r`, `v.x = 2`, `{./Node3D.RenderTransformation}.translationY`.

Field names are matched without regard to case (`translationy` works), like function names.
An Srt3D's `rotation` field is its whole rotation (Kanzi's quaternion; TargetPropertyAttribute
ROTATION): kzplayer has no quaternion type, so it is the rotation-only Srt3D that
`createRotation*` gives, and assigning one replaces the rotation.
"""
from __future__ import annotations

import dataclasses

from kzplayer.expr.arithmetic import BadValue, TypeMismatch, is_number, to_numpy
from kzplayer.values import Color4, Matrix, Srt2D, Srt3D, Vector, type_name

_VECTOR = {"x": 0, "y": 1, "z": 2, "w": 3, "vectorx": 0, "vectory": 1, "vectorz": 2, "vectorw": 3}
_COLOR = {"r": 0, "g": 1, "b": 2, "a": 3, "colorr": 0, "colorg": 1, "colorb": 2, "colora": 3}
_AXES = {"x": 0, "y": 1, "z": 2}


def _srt_field(value, name: str) -> tuple[str, int | None] | None:
    """(attribute, component) of an SRT field, or None."""
    for prefix, attr in (("translation", "translation"), ("scale", "scale"), ("rotation", "rotation")):
        if name.startswith(prefix):
            rest = name[len(prefix):]
            if isinstance(value, Srt2D) and attr == "rotation":
                return (attr, None) if rest in ("", "z") else None
            if rest == "" and isinstance(value, Srt3D) and attr == "rotation":
                return attr, None           # the whole rotation
            limit = 2 if isinstance(value, Srt2D) else 3
            if rest in _AXES and _AXES[rest] < limit:
                return attr, _AXES[rest]
    return None


def field_names(value) -> list[str]:
    """The fields a value has, for messages."""
    if isinstance(value, Vector):
        return list("xyzw"[:len(value)])
    if isinstance(value, Color4):
        return list("rgba")
    if isinstance(value, Srt2D):
        return ["translationX", "translationY", "scaleX", "scaleY", "rotation"]
    if isinstance(value, Srt3D):
        return [f"{k}{a}" for k in ("translation", "scale", "rotation") for a in "XYZ"] + ["rotation"]
    if isinstance(value, Matrix):
        return ["translationX", "translationY"] + (["translationZ"] if value.size == 4 else [])
    return []


def _locate(value, name: str):
    key = name.lower()
    if isinstance(value, Vector):
        i = _VECTOR.get(key)
        return ("index", i) if i is not None and i < len(value) else None
    if isinstance(value, Color4):
        i = _COLOR.get(key)
        return ("index", i) if i is not None else None
    if isinstance(value, (Srt2D, Srt3D)):
        return _srt_field(value, key)
    if isinstance(value, Matrix) and key.startswith("translation") and key[11:] in _AXES \
            and _AXES[key[11:]] < value.size - 1:
        return ("translation", _AXES[key[11:]])
    return None


def get_field(value, name: str):
    where = _locate(value, name)
    if where is None:
        raise _no_field(value, name)
    attr, i = where
    if attr == "index":
        return value[i]
    if isinstance(value, Matrix):
        return float(to_numpy(value)[i, value.size - 1])
    if isinstance(value, Srt3D) and attr == "rotation" and i is None:
        return Srt3D(rotation=value.rotation)
    part = getattr(value, attr)
    return float(part if i is None else part[i])


def field_type(value, name: str) -> str:
    """The type of a field's value: a number, or for an Srt3D's `rotation` an srt3d."""
    where = _locate(value, name)
    return "srt3d" if isinstance(value, Srt3D) and where == ("rotation", None) else "float"


def set_field(value, name: str, new):
    """A copy of `value` with one field replaced (values are immutable)."""
    where = _locate(value, name)
    if where is None:
        raise _no_field(value, name)
    if isinstance(value, Srt3D) and where == ("rotation", None):
        return dataclasses.replace(value, rotation=_rotation(new, name))
    if not is_number(new):
        raise TypeMismatch(f"field '{name}' takes a number, not {type_name(new)}")
    attr, i = where
    if attr == "index":
        comps = list(value)
        comps[i] = float(new)
        return type(value)(comps)
    if isinstance(value, Matrix):
        n = value.size
        values = list(value.values)
        values[(n - 1) * n + i] = float(new)     # column-major: the last column
        return Matrix(tuple(values))
    part = getattr(value, attr)
    if i is None:
        return dataclasses.replace(value, **{attr: float(new)})
    comps = list(part)
    comps[i] = float(new)
    return dataclasses.replace(value, **{attr: tuple(comps)})


def _rotation(new, name: str) -> tuple[float, float, float]:
    if isinstance(new, Srt3D):
        return new.rotation
    raise TypeMismatch(f"field '{name}' takes a rotation (createRotation(x, y, z), createRotationZ(a), "
                       f"another transformation's .rotation), not {type_name(new)}")


def _no_field(value, name: str) -> Exception:
    names = field_names(value)
    have = f"; {type_name(value)} has {', '.join(names)}" if names else f"; {type_name(value)} has no fields"
    return FieldError(f"'{name}' is not a field of {type_name(value)}{have}")


class FieldError(BadValue):
    pass
