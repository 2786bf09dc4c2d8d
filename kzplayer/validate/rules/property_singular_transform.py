"""A node transform that cannot be used: a scale of 0, or a number that is not finite (a warning).

A node's `Node3D.RenderTransformation` (after bindings) places everything below it; a colliders'
surface, a local-space ParticleSystem, a mesh emitter and a model are mapped into and out of
its space, which a scale of 0 collapses (no inverse). `play` then holds the node's last usable
transform (identity when it never had one) and goes on.

To fix: give every scale component a size other than 0 (a tiny one, 0.001, hides the node).

Failing:

    <Property name="Node3D.RenderTransformation">0 0 0  0 0 0  1 0 1</Property>

Passing:

    <Property name="Node3D.RenderTransformation">0 0 0  0 0 0  1 0.001 1</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem
from kzplayer.transforms import TRANSFORM, srt_matrix, usable
from kzplayer.values import Srt3D

CODE = "KZ313"
RULE = "property.singular-transform"
SEVERITY = Severity.WARNING


def check(context):
    for item in context.items:
        srt = context.value(item, TRANSFORM)
        if not isinstance(srt, Srt3D) or usable(srt_matrix(srt)):
            continue
        prop = item.properties.get(TRANSFORM)
        yield Problem(value_span(prop) if prop is not None else item.span,
                      f"{item.type} '{item.name}': its transform (scale {tuple(srt.scale)}) cannot be inverted or "
                      "is not finite; play holds its last usable transform (identity)",
                      "give every scale component a size other than 0")
