"""A binding is type-checked as a whole before it runs, as Kanzi compiles it: a problem in a
branch the current values never take is still reported, and the binding does not run."""
from kzplayer.bindings import resolve
from kzplayer.diagnostics import Severity

from .conftest import where
from .test_graph import bind, emitter, prop


def test_unknown_function_in_a_branch_not_taken(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), prop("ParticleEmitter.MaximumAmount", 77), bind(
        "ParticleEmitter.MaximumAmount", "{./Emission.Rate} &lt; 3 &amp;&amp; mx(1, 2) &gt; 0 ? 1 : 2")))
    graph = resolve(p)
    (d,) = graph.diagnostics
    assert (d.rule, d.severity) == ("expr.unknown-function", Severity.ERROR)
    assert (d.span.line, d.span.column) == where(p.path, "mx(")
    assert d.hint == "did you mean 'max()'?"
    assert graph.order == [] and graph.evaluations == 0
    assert graph.value(p.find("Screens/Screen/E"), "ParticleEmitter.MaximumAmount") == 77   # left as written


def test_type_error_against_the_declared_types(project_of):
    # Emission.InitialVelocityDirection is a vector3: adding a string never works
    p = project_of(emitter("E", bind(
        "Emission.Rate", 'true ? 1 : {./Emission.InitialVelocityDirection} + "x"')))
    (d,) = resolve(p).diagnostics
    assert d.rule == "expr.type"
    assert (d.span.line, d.span.column) == where(p.path, "{./Emission.InitialVelocityDirection} +")


def test_engine_only_function_is_one_note_and_the_binding_still_runs_its_other_branch(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), bind(
        "ParticleEmitter.MaximumAmount", "{./Emission.Rate} &gt; 3 ? 9 : getWorldMatrix().translationX")))
    graph = resolve(p)
    (d,) = graph.diagnostics
    assert (d.rule, d.severity) == ("expr.not-evaluable", Severity.NOTE)
    assert (d.span.line, d.span.column) == where(p.path, "getWorldMatrix")
    assert graph.value(p.find("Screens/Screen/E"), "ParticleEmitter.MaximumAmount") == 9
    graph.set_value(p.find("Screens/Screen/E"), "Emission.Rate", 1)      # now the engine branch runs
    assert len(graph.diagnostics) == 1                                    # the same note, once


def test_value_errors_only_where_the_run_reaches_them(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), bind(
        "ParticleEmitter.MaximumAmount", "{./Emission.Rate} &gt; 3 || 1 / 0 == 0 ? 4 : 2")))
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(p.find("Screens/Screen/E"), "ParticleEmitter.MaximumAmount") == 4
    graph.set_value(p.find("Screens/Screen/E"), "Emission.Rate", 1)
    (d,) = graph.diagnostics
    assert d.rule == "expr.division-by-zero"
