"""Events and subemitters on the Python side: each emitter's per-slot track buffer (this
step's collider hit and the event generators' sweep memory, TRACK_DTYPE), the event source
a subemitter's `Emission.SourceEventBuffer` names, and reading an Event Buffer back.

The GPU work is in the shaders: `Particles/main_collider.glsl` (stage 6),
`Particles/main_events.glsl` with `pass_events_begin/end.glsl` (stage 7) and the
event-driven count and emission materials (`Particles/source_events.glsl`).
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import layout as L


def ensure_tracks(ctx: moderngl.Context, em) -> None:
    """(Re)allocate the emitter's track buffer to its pool size. A new track's serial is
    all ones, so the first particle of every slot starts a fresh sweep (birth events)."""
    slots = max(em.capacity, 1)
    if em.tracks is not None and em.tracks.size == slots * L.TRACK_DTYPE.itemsize:
        return
    if em.tracks is not None:
        em.tracks.release()
    tracks = np.zeros(slots, L.TRACK_DTYPE)
    tracks["serial"] = 0xFFFFFFFF
    em.tracks = ctx.buffer(tracks.tobytes())


def read_events(em) -> tuple[np.ndarray, np.ndarray]:
    """(header, records) of an emitter's Event Buffer: the events of its last step."""
    em.buffers.sync_for_cpu()
    raw = em.buffers.events.read()
    size = L.EVENT_HEADER_DTYPE.itemsize
    header = np.frombuffer(raw[:size], L.EVENT_HEADER_DTYPE)[0].copy()
    records = np.frombuffer(raw[size:], L.EVENT_RECORD_DTYPE)
    return header, records[:min(int(header["count"]), int(header["capacity"]))].copy()


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
