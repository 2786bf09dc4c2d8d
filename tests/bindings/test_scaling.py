"""The algorithmic part of resolving big projects, counted (never timed: speed is
benchmarks/bench_bindings.py's): one parse per distinct expression text, each dependency
edge followed once by the ordering, and exact positions where a shared tree finds a problem."""
from kzplayer.bindings import resolve
from kzplayer.expr import parser

from .conftest import where

TEXTS = [f"{{./Emission.Rate}} * {k} + {{./Emission.Lifetime}}" for k in range(10)]
TARGETS = ["ParticleEmitter.MaximumAmount", "Emission.Seed", "Emission.Radius", "Emission.Angle",
           "Emission.InitialVelocityStrength", "Emission.InitialVelocityRandomness",
           "Emission.InitialSize", "Emission.InitialSizeRandomness", "Emission.LifetimeRandomness",
           "Emission.Delay"]


def test_ten_thousand_bindings_of_ten_texts_are_parsed_ten_times(project_of):
    body = "\n".join(
        f'<ParticleEmitter name="E{i}"><Property name="Emission.Rate">{i}</Property>'
        f'<Property name="Emission.Lifetime">2</Property>'
        + "".join(f'<Binding target="{t}">{text}</Binding>' for t, text in zip(TARGETS, TEXTS))
        + "</ParticleEmitter>" for i in range(1000))
    p = project_of(body)
    parser.CACHE.clear()
    before = parser.CACHE.parses
    graph = resolve(p)
    assert parser.CACHE.parses - before == 10
    assert graph.evaluations == 10_000
    e7 = p.find("Screens/Screen/E7")
    assert graph.value(e7, "ParticleEmitter.MaximumAmount") == 7 * 0 + 2
    assert graph.value(e7, "Emission.Radius") == 7 * 2 + 2
    # the program of a binding that ran a shared tree has the file's positions when read
    b = p.find("Screens/Screen/E999").bindings[3]
    ref = graph.bindings[999 * 10 + 3].program.references[0]
    assert graph.bindings[999 * 10 + 3].binding is b
    line, column = where(p.path, "{./Emission.Rate} * 3", nth=999)
    assert (ref.span.line, ref.span.column, ref.span.end_column) == (line, column, column + 17)


def test_the_order_follows_each_dependency_once(project_of):
    chains, length, fan = 7, 12, 30
    body = []
    for c in range(chains):
        body.append(f'<EmptyNode name="C{c}"><ParticleEmitter name="E0"><Property name="Emission.Rate">{c}</Property>'
                    '<Binding target="Emission.Lifetime">{./Emission.Rate} + 1</Binding></ParticleEmitter>')
        body += [f'<ParticleEmitter name="E{k}"><Binding target="Emission.Lifetime">{{../E{k - 1}/Emission.Lifetime}} * 2'
                 '</Binding></ParticleEmitter>' for k in range(1, length)]
        body.append("</EmptyNode>")
    body.append('<ParticleEmitter name="Hub"><Binding target="Emission.Rate">40 + 2</Binding></ParticleEmitter>')
    body += [f'<ParticleEmitter name="F{k}"><Binding target="Emission.Seed">{{../Hub/Emission.Rate}} + {k}'
             '</Binding></ParticleEmitter>' for k in range(fan)]
    p = project_of("\n".join(body))
    graph = resolve(p)
    assert not graph.diagnostics
    edges = chains * (length - 1) + fan       # each binding reading another's target, once
    assert graph.order_steps == edges
    rank = {b: k for k, b in enumerate(graph.order)}
    for b in graph.order:                     # a binding runs after every binding it reads
        for other in graph.bindings:
            if other.writes in b.reads:
                assert rank[other] < rank[b]
    assert graph.value(p.find("Screens/Screen/C3/E11"), "Emission.Lifetime") == 4 * 2 ** 11
    assert graph.value(p.find("Screens/Screen/F29"), "Emission.Seed") == 42 + 29


def test_a_problem_found_running_a_shared_tree_is_reported_where_that_binding_is(project_of):
    text = "int({./Emission.Rate}) / int({./Emission.Lifetime})"    # ints: 1 / 0 is an error
    body = "\n".join(
        f'<ParticleEmitter name="E{i}"><Property name="Emission.Rate">{i}</Property>'
        f'<Property name="Emission.Lifetime">{life}</Property>'
        f'<Binding target="ParticleEmitter.MaximumAmount">{text}</Binding></ParticleEmitter>'
        for i, life in enumerate([2, 4, 0, 5]))
    p = project_of(body)
    [d] = resolve(p).diagnostics
    assert d.rule == "expr.division-by-zero", d
    assert (d.span.line, d.span.column) == where(p.path, text, nth=2)
    assert d.span.end_column == d.span.column + len(text)


def test_a_deep_shared_tree_runs_as_deep_as_the_limits_allow(project_of):
    # 1,500 levels (each + of a chain is one): beyond Python's own recursion limit, so this
    # tree is not marked shallow and runs inside deep_recursion() like any parsed program
    text = "{./Emission.Rate}" + " + 1" * 1499
    body = "\n".join(f'<ParticleEmitter name="E{i}"><Property name="Emission.Rate">{i}</Property>'
                     f'<Binding target="ParticleEmitter.MaximumAmount">{text}</Binding></ParticleEmitter>'
                     for i in range(3))
    p = project_of(body)
    graph = resolve(p)
    assert not graph.diagnostics
    assert parser.shared(text).shallow is False
    assert graph.value(p.find("Screens/Screen/E2"), "ParticleEmitter.MaximumAmount") == 2 + 1499
    assert parser.shared(TEXTS[0]).shallow is True
