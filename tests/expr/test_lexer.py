"""Tokens and their positions (1-based, end column exclusive), references, comments."""
import pytest

from kzplayer.expr.lexer import tokenize
from kzplayer.expr.tokens import EOF, NAME, NEWLINE, NUMBER, OP, REF, STRING, VIEW


def kinds(text):
    tokens, errors = tokenize(text)
    assert errors == []
    return [(t.kind, t.value) for t in tokens if t.kind != EOF]


@pytest.mark.parametrize("text, value", [
    ("42", 42), ("3.5", 3.5), ("1e-3", 0.001), ("2.", 2.0), (".25", 0.25), ("6E2", 600.0)])
def test_numbers(text, value):
    [(kind, got)] = kinds(text)
    assert kind == NUMBER and got == value and type(got) is type(value)


@pytest.mark.parametrize("text, value", [
    (r'"a\"b"', 'a"b'), (r'"tab\there"', "tab\there"), (r'"line\nbreak"', "line\nbreak"),
    (r'"back\\slash"', "back\\slash"), (r"'single'", "single"), (r'"\u00e9t\u00e9"', "été"),
    ('"#not a comment"', "#not a comment")])
def test_strings_with_escapes(text, value):
    assert kinds(text) == [(STRING, value)]


def test_positions_are_one_based_end_exclusive_and_mapped_into_the_file():
    tokens, _ = tokenize("A = 2.5\n  {./X} >= 1", file="f.kzm", line=40, column=17)
    spans = [(t.text, t.line, t.column, t.end_line, t.end_column) for t in tokens]
    assert spans == [("A", 40, 17, 40, 18), ("=", 40, 19, 40, 20), ("2.5", 40, 21, 40, 24),
                     ("\n", 40, 24, 41, 1), ("{./X}", 41, 3, 41, 8), (">=", 41, 9, 41, 11),
                     ("1", 41, 12, 41, 13), ("", 41, 13, 41, 13)]
    assert all(t.file == "f.kzm" for t in tokens)


def test_comments_and_newlines():
    text = "# a comment line\nA = 1 # trailing\n\n\nA"
    assert kinds(text) == [(NAME, "A"), (OP, "="), (NUMBER, 1), (NEWLINE, "\n"), (NAME, "A")]


def test_no_statement_break_inside_parentheses():
    assert NEWLINE not in [k for k, _ in kinds("max(1,\n  2)")]


@pytest.mark.parametrize("text, kind, path, prop, index, tracked", [
    ("{./Emission.Rate}", "relative", ".", "Emission.Rate", None, False),
    ("{../Source/ParticleEmitter.EventBuffer}", "relative", "../Source", "ParticleEmitter.EventBuffer", None, False),
    ("{@../Box/Node.Width}", "relative", "../Box", "Node.Width", None, True),
    ("{#Alias/Prop}", "alias", "#Alias", "Prop", None, False),
    ("{##Template/Prop}", "template", "##Template", "Prop", None, False),
    ("{DataContext.a.b}", "datacontext", "DataContext", "a.b", None, False),
    ("{@../Text Box 2D/TextConcept.Text}", "relative", "../Text Box 2D", "TextConcept.Text", None, True),
    ("{0}", "index", None, None, 0, False),
    ("{12}", "index", None, None, 12, False),
    ("{/Screens/Screen/Node.Width}", "absolute", "/Screens/Screen", "Node.Width", None, False),
    ("{./TileAtlasSize}", "relative", ".", "TileAtlasSize", None, False),
    ("<./Emission.Rate>", "relative", ".", "Emission.Rate", None, False),
    ("<@../Box/Node.Width>", "relative", "../Box", "Node.Width", None, True),
    ("<Root/Node.Width>", "absolute", "Root", "Node.Width", None, False),
    ("<#Alias/Prop>", "alias", "#Alias", "Prop", None, False),
    ("<##Template/A.B>", "template", "##Template", "A.B", None, False),
    ("{@DataContext.x}", "datacontext", "DataContext", "x", None, True),
])
def test_reference_spellings(text, kind, path, prop, index, tracked):
    [(k, ref)] = kinds(text)
    assert k == REF
    assert (ref.kind, ref.path, ref.property, ref.index, ref.tracked) == (kind, path, prop, index, tracked)
    assert ref.spelling == text


@pytest.mark.parametrize("text, expected", [
    # less-than stays less-than
    ("a < b", [(NAME, "a"), (OP, "<"), (NAME, "b")]),
    ("a<b", [(NAME, "a"), (OP, "<"), (NAME, "b")]),
    ("x < y/2", [(NAME, "x"), (OP, "<"), (NAME, "y"), (OP, "/"), (NUMBER, 2)]),
    ("a<b && c>d", [(NAME, "a"), (OP, "<"), (NAME, "b"), (OP, "&&"), (NAME, "c"), (OP, ">"), (NAME, "d")]),
    ("a < ./5", None),   # not a reference: a property name must start with a letter
    ("1<.5", [(NUMBER, 1), (OP, "<"), (NUMBER, 0.5)]),
    ("a <./b.c> d", "ref"),
])
def test_angle_spelling_versus_less_than(text, expected):
    tokens, errors = tokenize(text)
    got = [(t.kind, t.value) for t in tokens if t.kind != EOF]
    if expected is None:
        assert REF not in [k for k, _ in got]
    elif expected == "ref":
        assert [k for k, _ in got] == [NAME, REF, NAME]
    else:
        assert got == expected and errors == []


def test_range_view_tokens():
    [(kind, value)] = kinds("{pointLightsView ... PointLightColor}")
    assert kind == VIEW and value == ("pointLightsView", "PointLightColor")
    [(kind, (ref, prop))] = kinds("{##RenderPass/DrawObjectsRenderPass.PointLights ... Node.Opacity}")
    assert kind == VIEW and prop == "Node.Opacity"
    assert (ref.kind, ref.path, ref.property) == ("template", "##RenderPass", "DrawObjectsRenderPass.PointLights")


def test_ellipsis_outside_braces_is_the_fold_operator():
    assert [(k, v) for k, v in kinds("...* r")] == [(OP, "..."), (OP, "*"), (NAME, "r")]


@pytest.mark.parametrize("text", ["{lights ... }", "{... Prop}", "{lights ... 3x}"])
def test_broken_range_views(text):
    tokens, errors = tokenize(text)
    [e] = errors
    assert e.rule == "expr.syntax" and "range view" in e.message


@pytest.mark.parametrize("text, message, line, column, end_column", [
    ('"open', "unterminated string", 1, 1, 6),
    ("{./X", "unterminated reference", 1, 1, 2),
    ("1 $ 2", "unexpected character '$'", 1, 3, 4),
    ("{not a ref!}", "not a reference", 1, 1, 13),
    (r'"bad \q"', "unknown escape", 1, 6, 8),
])
def test_lexical_errors(text, message, line, column, end_column):
    _, errors = tokenize(text)
    [err] = errors
    assert err.rule == "expr.syntax" and message in err.message
    assert (err.span.line, err.span.column, err.span.end_column) == (line, column, end_column)
