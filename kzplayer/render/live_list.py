"""The live list of an emitter: the pool slots of its live particles, on the GPU.

Its shape is the frame pipeline's contract (docs/rendering.md, "Live list"): a uint count,
three pad words, then `count` uint slots in ASCENDING slot order, so Identity sorting is the
list as it is and every sort built on it breaks ties by slot. The count never comes back to
the CPU: the same pass writes the indirect arguments that the sort, the light gather and
the draws read (shaders/render/live_scan.glsl lists them).

The simulation keeps this list itself (docs/player.md, "The live list": an emitter's
`particles.live`, rebuilt at the end of every step): `LiveList.update` copies it on the GPU
(its count and its slots) and takes the draw arguments from its live header (copies on the
GPU: the words live_scan.glsl would write, no dispatch, ~15 us less an emitter). Records drawn
without a simulation (tests, tools) get it from three small compute passes over the pool
(count per 64-slot group, a prefix sum, write).
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.gpu import layout as L
from kzplayer.render.shaders import set_uniform

HEADER_WORDS = 4
BINDING_LIVE, BINDING_ORDER, BINDING_KEYS, BINDING_ARGS, BINDING_GROUPS, BINDING_PARTICLE_LIGHTS = 8, 9, 10, 11, 12, 13
ARGS_WORDS = 16
ARRAYS_COMMAND, ELEMENTS_COMMAND = 0, 1     # render_indirect's `first`: 20-byte commands
LIVE_DISPATCH_OFFSET = 48                    # bytes: a dispatch over the live particles
BARRIER = moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.COMMAND_BARRIER_BIT


def groups_of(n: int, size: int = L.WORKGROUP_SIZE) -> int:
    return max((int(n) + size - 1) // size, 1)


class LiveList:
    """One emitter's live list and indirect arguments (`buffer`, `args`), resized with its
    pool."""

    def __init__(self, ctx, programs):
        self.ctx = ctx
        self.programs = programs
        self.capacity = -1
        self.buffer = self.args = self.groups = None
        self._constants = None              # (vertex_count, index_count) in `args` (the copies' way)

    def _ensure(self, capacity: int) -> None:
        if capacity == self.capacity:
            return
        self.release()
        self.capacity = capacity
        self.buffer = self.ctx.buffer(reserve=(HEADER_WORDS + max(capacity, 1)) * 4)
        self.args = self.ctx.buffer(reserve=ARGS_WORDS * 4)
        self._constants = None
        self.groups = self.ctx.buffer(reserve=groups_of(capacity) * 4)

    def update(self, particles, capacity: int, vertex_count: int = 4, index_count: int = 0) -> None:
        """Rebuild the list from the pool `particles` (a Buffer of `capacity` records) and
        the draw arguments for `vertex_count` billboard vertices / `index_count` mesh
        indices per instance."""
        self._ensure(int(capacity))
        ctx = self.ctx
        source = getattr(particles, "live", None)       # the simulation's own list
        # the pool stays bound for what reads it next (the sort's key pass binds nothing)
        particles.bind_to_storage_buffer(L.BINDING_PARTICLES)
        if source is not None:
            self._take(source, int(capacity), vertex_count, index_count)
            return
        groups = groups_of(capacity)
        self.buffer.bind_to_storage_buffer(BINDING_LIVE)
        self.args.bind_to_storage_buffer(BINDING_ARGS)
        self.groups.bind_to_storage_buffer(BINDING_GROUPS)
        ctx.memory_barrier(BARRIER)          # the simulation's last writes, before reading them
        for rel, count in (("render/live_count.glsl", groups), ("render/live_scan.glsl", 1),
                           ("render/live_write.glsl", groups)):
            program, initial = self.programs.compute(rel)
            set_uniform(program, initial, "kz_capacity", int(capacity))
            set_uniform(program, initial, "kz_groups", groups)
            set_uniform(program, initial, "kz_vertexCount", int(vertex_count))
            set_uniform(program, initial, "kz_indexCount", int(index_count))
            program.run(groups_of(count) if count > 1 else 1)
            ctx.memory_barrier(BARRIER)

    def _take(self, source, capacity: int, vertex_count: int, index_count: int) -> None:
        """The simulation's list (count and ascending slots) copied into this one's shape,
        and the indirect arguments made of its live header (count at +0, the dispatch over
        the live particles at +4) and the per-instance counts, written when they change:
        the words live_scan.glsl writes, with no dispatch; no count comes back to the CPU."""
        ctx = self.ctx
        ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)      # the simulation's last writes
        if self._constants != (vertex_count, index_count):
            words = np.zeros(ARGS_WORDS, np.uint32)
            words[ARRAYS_COMMAND * 5], words[ELEMENTS_COMMAND * 5] = vertex_count, index_count
            words[LIVE_DISPATCH_OFFSET // 4 + 1:LIVE_DISPATCH_OFFSET // 4 + 3] = 1
            self.args.write(words.tobytes())
            self._constants = (vertex_count, index_count)
        header, at = source.header_buffer, source.count_offset
        ctx.copy_buffer(self.buffer, header, 4, read_offset=at)
        if capacity:
            ctx.copy_buffer(self.buffer, source.buffer, capacity * 4, read_offset=source.offset,
                            write_offset=HEADER_WORDS * 4)
        for command in (ARRAYS_COMMAND, ELEMENTS_COMMAND):        # the instance count
            ctx.copy_buffer(self.args, header, 4, read_offset=at, write_offset=(command * 5 + 1) * 4)
        ctx.copy_buffer(self.args, header, 12, read_offset=source.dispatch_offset, write_offset=LIVE_DISPATCH_OFFSET)
        self.buffer.bind_to_storage_buffer(BINDING_LIVE)
        self.args.bind_to_storage_buffer(BINDING_ARGS)

    def read(self):
        """(count, slots) read back: for tests and benchmarks only, never in a frame."""
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        words = np.frombuffer(self.buffer.read(), np.uint32)
        n = int(words[0])
        return n, words[HEADER_WORDS:HEADER_WORDS + n].copy()

    def read_args(self):
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        return np.frombuffer(self.args.read(), np.uint32).copy()

    def release(self) -> None:
        for name in ("buffer", "args", "groups"):
            buf = getattr(self, name)
            if buf is not None:
                buf.release()
                setattr(self, name, None)
        self.capacity = -1
