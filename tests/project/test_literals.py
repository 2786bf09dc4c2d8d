"""The literal syntax of property values (kzm-format.md section 2), untyped and typed."""
import math

import pytest

from kzplayer.project.literals import LiteralError, check_value, format_literal, parse_literal
from kzplayer.values import (Color4, EnumValue, ItemRef, MaterialRef, Matrix, Srt2D, Srt3D,
                             Vector)


@pytest.mark.parametrize("text, expected", [
    ("500", 500), ("-3", -3), ("+7", 7), ("2.5", 2.5), ("-0.5", -0.5), (".5", 0.5),
    ("1e10", 1e10), ("1.5E-3", 0.0015), ("-2e+2", -200.0),
    ("true", True), ("false", False),
    ('"text"', "text"), ('"a \\"quoted\\" word"', 'a "quoted" word'),
    ('"tab\\tnew\\nline\\\\"', "tab\tnew\nline\\"), ('"\\u00e9t\\u00e9"', "été"), ('""', ""),
    ("(0, 1, 0)", Vector((0, 1, 0))), ("(1,2)", Vector((1, 2))), ("( 1 , 2 , 3 , 4 )", Vector((1, 2, 3, 4))),
    ("Vector2(1, 2)", Vector((1, 2))), ("Vector3(0,0,1)", Vector((0, 0, 1))),
    ("Vector4(1, 2, 3, 4)", Vector((1, 2, 3, 4))),
    ("Color4(1, 0.5, 0, 1)", Color4(1, 0.5, 0, 1)), ("Color(1, 0, 0)", Color4(1, 0, 0, 1)),
    ("Srt3D(1,1,1, -15,0,0, 0,3,12)", Srt3D((1, 1, 1), (-15, 0, 0), (0, 3, 12))),
    ("Srt2D(2, 2, 45, 10, 20)", Srt2D((2, 2), 45, (10, 20))),
    ("Matrix3(1,0,0, 0,1,0, 0,0,1)", Matrix((1, 0, 0, 0, 1, 0, 0, 0, 1))),
    ("Matrix4(" + ",".join(["0"] * 15 + ["1"]) + ")", Matrix(tuple([0.0] * 15 + [1.0]))),
    ("Verlet", EnumValue("Verlet")), ("ONE_WAY", EnumValue("ONE_WAY")),
    ("Screens/Screen/RootNode", ItemRef("Screens/Screen/RootNode")),
    ("../Source", ItemRef("../Source")), ("  42  ", 42),
])
def test_untyped_literals(text, expected):
    value = parse_literal(text)
    assert value == expected
    assert type(value) is type(expected)


def test_empty_text_is_no_value():
    assert parse_literal("") is None
    assert parse_literal("   \n ") is None
    assert parse_literal(None, "buffer") is None


@pytest.mark.parametrize("text, type_name, expected", [
    ("500", "float", 500.0), ("2", "int", 2), ("True", "bool", True), ("false", "bool", False),
    ("(1, 2, 3)", "vector3", Vector((1, 2, 3))), ("(1, 0, 0, 1)", "color4", Color4(1, 0, 0, 1)),
    ("(1, 0, 0)", "color4", Color4(1, 0, 0, 1)), ("#ff000080", "color4", Color4(1, 0, 0, 128 / 255)),
    ("Gravity", "material", MaterialRef("Gravity")),
    ("ParticlesAssetPackage/Materials/Particles/Gravity", "material",
     MaterialRef("ParticlesAssetPackage/Materials/Particles/Gravity")),
    ("Screens/My Screen/Root Node", "item", ItemRef("Screens/My Screen/Root Node")),
    ("Hello world", "string", "Hello world"), ('"quoted"', "string", "quoted"),
    ("Verlet", "enum", EnumValue("Verlet")),
    ("(1,1,1, 0,90,0, 0,0,0)", "srt3d", Srt3D((1, 1, 1), (0, 90, 0), (0, 0, 0))),
])
def test_typed_literals(text, type_name, expected):
    value = parse_literal(text, type_name)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("text, type_name, start, end, words", [
    ("(1,2)", "vector3", 0, 5, "needs 3 numbers"),           # the whole tuple
    ("  (1,2)", "vector3", 2, 7, "needs 3 numbers"),         # leading blanks shift the column
    ("2.5", "int", 0, 3, "expected an int"),
    ("(1, x, 3)", "vector3", 4, 5, "expected a number"),
    ("Vector3(1, 2)", None, 0, 13, "takes 3 numbers"),
    ('"open', None, 0, 5, "unterminated string"),
    ("1 2", None, 2, 3, "after the value"),
    ("(1, 2", "vector2", 5, 6, "ends too early"),
    ("true", "float", 0, 4, "expected a float"),
    ("Color4(1,2)", None, 0, 11, "takes 3 or 4 numbers"),
    ("(1,2,3,4,5)", None, 0, 11, "2, 3 or 4 components"),
    ('"bad \\q"', None, 5, 7, "unknown escape"),
    ("Verlett", "enum", 0, 7, "did you mean 'Verlet'"),
    ("x", "buffer", 0, 1, "binding"),
    ("12$", None, 2, 3, "unexpected character"),
])
def test_literal_errors_point_at_the_problem(text, type_name, start, end, words):
    with pytest.raises(LiteralError) as info:
        parse_literal(text, type_name, enum=("Verlet", "Euler"))
    err = info.value
    assert words in err.message
    assert (err.start, err.end) == (start, end)


