"""Property tests: printed trees parse back to themselves, and numeric trees evaluate as
Python's own arithmetic does once Kanzi's rules are applied (C++ integer division,
mathematical mod, truncating rem, halves of round away from zero, 32-bit ints that wrap)."""
import decimal
import math

from hypothesis import assume, given, settings, strategies as st

from kzplayer.expr import ExprError, evaluate, parse, to_text
from kzplayer.expr import ast as A
from kzplayer.expr.printer import PRECEDENCE

REFS = [parse(t).references[0] for t in (
    "{./Emission.Rate}", "{@../Box/Node.Width}", "{#Alias/Prop}", "{##Template/P.Q}",
    "{DataContext.a.b}", "{0}", "{3}", "{../Text Box 2D/TextConcept.Text}", "{/Root/Node.X}", "{/Prop}", "{Prop}",
    "{@DataContext.x}", "{DataContext}")]

names = st.sampled_from(["a", "b", "Rate", "v_2", "x"])
leaves = st.one_of(
    st.integers(0, 2**31 - 1).map(A.Number),      # Kanzi int literals are 32-bit
    st.floats(0, 1e300, allow_nan=False, allow_infinity=False).map(A.Number),
    st.booleans().map(A.Bool),
    st.text(max_size=8).map(A.String),
    names.map(A.Name),
    st.sampled_from(REFS).map(A.Ref),
    names.map(lambda n: A.View(A.Name(n), "PointLightColor")),
    st.sampled_from(REFS[:4]).map(lambda r: A.View(A.Ref(r), "Node.Opacity")))


def compound(children):
    return st.one_of(
        st.tuples(st.sampled_from("-!~"), children).map(lambda t: A.Unary(*t)),
        st.tuples(st.sampled_from("+-*/"), children).map(lambda t: A.Fold(*t)),
        st.tuples(st.sampled_from(sorted(PRECEDENCE)), children, children).map(lambda t: A.Binary(*t)),
        st.tuples(children, children, children).map(lambda t: A.Ternary(*t)),
        st.tuples(children, st.sampled_from(["x", "r", "translationY", "w"])).map(lambda t: A.Field(*t)),
        st.tuples(st.sampled_from(["max", "CLAMP", "getWorldMatrix", "foo"]),
                  st.lists(children, max_size=3)).map(lambda t: A.Call(t[0], tuple(t[1]))),
        st.tuples(children, children).map(lambda t: A.Call("createView", t, ("3",))))


trees = st.recursive(leaves, compound, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(trees)
def test_printed_trees_parse_back_to_the_same_tree(tree):
    text = to_text(tree)
    program = parse(text)
    assert program.diagnostics == [], (text, [str(d) for d in program.diagnostics])
    assert program.statements == [tree], text


@settings(max_examples=100, deadline=None)
@given(names, trees, st.lists(trees, min_size=0, max_size=2))
def test_printed_programs_parse_back(name, first, rest):
    program = A.Program([A.Assign(name, first), A.Assign(name, A.Number(2), field="x"), *rest])
    assert parse(to_text(program)) == program


# -- numeric trees against Python ------------------------------------------------------------

class _ZeroDivisor(Exception):
    """The model met a zero divisor; `integer` says whether Kanzi's rules make it an error."""

    def __init__(self, a, b):
        self.integer = isinstance(a, int) and isinstance(b, int)


def py_div(a, b):
    if b == 0:
        raise _ZeroDivisor(a, b)
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    return a / b


def py_round(x):
    if isinstance(x, int) or x.is_integer():     # large floats are integers (and past Decimal's precision)
        return x
    return float(decimal.Decimal(x).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def py_mod(a, b):
    if b == 0:
        raise _ZeroDivisor(a, b)
    return a % b


def py_rem(a, b):
    if b == 0:
        raise _ZeroDivisor(a, b)
    if isinstance(a, int) and isinstance(b, int):
        return a - b * py_div(a, b)
    return math.fmod(a, b)


MODEL = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": py_div}
CALLS = {"mod": py_mod, "rem": py_rem, "round": py_round, "abs": abs, "min": min, "max": max}


def wrap(x):
    """Kanzi's 32-bit int: two's complement, written out independently of kzplayer's."""
    if not isinstance(x, int):
        return x
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def model(node):
    if isinstance(node, A.Number):
        return node.value
    if isinstance(node, A.Unary):
        return wrap(-model(node.operand))
    if isinstance(node, A.Binary):
        return wrap(MODEL[node.op](model(node.left), model(node.right)))
    args = [model(a) for a in node.args]
    r = CALLS[node.name](*args)
    return float(r) if node.name in ("min", "max") and any(isinstance(a, float) for a in args) else wrap(r)


numbers = st.one_of(st.integers(-1000, 1000), st.integers(2**30, 2**31 - 1), st.floats(-1e6, 1e6, allow_nan=False), st.sampled_from([0.5, -0.5, 2.5, -2.5, 1.5]))
numeric = st.recursive(
    numbers.map(A.Number),
    lambda c: st.one_of(
        c.map(lambda n: A.Unary("-", n)),
        st.tuples(st.sampled_from("+-*/"), c, c).map(lambda t: A.Binary(*t)),
        st.tuples(st.sampled_from(["mod", "rem", "min", "max"]), c, c).map(lambda t: A.Call(t[0], t[1:])),
        st.tuples(st.sampled_from(["round", "abs"]), c).map(lambda t: A.Call(t[0], t[1:]))),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(numeric)
def test_numeric_trees_evaluate_like_python(tree):
    text = to_text(tree)
    try:
        expected = model(tree)
    except _ZeroDivisor as zero:
        # the first zero divisor: an int one is an error; a float one gives IEEE inf/nan,
        # which Python's arithmetic cannot follow, so such trees are left out
        assume(zero.integer)
        try:
            evaluate(parse(text), None)
        except ExprError as e:
            assert e.diagnostic.rule == "expr.division-by-zero", text
            return
        raise AssertionError(f"no division-by-zero error for {text}")
    assume(not (isinstance(expected, float) and not math.isfinite(expected)))
    got = evaluate(parse(text), None).value
    assert type(got) is type(expected), text
    assert got == expected, text


# -- bad input never makes a traceback ---------------------------------------------------------

source_text = st.text(alphabet=st.sampled_from(list("ab1.2e{}<>/@#()[],;:?!~^&|=+-*/\"'\\ \n\t xyzclamp(")),
                      max_size=40)


@settings(max_examples=400, deadline=None)
@given(source_text)
def test_any_text_gives_diagnostics_not_exceptions(text):
    from kzplayer.expr import check
    program = parse(text, file="f.kzm", line=3, column=5)
    lines = text.split("\n")
    for d in program.diagnostics + check(program, lambda ref: "float"):
        s = d.span
        assert 3 <= s.line <= s.end_line <= 3 + len(lines) - 1
        assert s.column >= 1 and (s.end_line > s.line or s.end_column >= s.column)
    if program.ok:
        class Env:
            def lookup(self, ref):
                return 1.5

            def current_value(self):
                return 0
        try:
            evaluate(program, Env())
        except ExprError:
            pass
