"""Event generation (frame stage 7) counted against what the spec's predicates must give:
one death event per death whatever killed the particle, one birth event per birth,
floor(age / Interval) periodic events per particle, a swept speed band crossed once at a
coarse step, acceleration read after the affectors, a population-level probability (the
same particles every step, the fraction p), overflow dropped and counted without damage,
hits with their position and normal, and the --stats figures."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kzplayer.gpu import random as R
from kzplayer.gpu.events import read_events
from kzplayer.gpu import layout as L

from .conftest import burst_emitter, custom_material, make_project
from .test_colliders import GRAVITY, at, with_colliders

EVENT_STREAM = 0x45564E54     # "EVNT", the documented hash stream of Events.Probability


def stream(rate=300.0, lifetime=0.3, variance=0.2, n=400, **props) -> dict:
    return {
        "ParticleEmitter.EmissionMaterial": "Emitter_Point",
        "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": n,
        "Emission.Rate": rate, "Emission.Lifetime": lifetime, "Emission.LifetimeVariance": variance,
        **props,
    }


def _per_step(sim, steps):
    for _ in range(steps):
        sim.step()
        yield sim.stats[sim.emitters[0].path]


def test_lifetime_default_band_fires_once_per_death(simulate):
    sim = simulate(make_project(emitters={"E": stream(**{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime"})}))
    deaths = 0
    for s in _per_step(sim, 90):
        assert s.events_written == s.died
        deaths += s.died
    assert deaths > 200


def test_death_by_a_collider_is_a_death_too(simulate):
    emitter = stream(lifetime=5.0, variance=0.0, **at(0, 0.5, 0), **{
        "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime", "Emission.InitialVelocityStrength": 3.0})
    sim = simulate(with_colliders(make_project(emitters={"E": emitter}, affectors=GRAVITY),
                                  {"Sink": {"ParticleCollider.ColliderMaterial": "Collider_Plane",
                                            "Collider.KillOnHit": True}}))
    deaths = 0
    for s in _per_step(sim, 60):
        assert s.events_written == s.died
        deaths += s.died
    assert deaths > 50


def test_lifetime_zero_band_fires_once_per_birth(simulate):
    sim = simulate(make_project(emitters={"E": stream(**{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                                                          "Events.LifetimeMin": 0.0, "Events.LifetimeMax": 0.0})}))
    births = 0
    for s in _per_step(sim, 60):
        assert s.events_written == s.emitted
        births += s.emitted
    assert births > 200


def test_legacy_on_death_probabilistic_keeps_its_preset(simulate):
    sim = simulate(make_project(emitters={"E": stream(**{
        "ParticleEmitter.GenerateEventsMaterial": "GenerateEvent_OnDeath_Probabilistic"})}))
    fired = deaths = 0
    for s in _per_step(sim, 120):
        fired += s.events_written
        deaths += s.died
    assert deaths > 400
    assert stats.binomtest(fired, deaths, 0.5).pvalue > 1e-4       # the preset's Probability 0.5


def test_periodic_fires_floor_age_over_interval_times_per_particle(simulate):
    interval = 0.1
    emitter = stream(rate=40.0, lifetime=100.0, variance=0.0, **{
        "ParticleEmitter.GenerateEventsMaterial": "Event_Periodic", "Events.Interval": interval})
    sim = simulate(make_project(emitters={"E": emitter}))
    fired: dict[int, int] = {}
    for _ in range(75):
        sim.step()
        _, events = read_events(sim.emitters[0])
        assert np.all(events["kind"] == L.EVENT_INTERVAL)
        for h in events["hash"]:
            fired[int(h)] = fired.get(int(h), 0) + 1
    live = sim.read_particles(sim.emitters[0])
    expected = {int(p["hash"]): int(np.floor(p["age"] / np.float32(interval))) for p in live}
    assert sum(expected.values()) > 100
    assert {h: c for h, c in fired.items()} == {h: c for h, c in expected.items() if c}


def test_age_range_fires_once_at_that_age(simulate):
    sim = simulate(make_project(emitters={"E": stream(lifetime=10.0, variance=0.0, **{
        "ParticleEmitter.GenerateEventsMaterial": "Event_AgeRange", "Events.AgeMin": 0.25, "Events.AgeMax": 0.25})}))
    fired = []
    for _ in range(90):
        sim.step()
        _, events = read_events(sim.emitters[0])
        fired.extend(int(h) for h in events["hash"])
        assert np.all(np.abs(events["age"] - 0.25) <= 1 / 60 + 1e-6)
    assert len(fired) == len(set(fired)) > 100


@pytest.mark.parametrize("framerate,band", [(10.0, (4.0, 4.1)), (4.0, (4.0, 4.1))])
def test_a_speed_band_is_crossed_once_even_at_a_coarse_step(simulate, framerate, band):
    # Free fall from rest: speed 9.8 t passes the 0.1 m/s band inside one step (0.98 or
    # 2.45 m/s per step); the swept test still catches it, exactly once.
    emitter = burst_emitter("Emitter_Point", 1, **{"Emission.InitialVelocityStrength": 0.0,
                                                   "ParticleEmitter.GenerateEventsMaterial": "Event_VelocityRange",
                                                   "Events.VelocityMin": band[0], "Events.VelocityMax": band[1]})
    sim = simulate(make_project(system={"ParticleSystem.Framerate": framerate}, emitters={"E": emitter},
                                affectors=GRAVITY))
    fired = []
    for step in range(1, 20):
        sim.step()
        if sim.stats[sim.emitters[0].path].events_written:
            fired.append(step)
    assert fired == [int(np.ceil(band[0] / 9.8 * framerate))]


@pytest.mark.parametrize("low,high,fires", [(9.7, 9.9, True), (0.0, 9.8, True), (9.9, 50.0, False), (0.0, 9.7, False)])
def test_acceleration_range_reads_what_the_affectors_added(simulate, low, high, fires):
    emitter = burst_emitter("Emitter_Point", 30, **{"ParticleEmitter.GenerateEventsMaterial": "Event_AccelerationRange",
                                                    "Events.AccelerationMin": low, "Events.AccelerationMax": high})
    sim = simulate(make_project(emitters={"E": emitter}, affectors=GRAVITY))
    for s in _per_step(sim, 3):
        assert s.events_written == (30 if fires else 0)


def test_probability_is_a_fixed_fraction_of_the_population(simulate):
    n, p = 4000, 0.3
    emitter = burst_emitter("Emitter_Point", n, **{"ParticleEmitter.GenerateEventsMaterial": "Event_AgeRange",
                                                   "Events.AgeMin": 0.0, "Events.AgeMax": 100.0,
                                                   "Events.Probability": p})
    sim = simulate(make_project(emitters={"E": emitter}))
    chosen = None
    for _ in range(4):
        sim.step()
        _, events = read_events(sim.emitters[0])
        step_set = set(events["hash"].tolist())
        assert chosen is None or step_set == chosen          # the same particles, every step
        chosen = step_set
    hashes = sim.read_particles(sim.emitters[0])["hash"].astype(np.uint32)
    rolled = R.unit_float(R.hash2(hashes, np.uint32(EVENT_STREAM)))
    assert chosen == set(hashes[rolled < p].tolist())
    assert stats.binomtest(len(chosen), n, p).pvalue > 1e-4


def test_overflow_drops_and_counts_and_never_corrupts(simulate, tmp_path):
    triple = custom_material(tmp_path, "Triple", "GenerateEvents", """
