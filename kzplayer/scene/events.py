"""Subemitters in the scene: the event source a subemitter's `Emission.SourceEventBuffer`
names, and the dependency order of a system's emitters (sources first)."""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError, Severity


def event_source(em, handle, emitters: dict):
    """The emitter whose Event Buffer `handle` (a BufferHandle) names, when it is in the
    same ParticleSystem; None when unbound. A source in another system is refused with a
    warning: systems step at their own rates, so 'the same step' would mean nothing."""
    owner = getattr(handle, "owner", None)
    if owner is None:
        return None, None
    source = emitters.get(owner)
    if source is None or source.system is not em.system:
        where = "is not a ParticleEmitter of this project" if source is None else "is in another ParticleSystem"
        rule = "subemitter.unbound" if source is None else "subemitter.other-system"
        return None, Diagnostic(
            "KZ502", rule, Severity.WARNING,
            f"{em.path}: Emission.SourceEventBuffer names '{owner}', which {where}; the subemitter gets no events",
            None)
    return source, None


def dependency_order(emitters: list, source_of) -> list:
    """Sources before the subemitters that read their events, else tree order. A cycle is
    the validator's events.cycle; the player refuses it rather than guess an order."""
    placed, order = set(), []

    def place(em, trail):
        if em in placed:
            return
        if em in trail:
            names = " -> ".join(e.path for e in list(trail) + [em])
            raise KzError(Diagnostic("KZ505", "events.cycle", Severity.ERROR,
                                     f"event sources form a cycle: {names}", None), exit_code=1)
        source = source_of(em)
        if source is not None:
            place(source, trail + [em])
        placed.add(em)
        order.append(em)

    for em in emitters:
        place(em, [])
    return order
