"""Event wiring that loops: emitters that spawn from each other's events.

When subemitter A spawns from B's events and B spawns from A's (or an emitter from its
own), every event can cause another: the effect either explodes until the pools are full or
depends on the order the emitters run in each frame. Kanzi gives no warning; the loop is
reported once, on the first emitter of the loop in tree order, naming every member.

To fix: break the loop: at least one emitter of it must spawn from something else than the
others' events.

Failing (or an emitter bound to its own `{@./ParticleEmitter.EventBuffer}`):

    A: Emission.SourceEventBuffer bound to {@../B/ParticleEmitter.EventBuffer}
    B: Emission.SourceEventBuffer bound to {@../A/ParticleEmitter.EventBuffer}

Passing (a chain, not a loop):

    B: Emission.SourceEventBuffer bound to {@../A/ParticleEmitter.EventBuffer}
    C: Emission.SourceEventBuffer bound to {@../B/ParticleEmitter.EventBuffer}
"""
from kzplayer.cycles import find_loops
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import EVENT_BUFFER, SOURCE_EVENTS
from kzplayer.validate.engine import Problem

CODE = "KZ505"
RULE = "events.cycle"
SEVERITY = Severity.ERROR


def check(context):
    order = {id(e): n for n, e in enumerate(context.emitters)}
    edges: dict[int, list] = {}     # consumer -> [(source emitter, binding)]
    by_id = {id(e): e for e in context.emitters}
    for owner, b in context.bindings:
        if b.target != SOURCE_EVENTS or id(owner) not in order:
            continue
        for item, name in context.reads(b):
            if name == EVENT_BUFFER and id(item) in order:
                edges.setdefault(id(owner), []).append((item, b))
    for loop in _loops(edges, order):
        names = " -> ".join(f"'{by_id[i].name}'" for i in loop + [loop[0]])
        steps = [_edge(edges, loop[k], loop[(k + 1) % len(loop)]) for k in range(len(loop))]
        binding = steps[0]
        related = tuple(s for b in steps[1:] for s in [b.target_span or b.span] if s)
        if len(loop) == 1:
            message = (f"'{by_id[loop[0]].name}' spawns from its own events, so every event makes "
                       "particles that make more events")
            hint = "feed it from another emitter's events"
        else:
            message = (f"event wiring loop {names}: each spawns from the events of the next, so events "
                       "feed each other without end")
            hint = "break the loop: one of these emitters must not consume the other's events"
        yield Problem(binding.target_span or binding.span, message, hint, related=related)


def _edge(edges: dict[int, list], consumer: int, source: int):
    """The binding through which `consumer` reads the events of `source`."""
    return next(b for item, b in edges[consumer] if id(item) == source)


def _loops(edges: dict[int, list], order: dict[int, int]) -> list[list[int]]:
    """One loop per strongly connected group of emitters, starting at the group's first
    emitter in tree order and following consumer -> source edges back to it."""
    succ = {n: sorted((id(s) for s, _ in out), key=order.__getitem__) for n, out in edges.items()}
    return [walk for walk, _ in find_loops(sorted(succ, key=order.__getitem__), succ, order.__getitem__)]
