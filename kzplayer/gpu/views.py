"""One emitter's views of its system's storage (kzplayer.gpu.storage): `EmitterBuffers`
(em.buffers) with its `ParticleData` (the Particle Data Buffer as drawing binds it), its
`SlotList` (the live list) and its state, Event Buffer, free stack and position history,
each read and written from the CPU at its offset; and `RecordBuffers`, hand-made particle
buffers that draw like an emitter's (tests, benchmarks)."""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.gpu import layout as L


class Slice:
    """One emitter's part of a system buffer: bound as a storage-block range, read and
    written at its offset."""

    def __init__(self, storage, buffer_name: str, offset: int, size: int):
        self._storage, self._name = storage, buffer_name
        self.offset, self.size = offset, size

    @property
    def buffer(self) -> moderngl.Buffer:
        return getattr(self._storage, self._name)

    def bind_to_storage_buffer(self, binding: int) -> None:
        if self.size:
            self.buffer.bind_to_storage_buffer(binding, offset=self.offset, size=self.size)

    def read(self) -> bytes:
        return self._storage._read(self.buffer, self.offset, self.size)

    def write(self, data: bytes, offset: int = 0) -> None:
        self._storage._write(self.buffer, self.offset + offset, data)


class ParticleData:
    """An emitter's Particle Data Buffer: PARTICLE_DTYPE records (`write`, `read`) kept as
    its range of the system's hot and cold blocks. `bind_to_storage_buffer(binding)` binds
    both ranges for drawing: the hot part at `binding` (BINDING_PARTICLES), the cold part at
    BINDING_COLD (Particles/particle_read.glsl declares both)."""

    def __init__(self, storage, e: int):
        self._storage, self._e = storage, e
        self.live = None                    # the emitter's SlotList
        r = storage.layout.ranges[e]
        self.first = r.first
        self.capacity = r.capacity
        self.hot = Slice(storage, "hot", r.first * L.HOT_DTYPE.itemsize, r.capacity * L.HOT_DTYPE.itemsize)
        self.cold = Slice(storage, "cold", r.first * L.COLD_DTYPE.itemsize, r.capacity * L.COLD_DTYPE.itemsize)

    def bind_to_storage_buffer(self, binding: int = L.BINDING_PARTICLES, cold_binding: int = L.BINDING_COLD) -> None:
        self.hot.bind_to_storage_buffer(binding)
        self.cold.bind_to_storage_buffer(cold_binding)

    def read(self) -> bytes:
        return self._storage.read_records(self._e).tobytes()

    def write(self, data: bytes) -> None:
        self._storage.write_records(self._e, np.frombuffer(data, L.PARTICLE_DTYPE))

    @property
    def glo(self) -> int:
        return self.hot.buffer.glo


class SlotList:
    """An emitter's live list on the GPU (rebuilt at the end of every step): `buffer` holds
    uint slot indices of the emitter (slot 0 = its first record) in ascending order from
    byte `offset`; the count and indirect arguments are the LiveHeader at `header_offset`
    of `header_buffer`: count at +0, glDispatchComputeIndirect (ceil(count/64), 1, 1) at +4,
    glDrawArraysIndirect (4, count, 0, 0) at +16."""

    def __init__(self, storage, e: int):
        self._storage, self._e = storage, e
        self.offset = storage.layout.ranges[e].first * 4
        self.header_offset = (storage.layout.words["live"] + e * L.LIVE_WORDS) * 4
        self.capacity = storage.layout.ranges[e].capacity

    @property
    def buffer(self) -> moderngl.Buffer:
        return self._storage.slots

    @property
    def header_buffer(self) -> moderngl.Buffer:
        return self._storage.control

    @property
    def count_offset(self) -> int:
        return self.header_offset

    @property
    def dispatch_offset(self) -> int:
        return self.header_offset + 4

    @property
    def draw_offset(self) -> int:
        return self.header_offset + 16

    def bind_to_storage_buffer(self, binding: int = L.BINDING_SLOTS) -> None:
        if self.capacity:
            self.buffer.bind_to_storage_buffer(binding, offset=self.offset, size=self.capacity * 4)

    def read(self) -> np.ndarray:
        """The live slots, ascending (a CPU read: for tests and tools)."""
        return self._storage.read_live_list(self._e)


