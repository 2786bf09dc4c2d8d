"""The GPU sort of a live list: ParticleEmitter.SortingType, and CastLight's brightest first.

A bitonic sort of (key, slot) pairs in compute shaders (shaders/render/sort_*.glsl). Keys
are the view depth (Depth: far first; ReverseDepth: near first) or the brightness of the
light a particle casts (brightest first), as order-preserving uints; the slot is the
second half of each pair, so no two pairs are equal, ties break by slot and the sorted
order is the same on every run and every GPU. Only the live particles are sorted: the
pairs are padded to P, the next power of two above the live COUNT, and every stage of the
network whose block is larger than P gets zero workgroups, all decided on the GPU from the
count (sort_prepare.glsl) and dispatched indirectly, so nothing is read back. The CPU
issues the same fixed list of stages each frame (for a pool of capacity C: L(L+1)/2 stages,
L = log2 of the power of two above C).

Buffers per sorter, sized by MaximumAmount: the pairs (8 bytes x P(C)), the sorted list
(the live list's shape), the arguments (12 bytes a stage); docs/rendering.md counts them.
"""
from __future__ import annotations

import numpy as np

from kzplayer.render.live_list import (BARRIER, BINDING_ARGS, BINDING_KEYS, BINDING_LIVE, BINDING_ORDER,
                                       HEADER_WORDS)
from kzplayer.render.shaders import set_uniform

DEPTH, REVERSE_DEPTH, BRIGHTNESS = 1, 2, 3
STAGES_AT = 8          # words before the first stage's dispatch arguments (sort_common.glsl)


def padded(n: int) -> int:
    """The power of two at or above n (at least 2)."""
    p = 2
    while p < n:
        p <<= 1
    return p


def stages(size: int) -> list[tuple[int, int]]:
    """The (k, j) stages of a bitonic network over `size` (a power of two), in order."""
    out = []
    k = 2
    while k <= size:
        j = k >> 1
        while j > 0:
            out.append((k, j))
            j >>= 1
        k <<= 1
    return out


class Sorter:
    """Sorts one emitter's live list; `order` holds the result (the live list's shape)."""

    def __init__(self, ctx, programs):
        self.ctx = ctx
        self.programs = programs
        self.capacity = -1
        self.pairs = self.order = self.args = None
        self._stages: list[tuple[int, int]] = []

    def _ensure(self, capacity: int) -> None:
        if capacity == self.capacity:
            return
        self.release()
        self.capacity = capacity
        size = padded(capacity)
        self._stages = stages(size)
        self.pairs = self.ctx.buffer(reserve=size * 8)
        self.order = self.ctx.buffer(reserve=(HEADER_WORDS + max(capacity, 1)) * 4)
        self.args = self.ctx.buffer(reserve=(STAGES_AT + 3 * len(self._stages)) * 4)

    @property
    def memory(self) -> int:
        """Bytes of GPU memory this sorter holds."""
        return sum(b.size for b in (self.pairs, self.order, self.args) if b is not None)

    def sort(self, live, capacity: int, key: int, model=None, view=None, defines=None, uniforms=()) -> None:
        """Sort `live` (a LiveList already updated; the emitter's particles bound) by `key`.
        `model`, `view`: the emitter's simulation-to-world and the camera's view matrix
        (depth keys); `defines`, `uniforms`: the material's, for brightness keys."""
        self._ensure(int(capacity))
        ctx = self.ctx
        live.buffer.bind_to_storage_buffer(BINDING_LIVE)
        self.pairs.bind_to_storage_buffer(BINDING_KEYS)
        self.args.bind_to_storage_buffer(BINDING_ARGS)
        self.order.bind_to_storage_buffer(BINDING_ORDER)

        program, initial = self.programs.compute("render/sort_prepare.glsl")
        set_uniform(program, initial, "kz_maxSize", padded(self.capacity))
        program.run(1)
        ctx.memory_barrier(BARRIER)

        program, initial = self.programs.compute("render/sort_keys.glsl", {"SORT_KEY": key, **(defines or {})})
        set_uniform(program, initial, "kz_model", np.eye(4) if model is None else np.asarray(model))
        set_uniform(program, initial, "kz_view", np.eye(4) if view is None else np.asarray(view))
        for name, value in uniforms:
            set_uniform(program, initial, name, value)
        program.run_indirect(self.args, 0)
        ctx.memory_barrier(BARRIER)

        program, initial = self.programs.compute("render/sort_stage.glsl")
        for s, (k, j) in enumerate(self._stages):
            program["kz_k"].value = k
            program["kz_j"].value = j
            program.run_indirect(self.args, (STAGES_AT + 3 * s) * 4)
            ctx.memory_barrier(BARRIER)

        program, _ = self.programs.compute("render/sort_scatter.glsl")
        program.run_indirect(self.args, 16)
        ctx.memory_barrier(BARRIER)

    def read(self):
        """(count, slots) in sorted order: for tests and benchmarks, never in a frame."""
        import moderngl
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        words = np.frombuffer(self.order.read(), np.uint32)
        n = int(words[0])
        return n, words[HEADER_WORDS:HEADER_WORDS + n].copy()

    def release(self) -> None:
        for name in ("pairs", "order", "args"):
            buf = getattr(self, name)
            if buf is not None:
                buf.release()
                setattr(self, name, None)
        self.capacity = -1
