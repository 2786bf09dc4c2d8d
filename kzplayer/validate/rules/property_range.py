"""A property value outside its range, or no number at all (NaN, infinite, an int past 32 bits).

Every number a property of the catalog holds must be finite (`nan`, `inf` and `1e400`,
which reads as infinite, are errors) and an int must fit Kanzi's 32 bits (-2147483648 to
2147483647); Kanzi's own properties that kzplayer does not play are left alone (Kanzi Studio
writes `NaN` for an unused `Camera.Fov`). The catalog gives some properties a range. Where the player clamps the value (the initial
velocity angles are clamped to [0, π], as the emission page says; probabilities to [0, 1]),
an outside value is a warning that says what the player uses instead; elsewhere it is an
error (a negative `Emission.Rate` or `ParticleEmitter.MaximumAmount`). Vector values are
checked component by component. Angles are radians; a value that reads as degrees (`45`)
gets a hint with the value in radians.

To fix: write a value inside the range the message gives; angles are radians.

Failing:

    <Property name="Emission.InitialVelocityOuterAngle">4</Property>   <!-- > π: clamped -->

Passing:

    <Property name="Emission.InitialVelocityOuterAngle">3.14159</Property>
"""
import math

from kzplayer.diagnostics import Severity
from kzplayer.project.catalog import number_problem
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ303"
RULE = "property.range"
SEVERITY = Severity.ERROR


def check(context):
    for item in context.items:
        for name, prop in item.properties.items():
            spec = context.catalog.property(name)
            if prop.value is None or spec is None:
                continue        # a property kzplayer does not play (Kanzi Studio writes NaN for an unused Camera.Fov)
            if (bad := number_problem(prop.value)):
                yield Problem(value_span(prop), f"{name} {bad}",
                              "write a finite number" + (" that fits 32 bits" if "32-bit" in bad else ""))
                continue
            if not spec.out_of_range(prop.value):
                continue
            band = _band(spec)
            shown = prop.text.strip() or str(prop.value)
            wanted = (f"≥ {_num(spec.min)}" if spec.max is None else f"≤ {_num(spec.max)}" if spec.min is None
                      else f"in {band}")
            hint = _degrees_hint(spec, prop.value) or f"use a value {wanted}"
            if spec.clamped:
                yield Problem(value_span(prop), f"{name} = {shown} is outside {band}; the player clamps it to "
                              f"{_show(spec.clamp(prop.value))}", hint, Severity.WARNING)
            else:
                yield Problem(value_span(prop), f"{name} = {shown} is outside {band}", hint)


def _degrees_hint(spec, value) -> str | None:
    """An angle above its range and above 2π that reads as degrees (45, 90, 180) most likely is."""
    if spec.unit != "rad" or not isinstance(value, (int, float)) or spec.max is None:
        return None
    if max(spec.max, 2 * math.pi) < value <= 360:
        return f"angles are in radians: {value:g}° is {math.radians(value):.4g}"
    return None


def _band(spec) -> str:
    return ("(-∞" if spec.min is None else f"[{_num(spec.min)}") + ", " + \
        ("∞)" if spec.max is None else f"{_num(spec.max)}]")


def _show(value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_num(v) for v in value) + ")"
    return _num(value)


def _num(x) -> str:
    for k, s in ((1, "π"), (0.5, "π/2"), (2, "2π")):
        if math.isclose(x, k * math.pi, rel_tol=1e-9):
            return s
    return f"{x:g}"
