"""The type checker: each kind of error with its rule and position, promotion, result types."""
import pytest

from kzplayer.diagnostics import Severity
from kzplayer.expr import check, parse
from kzplayer.expr.types import infer

TYPES = {"Rate": "float", "Count": "int", "On": "bool", "Color": "color4", "Name": "string",
         "Scale": "vector3", "T": "srt3d", "Buffer": "buffer", "M": "matrix4", "Mystery": None}


def ref_type(ref):
    return TYPES.get(ref.property)


def diags(text, **kw):
    return check(parse(text, file="e.kzm", line=10, column=5), ref_type, **kw)


def where(d):
    s = d.span
    return (d.rule, s.line, s.column, s.end_line, s.end_column)


def result(text, **kw):
    t, problems = infer(parse(text), ref_type, **kw)
    assert problems == [], [str(p) for p in problems]
    return t


@pytest.mark.parametrize("text, expected", [
    ("{./Rate} * {./Count}", "float"), ("{./Count} + {./On}", "int"), ("{./Count} / 2", "int"),
    ("{./On} && {./Rate} > 1", "bool"), ("{./Scale} * {./Rate}", "vector3"), ("{./Color}.r", "float"),
    ("{./T}.translationX", "float"), ("{./T} * {./T}", "matrix4"), ('{./Name} + "x"', "string"),
    ("string({./Rate})", "string"), ("{./Buffer}", "buffer"), ("clamp(0, 1, {./Count})", "int"),
    ("clamp(0, 1.0, {./Count})", "float"), ("A = {./Scale}\nA.x = 2\nA", "vector3"),
    ("{./On} ? 1 : 2.5", "float"), ("{./Mystery} + 1", None),
    ("{./Count} > 0 ? {./Color} : {./Color}", "color4")])
def test_result_types_and_implicit_promotion(text, expected):
    assert result(text) == expected


def test_get_current_value_has_the_target_type():
    assert result("getCurrentValue() * 2", target_type="vector3") == "vector3"
    assert result("getCurrentValue() * 2") is None


# (text, rule, line, column, end_line, end_column) with the expression at e.kzm:10:5
ERRORS = [
    ("clamp(1, 2)", "expr.arguments", 10, 5, 10, 16),
    ("Vector3(1)\nsin()", "expr.arguments", 11, 1, 11, 6),
    ("{./Name} + 1", "expr.type", 10, 5, 10, 17),
    ("{./Buffer} + 1", "expr.type", 10, 5, 10, 19),
    ("{./Scale} < 1", "expr.type", 10, 5, 10, 18),
    ("-{./Name}", "expr.type", 10, 5, 10, 14),
    ("sqrt({./Name})", "expr.type", 10, 5, 10, 19),
    ("{./On} ? 1 : {./Name}", "expr.type", 10, 5, 10, 26),
    ("continueIf({./Name})", "expr.type", 10, 5, 10, 25),
    ("{./Color}.x", "expr.field", 10, 15, 10, 16),
    ("A = {./Scale}\nA.w = 1", "expr.field", 11, 1, 11, 8),
    ("{./Rate}.x", "expr.field", 10, 14, 10, 15),
    ("A * 2", "expr.unassigned", 10, 5, 10, 6),
    ("A.x = 2", "expr.unassigned", 10, 5, 10, 12),
    ("mx(1, 2)", "expr.unknown-function", 10, 5, 10, 7),
    ("1 / 0", "expr.division-by-zero", 10, 5, 10, 10),
    ('int("abc")', "expr.value", 10, 5, 10, 15),
]


@pytest.mark.parametrize("text, rule, line, column, end_line, end_column", ERRORS)
def test_error_positions(text, rule, line, column, end_line, end_column):
    problems = [d for d in diags(text) if d.severity == Severity.ERROR]
    assert [where(d) for d in problems] == [(rule, line, column, end_line, end_column)]


def test_did_you_mean():
    [d] = diags("mx(1, 2)")
    assert d.hint == "did you mean 'max()'?"
    [d] = diags("lenght({./Scale})")
    assert d.hint == "did you mean 'length()'?"
    [d] = diags("frobnicate(1)")
    assert d.hint is None


def test_engine_only_functions_are_notes():
    for text in ("getWorldMatrix()", "getProjectionCameraWorldMatrix()", "meshGetVertexCount({./Mesh})",
                 'animate({./Rate}, "x")', "getCameraPosition().x", "textureGetSize({./Texture}).x"):
        problems = diags(text)
        assert problems and all(d.severity == Severity.NOTE and d.rule == "expr.not-evaluable"
                                for d in problems), text
        assert all("not evaluable in kzplayer" in d.message for d in problems)


def test_engine_only_note_positions():
    [d] = diags("1 + getWorldMatrix().translationX")
    assert where(d) == ("expr.not-evaluable", 10, 9, 10, 23) and d.severity == Severity.NOTE
    [d] = diags("A = 1\ntextureGetWidth({./T})")
    assert where(d) == ("expr.not-evaluable", 11, 1, 11, 16)


def test_engine_result_types_are_checked():
    assert infer(parse("getWorldMatrix()"), ref_type)[0] == "matrix4"
    assert [d.rule for d in diags('getWorldMatrix() + "x"') if d.severity == Severity.ERROR] == ["expr.type"]


def test_target_property_in_its_own_binding():
    [d] = diags("{./Rate} * 2", is_target=lambda ref: ref.property == "Rate")
    assert where(d) == ("expr.self-reference", 10, 5, 10, 13)
    assert "getCurrentValue()" in d.hint
    assert diags("getCurrentValue() * 2", is_target=lambda ref: ref.property == "Rate") == []


def test_unknown_types_never_produce_errors():
    assert diags("{./Mystery}.anything + 1") == []
    assert diags("{./Unlisted} * {./Rate}") == []


def test_value_errors_only_on_constants():
    assert diags("{./Count} / ({./Count} - {./Count})") == []
    assert diags('int({./Name})') == []


def test_syntax_errors_are_returned_unchanged():
    program = parse("1 +")
    assert check(program, ref_type) == program.diagnostics


def test_diagnostics_sorted_by_position():
    problems = diags("A = {./Name} + 1\nB = mx(1)\nC = D")
    assert [d.span.line for d in problems] == [10, 11, 12]
    assert [d.rule for d in problems] == ["expr.type", "expr.unknown-function", "expr.unassigned"]


def test_clean_programs():
    for text in ("{./Rate} * {./Count}", "A = {./Rate}\ncontinueIf(A > 0)\nA * 2",
                 'format("{} of {:.2}", {./Count}, {./Rate})', "v = {./Scale}\nv.x = 2\nv",
                 "{./T}.translationY + {./M}.translationZ", "mod({./Count}, 3) + rem({./Rate}, 2)"):
        assert diags(text) == [], text


@pytest.mark.parametrize("typo, meant", [
    ("mx", "max"), ("sinn", "sin"), ("clmap", "clamp"), ("lenght", "length"), ("atn2", "atan2"),
    ("Vecotr3", "Vector3"), ("getworldmatrx", "getWorldMatrix"), ("smoothstepp", "smoothStep")])
def test_suggestions(typo, meant):
    from kzplayer.expr.suggest import suggest
    assert suggest(typo) == meant


def test_no_suggestion_for_far_names():
    from kzplayer.expr.suggest import suggest
    assert suggest("foo") is None and suggest("frobnicate") is None