@pytest.mark.parametrize("value, type_name", [
    (0.1, None), (1 / 3, None), (1e-300, None), (-0.0, None), (1e16, None), (3.0, None),
    (123456789012345678, None), (True, None), ("a\"b\\c\nd\té", None),
    (Vector((0.1, -2.5, 1e20)), None), (Vector((1 / 3, 2)), None), (Color4(0.2, 0.4, 0.6, 1), None),
    (Srt3D((1, 2, 3), (0.5, 90, -45), (1e-9, 0, 7)), None),
    (Srt2D((1, 1), 33.3, (0, -1)), None), (Matrix(tuple(float(i) / 7 for i in range(16))), None),
    (EnumValue("Verlet"), None), (ItemRef("Screens/A b/C"), "item"), (MaterialRef("Gravity"), "material"),
    (3.0, "float"), (0.30000000000000004, "float"), (-0.0, "float"),
])
def test_format_round_trips_exactly(value, type_name):
    text = format_literal(value, type_name)
    back = parse_literal(text, type_name)
    assert back == value and type(back) is type(value)
    if isinstance(value, float):
        assert math.copysign(1, back) == math.copysign(1, value)


def test_formatting_is_readable():
    assert format_literal(Vector((0, 1, 0))) == "(0, 1, 0)"
    assert format_literal(800.0, "float") == "800"
    assert format_literal(800.0) == "800.0"            # untyped: keeps it a float
    assert format_literal("x\x01") == '"x\\u0001"'     # not representable in XML text as is


def _Spec(type, enum=(), min=None, max=None, work_max=None):
    from kzplayer.project.catalog import PropertySpec
    return PropertySpec(name="Test.Value", type=type, enum=tuple(enum), min=min, max=max, work_max=work_max)


def test_check_value_converts_and_refuses():
    assert check_value(5, _Spec("float")) == 5.0 and isinstance(check_value(5, _Spec("float")), float)
    assert check_value([0, 1, 0], _Spec("vector3")) == Vector((0, 1, 0))
    assert check_value("(0, 1, 0)", _Spec("vector3")) == Vector((0, 1, 0))
    assert check_value("Euler", _Spec("enum", ("Verlet", "Euler"))) == EnumValue("Euler")
    for bad, spec in [(2.5, _Spec("int")), ((1, 2), _Spec("vector3")), ("Rk4", _Spec("enum", ("Verlet",))),
                      (True, _Spec("float")), (2.0, _Spec("float", min=0, max=1)), ("abc", _Spec("float"))]:
        with pytest.raises(ValueError):
            check_value(bad, spec)


def test_check_value_refuses_non_finite_numbers_ints_past_32_bits_and_work_past_the_limit():
    for bad, spec in [(float("nan"), _Spec("float")), (float("inf"), _Spec("float", min=0)),
                      ("nan", _Spec("float")), ("1e400", _Spec("float")), (10 ** 400, _Spec("float")),
                      (2 ** 31, _Spec("int")), ("-2147483649", _Spec("int")),
                      ((0, float("nan"), 0), _Spec("vector3")), (1e9, _Spec("float", work_max=1000))]:
        with pytest.raises(ValueError) as e:          # ValueError, as documented: never OverflowError
            check_value(bad, spec, "Test.Value")
        assert str(e.value).startswith("Test.Value must ")
    assert check_value(2 ** 31 - 1, _Spec("int")) == 2 ** 31 - 1
    assert check_value(1000, _Spec("float", work_max=1000)) == 1000.0


def test_check_value_says_what_the_property_takes_in_one_sentence():
    def message(value, spec):
        with pytest.raises(ValueError) as e:
            check_value(value, spec, "Emission.Lifetime")
        return str(e.value)
    assert message(-5.0, _Spec("float", min=0.0)) == "Emission.Lifetime must be at least 0, not -5"
    assert message(2.0, _Spec("float", max=1.0)) == "Emission.Lifetime must be at most 1, not 2"
    assert message(2.0, _Spec("float", min=0.0, max=1.5)) == "Emission.Lifetime must be between 0 and 1.5, not 2"
    assert message("abc", _Spec("float")) == "Emission.Lifetime takes a float, not `abc`"
    assert message("Verlet", _Spec("int")) == "Emission.Lifetime takes an int, not `Verlet`"