void generateEvents(uint index) {
    for (uint k = 0u; k < 3u; ++k) {
        writeEvent(10u + k, index, getParticlePosition(index), vec3(0.0, 1.0, 0.0));
    }
}
""")
    emitter = burst_emitter("Emitter_Sphere", 16, **{"ParticleEmitter.GenerateEventsMaterial": "Triple"})
    sim = simulate(make_project(emitters={"E": emitter}, materials=[triple], path=str(tmp_path / "fx.kzm")))
    for _ in range(3):
        sim.step()
        s = sim.stats[sim.emitters[0].path]
        assert (s.events_written, s.events_dropped) == (16, 32)
        header, events = read_events(sim.emitters[0])
        assert (header["count"], header["capacity"], header["dropped"]) == (16, 16, 32)
        live = sim.read_particles(sim.emitters[0])
        by_hash = {int(p["hash"]): p for p in live}
        for e in events:            # every kept record whole: a real particle's own data
            assert 10 <= e["kind"] <= 12
            np.testing.assert_array_equal(e["position"], by_hash[int(e["hash"])]["position"])
    raw = np.frombuffer(sim.emitters[0].buffers.events.read(), np.uint8)      # records, then staging
    assert len(raw) == L.EVENT_HEADER_DTYPE.itemsize + 2 * 16 * L.EVENT_RECORD_DTYPE.itemsize


def test_records_are_in_slot_order_then_in_the_order_each_particle_wrote_them(simulate, tmp_path):
    """Writers append with atomics in whatever order the GPU ran them; the ordering passes
    move every record to (its writer's slot, its number among that slot's records), so the
    Event Buffer reads the same on any GPU. Half the particles write two records."""
    pair = custom_material(tmp_path, "Pair", "GenerateEvents", """
