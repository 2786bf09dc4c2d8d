"""Random binding graphs with loops: exactly the bindings off every loop run (once each), and
each loop is one binding.cycle report, each self-read one expr.self-reference; the loops come
from scipy's strongly connected components, not from the graph's own code."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from kzplayer.bindings import resolve

from .test_graph import bind, emitter


@st.composite
def reads(draw):
    n = draw(st.integers(2, 9))
    return [draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True)) for _ in range(n)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reads())
def test_loops_found_and_the_rest_runs(project_of, graph_reads):
    n = len(graph_reads)        # binding i writes E{i}.Lifetime from the Lifetimes of graph_reads[i]
    project = project_of("".join(
        emitter(f"E{i}", bind("Emission.Lifetime", " + ".join(f"{{../E{j}/Emission.Lifetime}}" for j in r) or "1"))
        for i, r in enumerate(graph_reads)))
    graph = resolve(project)

    edges = [(j, i) for i, r in enumerate(graph_reads) for j in r if j != i]
    m = csr_matrix((np.ones(len(edges)), ([e[0] for e in edges], [e[1] for e in edges])), shape=(n, n))
    _, label = connected_components(m, directed=True, connection="strong")
    size = np.bincount(label)
    in_loop = {i for i in range(n) if size[label[i]] > 1}
    self_read = {i for i, r in enumerate(graph_reads) if i in r}

    ran = {int(b.target[0].name[1:]) for b in graph.order}
    assert ran == set(range(n)) - in_loop - self_read
    assert graph.evaluations == len(ran)
    rules = [d.rule for d in graph.diagnostics]
    assert rules.count("binding.cycle") == len({label[i] for i in in_loop})
    assert rules.count("expr.self-reference") == len(self_read)
