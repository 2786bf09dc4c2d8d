"""expr.compiled against the evaluator, its reference: every value the compiled function
returns is the evaluator's, bit for bit and of the same type; where the evaluator fails the
function fails too (the graph then runs the evaluator, which reports); trees it cannot run
are refused (None)."""
import itertools
import math
import struct

import pytest

from kzplayer.expr import ExprError, evaluate
from kzplayer.expr.compiled import compiled
from kzplayer.expr.parser import shared
from kzplayer.values import Color4, Vector

TEXTS = [
    "{./A} + {./B}", "{./A} - {./B}", "{./A} * {./B}", "{./A} / {./B}", "{./A} * 0.5 + 1",
    "1 - {./A}", "2 * {./A} - {./B} / 3", "-{./A}", "!{./A}", "~{./A}",
    "{./A} == {./B}", "{./A} != {./B}", "{./A} < {./B}", "{./A} >= {./B}",
    "{./A} && {./B}", "{./A} || {./B}", "{./A} & {./B}", "{./A} | {./B}", "{./A} << {./B}",
    "{./A} ? {./B} : 3", "{./A} > 0 ? {./A} : -{./A}", "({./A} + {./B}) * ({./A} - {./B})",
    "clamp(0, 100000, {../Hub/Emission.Rate} * 7)", "min({./A}, {./B})", "max({./A}, 2)",
    "abs({./A})", "floor({./A})", "round({./A})", "sqrt({./A})", "pow({./A}, {./B})",
    "mod({./A}, {./B})", "sin({./A}) * cos({./B})", "int({./A}) / int({./B})", "float({./A})",
    "string({./A}) + \"x\"", "{./A}.x + {./B}", "{./A}.vectorY * 2", "mix({./A}, {./B}, 0.25)",
    "{./A} + {./A} * {./B}", "{./A}\n{./B} + 1", "createView({./A}, 3)",
]
VALUES = [0, 1, -3, 7, 2 ** 31 - 1, True, False, 0.0, -0.0, 0.5, -2.75, 1e300, math.inf, math.nan,
          "ab", Vector((1.0, 2.0, 3.0)), Color4(0.5, 0.25, 1.0, 1.0)]


class Env:
    def __init__(self, tree, values):
        self.slots = {ref.key: v for ref, v in zip(tree.shared_references, values)}

    def lookup(self, ref):
        return self.slots[ref.key]

    def current_value(self):
        return 0.0


def same(a, b) -> bool:
    """Equal bit for bit, types included (-0.0 is not 0.0, NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("text", TEXTS)
def test_the_compiled_function_computes_what_the_evaluator_does(text):
    tree = shared(text)
    assert tree is not None, text
    run = compiled(tree)
    if text.startswith("createView"):
        assert run is None           # the environment's business: the evaluator runs it
        return
    assert run is not None
    n = len(tree.shared_references)
    checked = 0
    for values in itertools.product(VALUES, repeat=n):
        try:
            expected = evaluate(tree, Env(tree, values)).value
        except ExprError:
            with pytest.raises(Exception):
                run(list(values))
            continue
        got = run(list(values))
        assert same(got, expected), (text, values, got, expected)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("text", ["A = {./A}\nA * 2", "getCurrentValue() + {./A}",
                                  "continueIf({./A} > 0)\n{./A}", "{lights ... PointLightColor}"])
def test_trees_with_variables_or_the_environment_are_left_to_the_evaluator(text):
    tree = shared(text)
    assert tree is not None
    assert compiled(tree) is None
