"""A CPU reference of EmissionCount_Schedule, written from the Emission page's algorithm.

The runtime counts on the GPU (shaders/EmissionCount_Schedule.glsl); this reference exists
so tests can check the shader frame by frame. It follows the spec text:

    each frame: roll r = Rate +- RateVariance; cycleTimer = (cycleTimer + dt) mod (On + Off);
    if the timer wrapped, or on the first frame, fire ImpulseAtCycleStart +- ImpulseVariance;
    if in the on-phase (cycleTimer < On, or always when On = Off = 0) accumulate r * dt;
    emit the whole particles, carry the fraction.

with kzplayer's decisions (docs/player.md): the bands are uniform, negative draws count as
0, the impulse goes into the same accumulator (so a fractional impulse carries too), and a
step that spans several cycles fires one impulse. Random draws come from the seeded
counter-based hash: the rate roll of step n is unitDouble(hash2(Seed ^ "RATE", n)), the
impulse roll of cycle c is unitDouble(hash2(Seed ^ "IMPU", c)). Arithmetic is in double
precision from the float32 property values, as in the shader.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kzplayer.gpu.random import hash2, unit_double

STREAM_RATE = 0x52415445
STREAM_IMPULSE = 0x494D5055


@dataclass
class Schedule:
    rate: float = 10.0
    rate_variance: float = 0.0
    on_duration: float = 0.0
    off_duration: float = 0.0
    impulse: float = 0.0
    impulse_variance: float = 0.0
    seed: int = 0
    lod: float = 1.0            # the emission LOD factor (the rate's, not the impulse's)


def schedule_counts(s: Schedule, dt: float, steps: int) -> list[int]:
    """Particles requested on each of `steps` frames of length dt."""
    f32 = lambda x: float(np.float32(x))                      # the uniforms are float32
    dt = f32(dt)
    on = max(f32(s.on_duration), 0.0)
    period = on + max(f32(s.off_duration), 0.0)
    timer, carry, cycle, counts = 0.0, 0.0, 0, []
    for step in range(steps):
        fire = step == 0
        if period > 0.0:
            timer += dt
            if timer >= period:
                timer -= period                     # one wrap: a subtraction, as the shader
                if timer >= period:
                    timer = max(timer - period * math.floor(timer / period), 0.0)
                cycle += 1
                fire = True
        acc = carry
        if fire:
            u = unit_double(hash2(s.seed ^ STREAM_IMPULSE, cycle))
            acc += max(f32(s.impulse) + f32(s.impulse_variance) * (2.0 * u - 1.0), 0.0)
        if period <= 0.0 or timer < on:
            u = unit_double(hash2(s.seed ^ STREAM_RATE, step))
            acc += max(f32(s.rate) + f32(s.rate_variance) * (2.0 * u - 1.0), 0.0) * f32(s.lod) * dt
        whole = math.floor(acc)
        carry = acc - whole
        counts.append(int(whole))
    return counts
