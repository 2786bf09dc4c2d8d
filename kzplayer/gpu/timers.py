"""GPU time per ParticleSystem and frame, measured with GL timer queries (a GL_TIMESTAMP
before and after the work, glQueryCounter), read back without making the GPU wait for Python.

    timers = GpuTimers(ctx)
    with timers.measure(("sim", system_path), frame):   # the commands issued inside are timed
        ...
    timers.take(frame)        # {key: milliseconds} once every query of the frame is done,
                              # None while one is still running; take(frame, wait=True) waits

A pair of timestamps brackets the commands to measure: the simulation's dispatches of one
system in one frame, or the compute passes and draws of one system's emitters; their
difference is the time the GPU took from the first to the last of them. Timestamps rather
than GL_TIME_ELAPSED: Mesa's llvmpipe counts only rasterised work in an elapsed query (a
compute dispatch reads as 0 ns), while its timestamps are taken as the work runs; and pairs
of timestamps may nest, one elapsed query at a time may not.
Results are asked for a frame or two later (when the stats of that frame are read,
gpu/stats_ring.py), and only taken when GL_QUERY_RESULT_AVAILABLE says so: the frame loop
never stalls on them. Queries of one key in one frame add up (a system's emitters are drawn
in several passes). On Mesa's llvmpipe there is no GPU: the figures are the CPU
rasteriser's time for that work. moderngl's Query reads its result by waiting, so the few
calls are made here through the GL library (as gpu/gl.py does for texel buffers).
"""
from __future__ import annotations

import ctypes
from contextlib import contextmanager

from kzplayer.gpu.gl import _library

GL_TIMESTAMP = 0x8E28
GL_QUERY_RESULT = 0x8866
GL_QUERY_RESULT_AVAILABLE = 0x8867
KEEP = 64           # frames of queries kept waiting to be taken; older ones are dropped


class _Calls:
    def __init__(self):
        lib = _library()
        self.ok = lib is not None
        if not self.ok:
            return
        u, i = ctypes.c_uint, ctypes.c_int

        def fn(name, *args):
            f = getattr(lib, name)
            f.argtypes, f.restype = list(args), None
            return f
        try:
            self.gen = fn("glGenQueries", i, ctypes.POINTER(u))
            self.delete = fn("glDeleteQueries", i, ctypes.POINTER(u))
            self.counter = fn("glQueryCounter", u, u)
            self.get_iv = fn("glGetQueryObjectiv", u, u, ctypes.POINTER(i))
            self.get_ui64 = fn("glGetQueryObjectui64v", u, u, ctypes.POINTER(ctypes.c_uint64))
        except AttributeError:
            self.ok = False


_calls: _Calls | None = None


def _gl() -> _Calls:
    global _calls
    if _calls is None:
        _calls = _Calls()
    return _calls


def available() -> bool:
    """Can timer queries be made here (the GL library and its entry points found)?"""
    return _gl().ok


class GpuTimers:
    """A ring of timestamp queries in pairs, grouped by frame (see the module's docstring)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.ok = _gl().ok
        self._free: list[int] = []
        self._frames: dict[int, list[tuple[object, int]]] = {}      # frame -> [(key, query)]

    @contextmanager
    def measure(self, key, frame: int):
        """Time the GPU work issued inside the block as `key` of `frame`."""
        if not self.ok:
            yield
            return
        gl = _gl()
        first, last = self._query(), self._query()
        gl.counter(first, GL_TIMESTAMP)
        try:
            yield
        finally:
            gl.counter(last, GL_TIMESTAMP)
            self._frames.setdefault(int(frame), []).append((key, (first, last)))
            for old in [f for f in self._frames if f < frame - KEEP]:
                self._recycle(self._frames.pop(old))      # nobody took them

    def done(self, frame: int) -> bool:
        """Are the results of every query of `frame` in (or was nothing measured)?"""
        gl, ready = _gl(), ctypes.c_int(0)
        for _, (_, last) in self._frames.get(int(frame), ()):
            gl.get_iv(last, GL_QUERY_RESULT_AVAILABLE, ctypes.byref(ready))     # the later of a pair
            if not ready.value:
                return False
        return True

    def take(self, frame: int, wait: bool = False) -> dict | None:
        """{key: milliseconds} of `frame` (empty: nothing measured), its queries freed; None
        while one is not done (with `wait`, it waits for them: the end of a run)."""
        frame = int(frame)
        if not wait and not self.done(frame):
            return None
        gl, start, end = _gl(), ctypes.c_uint64(0), ctypes.c_uint64(0)
        out: dict = {}
        entries = self._frames.pop(frame, [])
        for key, (first, last) in entries:
            gl.get_ui64(first, GL_QUERY_RESULT, ctypes.byref(start))
            gl.get_ui64(last, GL_QUERY_RESULT, ctypes.byref(end))
            out[key] = out.get(key, 0.0) + max(int(end.value) - int(start.value), 0) / 1e6
        self._recycle(entries)
        return out

    def clear(self) -> None:
        """Forget every frame measured (a restart: frames count from 0 again)."""
        for entries in self._frames.values():
            self._recycle(entries)
        self._frames.clear()

    def _query(self) -> int:
        if not self._free:
            names = (ctypes.c_uint * 16)()
            _gl().gen(16, names)
            self._free.extend(names)
        return self._free.pop()

    def _recycle(self, entries) -> None:
        self._free.extend(query for _, pair in entries for query in pair)

    def release(self) -> None:
        self.clear()
        if self.ok and self._free:
            names = (ctypes.c_uint * len(self._free))(*self._free)
            _gl().delete(len(self._free), names)
        self._free = []
