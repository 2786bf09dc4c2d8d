"""Property test: a program the checker passes, evaluated on values of the declared types,
never fails with a type, field or argument error (the checker is not too lenient)."""
from hypothesis import given, settings, strategies as st

from kzplayer.expr import ExprError, check, evaluate, parse, to_text
from kzplayer.expr import ast as A
from kzplayer.values import Color4, Srt3D, Vector

# One property per type; values unlike the checker's samples, so agreement is not by construction.
PROPS = {"F": ("float", -2.75), "I": ("int", -7), "B": ("bool", False), "S": ("string", "abc"),
         "V3": ("vector3", Vector((3, -1, 2))), "V2": ("vector2", Vector((-4, 8))),
         "C": ("color4", Color4(0.1, 0.9, 0.3, 0.6)), "T": ("srt3d", Srt3D((2, 1, 1), (0, 30, 0), (1, 2, 3)))}
REFS = [parse(f"{{./{p}}}").statements[0] for p in PROPS]
TYPE_ERRORS = {"expr.type", "expr.field", "expr.arguments", "expr.unknown-function", "expr.unassigned"}


class Env:
    def lookup(self, ref):
        return PROPS[ref.property][1]

    def current_value(self):
        return 1.0


leaves = st.one_of(st.sampled_from(REFS), st.integers(-5, 5).map(A.Number),
                   st.sampled_from([0.5, 2.0, -1.5]).map(A.Number), st.booleans().map(A.Bool),
                   st.just(A.String("x")))
trees = st.recursive(leaves, lambda c: st.one_of(
    st.tuples(st.sampled_from("-!~"), c).map(lambda t: A.Unary(*t)),
    st.tuples(st.sampled_from(["+", "-", "*", "/", "==", "<", "&&", "|", "<<"]), c, c).map(lambda t: A.Binary(*t)),
    st.tuples(c, c, c).map(lambda t: A.Ternary(*t)),
    st.tuples(c, st.sampled_from(["x", "z", "r", "a", "translationY", "rotationY"])).map(lambda t: A.Field(*t)),
    st.tuples(st.sampled_from(["length", "abs", "string", "int", "normalize", "sin"]), c).map(
        lambda t: A.Call(t[0], (t[1],))),
    st.tuples(st.sampled_from(["dot", "max", "mod", "step", "cross"]), c, c).map(lambda t: A.Call(t[0], t[1:])),
    st.tuples(st.sampled_from(["clamp", "mix", "Vector3", "linearStep"]), c, c, c).map(
        lambda t: A.Call(t[0], t[1:]))), max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(trees)
def test_checked_programs_do_not_fail_on_types(tree):
    program = parse(to_text(tree))
    problems = check(program, lambda ref: PROPS[ref.property][0])
    if any(d.rule in TYPE_ERRORS for d in problems):
        return
    try:
        evaluate(program, Env())
    except ExprError as e:
        assert e.diagnostic.rule not in TYPE_ERRORS, (to_text(tree), str(e))
