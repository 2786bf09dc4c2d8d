"""A ParticleSystem's GPU storage: one set of buffers for all its emitters, each emitter a
range of slots in them (its first slot a multiple of 64), so one dispatch per stage covers
every emitter. Layouts: kzplayer.gpu.layout; what each buffer holds: docs/player.md, Buffers.

    hot      Particle (64 B) per slot         cold     ParticleCold (80 B) per slot
    tracks   ParticleTrack (48 B) per slot    events   each emitter's records, then as many staging records
    slots    live lists, then free stacks      control  EmitterState, EventHeader, LiveHeader per emitter,
                                                        then the passes' scratch words
    history  N positions (16 B) per slot of the emitters whose rendering material asks for
             N (trails: docs/player.md, "Position history"); 16 bytes when none does

Every buffer is also a texel buffer (kzplayer.gpu.gl) for the simulation's image loads and
stores. One emitter's views of them (em.buffers: its state, Event Buffer, free stack and
records, read and written from the CPU at their offsets) are kzplayer.gpu.views.

Reading back: compute shaders write these buffers incoherently, so every CPU read or
write of one (glGetBufferSubData, glBufferSubData) is preceded by
GL_BUFFER_UPDATE_BARRIER_BIT (`sync_for_cpu`); llvmpipe would forgive its absence, a GPU
with caches and queued dispatches does not.
"""
from __future__ import annotations

from dataclasses import dataclass

import moderngl
import numpy as np

from kzplayer.gpu import layout as L
from kzplayer.gpu.gl import TexelBuffer

SLOTS_PER_RUN = L.WORKGROUP_SIZE * L.GROUPS_PER_RUN


@dataclass(frozen=True)
class Range:
    """Where one emitter's data lies in its system's buffers."""
    first: int            # first slot (a multiple of 64)
    capacity: int
    first_group: int
    groups: int
    first_run: int
    runs: int
    event_base: int       # first record in the events buffer (staging after `capacity` more)
    history: int = 0      # positions kept per slot (0: none)
    history_base: int = 0 # its first entry in the history buffer


