"""What a binding may write where: like types only, plus int/float/bool promotion, and one
field of a composite value (TargetPropertyAttribute, BindingSourceItem field).

Float into int truncates toward zero, as Kanzi's `int()` cast and C++ do; the docs page
says why (docs/bindings.md, "Conversions").
"""
from __future__ import annotations

import math

from kzplayer.diagnostics import a_or_an
from kzplayer.expr.arithmetic import BadValue, TypeMismatch
from kzplayer.expr.fields import field_type as of_value, get_field, set_field
from kzplayer.expr.strings import format_value
from kzplayer.expr.types import SAMPLES
from kzplayer.project.catalog import number_problem
from kzplayer.project.value_rules import INT_MAX, INT_MIN
from kzplayer.values import EnumValue, ItemRef, MaterialRef, type_name

_NUMERIC = ("bool", "int", "float")


class ConversionError(ValueError):
    """A value that cannot go where it is asked to go; the message is for people."""


def coerce(value, target_type: str | None):
    """`value` converted for a property of `target_type` (a catalog type name); a number
    that no property holds (NaN, infinite, an int past 32 bits: the catalog's
    `number_problem`) does not go in.

    None as target type means "not declared anywhere": the value goes in as it is."""
    cls = value.__class__
    if cls is float and math.isfinite(value):      # the usual numbers, the same way, quicker
        if target_type == "float":
            return value
        if target_type == "int" and INT_MIN <= (out := math.trunc(value)) <= INT_MAX:
            return out
    elif cls is int and target_type == "int" and INT_MIN <= value <= INT_MAX:
        return value
    out = _coerce(value, target_type)
    if target_type is not None:
        bad = number_problem(out)
        if bad:
            raise ConversionError(f"a property value {bad}")
    return out


def _coerce(value, target_type: str | None):
    if value is None:
        raise ConversionError("the binding produced no value")
    have = type_name(value)
    if target_type is None or have == target_type:
        return value
    if have in _NUMERIC and target_type in _NUMERIC:
        if target_type == "bool":
            return value != 0
        if target_type == "int":
            if isinstance(value, float) and not math.isfinite(value):
                raise ConversionError(f"{value} does not fit an int property")
            return math.trunc(value)
        return float(value)
    # a number into a text property is written as text: Kanzi shows a bound number in a Text
    # Block (Gauges.kzproj binds the int Gauges.Speed to TextConcept.Text without string())
    if have in _NUMERIC and target_type == "string":
        return format_value(value)
    # Kanzi's enums are integers underneath: an enum binds to an int property as its number,
    # and an int to an enum property (Kanzi Studio stores custom enums as their numbers)
    if have == "enum" and target_type in _NUMERIC and getattr(value, "value", None) is not None:
        return coerce(value.value, target_type)
    if have in ("int", "bool") and target_type == "enum":
        return int(value)
    # enum words, item paths and material names are written as text in expressions
    if have == "string" and target_type in ("enum", "item", "material"):
        return {"enum": EnumValue, "item": ItemRef, "material": MaterialRef}[target_type](value)
    raise ConversionError(f"cannot bind {a_or_an(have)} to {a_or_an(target_type)} property: only like types bind")


# -- fields --------------------------------------------------------------------------------

# TargetPropertyAttribute values; the expression language spells the same fields
# `vectorX`, `colorR`, `translationY`, `rotationZ` (kzplayer.expr.fields does the work).
_FIELDS = ({f"VECTOR_{c}" for c in "XYZW"} | {f"COLOR_{c}" for c in "RGBA"}
           | {f"{k}_{c}" for k in ("TRANSLATION", "SCALE", "ROTATION") for c in "XYZ"} | {"ROTATION"})
_ALIASES = {name.replace("_", "").lower(): name for name in _FIELDS}
_ALIASES.update({c.lower(): f"VECTOR_{c}" for c in "XYZW"})
_ALIASES.update({c.lower(): f"COLOR_{c}" for c in "RGBA"})

WHOLE = "WHOLE_PROPERTY"


def normalize_field(name: str | None) -> str | None:
    """`TRANSLATION_Y`, `translationY`, `y` ... -> canonical attribute; None/WHOLE -> None.
    Raises ConversionError for a name that is no field at all."""
    if name is None or name.strip() in ("", WHOLE):
        return None
    key = name.strip().replace("_", "").lower()
    if key not in _ALIASES:
        raise ConversionError(f"{name!r} is not a property field (known: {WHOLE}, "
                              f"{', '.join(sorted(_FIELDS))})")
    return _ALIASES[key]


def field_type(kind: str | None, field: str | None) -> str | None:
    """The type of one field of a value of type `kind`: a number ("float"), except an Srt3D's
    ROTATION, its whole rotation (an srt3d); `kind` itself without a field."""
    if field is None:
        return kind
    return of_value(SAMPLES[kind], field.replace("_", "")) if kind in SAMPLES else "float"


def read_field(value, field: str | None):
    """The component `field` of `value` (the whole value when field is None)."""
    if field is None:
        return value
    try:
        return get_field(value, field.replace("_", ""))
    except (BadValue, TypeMismatch) as exc:
        raise ConversionError(f"{field}: {exc}") from None


def write_field(value, field: str | None, component):
    """`value` with its `field` replaced by `component` (a number); `component` itself when
    field is None."""
    if field is None:
        return component
    if value is None:
        raise ConversionError(f"{field}: the property has no value to write one field of")
    try:
        return set_field(value, field.replace("_", ""), component)
    except (BadValue, TypeMismatch) as exc:
        raise ConversionError(f"{field}: {exc}") from None
