"""The order a graph's bindings run in: Kahn's algorithm, ties in tree order, each
dependency edge followed once (`BindingGraph.order_steps` counts them). What it cannot
order sits on a loop or behind one: loop members never run (`binding.cycle`, every member
named; a binding alone that reads its own target is `expr.self-reference`); what waited
only for them runs, reading their values."""
from __future__ import annotations

import heapq

from kzplayer.bindings.problems import problem
from kzplayer.cycles import find_loops
from kzplayer.diagnostics import Diagnostic


def _index(b) -> int:
    return b.index


def sort(graph) -> None:
    """Fill graph.order and graph._rank, add to graph.order_steps and graph._static. The
    bindings are numbered by tree order once, and the ordering works on those numbers."""
    live = [b for b in graph.bindings if b.enabled and b.ok]
    live.sort(key=_index)                         # already in tree order: one pass
    position = {b: k for k, b in enumerate(live)}
    readers = graph._readers
    succ, selfloops = [], set()                  # each binding's readers, by position
    indeg = [0] * len(live)
    for k, b in enumerate(live):
        found = readers.get(b.target)
        if not found:
            succ.append(())
            continue
        out = [position[r] for r in found if r is not b]
        if len(out) < len(found):
            selfloops.add(k)
        for r in out:
            indeg[r] += 1
        succ.append(out)
    order, rank = graph.order, graph._rank

    def drain(ready: list, blocked: set) -> None:
        heapq.heapify(ready)
        pop, push = heapq.heappop, heapq.heappush
        steps = 0
        while ready:
            k = pop(ready)
            b = live[k]
            rank[b] = len(order)
            order.append(b)
            after = succ[k]
            steps += len(after)
            for r in after:
                indeg[r] -= 1
                if indeg[r] == 0 and r not in blocked:
                    push(ready, r)
        graph.order_steps += steps

    drain([k for k in range(len(live)) if indeg[k] == 0 and k not in selfloops], selfloops)
    if len(order) == len(live):
        return
    stuck = [b for b in live if b not in rank]
    by_binding = {b: [live[r] for r in succ[position[b]]] for b in stuck}
    loops = [(walk, others) for walk, others in find_loops(stuck, by_binding, _index)
             if len(walk) + len(others) > 1]
    graph._static.extend(_self_reference(live[k]) for k in sorted(selfloops))
    graph._static.extend(_cycle(walk, others) for walk, others in loops)
    on_loop = selfloops.union(*({position[b] for b in w} | {position[b] for b in o} for w, o in loops))
    ready = []
    for k in on_loop:
        for r in succ[k]:
            indeg[r] -= 1
            if indeg[r] == 0 and r not in on_loop:
                ready.append(r)
    drain(ready, on_loop)


def _self_reference(b) -> Diagnostic:
    span = next((i.span for i in b.inputs.values() if i.node == b.writes), None) or b.span
    return problem("expr.self-reference", f"the binding of {b.label} reads its own target",
                   span, hint="use getCurrentValue() to modify the current value")


def _cycle(walk: list, others: list) -> Diagnostic:
    one_item = len({b.writes[0] for b in walk + others}) == 1    # its path once, then properties

    def name(b) -> str:
        return b.writes[1] if one_item else b.label
    message = f"binding cycle on {walk[0].writes[0].path}: " if one_item else "binding cycle: "
    message += " -> ".join(name(b) for b in walk + walk[:1])
    if others:
        message += " (also on the loop: " + ", ".join(name(b) for b in others) + ")"
    first = walk[0]
    return problem("binding.cycle", message, first.span,
                   related=tuple(b.span for b in walk[1:] + others),
                   hint="none of these bindings is evaluated; break the loop")
