"""Positions of the graph's problems inside a binding's text are exact in the file, also
after XML entities (`&lt;` is one character of the expression, four of the file)."""
from kzplayer.bindings import resolve

from .conftest import where
from .test_graph import bind, emitter, prop


def test_errors_after_entities_point_at_the_file_text(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), bind(
        "ParticleEmitter.MaximumAmount",
        '{./Emission.Rate} &gt; 3 &amp;&amp; &quot;a&quot; &lt; &quot;b&quot; ? zz : 1')))
    (d,) = [x for x in resolve(p).diagnostics if x.rule == "expr.unassigned"]
    assert (d.span.line, d.span.column) == where(p.path, "zz :")
    assert d.span.end_column == d.span.column + 2


def test_syntax_error_after_an_entity_spans_the_file_text(project_of):
    p = project_of(emitter("E", bind("ParticleEmitter.MaximumAmount", "1 &lt; 2 &amp;&amp; )")))
    (d,) = [x for x in resolve(p).diagnostics if x.rule == "expr.syntax"]
    assert (d.span.line, d.span.column) == where(p.path, ")<")
    assert d.span.end_column == d.span.column + 1


def test_without_entities_positions_are_offsets_from_the_start(project_of):
    p = project_of(emitter("E", bind("ParticleEmitter.MaximumAmount", "(1 +\n  zz)")))
    (d,) = [x for x in resolve(p).diagnostics if x.rule == "expr.unassigned"]
    assert (d.span.line, d.span.column) == where(p.path, "zz)")
