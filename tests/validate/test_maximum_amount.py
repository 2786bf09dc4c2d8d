"""emitter.maximum-amount's expected peak against a frame-by-frame run of the Schedule
algorithm (kzplayer.gpu.schedule, written from the emission page): particles live exactly
Lifetime seconds, so the live count at a frame is what the last Lifetime seconds emitted."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu.schedule import Schedule, schedule_counts
from kzplayer.validate.rules.emitter_maximum_amount import expected_peak

DT = 1 / 600


def simulated_peak(rate, lifetime, impulse, on, off, seconds=20.0) -> int:
    counts = np.array(schedule_counts(Schedule(rate=rate, impulse=impulse, on_duration=on,
                                               off_duration=off), DT, int(seconds / DT)))
    window = int(round(lifetime / DT))
    live = np.convolve(counts, np.ones(window, dtype=int))[:len(counts)]
    return int(live.max())


@pytest.mark.parametrize("rate, lifetime, on, off", [
    (500, 2.0, 0, 0),          # steady stream: R x L
    (300, 2.0, 0.5, 3.0),      # periodic, on-time shorter than the lifetime: R x On
    (100, 3.5, 1.0, 1.0),      # periodic, lifetime spans cycles: R x (1 + 1)
    (120, 1.0, 2.0, 0.5),      # long on-phase: R x L
])
def test_stream_peak_matches_the_schedule(rate, lifetime, on, off):
    stream, _, bursts = expected_peak(rate, lifetime, 0, on, off)
    assert bursts == 0
    assert abs(stream - simulated_peak(rate, lifetime, 0, on, off)) <= rate * DT + 1


@pytest.mark.parametrize("impulse, lifetime, off, alive", [
    (400, 2.5, 1.0, 3),        # bursts every second living 2.5 s: three overlap
    (400, 0.5, 1.0, 1),        # no overlap: one burst's worth
    (50, 2.0, 1.0, 3),         # lifetime a whole number of periods: the oldest dies the frame the next fires
    (1000, 3.0, 1e10, 1),      # one-shot at spawn
])
def test_burst_peak_matches_the_schedule(impulse, lifetime, off, alive):
    stream, size, bursts = expected_peak(0, lifetime, impulse, 0, off)
    assert (stream, size, bursts) == (0, impulse, alive)
    simulated = simulated_peak(0, lifetime, impulse, 0, off, seconds=min(20.0, 4 * lifetime + 2))
    if lifetime % off:      # away from the borderline the count is exact
        assert simulated == impulse * alive
    else:                   # on it, frame timing decides; the rule counts the overlap
        assert impulse * (alive - 1) <= simulated <= impulse * alive


def test_stream_and_bursts_together_bound_the_peak_from_above():
    rate, lifetime, impulse, on, off = 200, 1.5, 100, 0.5, 0.5
    stream, size, bursts = expected_peak(rate, lifetime, impulse, on, off)
    simulated = simulated_peak(rate, lifetime, impulse, on, off)
    assert stream + size * bursts >= simulated
    assert stream + size * bursts <= simulated + rate * DT + size   # and not far above


def test_nothing_to_size():
    assert expected_peak(0, 2, 0, 0, 0) == (0, 0, 0)
    assert expected_peak(100, 2, 0, 0, 5) == (0, 0, 0)     # On = 0 with an off-phase never streams
    assert math.isinf(expected_peak(100, math.inf, 0, 0, 0)[0])
