"""Every function of the language, with Kanzi's argument order and the edge cases."""
import math
from pathlib import Path

import numpy as np
import pytest

from kzplayer.expr import FUNCTIONS, ExprError, evaluate, parse
from kzplayer.values import Color4, Matrix, Srt2D, Srt3D, Vector


class NoRefs:
    def lookup(self, ref):
        raise LookupError(ref.spelling)

    def current_value(self):
        return 7


def ev(text):
    program = parse(text)
    assert program.diagnostics == [], [str(d) for d in program.diagnostics]
    return evaluate(program, NoRefs()).value


def fails(text):
    with pytest.raises(ExprError) as info:
        ev(text)
    return info.value.diagnostic


def same(value, expected, tol=1e-12):
    if isinstance(expected, (tuple, list)):
        assert len(value) == len(expected)
        for v, e in zip(value, expected):
            same(v, e, tol)
    elif isinstance(expected, float) and math.isnan(expected):
        assert math.isnan(value)
    else:
        assert value == pytest.approx(expected, abs=tol), (value, expected)


# -- math ----------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, mod, rem", [
    (-13, 5, 2, -3), (13, 5, 3, 3), (13, -5, -2, 3), (-13, -5, -3, -3), (10, 5, 0, 0), (0, 3, 0, 0)])
def test_mod_and_rem_of_ints(a, b, mod, rem):
    assert ev(f"mod({a}, {b})") == mod and type(ev(f"mod({a}, {b})")) is int
    assert ev(f"rem({a}, {b})") == rem
    # the defining identities: a == b * q + r with q floored (mod) or truncated (rem)
    assert a == b * math.floor(a / b) + mod and a == b * math.trunc(a / b) + rem


@pytest.mark.parametrize("a, b, mod, rem", [
    (-5.5, 2, 0.5, -1.5), (5.5, -2, -0.5, 1.5), (7.25, 2.5, 2.25, 2.25), (-7.25, 2.5, 0.25, -2.25)])
def test_mod_and_rem_of_floats(a, b, mod, rem):
    same(ev(f"mod({a}, {b})"), mod)
    same(ev(f"rem({a}, {b})"), rem)


def test_mod_and_rem_by_zero():
    assert fails("mod(3, 0)").rule == "expr.division-by-zero"
    assert fails("rem(3, 0)").rule == "expr.division-by-zero"
    same(ev("mod(3.0, 0)"), math.nan)
    same(ev("rem(3, 0.0)"), math.nan)


@pytest.mark.parametrize("text, expected", [
    ("clamp(0, 10, 15)", 10), ("clamp(0, 10, -5)", 0), ("clamp(0, 10, 5)", 5),
    ("clamp(0, 1, 2.5)", 1.0), ("clamp(10, 60, 400.0 / 20)", 20.0)])
def test_clamp_takes_the_value_last(text, expected):
    got = ev(text)
    assert got == expected and type(got) is type(expected)


def test_clamp_component_wise():
    assert ev("clamp(0, 1, Vector3(-1, 0.5, 2))") == Vector((0, 0.5, 1))


@pytest.mark.parametrize("x, expected", [
    (2.5, 3.0), (-2.5, -3.0), (1.5, 2.0), (0.5, 1.0), (-0.5, -1.0), (2.4999, 2.0),
    (0.49999999999999994, 0.0), (4503599627370497.0, 4503599627370497.0), (3, 3)])
def test_round_halves_away_from_zero(x, expected):
    got = ev(f"round({x!r})")
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("text, expected", [
    ("floor(-1.5)", -2.0), ("ceil(-1.5)", -1.0), ("floor(2)", 2), ("ceil(2.1)", 3.0),
    ("abs(-2)", 2), ("abs(-2.5)", 2.5), ("sign(-3)", -1), ("sign(0.0)", 0.0), ("sign(4.5)", 1.0),
    ("sqrt(16)", 4.0), ("min(1, 2)", 1), ("max(1, 2.5)", 2.5), ("min(1, 2.5)", 1.0),
    ("pow(2, 10)", 1024.0), ("pow(9, 0.5)", 3.0), ("ABS(-1)", 1), ("Clamp(0, 1, 3)", 1)])
def test_math(text, expected):
    got = ev(text)
    assert got == expected and type(got) is type(expected)


