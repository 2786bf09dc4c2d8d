"""Random binding graphs: after any sequence of changes, the incrementally kept values equal a
fresh resolve of the changed project, and each change evaluated exactly the bindings with an
input whose value changed (both derived from fresh resolves, not from the incremental code)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kzplayer.bindings import resolve

from .test_graph import bind, emitter, prop


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 7))
    lines = []
    for i in range(n):
        body = [prop("Emission.Rate", draw(st.integers(0, 9)))]
        if i and draw(st.booleans()):
            terms = [f"{{../E{draw(st.integers(0, i - 1))}/Emission.{draw(st.sampled_from(['Rate', 'Lifetime']))}}}"
                     f" * {draw(st.integers(1, 3))}" for _ in range(draw(st.integers(1, 3)))]
            body.append(bind("Emission.Lifetime", " + ".join(terms)))
        if i and draw(st.booleans()):      # a second binding on the item, reading the first
            body.append(bind("Emission.Density", "max({./Emission.Lifetime}, {../E0/Emission.Rate})"))
        lines.append(emitter(f"E{i}", *body))
    changes = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 9)), max_size=6))
    return "\n".join(lines), changes


def snapshot(project, graph):
    return {(e.name, name): graph.value(e, name) for e in project.items("ParticleEmitter")
            for name in ("Emission.Rate", "Emission.Lifetime", "Emission.Density")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graphs())
def test_incremental_equals_fresh(project_of, case):
    body, changes = case
    project = project_of(body)
    graph = resolve(project)
    for index, rate in changes:
        item = project.find(f"Screens/Screen/E{index}")
        before = snapshot(project, resolve(project))
        count = graph.evaluations
        graph.set_value(item, "Emission.Rate", rate)
        item.set("Emission.Rate", rate)                      # the same change in the model
        after = snapshot(project, resolve(project))
        assert snapshot(project, graph) == after
        moved = {k for k in after if after[k] != before[k]}
        expected = sum(1 for b in graph.order
                       if any((n[0].name, n[1]) in moved for n in b.reads))
        assert graph.evaluations - count == expected
