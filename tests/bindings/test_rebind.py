"""BindingGraph.rebind (kzplayer/bindings/rebind.py): a live save's edited bindings on the
running graph give the values a fresh resolve of the saved project gives, and only the
edited bindings and their dependents run again."""
import dataclasses

import kzplayer
from kzplayer.bindings import resolve

from .test_graph import bind, emitter, prop

NODES = (("A", "Emission.Rate"), ("A", "ParticleEmitter.MaximumAmount"), ("A", "Emission.Lifetime"),
         ("B", "Emission.Rate"), ("B", "ParticleEmitter.MaximumAmount"), ("C", "ParticleEmitter.MaximumAmount"))


def body(pool: str) -> str:
    return "\n".join((
        emitter("A", prop("Emission.Rate", 10), bind("ParticleEmitter.MaximumAmount", pool),
                bind("Emission.Lifetime", "{./ParticleEmitter.MaximumAmount} / 10.0")),
        emitter("B", bind("Emission.Rate", "{../A/ParticleEmitter.MaximumAmount} + 1"),
                bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * 2")),
        emitter("C", prop("Emission.Rate", 7), bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * 3"))))


def values(project, graph):
    return [graph.value(project.find(f"Screens/Screen/{item}"), name) for item, name in NODES]


def test_rebind_gives_what_a_fresh_resolve_gives_and_reruns_only_the_dependents(project_of):
    running = project_of(body("{./Emission.Rate} * 2"))
    graph = resolve(running)
    saved = project_of(body("{./Emission.Rate} * 5"))             # the file as a save leaves it
    fresh = resolve(saved)
    a = running.find("Screens/Screen/A")
    before = graph.evaluations
    new = [dataclasses.replace(b, owner=None) for b in saved.find("Screens/Screen/A").bindings]
    changed = graph.rebind(a, new)
    # A's two bindings (the pool edited, its Lifetime reads it), then B.Rate and B's pool; not C
    assert graph.evaluations - before == 4
    assert values(running, graph) == values(saved, fresh) == [10, 50, 5.0, 51, 102, 21]
    assert changed == {(a, "ParticleEmitter.MaximumAmount"), (a, "Emission.Lifetime"),
                       (running.find("Screens/Screen/B"), "Emission.Rate"),
                       (running.find("Screens/Screen/B"), "ParticleEmitter.MaximumAmount")}
    assert [b.expression for b in a.bindings] == ["{./Emission.Rate} * 5", "{./ParticleEmitter.MaximumAmount} / 10.0"]
    # set_value keeps working on the rebound graph, in the new order
    graph.set_value(a, "Emission.Rate", 2)
    assert values(running, graph)[:5] == [2, 10, 1.0, 11, 22]
    assert graph.diagnostics == fresh.diagnostics == []


def test_rebind_back_restores_the_values_and_a_binding_removed_leaves_the_own_value(project_of):
    running = project_of(body("{./Emission.Rate} * 2"))
    graph = resolve(running)
    first = values(running, graph)
    a = running.find("Screens/Screen/A")
    old = list(a.bindings)
    graph.rebind(a, [dataclasses.replace(old[1], owner=None)])    # the pool binding dropped
    assert graph.value(a, "ParticleEmitter.MaximumAmount") == kzplayer.load(running.path).find(
        "Screens/Screen/A").get("ParticleEmitter.MaximumAmount")   # its own (catalog) value again
    assert not graph.is_bound(a, "ParticleEmitter.MaximumAmount")
    graph.rebind(a, old)
    assert values(running, graph) == first


def test_two_bindings_of_one_target_the_later_wins_and_each_rebind_keeps_what_is_left(project_of):
    running = project_of("\n".join((
        emitter("A", prop("Emission.Rate", 3), bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * 2"),
                bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * 7")),
        emitter("B", bind("ParticleEmitter.MaximumAmount", "{../A/ParticleEmitter.MaximumAmount} + 1")))))
    graph = resolve(running)
    a, b = running.find("Screens/Screen/A"), running.find("Screens/Screen/B")
    assert graph.value(a, "ParticleEmitter.MaximumAmount") == 21      # tree order: the second ran last
    assert graph.value(b, "ParticleEmitter.MaximumAmount") == 22
    first, second = (dataclasses.replace(x, owner=None) for x in a.bindings)
    graph.rebind(a, [first])                        # the second dropped: the first still writes
    assert graph.is_bound(a, "ParticleEmitter.MaximumAmount")
    assert [graph.value(x, "ParticleEmitter.MaximumAmount") for x in (a, b)] == [6, 7]
    graph.set_value(a, "Emission.Rate", 5)          # B still reads A's pool through its one writer
    assert [graph.value(x, "ParticleEmitter.MaximumAmount") for x in (a, b)] == [10, 11]
    graph.rebind(a, [])
    assert not graph.is_bound(a, "ParticleEmitter.MaximumAmount")
    assert graph.value(b, "ParticleEmitter.MaximumAmount") == a.get("ParticleEmitter.MaximumAmount") + 1