def test_math_outside_the_domain_is_nan():
    same(ev("sqrt(-1)"), math.nan)
    same(ev("pow(-8, 1.0 / 3)"), math.nan)


def test_math_component_wise():
    assert ev("abs(Vector2(-1, 2))") == Vector((1, 2))
    assert ev("max(Vector3(1, 5, 3), 2)") == Vector((2, 5, 3))
    assert ev("floor(Color4(0.5, 1.5, 2.5, 1))") == Color4(0, 1, 2, 1)


# -- trigonometry in degrees -----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("sin(90)", 1.0), ("sin(30)", 0.5), ("sin(180)", 0.0), ("sin(-90)", -1.0), ("sin(450)", 1.0),
    ("cos(0)", 1.0), ("cos(60)", 0.5), ("cos(90)", 0.0), ("cos(180)", -1.0),
    ("tan(45)", 1.0), ("tan(0)", 0.0), ("tan(135)", -1.0), ("tan(30)", 1 / math.sqrt(3)),
    ("asin(1)", 90.0), ("asin(0.5)", 30.0), ("acos(0)", 90.0), ("acos(-1)", 180.0),
    ("atan(1)", 45.0), ("atan2(1, 0)", 90.0), ("atan2(0, -1)", 180.0), ("atan2(-1, -1)", -135.0),
    ("atan2(1, 1)", 45.0), ("sinc(0)", 1.0), ("sinc(180)", 0.0), ("sinc(90)", 2 / math.pi)])
def test_trigonometry_in_degrees(text, expected):
    same(ev(text), expected)


def test_exact_right_angles():
    assert ev("sin(180)") == 0.0 and ev("cos(90)") == 0.0 and ev("tan(90)") == math.inf


def test_inverse_trig_outside_the_domain_is_nan():
    same(ev("asin(2)"), math.nan)
    same(ev("acos(-1.5)"), math.nan)


# -- interpolation ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("linearStep(0, 10, 2.5)", 0.25), ("linearStep(0, 10, -1)", 0.0), ("linearStep(0, 10, 11)", 1.0),
    ("linearStep(10, 0, 2.5)", 0.75), ("linearStep(5, 5, 4)", 0.0), ("linearStep(5, 5, 5)", 1.0),
    ("smoothStep(0, 10, 2.5)", 0.25 ** 2 * (3 - 2 * 0.25)), ("smoothStep(0, 1, 0.5)", 0.5),
    ("smoothStep(0, 1, 2)", 1.0),
    ("smootherStep(0, 1, 0.25)", 0.25 ** 3 * (0.25 * (6 * 0.25 - 15) + 10)), ("smootherStep(0, 1, 0.5)", 0.5),
    ("step(0.5, 0.5)", 1.0), ("step(0.5, 0.49)", 0.0), ("step(0, 1)", 1.0),
    ("mix(0, 10, 0.25)", 2.5), ("mix(2, 4, 0)", 2.0), ("mix(2, 4, 1)", 4.0)])
def test_interpolation(text, expected):
    same(ev(text), expected)


def test_mix_of_vectors_and_colours():
    assert ev("mix(Vector3(0, 0, 0), Vector3(2, 4, 8), 0.5)") == Vector((1, 2, 4))
    assert ev("mix(Color4(0, 0, 0, 0), Color4(1, 1, 1, 1), 0.25)") == Color4(0.25, 0.25, 0.25, 0.25)


# -- vectors ---------------------------------------------------------------------------------

def test_vector_functions():
    assert ev("length(Vector3(3, 4, 0))") == 5.0
    assert ev("length(Vector2(6, 8))") == 10.0
    same(ev("normalize(Vector3(0, 3, 4))"), (0, 0.6, 0.8))
    assert ev("normalize(Vector3(0, 0, 0))") == Vector((0, 0, 0))
    assert ev("cross(Vector3(1, 0, 0), Vector3(0, 1, 0))") == Vector((0, 0, 1))
    assert ev("cross(Vector3(0, 1, 0), Vector3(1, 0, 0))") == Vector((0, 0, -1))
    assert ev("dot(Vector3(1, 2, 3), Vector3(4, 5, 6))") == 32.0
    assert fails("cross(Vector2(1, 0), Vector2(0, 1))").rule == "expr.type"
    assert fails("dot(Vector2(1, 0), Vector3(0, 1, 0))").rule == "expr.type"


