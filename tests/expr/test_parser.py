"""Statements, precedence, engine-only syntax, the printer, references and syntax errors."""
import pytest

from kzplayer.expr import parse, to_text
from kzplayer.expr import ast as A


def tree(text):
    program = parse(text)
    assert program.diagnostics == [], [str(d) for d in program.diagnostics]
    return program.statements


def expr(text):
    [node] = tree(text)
    return node


def n(v):
    return A.Number(v)


def x(name):
    return A.Name(name)


# (text, the same with every implied parenthesis written out), lowest precedence first
PRECEDENCE = [
    ("a ? b : c ? d : e", "a ? b : (c ? d : e)"),
    ("a || b ? c : d", "(a || b) ? c : d"),
    ("a || b && c", "a || (b && c)"),
    ("a && b | c", "a && (b | c)"),
    ("a | b ^ c", "a | (b ^ c)"),
    ("a ^ b & c", "a ^ (b & c)"),
    ("a & b == c", "a & (b == c)"),
    ("a == b < c", "a == (b < c)"),
    ("a != b >= c", "a != (b >= c)"),
    ("a < b << c", "a < (b << c)"),
    ("a << b + c", "a << (b + c)"),
    ("a + b * c", "a + (b * c)"),
    ("a - b / c", "a - (b / c)"),
    ("a * -b", "a * (-b)"),
    ("-a.x", "-(a.x)"),
    ("!a == b", "(!a) == b"),
    ("~a & b", "(~a) & b"),
    ("a - b - c", "(a - b) - c"),
    ("a / b / c", "(a / b) / c"),
    ("a < b < c", "(a < b) < c"),
    ("a ? b ? c : d : e", "a ? (b ? c : d) : e"),
    ("f(a)(b)" if False else "max(a, b).x", "(max(a, b)).x"),
]


@pytest.mark.parametrize("text, explicit", PRECEDENCE)
def test_precedence(text, explicit):
    assert expr(text) == expr(explicit)


@pytest.mark.parametrize("text, explicit", PRECEDENCE)
def test_printer_uses_minimal_parentheses(text, explicit):
    assert to_text(expr(explicit)) == text


def test_printer_keeps_needed_parentheses():
    assert to_text(expr("(a + b) * c")) == "(a + b) * c"
    assert to_text(expr("a - (b - c)")) == "a - (b - c)"
    assert to_text(expr("(a ? b : c) ? d : e")) == "(a ? b : c) ? d : e"
    assert to_text(expr("-(-a)")) == "- -a"
    assert to_text(expr("(1).x")) == "(1).x"
    assert to_text(expr('"q\\"\\n"')) == '"q\\"\\n"'


def test_tree_shapes():
    assert expr("1 + 2 * 3") == A.Binary("+", n(1), A.Binary("*", n(2), n(3)))
    assert expr("-{0}") == A.Unary("-", A.Ref(A.Reference("{0}", "index", None, None, 0)))
    assert expr("TRUE && false") == A.Binary("&&", A.Bool(True), A.Bool(False))
    assert expr("CLAMP(0, 1, v)") == A.Call("CLAMP", (n(0), n(1), x("v")))
    assert expr("{0}.translationY") == A.Field(A.Ref(A.Reference("{0}", "index", None, None, 0)), "translationY")


def test_statements():
    a, b, c, d = tree("# comment\nA = 2.0\nv = {./Emission.Scale}\nv.x = 2\nA * v.x")
    assert a == A.Assign("A", n(2.0))
    assert b.name == "v" and isinstance(b.value, A.Ref)
    assert c == A.Assign("v", n(2), field="x")
    assert d == A.Binary("*", x("A"), A.Field(x("v"), "x"))


def test_angle_and_brace_spellings_give_one_tree():
    assert expr("<./Emission.Rate> * 2") == expr("{./Emission.Rate} * 2")


@pytest.mark.parametrize("text", [
    "getWorldMatrix()",
    "getProjectionCameraWorldMatrix()",
    "getCameraPosition() - getWorldMatrix().translationX",
    "createView<3>({##RenderPass/DrawObjectsRenderPass.PointLights})",
    "createView<N, M>(a, b)",
    "acquire({./Texture})",
    'animate({./Node.Opacity}, "Fade")',
    'Animation({./Node.Opacity}, "animationDataResourceID")',
])
def test_engine_only_constructs_parse(text):
    assert parse(text).diagnostics == []
    assert parse(to_text(parse(text))) == parse(text)


