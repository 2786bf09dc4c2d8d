"""EmissionCount_Schedule on the GPU against the CPU reference of the Emission page's
algorithm (kzplayer.gpu.schedule), frame by frame, and against counts worked out by hand
for each preset (steady, periodic, recurring burst, one-shot) and each legacy name."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu.schedule import Schedule, schedule_counts

from .conftest import make_project

DT = 1.0 / 60.0
STEPS = 240


def _emitter(props: dict, material: str = "EmissionCount_Schedule", capacity: int = 4000) -> dict:
    base = {"ParticleEmitter.EmissionMaterial": "Emitter_Point",
            "ParticleEmitter.EmissionCountMaterial": material,
            "ParticleEmitter.MaximumAmount": capacity,
            "Emission.Lifetime": 1000.0}
    base.update(props)
    return base


def gpu_counts(simulate, props: dict, steps: int = STEPS, material: str = "EmissionCount_Schedule",
               emitters: int = 1) -> list[list[int]]:
    project = make_project(emitters={f"E{i}": _emitter(props, material) for i in range(emitters)})
    sim = simulate(project)
    counts = [[] for _ in range(emitters)]
    for _ in range(steps):
        sim.step()
        for i, em in enumerate(sim.emitters):
            assert sim.stats[em.path].stalled == 0
            counts[i].append(sim.stats[em.path].emitted)
    return counts


def _props(s: Schedule) -> dict:
    return {"Emission.Rate": s.rate, "Emission.RateVariance": s.rate_variance,
            "Emission.OnDuration": s.on_duration, "Emission.OffDuration": s.off_duration,
            "Emission.ImpulseAtCycleStart": s.impulse, "Emission.ImpulseVariance": s.impulse_variance,
            "Emission.Seed": s.seed}


CASES = {
    "steady": Schedule(rate=500.0),
    "steady, rate variance": Schedule(rate=500.0, rate_variance=200.0, seed=7),
    "periodic": Schedule(rate=300.0, on_duration=0.5, off_duration=0.25),
    "periodic, variance, impulse": Schedule(rate=300.0, rate_variance=100.0, on_duration=0.3,
                                            off_duration=0.45, impulse=5, impulse_variance=3, seed=11),
    "recurring burst": Schedule(rate=0.0, impulse=25, off_duration=0.5),
    "recurring burst, variance": Schedule(rate=0.0, impulse=25, impulse_variance=10, off_duration=0.4, seed=3),
    "one-shot": Schedule(rate=0.0, impulse=40, off_duration=1e10),
    "one-shot, variance": Schedule(rate=0.0, impulse=40, impulse_variance=20, off_duration=1e10, seed=99),
    "slow fractional rate": Schedule(rate=7.3, seed=5),
}


@pytest.mark.parametrize("name", list(CASES))
def test_gpu_counts_equal_the_reference_frame_by_frame(simulate, name):
    s = CASES[name]
    [gpu] = gpu_counts(simulate, _props(s))
    assert gpu == schedule_counts(s, DT, STEPS)


def test_steady_stream_emits_rate_times_time():
    counts = schedule_counts(Schedule(rate=500.0), DT, STEPS)
    # 500/s for 4 s with the fraction carried: nothing lost, nothing invented.
    assert abs(sum(counts) - 2000) <= 1
    assert set(counts) <= {8, 9}


def test_periodic_stream_is_silent_in_the_off_phase():
    counts = schedule_counts(Schedule(rate=600.0, on_duration=0.5, off_duration=0.5), DT, STEPS)
    t_end = (np.arange(STEPS) + 1) * DT        # the timer after each step
    phase = np.mod(t_end, 1.0)
    on = phase < 0.5 - 1e-6
    off = phase > 0.5 + 1e-6
    assert all(c == 0 for c, o in zip(counts, off) if o)
    assert all(c == 10 for c, o in zip(counts, on) if o and c)     # 600/s * 1/60 s
    assert abs(sum(counts) - 600 * 4 * 0.5) <= 12                  # half the time on


def test_recurring_burst_fires_n_on_the_first_frame_and_every_period():
    counts = schedule_counts(Schedule(rate=0.0, impulse=25, off_duration=0.5), DT, STEPS)
    fired = [i for i, c in enumerate(counts) if c]
    assert fired[0] == 0 and all(counts[i] == 25 for i in fired)
    assert len(fired) == 1 + math.floor(STEPS * DT / 0.5 + 1e-9)    # 1 + 8 wraps in 4 s
    assert all(abs((b - a) - 30) <= 1 for a, b in zip(fired, fired[1:]))


def test_one_shot_fires_once():
    counts = schedule_counts(Schedule(rate=0.0, impulse=40, off_duration=1e10), DT, 2000)
    assert counts[0] == 40 and sum(counts) == 40


def test_variance_stays_in_its_band_and_averages_out():
    rate = schedule_counts(Schedule(rate=600.0, rate_variance=300.0, seed=1), DT, 3000)
    assert min(rate) >= math.floor(300 * DT) and max(rate) <= math.ceil(900 * DT) + 1
    assert np.mean(rate) == pytest.approx(10.0, rel=0.02)
    assert len(set(rate)) > 5                                       # it does vary
    bursts = [c for c in schedule_counts(Schedule(rate=0.0, impulse=20, impulse_variance=8,
                                                  off_duration=0.1, seed=2), DT, 3000) if c]
    assert min(bursts) >= 12 and max(bursts) <= 29
    assert np.mean(bursts) == pytest.approx(20.0, abs=0.6)


def test_seed_decides_the_sequence(simulate):
    a = schedule_counts(Schedule(rate=500.0, rate_variance=400.0, seed=1), DT, 120)
    b = schedule_counts(Schedule(rate=500.0, rate_variance=400.0, seed=2), DT, 120)
    assert a != b
    # The spec: two emitters with the same Seed produce identical sequences.
    e1, e2 = gpu_counts(simulate, _props(Schedule(rate=500.0, rate_variance=400.0, seed=1)), 120, emitters=2)
    assert e1 == e2 == a


@pytest.mark.parametrize("legacy, props, expected", [
    ("EmissionCount_PerSecond", {"Emission.Rate": 120.0, "Emission.OnDuration": 3.0, "Emission.OffDuration": 3.0},
     # the preset fills On/Off = 0 only where the node sets nothing: here the node sets them
     Schedule(rate=120.0, on_duration=3.0, off_duration=3.0)),
    ("EmissionCount_PerSecond", {"Emission.Rate": 120.0}, Schedule(rate=120.0)),
    ("EmissionCount_Periodic", {"Emission.Rate": 120.0}, Schedule(rate=120.0, on_duration=1.0, off_duration=1.0)),
    ("EmissionCount_Burst", {}, Schedule(rate=0.0, impulse=10, off_duration=1.0)),
])
def test_legacy_names_count_as_schedule_presets(simulate, legacy, props, expected):
    [gpu] = gpu_counts(simulate, props, material=legacy)
    assert gpu == schedule_counts(expected, DT, STEPS)
