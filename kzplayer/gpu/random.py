"""NumPy mirror of shaders/Particles/random.glsl, bit for bit.

The GPU's randomness is a hash of counters (seed, emitter, step, spawn index), so the CPU
can reproduce any random number the shaders drew: the Schedule reference
(kzplayer.gpu.schedule) and the tests use this module; the runtime never does.
"""
from __future__ import annotations

import numpy as np

_U32 = np.uint32


def pcg_hash(v):
    """PCG-RXS-M-XS on uint32 (scalars or arrays), as pcgHash() in GLSL."""
    with np.errstate(over="ignore"):
        v = np.asarray(v, dtype=_U32)
        state = v * _U32(747796405) + _U32(2891336453)
        word = ((state >> ((state >> _U32(28)) + _U32(4))) ^ state) * _U32(277803737)
        return (word >> _U32(22)) ^ word


def hash2(a, b):
    return pcg_hash(np.asarray(b, dtype=_U32) ^ pcg_hash(a))


def hash4(a, b, c, d):
    return pcg_hash(np.asarray(d, dtype=_U32) ^ pcg_hash(
        np.asarray(c, dtype=_U32) ^ pcg_hash(np.asarray(b, dtype=_U32) ^ pcg_hash(a))))


def unit_float(h):
    """[0, 1) with 24 bits, exactly as unitFloat() (float32)."""
    return (np.asarray(h, dtype=_U32) >> _U32(8)).astype(np.float32) * np.float32(1.0 / 16777216.0)


def unit_double(h) -> float:
    """[0, 1) with 32 bits, exactly as unitDouble()."""
    return float(int(h)) / 4294967296.0


def spawn_hash(seed: int, emitter: int, step: int, n):
    """The hash of the n-th particle an emitter spawns in a step (getParticleHash())."""
    return hash4(_U32(seed), _U32(emitter), _U32(step), n)


def spawn_random(seed: int, emitter: int, step: int, n, k: int):
    """spawnRandom(k) of the n-th spawn of a step."""
    return unit_float(hash2(spawn_hash(seed, emitter, step, n), _U32(k)))