class EmitterBuffers:
    """One emitter's view of its system's storage (em.buffers): the pieces the pipeline
    before v2 kept in buffers of their own, read and written at their offsets."""

    def __init__(self, storage, e: int, label: str = "emitter"):
        self.storage, self.index, self.label = storage, e, label
        r = storage.layout.ranges[e]
        self.capacity = r.capacity
        self.particles = ParticleData(storage, e)
        self.live = SlotList(storage, e)
        self.particles.live = self.live           # what a renderer draws from (kzplayer.render.live_list)
        self.state = Slice(storage, "control", e * L.EMITTER_STATE_DTYPE.itemsize, L.EMITTER_STATE_DTYPE.itemsize)
        self.events = _EventBufferView(storage, e)
        self.free_list = Slice(storage, "slots", (storage.stack_base + r.first) * 4, r.capacity * 4)
        # N positions per slot for drawing trails (history_length 0: none kept), entry-major:
        # entry k of slot s at k x history_stride + s
        self.history_length = r.history
        self.history_stride = r.groups * L.WORKGROUP_SIZE
        size = L.HISTORY_DTYPE.itemsize
        self.history = Slice(storage, "history", r.history_base * size, self.history_stride * r.history * size)

    def read_history(self) -> np.ndarray:
        return self.storage.read_history(self.index)

    def sync_for_cpu(self) -> None:
        self.storage.sync_for_cpu()

    def read_records(self) -> np.ndarray:
        return self.storage.read_records(self.index)

    def read_state(self) -> np.ndarray:
        return self.storage.read_state(self.index)

    def read_free_list(self) -> np.ndarray:
        return self.storage.read_free_list(self.index)

    def write_free_list(self, free: np.ndarray) -> None:
        self.storage.write_free_list(self.index, free)

    def read_event_header(self) -> np.ndarray:
        return self.storage.read_header(self.index)

    def read_tracks(self) -> np.ndarray:
        return self.storage.read_tracks(self.index)


class _EventBufferView:
    """An emitter's Event Buffer as one byte string in its documented layout: the header,
    then `capacity` records, then `capacity` staging records."""

    def __init__(self, storage, e: int):
        self._storage, self._e = storage, e

    def read(self) -> bytes:
        header, records = self._storage.read_events(self._e)
        return header.tobytes() + records.tobytes()


class RecordBuffers:
    """PARTICLE_DTYPE records in hot and cold buffers of their own, bindable like an
    emitter's Particle Data Buffer: for drawing records without a simulation (tests, tools).
    `history`: optional positions (n, N, 3), newest first, kept as a simulation keeps them
    (`.history`, `.history_length`, `.history_newest`, `.history_stride`)."""

    def __init__(self, ctx: moderngl.Context, records: np.ndarray, history=None):
        hot, cold = L.split(np.asarray(records, L.PARTICLE_DTYPE))
        self.hot = ctx.buffer(hot.tobytes() or bytes(L.HOT_DTYPE.itemsize))
        self.cold = ctx.buffer(cold.tobytes() or bytes(L.COLD_DTYPE.itemsize))
        self.capacity = len(records)
        self.history = None
        self.history_length = self.history_newest = self.history_stride = 0
        if history is not None:
            positions = np.asarray(history, np.float32).reshape(len(records), -1, 3)
            rows = np.zeros(positions.shape[:2][::-1], L.HISTORY_DTYPE)
            # ring order as a simulation leaves it after step s = N - 1: entry k holds the
            # position of N - 1 - k steps ago, so the newest is entry N - 1; entry-major
            rows["position"] = positions[:, ::-1].transpose(1, 0, 2)
            self.history_length, self.history_newest = positions.shape[1], positions.shape[1] - 1
            self.history_stride = len(records)
            self.history = ctx.buffer(rows.tobytes() or bytes(16))

    def bind_to_storage_buffer(self, binding: int = L.BINDING_PARTICLES, cold_binding: int = L.BINDING_COLD) -> None:
        self.hot.bind_to_storage_buffer(binding)
        self.cold.bind_to_storage_buffer(cold_binding)

    def release(self) -> None:
        self.hot.release()
        self.cold.release()
        if self.history is not None:
            self.history.release()
