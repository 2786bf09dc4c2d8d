"""The one way the benchmarks time things: the best of n runs (the least disturbed by other
processes on a shared machine). The benchmarks are scripts, run from the repository root as
`python benchmarks/bench_x.py`; Python puts this folder on the path, so they `import _timing`.
"""
from __future__ import annotations

import time


def best_of(n: int, fn):
    """(the shortest wall time of n calls of fn, in seconds; what the last call returned)."""
    best, result = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def best_cpu_of(n: int, fn):
    """(the shortest CPU time of n calls, the shortest wall time, what the last call returned).
    CPU time is what another process's load disturbs least; wall time is what a user waits."""
    cpu, wall, result = float("inf"), float("inf"), None
    for _ in range(n):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        cpu = min(cpu, time.process_time() - c)
        wall = min(wall, time.perf_counter() - w)
    return cpu, wall, result


def timed(fn):
    """(wall time, CPU time) of one call of fn, in seconds."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def interleaved(cases: dict, repeat: int) -> dict:
    """name -> (wall times, CPU times): every case called once as a warm-up, then the cases
    alternated (A B C A B C ...) `repeat` times, so the machine's load falls on all alike."""
    for fn in cases.values():
        fn()
    out = {name: ([], []) for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            w, c = timed(fn)
            out[name][0].append(w)
            out[name][1].append(c)
    return out
