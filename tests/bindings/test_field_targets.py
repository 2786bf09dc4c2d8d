"""Every TargetPropertyAttribute of an Srt3D and an Srt2D as a binding's field target: the
binding writes that one field into the property's current value (Kanzi's "Transformation
property field bindings"), ROTATION being an Srt3D's whole rotation (what createRotation*
gives) and an Srt2D's angle."""
import pytest

from kzplayer.bindings import resolve
from kzplayer.values import Srt2D, Srt3D

from .test_graph import bind, prop

SRT3D = "Srt3D(2, 3, 4, 10, 20, 30, 5, 6, 7)"
SRT2D = "Srt2D(2, 3, 40, 5, 6)"


def node(*lines, type="EmptyNode"):
    return f'<{type} name="N">\n' + "\n".join(lines) + f"\n</{type}>"


@pytest.mark.parametrize("field, expr, expected", [
    ("TRANSLATION_X", "9", Srt3D((2, 3, 4), (10, 20, 30), (9, 6, 7))),
    ("TRANSLATION_Y", "9", Srt3D((2, 3, 4), (10, 20, 30), (5, 9, 7))),
    ("TRANSLATION_Z", "9", Srt3D((2, 3, 4), (10, 20, 30), (5, 6, 9))),
    ("SCALE_X", "9", Srt3D((9, 3, 4), (10, 20, 30), (5, 6, 7))),
    ("SCALE_Y", "9", Srt3D((2, 9, 4), (10, 20, 30), (5, 6, 7))),
    ("SCALE_Z", "9", Srt3D((2, 3, 9), (10, 20, 30), (5, 6, 7))),
    ("ROTATION_X", "9", Srt3D((2, 3, 4), (9, 20, 30), (5, 6, 7))),
    ("ROTATION_Y", "9", Srt3D((2, 3, 4), (10, 9, 30), (5, 6, 7))),
    ("ROTATION_Z", "9", Srt3D((2, 3, 4), (10, 20, 9), (5, 6, 7))),
    ("ROTATION", "createRotationZ(45)", Srt3D((2, 3, 4), (0, 0, 45), (5, 6, 7))),
    ("ROTATION", "getCurrentValue().rotation", Srt3D((2, 3, 4), (10, 20, 30), (5, 6, 7))),
])
def test_srt3d_field_targets(project_of, field, expr, expected):
    p = project_of(node(prop("Node3D.RenderTransformation", SRT3D),
                        bind("Node3D.RenderTransformation", expr, field=field)))
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(p.find("Screens/Screen/N"), "Node3D.RenderTransformation") == expected


@pytest.mark.parametrize("field, expected", [
    ("TRANSLATION_X", Srt2D((2, 3), 40, (9, 6))), ("TRANSLATION_Y", Srt2D((2, 3), 40, (5, 9))),
    ("SCALE_X", Srt2D((9, 3), 40, (5, 6))), ("SCALE_Y", Srt2D((2, 9), 40, (5, 6))),
    ("ROTATION", Srt2D((2, 3), 9, (5, 6))), ("ROTATION_Z", Srt2D((2, 3), 9, (5, 6))),
])
def test_srt2d_field_targets(project_of, field, expected):
    p = project_of(node(prop("Node2D.RenderTransformation", SRT2D),
                        bind("Node2D.RenderTransformation", "9", field=field)))
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(p.find("Screens/Screen/N"), "Node2D.RenderTransformation") == expected


@pytest.mark.parametrize("kind, field, expr", [
    ("Node2D", "TRANSLATION_Z", "9"), ("Node2D", "ROTATION_X", "9"),
    ("Node3D", "ROTATION", "9"),           # a number is no rotation, nor a vector
    ("Node3D", "ROTATION", "Vector3(1, 2, 3)"),
])
def test_a_field_the_type_lacks_or_a_value_it_cannot_take_is_a_type_mismatch(project_of, kind, field, expr):
    value = SRT2D if kind == "Node2D" else SRT3D
    p = project_of(node(prop(f"{kind}.RenderTransformation", value),
                        bind(f"{kind}.RenderTransformation", expr, field=field)))
    assert [d.rule for d in resolve(p).diagnostics] == ["binding.type-mismatch"]
