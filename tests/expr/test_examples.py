"""Every example of binding-expressions.md gives its stated value."""
import pytest

from kzplayer.expr import parse, evaluate


class Env:
    def __init__(self, values, current=None):
        self.values, self.current = values, current

    def lookup(self, ref):
        return self.values[(ref.path, ref.property)]

    def current_value(self):
        return self.current


def run(text, values=None, current=None):
    program = parse(text)
    assert program.diagnostics == []
    return evaluate(program, Env(values or {}, current))


def test_rate_times_lifetime():
    r = run("{./Emission.Rate} * {./Emission.Lifetime}",
            {(".", "Emission.Rate"): 500, (".", "Emission.Lifetime"): 2})
    assert r.value == 1000 and not r.skipped


@pytest.mark.parametrize("height, expected", [(100.0, 10.0), (400.0, 20.0), (2000.0, 60.0)])
def test_clamp_value_last(height, expected):
    assert run("clamp(10, 60, {@../Node.Height} / 20)", {("..", "Node.Height"): height}).value == expected


@pytest.mark.parametrize("view, call, expected", [(0, True, True), (1, True, False), (0, False, False)])
def test_logical_and_of_comparisons(view, call, expected):
    r = run("{@./ActivityProperty.Cluster.MainView}==0 && {@./ActivityProperty.IncomingCall}==true",
            {(".", "ActivityProperty.Cluster.MainView"): view, (".", "ActivityProperty.IncomingCall"): call})
    assert r.value is expected


def test_datacontext_negation():
    assert run("-{DataContext.gauges.battery}+39", {("DataContext", "gauges.battery"): 10}).value == 29


@pytest.mark.parametrize("text, expected", [
    ("mod(-13, 5)", 2), ("rem(-13, 5)", -3), ("linearStep(0, 10, 2.5)", 0.25), ("sin(90)", 1),
    ('"Five is written as " + string(5)', "Five is written as 5")])
def test_stated_values(text, expected):
    assert run(text).value == expected


def test_program_with_continue_if():
    text = "A = {./Emission.Rate}\ncontinueIf(A > 0)\nA * 2"
    assert run(text, {(".", "Emission.Rate"): 21}).value == 42
    skipped = run(text, {(".", "Emission.Rate"): 0})
    assert skipped.skipped and skipped.value is None