def test_generic_call_needs_the_angle_touching_the_name():
    assert expr("createView<3>(x)") == A.Call("createView", (x("x"),), ("3",))
    spaced = expr("a < b > (c)")
    assert spaced == A.Binary(">", A.Binary("<", x("a"), x("b")), x("c"))


def test_spans_of_nodes():
    [node] = parse("1 + max(2,\n  {./X})", file="f.kzm", line=7, column=30).statements
    s = node.span
    assert (s.file, s.line, s.column, s.end_line, s.end_column) == ("f.kzm", 7, 30, 8, 9)
    call = node.right
    assert (call.span.line, call.span.column, call.span.end_line, call.span.end_column) == (7, 34, 8, 9)
    assert (call.name_span.column, call.name_span.end_column) == (34, 37)
    ref = call.args[1].reference
    assert (ref.span.line, ref.span.column, ref.span.end_column) == (8, 3, 8)


def test_a_line_ending_in_an_operator_does_not_continue():
    [err] = parse("1 +\n2").diagnostics
    assert "got end of line" in err.message and (err.span.line, err.span.column) == (1, 4)


def test_references_in_order_and_unique():
    program = parse("{./A} + {../B/C.D} * {./A} + {0}.x + {0}")
    assert [(r.path, r.property, r.index) for r in program.references] == [
        (".", "A", None), ("../B", "C.D", None), (".", "A", None), (None, None, 0), (None, None, 0)]
    assert [(r.path, r.property, r.index) for r in program.unique_references] == [
        (".", "A", None), ("../B", "C.D", None), (None, None, 0)]
    # the same source written both ways is one source
    assert len(parse("{./A} + <./A>").unique_references) == 1


def test_parse_accepts_a_span():
    from kzplayer.diagnostics import Span
    program = parse("1 +", span=Span("x.kzm", 5, 9))
    [err] = program.diagnostics
    assert (err.span.file, err.span.line, err.span.column) == ("x.kzm", 5, 12)


# (text, line, column, end_column, message fragment) of the first syntax error
ERRORS = [
    ("1 +", 1, 4, 4, "expected an expression, got end of input"),
    ("max(1, 2", 1, 9, 9, "expected ')'"),
    ("(1 + 2", 1, 7, 7, "expected ')'"),
    ("a ? b", 1, 6, 6, "expected ':'"),
    ("1 2", 1, 3, 4, "expected end of line"),
    ("a.", 1, 3, 3, "expected a field name"),
    ("1 = 2", 1, 3, 4, "only a variable"),
    ("A = 1\nB = * 2", 2, 5, 6, "expected an expression, got '*'"),
    ("", 1, 1, 1, "empty expression"),
    ("# only a comment", 1, 17, 17, "empty expression"),
    ("a<b/c>d", 1, 2, 7, "expected end of line"),
]


@pytest.mark.parametrize("text, line, column, end_column, message", ERRORS)
def test_syntax_error_positions(text, line, column, end_column, message):
    errors = parse(text).diagnostics
    assert errors, text
    err = errors[0]
    assert err.rule == "expr.syntax" and err.code == "KZ201"
    assert message in err.message
    assert (err.span.line, err.span.column, err.span.end_column) == (line, column, end_column)


@pytest.mark.parametrize("text, hint", [
    ("{./A} % 2", "mod(a, b)"), ("A = 1; B = 2", "own line"), ("v[0]", "fields"),
    ("if {./A} > 0", "?"), ("A = 1 2", "own line")])
def test_hints_for_slips_from_other_languages(text, hint):
    err = parse(text).diagnostics[0]
    assert err.rule == "expr.syntax" and hint in err.hint


def test_errors_in_several_statements_are_all_reported():
    program = parse("A = \nB = 2\nC = )\nB")
    assert [d.span.line for d in program.diagnostics] == [1, 3]
    assert len(program.statements) == 2


def test_error_position_in_file_on_a_continuation_line():
    program = parse("A = 1\n  B = max(1,,2)", file="p.kzm", line=12, column=20)
    [err] = program.diagnostics
    assert (err.span.file, err.span.line, err.span.column) == ("p.kzm", 13, 13)


def test_position_maps_offsets_where_the_file_spells_the_text_otherwise():
    # the file holds `1 &lt; )`: offsets after the entity lie 3 columns further right
    file_text = "1 &lt; )"
    program = parse("1 < )", file="p.kzm", position=lambda offset: (4, 10 + offset + (3 if offset > 2 else 0)))
    (d,) = program.diagnostics
    assert (d.span.line, d.span.column, d.span.end_column) == (4, 10 + file_text.index(")"), 11 + file_text.index(")"))