# -- constructors and casts ------------------------------------------------------------------

def test_constructors():
    assert ev("Color4(1, 0, 0, 0.5)") == Color4(1, 0, 0, 0.5)
    assert ev("Color(1, 1, 1, 1)") == Color4(1, 1, 1, 1)
    assert ev("Color4(1, 0, 0)") == Color4(1, 0, 0, 1)
    assert ev("Vector2(1, 2)") == Vector((1, 2))
    assert ev("VECTOR3(1, 2, 3)") == Vector((1, 2, 3))
    assert ev("Vector4(1, 2, 3, 4)") == Vector((1, 2, 3, 4))
    assert ev("Srt2D(2, 3, 45, 4, 5)") == Srt2D((2, 3), 45, (4, 5))
    assert ev("Srt3D(1, 2, 3, 10, 20, 30, 4, 5, 6)") == Srt3D((1, 2, 3), (10, 20, 30), (4, 5, 6))
    assert ev("Matrix3(1, 2, 3, 4, 5, 6, 7, 8, 9)") == Matrix(tuple(float(i) for i in range(1, 10)))
    assert ev("Matrix4(" + ", ".join(str(i) for i in range(16)) + ")").values == tuple(float(i) for i in range(16))
    assert ev("Matrix3x3(Srt2D(1, 1, 0, 2, 3))").values[6:8] == (2.0, 3.0)
    assert ev("Srt3D(Matrix4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1))") == Srt3D(translation=(4, 5, 6))


@pytest.mark.parametrize("text, counts", [
    ("Vector3(1, 2)", "1 or 3"), ("Matrix3(1, 2, 3)", "1 or 9"), ("Color4(1, 2)", "1 or 3 or 4"),
    ("Srt2D(1, 2)", "1 or 5"), ("Matrix4(1, 2)", "1 or 16")])
def test_constructor_argument_counts(text, counts):
    err = fails(text)
    assert err.rule == "expr.arguments" and f"takes {counts} argument" in err.message


@pytest.mark.parametrize("text, expected", [
    ('bool("True")', True), ('bool("false")', False), ('bool("0")', False), ('bool("2.5")', True),
    ("bool(0.0)", False), ("bool(3)", True), ("int(-2.7)", -2), ("int(2.7)", 2), ('int("12")', 12),
    ('int(" 7 ")', 7), ('int("1.9")', 1), ("int(true)", 1), ("float(3)", 3.0), ('float("1.5")', 1.5),
    ("string(true)", "true"), ("string(5)", "5"), ("string(2.0)", "2"), ("string(0.1)", "0.1"),
    ("string(-1.5)", "-1.5"), ('string("x")', "x")])
def test_casts(text, expected):
    got = ev(text)
    assert got == expected and type(got) is type(expected)


def test_vector_and_colour_casts():
    assert ev("vector3(Vector4(1, 2, 3, 4))") == Vector((1, 2, 3))
    assert ev("vector4(Vector2(1, 2))") == Vector((1, 2, 0, 1))
    assert ev("vector3(2)") == Vector((2, 2, 2))
    assert ev("color4(Vector4(0.1, 0.2, 0.3, 0.4))") == Color4(0.1, 0.2, 0.3, 0.4)
    assert ev("color4(0.5)") == Color4(0.5, 0.5, 0.5, 0.5)
    assert ev("vector4(Color4(1, 0, 0, 1))") == Vector((1, 0, 0, 1))


@pytest.mark.parametrize("text", ['int("abc")', 'float("x1")', 'bool("maybe")', "int(1.0 / 0)"])
def test_bad_casts(text):
    assert fails(text).rule == "expr.value"


# -- transforms ------------------------------------------------------------------------------

def rot(axis, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return {"x": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]),
            "y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
            "z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])}[axis]


def mat(m: Matrix) -> np.ndarray:
    n = m.size
    return np.array(m.values).reshape(n, n).T


def srt_matrix(scale, rotation, translation):
    m = np.eye(4)
    m[:3, :3] = rot("z", rotation[2]) @ rot("y", rotation[1]) @ rot("x", rotation[0]) @ np.diag(scale)
    m[:3, 3] = translation
    return m


