"""The language's limits (kzplayer/expr/limits.py, docs/expressions.md "Limits"): generous,
explicit, reported as `expr.limit` / `expr.value` diagnostics at the spot, never a
RecursionError or MemoryError; and Kanzi's 32-bit ints."""
import pytest

from kzplayer.expr import ExprError, check, evaluate, parse, to_text
from kzplayer.expr.limits import MAX_DEPTH, MAX_LENGTH, MAX_NESTING, MAX_STRING


class Env:
    def lookup(self, ref):
        return 1

    def current_value(self):
        return 0


def value(text):
    program = parse(text)
    assert program.diagnostics == [], [str(d) for d in program.diagnostics]
    assert check(program) == []
    return evaluate(program, Env()).value


def only(text, rule="expr.limit"):
    """The one diagnostic of `text`, which must be of `rule`."""
    program = parse(text, file="f.kzm", line=7, column=3)
    assert [d.rule for d in program.diagnostics] == [rule], [str(d) for d in program.diagnostics]
    with pytest.raises(ExprError):          # never evaluated, never a crash
        evaluate(program, Env())
    return program.diagnostics[0]


# -- nesting and depth ------------------------------------------------------------------------

def test_39_nested_brackets_evaluate():                     # the case: a RecursionError before
    assert value("(" * 39 + "1" + ")" * 39) == 1


def test_brackets_up_to_the_limit_evaluate():
    assert value("(" * MAX_NESTING + "2" + ")" * MAX_NESTING) == 2
    assert value("-" * MAX_NESTING + "1") == 1


def test_brackets_past_the_limit_are_one_diagnostic_at_the_bracket():
    d = only("(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1))
    assert (d.span.file, d.span.line, d.span.column) == ("f.kzm", 7, 3 + MAX_NESTING + 1)
    assert str(MAX_NESTING) in d.message


def test_a_thousand_term_sum_evaluates_and_prints_back():     # the second case
    text = " + ".join(["1"] * 1000)
    assert value(text) == 1000
    assert parse(to_text(parse(text))) == parse(text)


def test_a_chain_deeper_than_the_limit_is_a_diagnostic():
    d = only("+".join(["1"] * (MAX_DEPTH + 5)))
    assert (d.span.line, d.span.column) == (7, 3)
    assert f"{MAX_DEPTH + 5:,} levels deep" in d.message and f"{MAX_DEPTH:,}" in d.message


def test_deep_nesting_of_calls_and_ternaries_is_reported_not_raised():
    only("max(" * 300 + "1" + ")" * 300)
    only("true ? " * 300 + "1" + " : 2" * 300)


def test_text_longer_than_the_limit_is_refused_before_any_work():
    d = only("1" + " " * MAX_LENGTH)
    assert f"{MAX_LENGTH + 1:,} characters" in d.message and (d.span.line, d.span.column) == (7, 3)


# -- 32-bit ints ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("2147483647 + 1", -2147483648),                 # wraps as two's complement
    ("-2147483648 - 1", 2147483647),
    ("65536 * 65536", 0),
    ("-2147483648 / -1", -2147483648),
    ("-(-2147483648)", -2147483648),
    ("abs(-2147483648)", -2147483648),
    ("1 << 31", -2147483648),
    ("-8 >> 1", -4),                                 # arithmetic shift keeps the sign
    ("~0", -1),
    ("1 & 3", 1),
    ("2147483647.0 + 1", 2147483648.0),              # floats do not wrap
])
def test_ints_wrap_in_32_bits(text, want):
    got = value(text)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize("text, column", [
    ("1 & 100000000000", 5),                         # 37 s and 12 GB in resolve before
    ("1 & 9223372036854775807", 5),                  # a MemoryError before
    ("2147483648", 1),
    ("1 + " + "9" * 5000, 5),                        # past Python's int-from-text limit
])
def test_int_literals_beyond_32_bits_are_diagnostics_at_the_literal(text, column):
    d = only(text, "expr.value")
    assert (d.span.line, d.span.column) == (7, 2 + column)
    assert "32-bit" in d.message


def test_a_float_literal_too_large_is_a_diagnostic():
    assert "too large" in only("1e400", "expr.value").message


@pytest.mark.parametrize("text", ["1 << 32", "1 << 100000000", "1 >> -1", "1 << -2147483648"])
def test_shift_counts_outside_0_to_31_are_value_errors(text):
    program = parse(text)
    assert [d.rule for d in check(program)] == ["expr.value"]
    with pytest.raises(ExprError) as e:
        evaluate(program, Env())
    assert e.value.diagnostic.rule == "expr.value" and "0..31" in e.value.diagnostic.message


@pytest.mark.parametrize("text", ["int(3e10)", 'int("99999999999")', "int(-2147483649.0)"])
def test_int_casts_outside_32_bits_are_value_errors(text):
    with pytest.raises(ExprError) as e:
        evaluate(parse(text), Env())
    assert e.value.diagnostic.rule == "expr.value"


def test_references_holding_larger_ints_wrap():
    class Big(Env):
        def lookup(self, ref):
            return 2 ** 32 + 5
    assert evaluate(parse("{DataContext.x}"), Big()).value == 5


# -- bounded strings --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ['format("{:99999999999}", 1)', 'format("{:.99999999}", 1.5)',
                                  f'format("{{:>{MAX_STRING + 1}}}", 1)'])
def test_format_widths_past_the_string_limit_are_value_errors(text):
    with pytest.raises(ExprError) as e:
        evaluate(parse(text), Env())
    assert e.value.diagnostic.rule == "expr.value" and f"{MAX_STRING:,}" in e.value.diagnostic.message


def test_format_within_the_limit_works():
    assert value('format("{:>6}|{:.3}", 42, 3.14159)') == "    42|3.14"


def test_doubling_a_string_stops_at_the_limit():
    text = 's = "0123456789"\n' + "s = s + s\n" * 40 + "s"
    program = parse(text)
    with pytest.raises(ExprError) as e:
        evaluate(program, Env())
    d = e.value.diagnostic
    assert d.rule == "expr.value" and "at most" in d.message
    assert d.span.line == 1 + 14       # 10 * 2**14 > 100,000: the 14th doubling


def test_many_placeholders_stop_at_the_limit():
    text = 'format("' + "{0}" * 30000 + '", "abcdefghij")'
    with pytest.raises(ExprError) as e:
        evaluate(parse(text), Env())
    assert e.value.diagnostic.rule == "expr.value"
