"""Host event notifications (kzplayer.gpu.host_events): births, deaths and hits of an emitter
handed to Python callbacks after the frame, counted exactly like the stats, timed and placed
like the closed form, capped per frame with the drops counted, and never read back inside
a frame."""
from __future__ import annotations

import math

import moderngl
import numpy as np
import pytest

from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_item, make_project

FLOOR = {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": 0.5, "Collider.Friction": 0.2}


def with_floor(project):
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    ps.add_child(make_item("ParticleCollider", "Floor", FLOOR))
    return project


def fountain(**extra):
    """A steady fountain over a floor: births every step, bounces, deaths at 0.6-1.4 s."""
    return {"ParticleEmitter.EmissionMaterial": "Emitter_Point", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
            "ParticleEmitter.MaximumAmount": 2000, "Emission.Rate": 400.0, "Emission.Lifetime": 1.0,
            "Emission.LifetimeVariance": 0.4, "Emission.InitialVelocityStrength": 4.0,
            "Emission.InitialVelocityDirection": (0.0, 1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.6,
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, 0.3, 0)), **extra}


GRAVITY = {"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}}


def test_the_events_of_each_frame_are_the_births_deaths_and_hits_of_its_stats(simulate):
    sim = simulate(with_floor(make_project(emitters={"Fountain": fountain(), "Other": fountain()},
                                           affectors=GRAVITY)))
    em = sim.emitters[0]
    heard = []
    sim.listen(em.path, heard.append)                       # every kind, by path
    batches = []
    sim.listen(sim.emitters[1], batches.append, kinds=("death",), batch=True)
    figures = {}
    dts = [1 / 60, 1 / 30, 1 / 60, 0.05, 1 / 120, 1 / 120]   # frames of 1, 2, 1, 3, 0 or 1 steps
    for k in range(90):
        sim.step_frame(dts[k % len(dts)])
        figures.update(dict(sim.take_stats()))
    figures.update(dict(sim.take_stats(flush=True)))
    assert sorted(figures) == list(range(90))
    by_frame = {}
    for event in heard:
        assert event.emitter == em.path
        by_frame.setdefault(event.frame, []).append(event.kind)
    totals = {"birth": 0, "death": 0, "hit": 0}
    for frame, stats in figures.items():
        kinds = by_frame.get(frame, [])
        s = stats[em.path]
        assert (kinds.count("birth"), kinds.count("death"), kinds.count("hit")) == (s.emitted, s.died, s.hits), frame
        for kind in totals:
            totals[kind] += kinds.count(kind)
    assert totals["birth"] > 500 and totals["death"] > 200 and totals["hit"] > 200
    # the batch listener: one batch per frame, deaths only, of the other emitter
    assert [b.frame for b in batches] == list(range(90))
    assert [len(b) for b in batches] == [figures[f][sim.emitters[1].path].died for f in range(90)]
    assert all(set(b.kind) <= {"death"} for b in batches)
    # in time order within a frame
    times = [e.time for e in heard]
    frames = [e.frame for e in heard]
    assert frames == sorted(frames)
    for f in set(frames):
        t = [e.time for e in heard if e.frame == f]
        assert t == sorted(t)
    assert sim.host_events.dropped == 0
    assert max(times) <= sum(dts[k % len(dts)] for k in range(90)) + 1e-9


def test_a_drop_is_born_hits_and_dies_when_and_where_the_closed_form_says(simulate):
    # from 2 m at rest under gravity (Verlet: exact flight), 60 Hz: it hits the floor at
    # t = sqrt(2 * 2 / 9.8) in the middle of a step, at (0, 0, 0), falling at g t; it dies
    # at the end of the step where its 0.99 s lifetime runs out (age 60/60)
    drop = burst_emitter("Emitter_Point", 1, **{"Emission.Lifetime": 0.99, "Emission.InitialVelocityStrength": 0.0,
                                                "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, 2, 0))})
    project = with_floor(make_project(system={"ParticleSystem.IntegrationMethod": "Verlet"}, emitters={"Drop": drop},
                                      affectors=GRAVITY))
    sim = simulate(project)
    heard = []
    sim.listen(sim.emitters[0], heard.append)
    for _ in range(70):
        sim.step_frame(1 / 60)
    sim.take_stats(flush=True)
    birth, hit, death = (next(e for e in heard if e.kind == k) for k in ("birth", "hit", "death"))
    assert [e.kind for e in heard].count("hit") == 1
    assert birth.frame == 0 and birth.time == 0.0
    np.testing.assert_allclose(birth.position, [0, 2, 0], atol=1e-6)
    t = math.sqrt(4 / 9.8)
    # the sweep is along the step's chord: its time is the parabola's to O(h^2 g / v)
    assert hit.time == pytest.approx(t, abs=(1 / 60) ** 2 * 9.8 / (9.8 * t)) and hit.frame == math.floor(t * 60)
    np.testing.assert_allclose(hit.position, [0, 0, 0], atol=1e-5)
    np.testing.assert_allclose(hit.velocity, [0, -9.8 * t, 0], rtol=1e-4)
    np.testing.assert_allclose(hit.normal, [0, 1, 0], atol=1e-6)
    # the lifetime runs out at the end of the 60th step (age 59/60 < 0.99 <= 60/60)
    assert death.frame == 59 and death.time == pytest.approx(1.0)
    assert birth.particle == hit.particle == death.particle


def test_a_full_frame_keeps_the_cap_and_counts_the_drops(simulate):
    burst = burst_emitter("Emitter_Point", 300, **{"Emission.Lifetime": 0.0})     # 300 births and deaths at once
    sim = simulate(make_project(emitters={"Burst": burst}), seed=None)
    sim.events_cap = 50
    heard, batches = [], []
    sim.listen(sim.emitters[0], heard.append, kinds=("death",))
    sim.listen(sim.emitters[0], batches.append, kinds=("birth",), batch=True)
    sim.step_frame(1 / 60)
    sim.step_frame(1 / 60)
    sim.take_stats(flush=True)
    assert sim.stats[sim.emitters[0].path].died == 0        # the last frame's
    # 600 records asked for in the first frame, 50 kept: the births come first (emission)
    assert len(heard) + sum(len(b) for b in batches) == 50
    assert sim.host_events.dropped == 550 and sim.host_events.frame_dropped == {0: 550}
    assert batches[0].dropped == 550 and batches[1].dropped == 0


def test_listening_reads_nothing_back_inside_a_frame(simulate, monkeypatch):
    sim = simulate(with_floor(make_project(emitters={"Fountain": fountain()}, affectors=GRAVITY)))
    heard = []
    sim.listen(sim.emitters[0], heard.append)
    reads = []
    original = moderngl.Buffer.read

    def counted(self, *args, **kwargs):
        reads.append(self)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(moderngl.Buffer, "read", counted)
    for frame in range(20):
        reads.clear()
        sim.step_frame(1 / 60)
        assert reads == []
        before = len(heard)
        sim.take_stats()
        assert all(e.frame <= frame - 1 for e in heard[before:])     # a frame late or more
    monkeypatch.undo()
    sim.take_stats(flush=True)
    assert {e.frame for e in heard} == set(range(20))


def test_listening_changes_nothing_in_the_simulation(simulate):
    project = with_floor(make_project(emitters={"Fountain": fountain()}, affectors=GRAVITY))
    plain, heard_sim = simulate(project, seed=3), simulate(project, seed=3)
    heard_sim.listen(heard_sim.emitters[0], lambda e: None)
    for _ in range(30):
        plain.step_frame(1 / 60)
        heard_sim.step_frame(1 / 60)
    a, b = plain.read_particles(plain.emitters[0]), heard_sim.read_particles(heard_sim.emitters[0])
    assert a.tobytes() == b.tobytes()
    with pytest.raises(ValueError):
        heard_sim.listen(heard_sim.emitters[0], print, kinds=("spawn",))
    with pytest.raises(KeyError):
        heard_sim.listen("Screens/Nowhere", print)


@pytest.mark.parametrize("space", ["Inherit", "Local"])
def test_a_child_born_dead_in_a_space_of_its_own_dies_where_it_was_born(simulate, space):
    """A subemitter whose children have lifetime 0 (born dead at the end of the step) and
    ParticleEmitter.Space = Local in a turned, moved world-space system: each child's death
    is heard where its birth was, in the world (the host records are in the system's space)."""
    from kzplayer.values import EnumValue

    from .test_subemitters import dying, subemitter
    turned = Srt3D((1, 1, 1), (0, 0, 90), (4, 1, 0))
    project = make_project(system={"Node3D.RenderTransformation": turned}, emitters={
        "Source": dying(n=8, lifetime=0.05),
        "Sub": subemitter("Source", per_event=2, capacity=100, emission="Emitter_Point",
                          **{"Emission.Lifetime": 0.0, "Emission.EmissionBasis": "World",   # at its event
                             "ParticleEmitter.Space": EnumValue(space)})})
    sim = simulate(project)
    source, sub = sim.emitters
    heard, sources = [], []
    sim.listen(sub, heard.append)
    sim.listen(source, sources.append, kinds=("death",))
    for _ in range(8):
        sim.step_frame(1 / 60)
    sim.take_stats(flush=True)
    births = {e.particle: e for e in heard if e.kind == "birth"}
    deaths = [e for e in heard if e.kind == "death"]
    assert len(births) == len(deaths) == 16 and len(sources) == 8
    died_at = {tuple(np.round(e.position, 4)) for e in sources}
    for death in deaths:
        np.testing.assert_allclose(death.position, births[death.particle].position, atol=1e-5)
        assert tuple(np.round(death.position, 4)) in died_at            # at its parent's death, in the world