def test_matrix4_is_column_major():
    m = ev("Matrix4(1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  5, 6, 7, 1)")
    assert ev("Matrix4(1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  5, 6, 7, 1).translationX") == 5.0
    assert mat(m)[0, 3] == 5 and mat(m)[2, 3] == 7
    assert ev("transform(Matrix4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1), Vector3(1, 2, 3))") \
        == Vector((6, 8, 10))
    assert ev("transform(Matrix4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1), Vector4(1, 2, 3, 0))") \
        == Vector((1, 2, 3, 0))


def test_srt3d_to_matrix_and_composition():
    a, b = ((1, 2, 3), (10, 20, 30), (4, 5, 6)), ((2, 2, 2), (0, 0, 90), (1, 0, 0))
    ma = ev("matrix4x4(Srt3D(1, 2, 3, 10, 20, 30, 4, 5, 6))")
    same(mat(ma).ravel().tolist(), srt_matrix(*a).ravel().tolist(), 1e-9)
    prod = ev("Srt3D(1, 2, 3, 10, 20, 30, 4, 5, 6) * Srt3D(2, 2, 2, 0, 0, 90, 1, 0, 0)")
    same(mat(prod).ravel().tolist(), (srt_matrix(*a) @ srt_matrix(*b)).ravel().tolist(), 1e-9)


def test_srt2d_to_matrix3():
    m = ev("matrix3x3(Srt2D(2, 2, 90, 1, 1))")
    assert ev("transform(matrix3x3(Srt2D(2, 2, 90, 1, 1)), Vector2(1, 0))") == Vector((1, 3))
    assert m.size == 3


def test_rotations():
    assert ev("createRotationZ(90)") == Srt3D(rotation=(0, 0, 90))
    assert ev("CreateRotationX(30)") == Srt3D(rotation=(30, 0, 0))
    assert ev("createRotation(10, 20, 30)") == Srt3D(rotation=(10, 20, 30))
    same(ev("transform(matrix4x4(createRotationZ(90)), Vector3(1, 0, 0))"), (0, 1, 0))
    same(ev("transform(matrix4x4(createRotationX(90)), Vector3(0, 1, 0))"), (0, 0, 1))
    same(ev("transform(matrix4x4(createRotationY(90)), Vector3(0, 0, 1))"), (1, 0, 0))
    spun = ev("rotateZ(Srt3D(2, 2, 2, 0, 0, 30, 1, 2, 3), 60)")
    assert spun.scale == (2, 2, 2) and spun.translation == (1, 2, 3)
    same(spun.rotation, (0, 0, 90), 1e-9)
    assert ev("rotateZ(Srt2D(1, 1, 10, 0, 0), 20)").rotation == 30
    m = ev("rotateX(matrix4x4(Srt3D(1, 1, 1, 0, 0, 0, 5, 0, 0)), 90)")
    same(mat(m).ravel().tolist(), (srt_matrix((1, 1, 1), (0, 0, 0), (5, 0, 0))
                                   @ np.diag([1.0, 1, 1, 1]) @ np.block([[rot("x", 90), np.zeros((3, 1))],
                                                                       [np.zeros((1, 3)), np.ones((1, 1))]])
                                   ).ravel().tolist(), 1e-9)
    same(ev("rotate(Srt3D(1, 1, 1, 0, 0, 0, 0, 0, 0), createRotationY(45))").rotation, (0, 45, 0), 1e-9)


@pytest.mark.parametrize("angles", [(10, 20, 30), (-45, 60, 170), (0, 0, -90), (89, -30, 5)])
def test_extract_euler_inverts_create_rotation(angles):
    x, y, z = angles
    for source in (f"createRotation({x}, {y}, {z})", f"matrix4x4(Srt3D(2, 3, 4, {x}, {y}, {z}, 1, 2, 3))"):
        same([ev(f"extractEuler{a}({source})") for a in "XYZ"], angles, 1e-9)


def test_inverse_and_transpose():
    m = ev("inverse(Srt3D(1, 2, 3, 10, 20, 30, 4, 5, 6))")
    same((mat(m) @ srt_matrix((1, 2, 3), (10, 20, 30), (4, 5, 6))).ravel().tolist(),
         np.eye(4).ravel().tolist(), 1e-9)
    t = ev("transpose(Matrix3(1, 2, 3, 4, 5, 6, 7, 8, 9))")
    assert t.values == (1, 4, 7, 2, 5, 8, 3, 6, 9)
    assert fails("inverse(Matrix3(1, 2, 3, 2, 4, 6, 0, 0, 1))").rule == "expr.value"


