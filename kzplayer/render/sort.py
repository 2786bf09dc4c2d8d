"""The GPU sort of a live list: ParticleEmitter.SortingType, and CastLight's brightest first.

Keys are the view depth (Depth: far first; ReverseDepth: near first) or the brightness of
the light a particle casts (brightest first), as order-preserving uints, paired with the
particle's slot (shaders/render/sort_keys.glsl). Only live particles are sorted, and every
dispatch is sized on the GPU from the live count (sort_prepare.glsl) and issued indirectly:
nothing is read back. The order is the same on every run and every GPU: ties break by slot.

Two algorithms, tested to give the same order bit for bit:

* **radix** (the one the renderer uses): 8 stable passes of 4-bit digits over the live
  pairs (render/radix_*.glsl). Stable, so equal keys keep the live list's ascending slot
  order: the tie rule costs nothing. Each invocation walks a chunk of 64 consecutive pairs:
  no shared memory, no barrier(), no atomics. 27 dispatches with the keys, whatever the count.
* **bitonic**: a sorting network over (key, slot) pairs padded to P, the power of two above
  the live count (stages for blocks larger than P get no workgroups); the short strides run
  inside blocks in one dispatch each (1,024 pairs in shared memory, `shared`; 32 pairs in
  one invocation's registers, `invocation`), the long strides one dispatch each.

On llvmpipe (2 cores, interleaved, 100,000 live particles) the radix sort takes 45 ms, the
bitonic network 315 ms (per-invocation blocks) and 440 ms (shared memory): on a CPU
rasteriser the network's N log^2 N compares and its barriers cost, the radix sort reads and
writes each pair twice per digit.

Buffers per sorter, sized by MaximumAmount C: two pair buffers of 8 x P(C) bytes, 64 bytes
of counts per 64 slots, the sorted list (the live list's shape) and the dispatch
arguments (`memory`: 2.5 MiB at C = 100,000).
"""
from __future__ import annotations

import moderngl
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
# The bitonic network's block kernels (shared memory; per invocation, which llvmpipe prefers:
# barrier() there switches every invocation of the group), and the radix sort.
STRATEGIES = {"shared": ("render/sort_local.glsl", 1024, 1), "invocation": ("render/sort_block.glsl", 32, 64),
              "radix": ("", 64, 64)}
RADIX_BITS, RADIX_BINS = 4, 16
BINDING_RADIX_OUT, BINDING_RADIX_COUNTS = 15, 16
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
    """The radix sort, on every driver (measured fastest on llvmpipe by 7x; on a GPU both
    take well under a millisecond at 100,000)."""
    return "radix"


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
        if self.strategy == "radix":
            self.defines = {"KZ_RADIX": 1, "KZ_RADIX_CHUNK": f"{self.block}u"}
        else:
            self.defines = {"KZ_SORT_BLOCK": f"{self.block}u", "KZ_BLOCKS_PER_GROUP": f"{per_group}u"}
        self.capacity = -1
        self.pairs = self.order = self.args = self.pairs2 = self.counts = None
        self._stages: list[tuple[int, int]] = []

    def _ensure(self, capacity: int) -> None:
        if capacity == self.capacity:
            return
        self.release()
        self.capacity = capacity
        size = padded(capacity)
        self._stages = dispatches(size, self.block) if self.strategy != "radix" else [("radix", 0, 0)]
        self.pairs = self.ctx.buffer(reserve=size * 8)
        if self.strategy == "radix":
            self.max_chunks = max(-(-capacity // self.block), 1)
            self.pairs2 = self.ctx.buffer(reserve=size * 8)
            self.counts = self.ctx.buffer(reserve=RADIX_BINS * self.max_chunks * 4)
        self.order = self.ctx.buffer(reserve=(HEADER_WORDS + max(capacity, 1)) * 4)
        self.args = self.ctx.buffer(reserve=(STAGES_AT + 3 * len(self._stages)) * 4)

    @property
    def memory(self) -> int:
        """Bytes of GPU memory this sorter holds."""
        return sum(b.size for b in (self.pairs, self.pairs2, self.counts, self.order, self.args) if b is not None)

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

        if self.strategy == "radix":
            self._radix()
        else:
            self._bitonic()

        program, _ = self.programs.compute("render/sort_scatter.glsl")
        self.pairs.bind_to_storage_buffer(BINDING_KEYS)
        program.run_indirect(self.args, 16)
        ctx.memory_barrier(BARRIER)

    def _radix(self) -> None:
        """8 stable passes of 4-bit digits, least significant first, ping-ponging between
        the two pair buffers (an even number: the result ends where it began)."""
        ctx = self.ctx
        programs = [self.programs.compute(f"render/radix_{name}.glsl", self.defines)
                    for name in ("count", "scan", "scatter")]
        for program, initial in programs:
            set_uniform(program, initial, "kz_maxChunks", self.max_chunks)
        self.counts.bind_to_storage_buffer(BINDING_RADIX_COUNTS)
        source, target = self.pairs, self.pairs2
        for shift in range(0, 32, RADIX_BITS):
            source.bind_to_storage_buffer(BINDING_KEYS)
            target.bind_to_storage_buffer(BINDING_RADIX_OUT)
            for (program, initial), indirect in zip(programs, (True, False, True)):
                set_uniform(program, initial, "kz_shift", shift)
                if indirect:
                    program.run_indirect(self.args, STAGES_AT * 4)
                else:
                    program.run(1)
                ctx.memory_barrier(BARRIER)
            source, target = target, source

    def _bitonic(self) -> None:
        ctx = self.ctx
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

    def read(self):
        """(count, slots) in sorted order: for tests and benchmarks, never in a frame."""
        self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        words = np.frombuffer(self.order.read(), np.uint32)
        n = int(words[0])
        return n, words[HEADER_WORDS:HEADER_WORDS + n].copy()

    def release(self) -> None:
        for name in ("pairs", "pairs2", "counts", "order", "args"):
            buf = getattr(self, name)
            if buf is not None:
                buf.release()
                setattr(self, name, None)
        self.capacity = -1
