"""The GPU sort of a live list: ParticleEmitter.SortingType, and CastLight's brightest first.

A bitonic sort of (key, slot) pairs in compute shaders (shaders/render/sort_*.glsl). Keys
are the view depth (Depth: far first; ReverseDepth: near first) or the brightness of the
light a particle casts (brightest first), as order-preserving uints; the slot is the
second half of each pair, so no two pairs are equal, ties break by slot and the sorted
order is the same on every run and every GPU. Only the live particles are sorted: the
pairs are padded to P, the next power of two above the live COUNT, and every stage of the
network whose block is larger than P gets zero workgroups, all decided on the GPU from the
count (sort_prepare.glsl) and dispatched indirectly, so nothing is read back. The CPU
issues the same fixed list of dispatches each frame: every stage of the network whose
stride is below the block size B runs inside a block in one dispatch (all of the first
log2(B) stages in one, and the short strides of each later merge in one), the longer
strides one dispatch each (sort_stage.glsl). On a GPU a block is 1,024 pairs in a
workgroup's shared memory (sort_local.glsl): for P(C) = 2^L that is 1 + sum over
m = 11..L of (m - 9) dispatches, 15 at 16,384 particles, 36 at 131,072 (one a stage would
be 105 and 153). On llvmpipe a block is 32 pairs in one invocation's registers
(sort_block.glsl): 1 + sum over m = 6..L of (m - 4) dispatches, 55 at 16,384, 91 at 131,072.

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
# The stages inside blocks of pairs run in one dispatch (the short strides of a bitonic
# network never leave their block): in a workgroup's shared memory on a GPU (a block of
# 1,024 pairs, sort_local.glsl), in one invocation's registers on llvmpipe (32 pairs,
# sort_block.glsl), where barrier() switches every invocation of the group and costs more
# than the compares it saves.
# Measured on llvmpipe, 2 cores, interleaved (benchmarks/bench_render.py has the figures):
# blocks of 32 pairs per invocation sort 100,000 live particles in 0.57x the time of one
# dispatch per stage, and the shared-memory blocks of 1,024 take 0.96x.
STRATEGIES = {"shared": ("render/sort_local.glsl", 1024, 1), "invocation": ("render/sort_block.glsl", 32, 64)}
BLOCK = 1024


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


def strategy_for(ctx) -> str:
    """`invocation` on Mesa's CPU rasterisers (llvmpipe, softpipe), `shared` elsewhere."""
    renderer = str(ctx.info.get("GL_RENDERER", "")).lower()
    return "invocation" if ("llvmpipe" in renderer or "softpipe" in renderer) else "shared"


def dispatches(size: int, block: int = BLOCK) -> list[tuple[str, int, int]]:
    """The dispatches that run the network over `size`: ("local", 0, 0) for every stage
    inside `block`-sized blocks, then per k > block ("global", k, j) for each j >= block and
    ("merge", k, 0) for the rest of k's stages. sort_prepare.glsl sizes them in this order."""
    out = [("local", 0, 0)]
    k = block * 2
    while k <= size:
        j = k >> 1
        while j >= block:
            out.append(("global", k, j))
            j >>= 1
        out.append(("merge", k, 0))
        k <<= 1
    return out


class Sorter:
    """Sorts one emitter's live list; `order` holds the result (the live list's shape)."""

    def __init__(self, ctx, programs, strategy: str | None = None):
        self.ctx = ctx
        self.programs = programs
        self.strategy = strategy or strategy_for(ctx)
        self.kernel, self.block, per_group = STRATEGIES[self.strategy]
        self.defines = {"KZ_SORT_BLOCK": f"{self.block}u", "KZ_BLOCKS_PER_GROUP": f"{per_group}u"}
        self.capacity = -1
        self.pairs = self.order = self.args = None
        self._stages: list[tuple[int, int]] = []

    def _ensure(self, capacity: int) -> None:
        if capacity == self.capacity:
            return
        self.release()
        self.capacity = capacity
        size = padded(capacity)
        self._stages = dispatches(size, self.block)
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

        program, initial = self.programs.compute("render/sort_prepare.glsl", self.defines)
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

        stage, _ = self.programs.compute("render/sort_stage.glsl")
        local, _ = self.programs.compute(self.kernel, self.defines)
        for s, (kind, k, j) in enumerate(self._stages):
            if kind == "global":
                stage["kz_k"].value = k
                stage["kz_j"].value = j
                stage.run_indirect(self.args, (STAGES_AT + 3 * s) * 4)
            else:
                local["kz_k"].value = k
                local.run_indirect(self.args, (STAGES_AT + 3 * s) * 4)
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