# -- colour ----------------------------------------------------------------------------------

def test_hsl():
    same(ev("hslToSrgb(Color4(0, 1, 0.5, 1))"), (1, 0, 0, 1))
    same(ev("hslToSrgb(Color4(1.0 / 3, 1, 0.5, 0.5))"), (0, 1, 0, 0.5))
    same(ev("hslToSrgb(Color4(0.5, 0, 0.25, 1))"), (0.25, 0.25, 0.25, 1))
    same(ev("srgbToHsl(Color4(0, 0, 1, 1))"), (2 / 3, 1, 0.5, 1))
    same(ev("hslToSrgb(srgbToHsl(Color4(0.2, 0.4, 0.9, 0.7)))"), (0.2, 0.4, 0.9, 0.7))


def test_srgb_transfer():
    # IEC 61966-2-1: 0.5 linear encodes to 0.7354; 0.5 encoded is 0.2140 linear
    same(ev("linearTosRGB(0.5)"), 1.055 * 0.5 ** (1 / 2.4) - 0.055)
    same(ev("sRGBToLinear(0.5)"), ((0.5 + 0.055) / 1.055) ** 2.4)
    same(ev("linearTosRGB(0.001)"), 0.01292)
    same(ev("sRGBToLinear(linearTosRGB(Color4(0.1, 0.5, 0.9, 0.3)))"), (0.1, 0.5, 0.9, 0.3))
    assert ev("linearTosRGB(Color4(0.5, 0.5, 0.5, 0.5))")[3] == 0.5


def test_premultiply():
    same(ev("premultiplyColor(Color4(1, 0.5, 0.2, 0.5))"), (0.5, 0.25, 0.1, 0.5))


# -- text ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('format("{} of {:.2}", 3, 3.14159)', "3 of 3.1"),
    ('format("{1}-{0}", "a", "b")', "b-a"),
    ('format("{{}} {}", true)', "{} true"),
    ('format("{:.3f}", 2)', "2.000"),
    ('format("{:>4}", 7)', "   7"),
    ('format("{}", 2.0)', "2"),
    ('format("plain")', "plain")])
def test_format(text, expected):
    assert ev(text) == expected


def test_format_errors():
    assert fails('format("{} {}", 1)').rule == "expr.value"
    assert fails("format(1)").rule == "expr.type"


def test_split_string_gives_a_range_iterator():
    assert ev('string(splitString("a,b,c", ","))') == "a"
    assert ev('r = splitString("a--b", "--")\nevaluate(r)\nstring(r)') == "b"
    assert fails('r = splitString("a,b", ",")\nevaluate(r)\nevaluate(r)\nstring(r)').rule == "expr.value"
    # Kanzi's splitString has no index argument: step with evaluate()
    assert fails('splitString("a,b,c", ",", 2)').rule == "expr.arguments"


# -- special and engine-only -----------------------------------------------------------------

def test_get_current_value_and_continue_if():
    assert ev("getCurrentValue() + 1") == 8
    program = parse("continueIf(getCurrentValue() < 5)\n1")
    assert evaluate(program, NoRefs()).skipped


@pytest.mark.parametrize("name", [k for k, s in FUNCTIONS.items() if not s.evaluable])
def test_engine_functions_are_not_evaluable(name):
    args = ", ".join(["1"] * FUNCTIONS[name].min_args)
    err = fails(f"{name}({args})")
    assert err.rule == "expr.not-evaluable" and "not evaluable in kzplayer" in err.message


def test_every_evaluable_function_is_tested_here():
    here = Path(__file__).parent
    source = "".join(f.read_text() for f in (Path(__file__), here / "test_kanzi_reference.py")).lower()
    missing = [s.name for s in FUNCTIONS.values() if s.evaluable and f"{s.name.lower()}(" not in source]
    assert missing == []


def test_single_axis_rotate_and_extract():
    same(ev("rotateY(Srt3D(1, 1, 1, 0, 30, 0, 0, 0, 0), 15)").rotation, (0, 45, 0), 1e-9)
    same(ev("extractEulerX(createRotationX(25))"), 25.0, 1e-9)
    same(ev("extractEulerY(createRotationY(-35))"), -35.0, 1e-9)
    same(ev("extractEulerZ(createRotationZ(120))"), 120.0, 1e-9)
