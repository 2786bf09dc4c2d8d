"""Operators, promotion, fields, strings, vectors, buffers and evaluation errors."""
import math

import pytest

from kzplayer.diagnostics import KzError
from kzplayer.expr import ExprError, evaluate, parse
from kzplayer.values import BufferHandle, Color4, Srt3D, Vector


class Env:
    def __init__(self, values=None, current=None):
        self.values, self.current = values or {}, current

    def lookup(self, ref):
        return self.values[ref.property if ref.kind != "index" else f"_{ref.index}"]

    def current_value(self):
        return self.current


def ev(text, **values):
    program = parse(text)
    assert program.diagnostics == []
    return evaluate(program, Env(values)).value


def fails(text, **values):
    with pytest.raises(ExprError) as info:
        ev(text, **values)
    return info.value.diagnostic


def where(diag):
    s = diag.span
    return (diag.rule, s.line, s.column, s.end_line, s.end_column)


@pytest.mark.parametrize("text, expected", [
    ("7 / 2", 3), ("-7 / 2", -3), ("7 / -2", -3), ("-7 / -2", 3), ("7.0 / 2", 3.5), ("7 / 2.0", 3.5),
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 2 - 3", 5), ("2 * 3 / 4", 1), ("2 * (3 / 4)", 0),
    ("true + 1", 2), ("true * 2.5", 2.5), ("false + false", 0), ("1 + 0.5", 1.5)])
def test_arithmetic_and_promotion(text, expected):
    got = ev(text)
    assert got == expected and type(got) is type(expected)


def test_division_by_zero():
    assert where(fails("A = 2\nB = A / 0")) == ("expr.division-by-zero", 2, 5, 2, 10)
    assert ev("1.0 / 0") == math.inf and ev("-1 / 0.0") == -math.inf
    assert math.isnan(ev("0.0 / 0"))


@pytest.mark.parametrize("text, expected", [
    ("6 & 3", 2), ("6 | 3", 7), ("6 ^ 3", 5), ("1 << 4", 16), ("-16 >> 2", -4), ("~0", -1),
    ("~5", -6), ("1 << 31", -2147483648), ("true | 2", 3)])
def test_bitwise_on_32_bit_ints(text, expected):
    assert ev(text) == expected


@pytest.mark.parametrize("text", ["1.5 & 1", '"a" | 1', "~2.0"])
def test_bitwise_needs_ints(text):
    assert fails(text).rule == "expr.type"


def test_negative_shift_is_a_value_error():
    assert fails("1 << -1").rule == "expr.value"


@pytest.mark.parametrize("text, expected", [
    ("1 == 1.0", True), ("1 != 2", True), ("2 >= 2", True), ("3 < 2.5", False), ("true == 1", True),
    ('"abc" < "abd"', True), ('"b" > "a"', True), ('"a" == "a"', True), ('"Z" < "a"', True),
    ("!0", True), ("!2.5", False), ("1 || 0", True), ("0 && 1", False), ("1 > 0 ? 10 : 20", 10),
    ("0 > 1 ? 10 : 0 > 2 ? 20 : 30", 30)])
def test_comparisons_and_logic(text, expected):
    assert ev(text) is expected if isinstance(expected, bool) else ev(text) == expected


def test_logic_short_circuits():
    assert ev("false && 1 / 0 == 0") is False
    assert ev("true || 1 / 0 == 0") is True
    assert ev("true ? 1 : 1 / 0") == 1


def test_strings():
    assert ev('"Five is written as " + string(5)') == "Five is written as 5"
    err = fails('"a" + 1')
    assert err.rule == "expr.type" and "string()" in err.message
    assert fails('"a" < 1').rule == "expr.type"
    assert fails('"a" - "b"').rule == "expr.type"


def test_vectors_and_colours_component_wise():
    assert ev("Vector3(1, 2, 3) + Vector3(1, 1, 1)") == Vector((2, 3, 4))
    assert ev("Vector3(1, 2, 3) * 2") == Vector((2, 4, 6))
    assert ev("2 * Vector2(1, 2)") == Vector((2, 4))
    assert ev("Vector2(1, 2) / 2") == Vector((0.5, 1))
    assert ev("1 - Vector2(1, 2)") == Vector((0, -1))
    assert ev("-Vector2(1, -2)") == Vector((-1, 2))
    assert ev("Color4(1, 0.5, 0.25, 1) * Color4(0.5, 0.5, 0.5, 0.5)") == Color4(0.5, 0.25, 0.125, 0.5)
    assert ev("Vector3(1, 2, 3) == Vector3(1, 2, 3)") is True
    assert ev("Vector2(1, 2) / 0") == Vector((math.inf, math.inf))
    assert fails("Vector2(1, 2) + Vector3(1, 2, 3)").rule == "expr.type"
    assert fails("Vector4(1, 2, 3, 4) + Color4(1, 2, 3, 4)").rule == "expr.type"
    assert fails("Vector2(1, 2) < Vector2(1, 2)").rule == "expr.type"