class Layout:
    """Slot ranges and control-word offsets for a system with these pool sizes."""

    def __init__(self, capacities: list[int], derived_words: int = 0, host_events: int = 0,
                 histories: list[int] | None = None):
        self.capacities = [max(int(c), 0) for c in capacities]
        self.derived_words = int(derived_words)
        self.host_events = max(int(host_events), 0)     # host event records per frame (0: none listened to)
        self.histories = [max(int(n), 0) for n in (histories or [0] * len(self.capacities))]
        ranges, first, run, event, history = [], 0, 0, 0, 0
        for cap, n in zip(self.capacities, self.histories):
            groups = -(-cap // L.WORKGROUP_SIZE)
            runs = -(-groups // L.GROUPS_PER_RUN)
            ranges.append(Range(first, cap, first // L.WORKGROUP_SIZE, groups, run, runs, event,
                                n if cap else 0, history))
            first += groups * L.WORKGROUP_SIZE
            run += runs
            event += 2 * cap
            history += groups * L.WORKGROUP_SIZE * n if cap else 0     # bound ranges stay 1 KiB-aligned
        self.ranges = ranges
        self.history_entries = history
        self.max_runs = max((r.runs for r in ranges), default=0)
        self.slots = first
        self.groups = first // L.WORKGROUP_SIZE
        self.runs = run
        self.host_base = event              # the host event records follow the emitters' (kzplayer.gpu.host_events)
        self.event_records = event + self.host_events
        e = len(capacities)
        plan = e + 4                    # E + 1 starts, 3 indirect arguments
        self.words, self.control_words = _regions(
            (("states", L.STATE_WORDS * e), ("headers", L.HEADER_WORDS * e), ("live", L.LIVE_WORDS * e),
             ("alive", self.slots // 32), ("death", self.slots // 32), ("writer", self.slots // 32),
             ("group", 2 * self.groups), ("run", 6 * self.runs), ("host", 4)))
        self.schedule, self.schedule_words = _regions(
            (("plan_emit", plan), ("plan_step", plan), ("plan_move", plan), ("step_counts", e),
             ("rebuild", e), ("end_args", 4), ("derived", self.derived_words)))

    @property
    def key(self) -> tuple:
        return tuple(self.capacities), self.derived_words, self.host_events, tuple(self.histories)


def _regions(sizes) -> tuple[dict, int]:
    """Word offsets of consecutive regions, each 16-byte aligned, and the total."""
    offsets, at = {}, 0
    for name, size in sizes:
        offsets[name] = at
        at += size
        at += -at % 4
    return offsets, max(at, 4)


class SystemStorage:
    """The buffers of one system's emitters."""

    def __init__(self, ctx: moderngl.Context, layout: Layout, texels: bool, label: str = "system",
                 schedule_bytes: int = 0, history_image: bool | None = None):
        self.ctx = ctx
        self.layout = layout
        self.label = label
        n = max(layout.slots, L.WORKGROUP_SIZE)
        self.hot = ctx.buffer(reserve=n * L.HOT_DTYPE.itemsize)
        self.cold = ctx.buffer(reserve=n * L.COLD_DTYPE.itemsize)
        self.tracks = ctx.buffer(reserve=n * L.TRACK_DTYPE.itemsize)
        self.events = ctx.buffer(reserve=max(layout.event_records, 1) * L.EVENT_RECORD_DTYPE.itemsize)
        self.slots = ctx.buffer(reserve=2 * n * 4)
        self.history = ctx.buffer(reserve=max(layout.history_entries, 1) * L.HISTORY_DTYPE.itemsize)
        self.control = ctx.buffer(reserve=layout.control_words * 4)
        # bound whole as a uniform block of the size the programs declare
        self.schedule = ctx.buffer(reserve=max(layout.schedule_words * 4, schedule_bytes))
        self.reset()
        self.texels = None
        if texels:
            self.texels = [(L.IMAGE_HOT, TexelBuffer(self.hot, "rgba32ui")),
                           (L.IMAGE_COLD, TexelBuffer(self.cold, "rgba32ui")),
                           (L.IMAGE_TRACKS, TexelBuffer(self.tracks, "rgba32ui")),
                           (L.IMAGE_EVENTS, TexelBuffer(self.events, "rgba32ui")),
                           (L.IMAGE_CONTROL, TexelBuffer(self.control, "r32ui")),
                           (L.IMAGE_SLOTS, TexelBuffer(self.slots, "r32ui")),
                           (L.IMAGE_SCHEDULE, TexelBuffer(self.schedule, "r32ui")),
                           (L.IMAGE_HISTORY, TexelBuffer(self.history, "rgba32ui"))]
        elif history_image and layout.history_entries:
            # the history is an image whenever texel buffers exist (Particles/history.glsl)
            self.texels = [(L.IMAGE_HISTORY, TexelBuffer(self.history, "rgba32ui"))]
        self.history_image = self.texels is not None
        for buf, name in ((self.hot, "hot"), (self.cold, "cold"), (self.tracks, "tracks"), (self.events, "events"),
                          (self.slots, "slots"), (self.control, "control"), (self.schedule, "schedule"),
                          (self.history, "history")):
            try:
                buf.label = f"{label}/{name}"
            except Exception:       # labels need KHR_debug; they are a debugging aid only
                pass

    def reset(self) -> None:
        """Every buffer as a new storage of this layout has it: empty pools (a restart in
        place, kzplayer.gpu.restart)."""
        self.sync_for_cpu()
        for buf in (self.hot, self.cold, self.events, self.slots, self.control, self.schedule, self.history):
            buf.clear()
        tracks = np.zeros(self.tracks.size // L.TRACK_DTYPE.itemsize, L.TRACK_DTYPE)
        tracks["serial"] = 0xFFFFFFFF        # the first particle of every slot starts a fresh sweep
        self.tracks.write(tracks.tobytes())
        self._initial_state()

    def _initial_state(self) -> None:
        """Empty pools: every slot on its emitter's free stack (lowest on top), headers sized."""
        lay = self.layout
        for e, r in enumerate(lay.ranges):
            state = np.zeros(1, L.EMITTER_STATE_DTYPE)
            state["capacity"] = state["free_count"] = r.capacity
            self.write_state(e, state)
            header = np.zeros(1, L.EVENT_HEADER_DTYPE)
            header["capacity"] = r.capacity
            self.write_header(e, header)
            self.write_free_list(e, np.arange(r.capacity - 1, -1, -1, dtype=np.uint32))

    # -- binding -------------------------------------------------------------------------

    def bind(self) -> None:
        """Every block and image of the system, as the simulation programs declare them."""
        self.hot.bind_to_storage_buffer(L.BINDING_PARTICLES)
        self.cold.bind_to_storage_buffer(L.BINDING_COLD)
        self.control.bind_to_storage_buffer(L.BINDING_CONTROL)
        self.events.bind_to_storage_buffer(L.BINDING_EVENTS)
        self.tracks.bind_to_storage_buffer(L.BINDING_TRACKS)
        self.slots.bind_to_storage_buffer(L.BINDING_SLOTS)
        self.schedule.bind_to_storage_buffer(L.BINDING_SCHEDULE)
        self.schedule.bind_to_uniform_block(L.UNIFORM_SCHEDULE)
        for unit, texels in self.texels or ():
            texels.bind(unit)
        if not self.history_image and self.layout.history_entries:
            self.history.bind_to_storage_buffer(L.BINDING_HISTORY_SSBO)

    def sync_for_cpu(self) -> None:
        """Make every shader write issued so far visible to buffer reads and writes from
        the CPU (and order those writes after them)."""
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)

    # -- CPU access, per emitter -----------------------------------------------------------

    def _read(self, buf, offset: int, size: int) -> bytes:
        self.sync_for_cpu()
        return buf.read(size, offset) if size else b""

    def _write(self, buf, offset: int, data: bytes) -> None:
        self.sync_for_cpu()
        if data:
            buf.write(data, offset)

    def read_state(self, e: int) -> np.ndarray:
        size = L.EMITTER_STATE_DTYPE.itemsize
        return np.frombuffer(self._read(self.control, e * size, size), L.EMITTER_STATE_DTYPE)[0].copy()

    def write_state(self, e: int, state) -> None:
        self._write(self.control, e * L.EMITTER_STATE_DTYPE.itemsize, np.asarray(state, L.EMITTER_STATE_DTYPE).tobytes())

    def read_header(self, e: int) -> np.ndarray:
        at = self.layout.words["headers"] * 4 + e * L.EVENT_HEADER_DTYPE.itemsize
        return np.frombuffer(self._read(self.control, at, L.EVENT_HEADER_DTYPE.itemsize), L.EVENT_HEADER_DTYPE)[0].copy()

    def write_header(self, e: int, header) -> None:
        at = self.layout.words["headers"] * 4 + e * L.EVENT_HEADER_DTYPE.itemsize
        self._write(self.control, at, np.asarray(header, L.EVENT_HEADER_DTYPE).tobytes())

    def read_live_header(self, e: int) -> np.ndarray:
        at = self.layout.words["live"] * 4 + e * L.LIVE_HEADER_DTYPE.itemsize
        return np.frombuffer(self._read(self.control, at, L.LIVE_HEADER_DTYPE.itemsize), L.LIVE_HEADER_DTYPE)[0].copy()

    def read_live_list(self, e: int) -> np.ndarray:
        r = self.layout.ranges[e]
        count = int(self.read_live_header(e)["count"])
        return np.frombuffer(self._read(self.slots, r.first * 4, count * 4), np.uint32).copy()

    def read_free_list(self, e: int) -> np.ndarray:
        r = self.layout.ranges[e]
        count = int(self.read_state(e)["free_count"])
        return np.frombuffer(self._read(self.slots, (self.stack_base + r.first) * 4, count * 4), np.uint32).copy()

    def write_free_list(self, e: int, free: np.ndarray) -> None:
        r = self.layout.ranges[e]
        self._write(self.slots, (self.stack_base + r.first) * 4, np.asarray(free, np.uint32).tobytes())

    @property
    def stack_base(self) -> int:
        """Where the free stacks start in the slots buffer (words)."""
        return max(self.layout.slots, L.WORKGROUP_SIZE)

    def read_hot(self, e: int) -> np.ndarray:
        r = self.layout.ranges[e]
        size = L.HOT_DTYPE.itemsize
        return np.frombuffer(self._read(self.hot, r.first * size, r.capacity * size), L.HOT_DTYPE).copy()

    def read_cold(self, e: int) -> np.ndarray:
        r = self.layout.ranges[e]
        size = L.COLD_DTYPE.itemsize
        return np.frombuffer(self._read(self.cold, r.first * size, r.capacity * size), L.COLD_DTYPE).copy()

    def read_records(self, e: int) -> np.ndarray:
        """Every slot of the emitter (live or not) as PARTICLE_DTYPE records."""
        return L.join(self.read_hot(e), self.read_cold(e))

    def write_records(self, e: int, records: np.ndarray) -> None:
        """Put PARTICLE_DTYPE records into the emitter's first slots; the alive masks and
        the live list follow the records' FLAG_ALIVE (the free stack and the state are the
        caller's: write_state, write_free_list)."""
        r = self.layout.ranges[e]
        records = np.asarray(records, L.PARTICLE_DTYPE)[:r.capacity]
        hot, cold = L.split(records)
        self._write(self.hot, r.first * L.HOT_DTYPE.itemsize, hot.tobytes())
        self._write(self.cold, r.first * L.COLD_DTYPE.itemsize, cold.tobytes())
        flags = np.zeros(r.groups * L.WORKGROUP_SIZE, np.uint32)
        flags[:len(records)] = records["flags"]
        self.rebuild(e, (flags & L.FLAG_ALIVE) != 0)

    def rebuild(self, e: int, alive: np.ndarray) -> None:
        """Alive masks, live list and live header of an emitter from which slots are live
        (what the end-of-step passes would have left); death and writer masks cleared."""
        r = self.layout.ranges[e]
        bits = np.zeros(r.groups * L.WORKGROUP_SIZE, bool)
        bits[:len(alive)] = alive[:len(bits)]
        words = np.packbits(bits.reshape(-1, 32)[:, ::-1], axis=1, bitorder="big").view(">u4").astype(np.uint32).ravel() \
            if len(bits) else np.zeros(0, np.uint32)
        w = self.layout.words
        offset = r.first // 32
        self._write(self.control, (w["alive"] + offset) * 4, words.tobytes())
        zero = np.zeros(len(words), np.uint32).tobytes()
        self._write(self.control, (w["death"] + offset) * 4, zero)
        self._write(self.control, (w["writer"] + offset) * 4, zero)
        live = np.flatnonzero(bits).astype(np.uint32)
        self._write(self.slots, r.first * 4, live.tobytes())
        header = np.zeros(1, L.LIVE_HEADER_DTYPE)
        n = len(live)
        header["count"] = n
        header["dispatch"] = (-(-n // L.WORKGROUP_SIZE), 1, 1)
        header["draw"] = (4, n, 0, 0)
        self._write(self.control, w["live"] * 4 + e * L.LIVE_HEADER_DTYPE.itemsize, header.tobytes())

    def read_events(self, e: int) -> tuple[np.ndarray, np.ndarray]:
        """(header, every record and staging record) of an emitter's Event Buffer."""
        r = self.layout.ranges[e]
        size = L.EVENT_RECORD_DTYPE.itemsize
        raw = self._read(self.events, r.event_base * size, 2 * r.capacity * size)
        return self.read_header(e), np.frombuffer(raw, L.EVENT_RECORD_DTYPE).copy()

    def read_history(self, e: int) -> np.ndarray:
        """The emitter's position history, (capacity, N) HISTORY_DTYPE: row s is slot s's
        ring, entry k written by the steps whose number is k mod N. (On the GPU the layout
        is entry-major: entry k of slot s at history_base + k x stride + s, the stride its
        slots in whole groups.)"""
        r = self.layout.ranges[e]
        size, stride = L.HISTORY_DTYPE.itemsize, r.groups * L.WORKGROUP_SIZE
        raw = self._read(self.history, r.history_base * size, stride * r.history * size)
        rows = np.frombuffer(raw, L.HISTORY_DTYPE).reshape(r.history, stride)
        return np.ascontiguousarray(rows[:, :r.capacity].T)

    def write_history(self, e: int, history: np.ndarray, slots: np.ndarray | None = None) -> None:
        """Rings of (slots, N) HISTORY_DTYPE into the emitter's history (all slots from 0
        when `slots` is None)."""
        r = self.layout.ranges[e]
        if not r.history:
            return
        size, stride = L.HISTORY_DTYPE.itemsize, r.groups * L.WORKGROUP_SIZE
        rings = np.asarray(history, L.HISTORY_DTYPE).reshape(-1, r.history)
        current = np.frombuffer(self._read(self.history, r.history_base * size, stride * r.history * size),
                                L.HISTORY_DTYPE).reshape(r.history, stride).copy()
        where = np.arange(len(rings)) if slots is None else np.asarray(slots, int)
        current[:, where] = rings.T
        self._write(self.history, r.history_base * size, current.tobytes())

    def collapse_history(self, e: int, records: np.ndarray) -> None:
        """Every ring of the emitter filled with its slot's current position (PARTICLE_DTYPE
        records, slot order): a trail starts afresh where its particle is."""
        r = self.layout.ranges[e]
        if not r.history or not r.capacity:
            return
        rows = np.zeros((r.capacity, r.history), L.HISTORY_DTYPE)
        n = min(len(records), r.capacity)
        rows["position"][:n] = np.asarray(records["position"][:n])[:, None, :]
        rows["age"][:n] = np.asarray(records["age"][:n])[:, None]
        self.write_history(e, rows)

    def read_tracks(self, e: int) -> np.ndarray:
        r = self.layout.ranges[e]
        size = L.TRACK_DTYPE.itemsize
        return np.frombuffer(self._read(self.tracks, r.first * size, r.capacity * size), L.TRACK_DTYPE).copy()

    # -- resizing -----------------------------------------------------------------------------

    def copy_emitter(self, old: "SystemStorage", e_old: int, e: int) -> None:
        """GPU copy of an emitter of the same capacity from an older storage."""
        a, b = old.layout.ranges[e_old], self.layout.ranges[e]
        assert a.capacity == b.capacity
        self.sync_for_cpu()
        copy = self.ctx.copy_buffer
        for mine, theirs, size in ((self.hot, old.hot, L.HOT_DTYPE.itemsize), (self.cold, old.cold, L.COLD_DTYPE.itemsize),
                                   (self.tracks, old.tracks, L.TRACK_DTYPE.itemsize)):
            if a.capacity:
                copy(mine, theirs, a.capacity * size, a.first * size, b.first * size)
        if a.capacity:
            copy(self.slots, old.slots, a.capacity * 4, a.first * 4, b.first * 4)
            copy(self.slots, old.slots, a.capacity * 4, (old.stack_base + a.first) * 4, (self.stack_base + b.first) * 4)
            size = L.EVENT_RECORD_DTYPE.itemsize
            copy(self.events, old.events, 2 * a.capacity * size, a.event_base * size, b.event_base * size)
            words = a.groups * 2 * 4
            copy(self.control, old.control, words, (old.layout.words["alive"] + a.first // 32) * 4,
                 (self.layout.words["alive"] + b.first // 32) * 4)
            if a.history and a.history == b.history:
                size = a.groups * L.WORKGROUP_SIZE * a.history * L.HISTORY_DTYPE.itemsize
                copy(self.history, old.history, size, a.history_base * L.HISTORY_DTYPE.itemsize,
                     b.history_base * L.HISTORY_DTYPE.itemsize)
        for region, size in (("states", L.STATE_WORDS), ("headers", L.HEADER_WORDS), ("live", L.LIVE_WORDS)):
            copy(self.control, old.control, size * 4, (old.layout.words[region] + e_old * size) * 4,
                 (self.layout.words[region] + e * size) * 4)

    def release(self) -> None:
        """Free the GL objects; safe to call twice."""
        for _, texels in self.texels or ():
            texels.release()
        self.texels = None
        for name in ("hot", "cold", "tracks", "events", "slots", "control", "schedule", "history"):
            buf = getattr(self, name, None)
            if buf is not None:
                buf.release()
                setattr(self, name, None)
