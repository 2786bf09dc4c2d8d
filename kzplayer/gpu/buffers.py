"""Per-emitter GPU storage: the particle pool, its free-slot stack, the emitter state (with
the indirect-emit arguments) and the Event Buffer. Layouts: kzplayer.gpu.layout.

The free stack holds the indices of empty slots; emission pops from its top (the count pass
reserves `count` slots below `emit_base`), the kill passes push the step's freed slots in
slot order (a per-workgroup count, a prefix sum, a push: `kill_groups` is their scratch).
From the reset pass to the integration (stages 2-5) the same scratch holds one float per
slot, the step's linear damping rate that affectors declare and the integrator resolves
(zeroed by the reset pass; the kill and event passes write every word they read), so it
is sized for a word per slot as well.
A full pool therefore clamps the count and records the rest as stalled: a live particle is
never overwritten.

Reading back: compute shaders write these buffers incoherently, so every CPU read or
write of one (glGetBufferSubData, glBufferSubData) is preceded by
GL_BUFFER_UPDATE_BARRIER_BIT (`sync_for_cpu`); llvmpipe would forgive its absence, a GPU
with caches and queued dispatches does not.
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.gpu import layout as L


class EmitterBuffers:
    """The buffers of one emitter, sized for `capacity` particles."""

    def __init__(self, ctx: moderngl.Context, capacity: int, label: str = "emitter"):
        self.ctx = ctx
        self.label = label
        self.capacity = 0
        self.particles: moderngl.Buffer | None = None
        self.free_list: moderngl.Buffer | None = None
        self.events: moderngl.Buffer | None = None
        self.kill_groups: moderngl.Buffer | None = None
        state = np.zeros(1, L.EMITTER_STATE_DTYPE)
        self.state = ctx.buffer(state.tobytes())
        self._label(self.state, "state")
        self._allocate(capacity, live=None)

    def _allocate(self, capacity: int, live: np.ndarray | None) -> None:
        """(Re)create the pool for `capacity` slots holding `live` records in slots 0..k-1."""
        capacity = max(int(capacity), 0)
        slots = max(capacity, 1)            # GL buffers cannot be empty
        records = np.zeros(slots, L.PARTICLE_DTYPE)
        kept = 0 if live is None else min(len(live), capacity)
        if kept:
            records[:kept] = live[len(live) - kept:]        # keep the youngest
        # Popped from the top: the lowest free slot is used first.
        free = np.arange(capacity - 1, kept - 1, -1, dtype=np.uint32)
        free_words = np.zeros(slots, np.uint32)
        free_words[:len(free)] = free
        header = np.zeros(1, L.EVENT_HEADER_DTYPE)
        header["capacity"] = capacity
        # this step's records, then as many staging records (the writers' atomic appends)
        events = header.tobytes() + np.zeros(2 * slots, L.EVENT_RECORD_DTYPE).tobytes()
        self._release_pool()
        self.particles = self.ctx.buffer(records.tobytes())
        self.free_list = self.ctx.buffer(free_words.tobytes())
        self.events = self.ctx.buffer(events)
        groups = max(-(-capacity // L.WORKGROUP_SIZE), 1)
        # a count and a 64-bit mask per group, then 3 words of indirect arguments; in stages
        # 2-5 one damping rate per slot (Particles/common.glsl)
        self.kill_groups = self.ctx.buffer(reserve=max(groups * 3 + 3, slots) * 4)
        for buf, name in ((self.particles, "particles"), (self.free_list, "free"), (self.events, "events"),
                          (self.kill_groups, "kill")):
            self._label(buf, name)
        state = self.read_state()
        state["capacity"] = capacity
        state["free_count"] = len(free)
        self.state.write(state.tobytes())
        self.capacity = capacity

    def resize(self, capacity: int) -> None:
        """A new pool size, keeping the live particles (the youngest when they do not fit)."""
        if int(capacity) == self.capacity:
            return
        live = L.alive(self.read_records(), next_serial=int(self.read_state()["total_emitted"]))
        dropped = max(len(live) - int(capacity), 0)
        self._allocate(capacity, live)
        if dropped:
            state = self.read_state()
            state["total_died"] += dropped
            self.state.write(state.tobytes())

    def bind(self) -> None:
        self.particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        self.free_list.bind_to_storage_buffer(L.BINDING_FREE_LIST)
        self.state.bind_to_storage_buffer(L.BINDING_EMITTER_STATE)
        self.events.bind_to_storage_buffer(L.BINDING_EVENTS)
        self.kill_groups.bind_to_storage_buffer(L.BINDING_KILL_GROUPS)

    def sync_for_cpu(self) -> None:
        """Make every shader write issued so far visible to buffer reads and writes from
        the CPU (and order those writes after them)."""
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)

    def read_records(self) -> np.ndarray:
        """Every pool slot (live or not) as PARTICLE_DTYPE records."""
        self.sync_for_cpu()
        return np.frombuffer(self.particles.read(), L.PARTICLE_DTYPE)[:self.capacity].copy()

    def read_state(self) -> np.ndarray:
        self.sync_for_cpu()
        return np.frombuffer(self.state.read(), L.EMITTER_STATE_DTYPE)[0].copy()

    def read_free_list(self) -> np.ndarray:
        state = self.read_state()
        return np.frombuffer(self.free_list.read(), np.uint32)[:state["free_count"]].copy()

    def read_event_header(self) -> np.ndarray:
        self.sync_for_cpu()
        return np.frombuffer(self.events.read(L.EVENT_HEADER_DTYPE.itemsize), L.EVENT_HEADER_DTYPE)[0].copy()

    def _label(self, buf: moderngl.Buffer, name: str) -> None:
        try:
            buf.label = f"{self.label}/{name}"
        except Exception:      # labels need KHR_debug; they are a debugging aid only
            pass

    def _release_pool(self) -> None:
        for name in ("particles", "free_list", "events", "kill_groups"):
            buf = getattr(self, name)
            if buf is not None:
                buf.release()
                setattr(self, name, None)

    def release(self) -> None:
        """Free the GL buffers; safe to call twice."""
        self._release_pool()
        if self.state is not None:
            self.state.release()
            self.state = None