def test_fields_read_and_assigned():
    assert ev("{./Color}.r + {./Color}.colorA", Color=Color4(0.25, 0, 0, 0.5)) == 0.75
    assert ev("{0}.translationY", _0=Srt3D(translation=(1, 2, 3))) == 2.0
    assert ev("{./Scale}.z", Scale=Vector((1, 2, 3))) == 3.0
    assert ev("v = {./Scale}\nv.x = 2\nv", Scale=Vector((1, 2, 3))) == Vector((2, 2, 3))
    assert ev("t = {./T}\nt.rotationZ = 45\nt.translationX = 1\nt", T=Srt3D()) == \
        Srt3D(rotation=(0, 0, 45), translation=(1, 0, 0))
    assert ev("{./Scale}.VectorY", Scale=Vector((1, 2, 3))) == 2.0


def test_invalid_field_points_at_the_field():
    err = fails("{./Scale}.w + 1", Scale=Vector((1, 2, 3)))
    assert where(err) == ("expr.field", 1, 1, 1, 12)
    assert "x, y, z" in err.message
    assert fails("v = 2\nv.x = 3").rule == "expr.field"


def test_buffer_handles_are_opaque_values():
    a, b = BufferHandle("EventBuffer", "/A"), BufferHandle("EventBuffer", "/B")
    assert ev("{../A/ParticleEmitter.EventBuffer}", **{"ParticleEmitter.EventBuffer": a}) is a
    assert ev("{./X} == {./Y}", X=a, Y=a) is True
    assert ev("{./X} != {./Y}", X=a, Y=b) is True
    assert fails("{./X} + 1", X=a).rule == "expr.type"
    assert fails("{./X} == 1", X=a).rule == "expr.type"
    assert fails("{./X} < {./Y}", X=a, Y=b).rule == "expr.type"


def test_enum_words_compare_with_text():
    from kzplayer.values import EnumValue
    assert ev('{./Mode} == "Verlet"', Mode=EnumValue("Verlet")) is True
    assert ev('{./Mode} != "Euler"', Mode=EnumValue("Verlet")) is True
    assert fails("{./Mode} == 1", Mode=EnumValue("Verlet")).rule == "expr.type"


def test_program_value_is_the_last_statement():
    assert ev("A = 2.0\nB = A * 3") == 6.0
    result = evaluate(parse("A = 2\nB = A + 1\nA"), Env())
    assert result.value == 2 and result.variables == {"A": 2, "B": 3}


def test_unassigned_variable():
    assert where(fails("A = 1\nA + B")) == ("expr.unassigned", 2, 5, 2, 6)


def test_unknown_function_suggests():
    err = fails("mx(1, 2)")
    assert where(err) == ("expr.unknown-function", 1, 1, 1, 3)
    assert err.hint == "did you mean 'max()'?"


def test_argument_count():
    assert where(fails("1 + clamp(1, 2)")) == ("expr.arguments", 1, 5, 1, 16)


def test_unresolvable_reference():
    err = fails("{../Missing/Node.Width} * 2")
    assert where(err) == ("expr.reference", 1, 1, 1, 24)


def test_syntax_errors_refuse_to_evaluate():
    with pytest.raises(ExprError) as info:
        evaluate(parse("1 +", file="f.kzm", line=3, column=8), Env())
    assert info.value.diagnostic.rule == "expr.syntax"
    assert isinstance(info.value, KzError) and "f.kzm:3:11" in str(info.value)


def test_function_names_are_case_insensitive():
    assert ev("CLAMP(0, 1, 5)") == ev("clamp(0, 1, 5)") == ev("Clamp(0, 1, 5)") == 1
    assert ev("CreateRotationZ(5)") == ev("createRotationZ(5)")


def test_variables_are_case_sensitive_fields_are_not():
    assert fails("A = 1\na").rule == "expr.unassigned"
    assert ev("v = Vector3(1, 2, 3)\nv.Y = 7\nv.y") == 7
