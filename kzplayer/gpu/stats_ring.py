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
from kzplayer.gpu.host_events import record_bytes
from kzplayer.gpu.nodes import EmitterStats

LAG = 2
DEPTH = 8       # frames kept waiting for take_stats; older ones are read and folded in


class StatsRing:
    def __init__(self, ctx):
        self.ctx = ctx
        self.pending: deque = deque()       # (frame, [(emitters, buffer)])
        self._spare: dict[int, list] = {}   # buffers by size, for reuse

    def snapshot(self, frame: int, runners) -> None:
        """Copy every system's totals as they stand after this frame's commands, and the
        frame's host event records (kzplayer.gpu.host_events), whose count then restarts."""
        entries = []
        for number, runner in enumerate(runners):
            if runner.storage is None or not runner.system.members:
                continue
            e = len(runner.system.members)
            size = e * (L.STATE_WORDS + L.HEADER_WORDS) * 4
            buf = self._take(size)
            # the states, then the event headers: the control buffer's first words
            self.ctx.copy_buffer(buf, runner.storage.control, size)
            host = None
            lay = runner.storage.layout
            if lay.host_events:
                host = self._take(record_bytes(lay.host_events))
                record = L.EVENT_RECORD_DTYPE.itemsize
                copy = self.ctx.copy_buffer         # (dst, src, size, read offset, write offset)
                copy(host, runner.storage.control, 16, lay.words["host"] * 4, 0)
                copy(host, runner.storage.events, lay.host_events * record, lay.host_base * record, 16)
                copy(runner.storage.control, self._zeros(), 16, 0, lay.words["host"] * 4)
                system = runner.system
                host = (host, lay.host_events, number, system.step_length,
                        [system.simulation_to_world for em in system.members])   # host records: the system's space
            entries.append((list(runner.system.members), buf, host))
        self.pending.append((frame, entries))

    def _zeros(self):
        if getattr(self, "_zero", None) is None:
            self._zero = self.ctx.buffer(bytes(16))
        return self._zero

    def ready(self, now: int, flush: bool = False, keep: int = 0) -> list:
        """[(frame, [(emitters, states, headers)], host)] of the frames LAG or more behind
        `now` (all of them with `flush`; with `keep`, only as many as leave that many
        waiting), oldest first. `host`: [(system number, emitters, step length, their
        simulation_to_world, count asked for, records kept)] of the systems whose host events
        are listened to."""
        out = []
        while self.pending and (flush or (self.pending[0][0] <= now - LAG and len(self.pending) > keep)):
            frame, entries = self.pending.popleft()
            read, hosts = [], []
            for emitters, buf, host in entries:
                raw = buf.read()
                e = len(emitters)
                states = np.frombuffer(raw[:e * L.EMITTER_STATE_DTYPE.itemsize], L.EMITTER_STATE_DTYPE)
                headers = np.frombuffer(raw[e * L.EMITTER_STATE_DTYPE.itemsize:], L.EVENT_HEADER_DTYPE)
                read.append((emitters, states.copy(), headers.copy()))
                self._spare.setdefault(buf.size, []).append(buf)
                if host is not None:
                    hbuf, capacity, number, h, to_world = host
                    count = int(np.frombuffer(hbuf.read(4), np.uint32)[0])
                    kept = min(count, capacity)
                    records = np.frombuffer(hbuf.read(kept * L.EVENT_RECORD_DTYPE.itemsize, 16) if kept else b"",
                                            L.EVENT_RECORD_DTYPE)
                    hosts.append((number, emitters, h, to_world, count, records))
                    self._spare.setdefault(hbuf.size, []).append(hbuf)
            out.append((frame, read, hosts))
        return out

    def _take(self, size: int):
        spare = self._spare.get(size)
        if spare:
            return spare.pop()
        return self.ctx.buffer(reserve=size)

    def release(self) -> None:
        for _, entries in self.pending:
            for _, buf, host in entries:
                buf.release()
                if host is not None:
                    host[0].release()
        if getattr(self, "_zero", None) is not None:
            self._zero.release()
            self._zero = None
        self.pending.clear()
        for bufs in self._spare.values():
            for buf in bufs:
                buf.release()
        self._spare.clear()


def system_figures(emitters, states, headers, befores) -> dict[str, EmitterStats]:
    """{path: EmitterStats} of a system's emitters. A bound subemitter's channel is no
    emitter of the project: it has no row, and the children it dropped (past BOUND_PER_STEP
    a parent and step, or past its records) are the subemitter's `stalled`, children it was
    due and did not emit, as a full pool's are."""
    figures, channels = {}, []
    for em, state, header, (totals, events) in zip(emitters, states, headers, befores):
        if em.channel_of is None:
            figures[em.path] = _figures(em.path, state, header, totals, events)
        else:
            channels.append((em.channel_of.path, (int(header["total_dropped"]) - int(events[1])) & 0xFFFFFFFF))
    for path, dropped in channels:
        if path in figures:
            figures[path].stalled += dropped
    return figures


def _figures(path: str, state, header, before, event_before) -> EmitterStats:
    """An emitter's figures for a frame: its totals after it less its totals before."""
    return EmitterStats(
        emitter=path,
        alive=int(state["capacity"]) - int(state["free_count"]),
        emitted=(int(state["total_emitted"]) - int(before["total_emitted"])) & 0xFFFFFFFF,
        died=(int(state["total_died"]) - int(before["total_died"])) & 0xFFFFFFFF,
        events_written=(int(header["total_written"]) - int(event_before[0])) & 0xFFFFFFFF,
        events_dropped=(int(header["total_dropped"]) - int(event_before[1])) & 0xFFFFFFFF,
        stalled=(int(state["total_stalled"]) - int(before["total_stalled"])) & 0xFFFFFFFF,
        hits=(int(state["total_hits"]) - int(before["total_hits"])) & 0xFFFFFFFF,
    )
