"""Per-frame stats without making the GPU wait for Python.

At the end of every frame each system's running totals (the emitters' states and Event
Buffer headers: the first words of its control buffer) are copied, on the GPU, into a
buffer of a small ring. A frame's figures are read back LAG frames later, when the GPU
has long finished with it, so the read does not stall the frame loop; `flush` reads what is
left (the end of a run, or a caller who wants the figures now, `Simulation.stats`). The
figures are the same either way: each frame's totals are a snapshot taken in its place in
the command stream.
"""
from __future__ import annotations

from collections import deque

import numpy as np

from kzplayer.gpu import layout as L

LAG = 2
DEPTH = 8       # frames kept waiting for take_stats; older ones are read and folded in


class StatsRing:
    def __init__(self, ctx):
        self.ctx = ctx
        self.pending: deque = deque()       # (frame, [(emitters, buffer)])
        self._spare: dict[int, list] = {}   # buffers by size, for reuse

    def snapshot(self, frame: int, runners) -> None:
        """Copy every system's totals as they stand after this frame's commands."""
        entries = []
        for runner in runners:
            if runner.storage is None or not runner.system.emitters:
                continue
            e = len(runner.system.emitters)
            size = e * (L.STATE_WORDS + L.HEADER_WORDS) * 4
            buf = self._take(size)
            # the states, then the event headers: the control buffer's first words
            self.ctx.copy_buffer(buf, runner.storage.control, size)
            entries.append((list(runner.system.emitters), buf))
        self.pending.append((frame, entries))

    def ready(self, now: int, flush: bool = False, keep: int = 0) -> list:
        """[(frame, [(emitters, states, headers)])] of the frames LAG or more behind `now`
        (all of them with `flush`; with `keep`, only as many as leave that many waiting),
        oldest first."""
        out = []
        while self.pending and (flush or (self.pending[0][0] <= now - LAG and len(self.pending) > keep)):
            frame, entries = self.pending.popleft()
            read = []
            for emitters, buf in entries:
                raw = buf.read()
                e = len(emitters)
                states = np.frombuffer(raw[:e * L.EMITTER_STATE_DTYPE.itemsize], L.EMITTER_STATE_DTYPE)
                headers = np.frombuffer(raw[e * L.EMITTER_STATE_DTYPE.itemsize:], L.EVENT_HEADER_DTYPE)
                read.append((emitters, states.copy(), headers.copy()))
                self._spare.setdefault(buf.size, []).append(buf)
            out.append((frame, read))
        return out

    def _take(self, size: int):
        spare = self._spare.get(size)
        if spare:
            return spare.pop()
        return self.ctx.buffer(reserve=size)

    def release(self) -> None:
        for _, entries in self.pending:
            for _, buf in entries:
                buf.release()
        self.pending.clear()
        for bufs in self._spare.values():
            for buf in bufs:
                buf.release()
        self._spare.clear()