void generateEvents(uint index) {
    if ((getParticleHash(index) & 1u) == 0u) {
        writeEvent(21u, index, getParticlePosition(index), vec3(0.0, 1.0, 0.0));
        writeEvent(20u, index, getParticlePosition(index), vec3(0.0, 1.0, 0.0));
    }
}
""")
    emitter = burst_emitter("Emitter_Sphere", 300, **{"ParticleEmitter.GenerateEventsMaterial": "Pair"})
    sim = simulate(make_project(emitters={"E": emitter}, materials=[pair], path=str(tmp_path / "fx.kzm")))
    em = sim.emitters[0]
    for _ in range(2):
        sim.step()
        records = em.buffers.read_records()
        writers = np.flatnonzero((records["flags"] & L.FLAG_ALIVE != 0) & (records["hash"] & 1 == 0))
        header, events = read_events(em)
        assert header["dropped"] == 0 and len(events) == 2 * len(writers) > 100
        np.testing.assert_array_equal(events["particle"], np.repeat(writers, 2))
        np.testing.assert_array_equal(events["kind"], np.tile([21, 20], len(writers)))
        np.testing.assert_array_equal(events["hash"], records["hash"][np.repeat(writers, 2)])
        assert not events["_staged_slot"].any() and not events["_staged_rank"].any()


def test_on_hit_events_carry_the_hit_position_and_normal(simulate):
    emitter = burst_emitter("Emitter_Box", 200, **at(0, 1.0, 0), **{
        "Emission.BoxExtents": (2.0, 0.5, 2.0), "Emission.Volume": True, "Emission.InitialVelocityStrength": 0.0,
        "ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})
    sim = simulate(with_colliders(make_project(system={"ParticleSystem.Framerate": 20.0}, emitters={"E": emitter},
                                               affectors=GRAVITY),
                                  {"Floor": {"ParticleCollider.ColliderMaterial": "Collider_Plane",
                                             "Collider.Bounce": 0.0, "Collider.Friction": 1.0}}))
    total = 0
    for _ in range(16):
        before = {int(p["hash"]): p["position"].copy() for p in sim.read_particles(sim.emitters[0])}
        sim.step()
        live = sim.read_particles(sim.emitters[0])
        _, events = read_events(sim.emitters[0])
        assert len(events) == int(((live["flags"] & L.FLAG_HIT) != 0).sum())
        for e in events:
            assert e["kind"] == L.EVENT_COLLISION
            np.testing.assert_allclose(e["position"][1], 0.0, atol=1e-5)
            np.testing.assert_allclose(e["position"][[0, 2]], before[int(e["hash"])][[0, 2]], atol=1e-5)
            np.testing.assert_allclose(e["normal"], [0, 1, 0], atol=1e-6)
        total += len(events)
    assert total >= 200       # every particle landed (later steps: resting contacts hit again)


def test_stats_count_the_events_of_every_step_of_a_frame(simulate):
    sim = simulate(make_project(emitters={"E": stream(**{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime"})}))
    written = died = 0
    for _ in range(15):
        sim.step_frame(4 / 60)          # four steps a frame
        s = sim.stats[sim.emitters[0].path]
        assert s.events_written == s.died
        written += s.events_written
        died += s.died
    assert written == died > 200


def test_an_early_death_fires_a_death_band_but_not_a_band_it_cut_short(simulate):
    # Thrown down onto a sink at 0.1 of their 10 s lives: deaths fire [1, 1], not [0.5, 0.6].
    def fired(band):
        emitter = burst_emitter("Emitter_Point", 20, **at(0, 1, 0), **{
            "Emission.Lifetime": 10.0, "Emission.InitialVelocityDirection": (0, -1, 0),
            "Emission.InitialVelocityOuterAngle": 0.0, "Emission.InitialVelocityStrength": 1.0,
            "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
            "Events.LifetimeMin": band[0], "Events.LifetimeMax": band[1]})
        sim = simulate(with_colliders(make_project(emitters={"E": emitter}),
                                      {"Sink": {"ParticleCollider.ColliderMaterial": "Collider_Plane",
                                                "Collider.KillOnHit": True}}))
        events = died = 0
        for s in _per_step(sim, 70):
            events += s.events_written
            died += s.died
        assert died == 20
        return events
    assert fired((1.0, 1.0)) == 20
    assert fired((0.5, 0.6)) == 0


@pytest.mark.parametrize("legacy,figure", [
    ("GenerateEvent_OnDeath", lambda s: s.died),                   # Event_Lifetime, Min = Max = 1
    # Event_Lifetime over [0, 1] / Event_VelocityRange from 0, Max open: every particle alive
    # in stage 7, those the kill pass then takes included.
    ("GenerateEvent_IsInLifetimeRange", lambda s: s.alive + s.died),
    ("GenerateEvent_IsAboveVelocity", lambda s: s.alive + s.died),
])
def test_legacy_generators_load_as_their_replacements_with_presets(simulate, legacy, figure):
    sim = simulate(make_project(emitters={"E": stream(**{"ParticleEmitter.GenerateEventsMaterial": legacy,
                                                          "Emission.InitialVelocityStrength": 1.0})}))
    total = 0
    for s in _per_step(sim, 60):
        assert s.events_written == figure(s)
        total += s.events_written
    assert total > 100
