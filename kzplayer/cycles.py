"""Loops in a directed graph, reported the way a person reads them: bindings that depend on
each other (kzplayer.bindings.graph) and emitters that spawn from each other's events
(the events.cycle rule)."""
from __future__ import annotations


def find_loops(nodes: list, succ, rank) -> list[tuple[list, list]]:
    """One loop per strongly connected group of `nodes` that has one (more than one member,
    or a node that leads to itself): the shortest walk from the group's first member by
    `rank` back to it, successors tried in the order `succ[node]` gives them, and the members
    the walk does not pass (by rank). Sorted by their first member. Successors outside
    `nodes` are not followed. Tarjan's algorithm, iteratively: chains of 10,000 bindings
    exceed Python's stack."""
    members = set(nodes)
    index, low, onstack, stack, found = {}, {}, set(), [], []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        onstack.add(root)
        while work:
            v, it = work[-1]
            w = next((w for w in it if w in members), None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    onstack.add(w)
                    work.append((w, iter(succ[w])))
                elif w in onstack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1 or v in succ[v]:
                    found.append(_shortest_loop(group, succ, rank))
    return sorted(found, key=lambda loop: rank(loop[0][0]))


def _shortest_loop(group: list, succ, rank) -> tuple[list, list]:
    """A shortest walk from the group's first member back to itself (breadth first), and
    the members it does not pass."""
    inside = set(group)
    start = min(group, key=rank)
    came_from, frontier = {start: None}, [start]
    while frontier:
        following = []
        for v in frontier:
            for w in succ[v]:
                if w == start:
                    walk = [v]
                    while came_from[walk[-1]] is not None:
                        walk.append(came_from[walk[-1]])
                    walk.reverse()
                    return walk, sorted(inside - set(walk), key=rank)
                if w in inside and w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError("a strongly connected group without a loop")
