"""A live save that edited an item's bindings, applied to a running BindingGraph in place
(BindingGraph.rebind; kzplayer.render.live): the new bindings compiled alone, the order
worked out again (Kahn over the compiled graph, nothing evaluated), and only the new
bindings and what depends on their targets, old and new, evaluated again."""
from __future__ import annotations

from kzplayer.bindings.lookups import Lookups
from kzplayer.bindings.order import sort


def rebind(graph, item, bindings) -> set[tuple]:
    """Give `item` these bindings instead of its own (a live save that edited them):
    only they are compiled, the order is worked out again (nothing evaluated), and only
    they and what depends on their targets, old and new, run again. Returns the nodes
    whose value changed, as set_value does."""
    old = [b for b in graph.bindings if b.owner is item]
    gone = set(old)
    for b in old:
        graph._writers.discard(b.writes, b)
        for node in b.reads:
            graph._readers.discard(node, b)
    graph.bindings = [b for b in graph.bindings if b not in gone]
    item.bindings = list(bindings)
    start = max((b.index for b in graph.bindings), default=-1) + 1
    new, look = [], Lookups(graph.project)
    for k, binding in enumerate(item.bindings):
        binding.owner = item
        new.append(graph._add(binding, start + k, look))
    graph._static = [d for b in graph.bindings for d in graph._compiled_diags.get(b, ())]
    for b in old:
        graph._compiled_diags.pop(b, None)
    graph.order, graph._rank = [], {}
    sort(graph)
    changed: set[tuple] = set()
    unbound = [b.writes for b in old if b.writes is not None and not graph._writers.get(b.writes)]
    for node in unbound:          # no longer bound: its own value again
        if graph._values.pop(node, None) is not None:
            changed.add(node)
    rerun = new + [w for b in old if b.writes is not None for w in graph._writers.get(b.writes)]
    graph._propagate(unbound, changed, rerun)
    return changed
