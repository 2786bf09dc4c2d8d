"""Subemitters: the count from the source's events of the same step (ParticlesPerEvent x
events, clamped to free slots with the rest counted as stalled), spawns at the event
positions, the parent-inheritance formulas read back, Orient To Normal as the parent's
direction, Sparks_FromHit around the hit normal, dependency order, and a refused cycle."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu.events import read_events
from kzplayer.values import BufferHandle

from .conftest import burst_emitter, make_project
from .test_colliders import GRAVITY, at, with_colliders

SYSTEM = "Screens/Screen/Scene/Particle System"


def bound_to(source: str, **props) -> dict:
    """Consumer properties holding the source's buffer handles (what the two bindings of
    the events page deliver)."""
    return {"Emission.SourceEventBuffer": BufferHandle("EventBuffer", f"{SYSTEM}/{source}"),
            "Emission.SourceParticleDataBuffer": BufferHandle("ParticleDataBuffer", f"{SYSTEM}/{source}"),
            **props}


def subemitter(source: str, per_event=1, capacity=2000, count="EmissionCount_FromEvents",
               emission="Emitter_FromEvents", **props) -> dict:
    return bound_to(source, **{
        "ParticleEmitter.EmissionMaterial": emission, "ParticleEmitter.EmissionCountMaterial": count,
        "ParticleEmitter.MaximumAmount": capacity, "Emission.ParticlesPerEvent": per_event,
        "Emission.Lifetime": 10.0, **props})


def dying(n=40, lifetime=0.25, **props) -> dict:
    return burst_emitter("Emitter_Sphere", n, **{
        "Emission.Lifetime": lifetime, "Emission.InitialVelocityStrength": 2.0,
        "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime", **props})


def _run_until_events(sim, source, limit=60):
    for _ in range(limit):
        sim.step()
        if sim.stats[source.path].events_written:
            return
    raise AssertionError("the source wrote no events")


@pytest.mark.parametrize("count", ["EmissionCount_FromEvents", "EmissionCount_PerEvent"])
def test_each_death_spawns_particles_per_event_in_the_same_step_where_it_died(simulate, count):
    sim = simulate(make_project(emitters={"Source": dying(), "Sub": subemitter("Source", per_event=3, count=count)}))
    source, sub = sim.emitters
    _run_until_events(sim, source)
    s_src, s_sub = sim.stats[source.path], sim.stats[sub.path]
    assert s_src.died == s_src.events_written == 40
    assert s_sub.emitted == 3 * 40 and s_sub.alive == 120 and s_sub.stalled == 0
    _, events = read_events(source)
    children = sim.read_particles(sub)          # spawn order: spawn n belongs to event n // 3
    assert np.all(children["age"] == 0.0)
    np.testing.assert_array_equal(children["position"], np.repeat(events["position"], 3, axis=0))
    sim.step()                                  # no new events, no new children
    assert sim.stats[sub.path].emitted == 0


def test_a_full_pool_stalls_the_subemitter_and_counts_it(simulate):
    sim = simulate(make_project(emitters={"Source": dying(), "Sub": subemitter("Source", per_event=3, capacity=50)}))
    source, sub = sim.emitters
    _run_until_events(sim, source)
    s = sim.stats[sub.path]
    assert (s.emitted, s.stalled, s.alive) == (50, 70, 50)


def test_dependency_order_puts_the_source_first_whatever_the_tree_order(simulate):
    sim = simulate(make_project(emitters={"Sub": subemitter("Source"), "Source": dying()}))
    assert [em.item.name for em in sim.emitters] == ["Source", "Sub"]
    _run_until_events(sim, sim.emitters[0])
    assert sim.stats[sim.emitters[1].path].emitted == 40


def test_a_cycle_of_event_sources_is_refused(simulate):
    a = dying(**bound_to("B"))
    b = dying(**bound_to("A"))
    with pytest.raises(KzError) as err:
        simulate(make_project(emitters={"A": a, "B": b}))
    assert err.value.diagnostics[0].rule == "events.cycle"


def test_parent_inheritance_formulas(simulate):
    # Parents alive at the event (Event_AgeRange at 0.1 s): after the step the source's
    # Particle Data Buffer still holds exactly what the subemitter read.
    source = burst_emitter("Emitter_Sphere", 30, **{
        "Emission.Lifetime": 2.0, "Emission.LifetimeVariance": 1.0, "Emission.Scale": (1.5, 1.5, 1.5),
        "Emission.ScaleVariance": (1.0, 1.0, 1.0), "Emission.InitialVelocityStrength": 3.0,
        "Emission.InitialVelocityStrengthVariance": 2.0, "Emission.InitialRotationVariance": (1.0, 2.0, 3.0),
        "Emission.InitialAngularVelocity": (0.5, 0.0, -0.5), "Emission.InitialAngularVelocityVariance": (1.0, 1.0, 1.0),
        "ParticleEmitter.GenerateEventsMaterial": "Event_AgeRange", "Events.AgeMin": 0.1, "Events.AgeMax": 0.1})
    w = {"Emission.InitialVelocityStrengthFromParent": 0.5, "Emission.LifetimeFromParent": 2.0,
         "Emission.ScaleFromParent": 0.25, "Emission.InitialRotationFromParent": 1.0,
         "Emission.InitialAngularVelocityFromParent": -1.0}
    local = {"Emission.InitialVelocityStrength": 1.0, "Emission.InitialVelocityOrientToNormal": True,
             "Emission.InitialVelocityInnerAngle": 0.0, "Emission.InitialVelocityOuterAngle": 0.0,
             "Emission.Lifetime": 0.5, "Emission.Scale": (2.0, 3.0, 4.0), "Emission.InitialRotation": (0.1, 0.2, 0.3),
             "Emission.InitialAngularVelocity": (1.0, 2.0, 3.0), "Emission.Density": 2.0}
    sim = simulate(make_project(emitters={"Source": source, "Sub": subemitter("Source", **w, **local)}))
    src, sub = sim.emitters
    _run_until_events(sim, src)
    _, events = read_events(src)
    parents = {int(p["hash"]): p for p in sim.read_particles(src)}
    children = sim.read_particles(sub)
    assert len(children) == len(events) == 30
    for child, event in zip(children, events):
        parent = parents[int(event["hash"])]
        speed = float(np.linalg.norm(parent["velocity"]))
        # Speed: Final = Parent * w + Local, along the parent's direction (Orient To Normal).
        np.testing.assert_allclose(child["velocity"], parent["velocity"] / speed * (speed * 0.5 + 1.0), rtol=1e-5, atol=1e-6)
        assert child["lifetime"] == pytest.approx(parent["lifetime"] * 2.0 + 0.5, rel=1e-6)
        # Scale: multiplicative, Local x mix(1, ParentScale, w); mass follows it.
        scale = np.array([2.0, 3.0, 4.0]) * (1.0 + (parent["scale"] - 1.0) * 0.25)
        np.testing.assert_allclose(child["scale"], scale, rtol=1e-5)
        assert child["mass"] == pytest.approx(2.0 * np.prod(scale), rel=1e-5)
        np.testing.assert_allclose(child["rotation"], parent["rotation"] + [0.1, 0.2, 0.3], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(child["angular_velocity"], [1.0, 2.0, 3.0] - parent["angular_velocity"],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(child["position"], parent["position"])


def test_defaults_are_an_emitter_point_at_the_event(simulate):
    # Orient To Normal off: the Direction in the subemitter's own frame, no inheritance.
    sim = simulate(make_project(emitters={"Source": dying(), "Sub": subemitter("Source", **{
        "Emission.InitialVelocityOrientToNormal": False, "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": 2.0, "Emission.Lifetime": 3.0,
        "Node3D.RenderTransformation": at(5, 5, 5, rotation=(0, 90, 0))["Node3D.RenderTransformation"]})}))
    src, sub = sim.emitters
    _run_until_events(sim, src)
    children = sim.read_particles(sub)
    np.testing.assert_allclose(children["velocity"], np.tile([2.0, 0.0, 0.0], (40, 1)), atol=1e-5)  # +Z turned by 90 about Y
    assert np.all(children["lifetime"] == 3.0) and np.all(children["scale"] == 1.0)


def test_orient_to_normal_falls_back_to_local_z_for_a_parent_at_rest(simulate):
    source = burst_emitter("Emitter_Point", 5, **{"Emission.InitialVelocityStrength": 0.0,
                                                  "ParticleEmitter.GenerateEventsMaterial": "Event_AgeRange",
                                                  "Events.AgeMin": 0.0, "Events.AgeMax": 0.0})
    sim = simulate(make_project(emitters={"Source": source, "Sub": subemitter("Source", **{
        "Emission.InitialVelocityOrientToNormal": True, "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": 2.0})}))
    sim.step()
    np.testing.assert_allclose(sim.read_particles(sim.emitters[1])["velocity"], np.tile([0, 0, 2.0], (5, 1)), atol=1e-6)


@pytest.mark.parametrize("bias", [0.0, 0.5, 1.0])
def test_sparks_scatter_from_hit_points_around_the_normal(simulate, bias):
    source = burst_emitter("Emitter_Box", 100, **at(0, 0.5, 0), **{
        "Emission.BoxExtents": (2.0, 0.2, 2.0), "Emission.Volume": True, "Emission.InitialVelocityStrength": 0.0,
        "ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})
    sparks = subemitter("Source", per_event=4, emission="Emitter_Sparks_FromHit", **{
        "Emission.ScatterSpeed": 3.0, "Emission.NormalBias": bias, "Emission.Lifetime": 1.0,
        "Emission.ParticleScale": 0.5})
    project = with_colliders(make_project(system={"ParticleSystem.Framerate": 20.0},
                                          emitters={"Source": source, "Sparks": sparks}, affectors=GRAVITY),
                             {"Floor": {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.KillOnHit": True}})
    sim = simulate(project)
    src, sub = sim.emitters
    _run_until_events(sim, src)
    _, events = read_events(src)
    children = sim.read_particles(sub)
    assert len(children) == 4 * len(events) > 0
    # At the hit point, 0.1 mm off the surface on the free side.
    np.testing.assert_allclose(children["position"], np.repeat(events["position"] + [0, 1e-4, 0], 4, axis=0),
                               atol=1e-6)
    v = children["velocity"]
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 3.0, rtol=1e-5)
    cos = v[:, 1] / 3.0
    assert np.all(cos >= -1e-6)                 # never into the floor
    if bias == 1.0:
        np.testing.assert_allclose(cos, 1.0, atol=1e-6)
    elif bias == 0.0:
        assert cos.min() < 0.3 and cos.max() > 0.7       # the whole hemisphere
    np.testing.assert_allclose(children["scale"], 0.5)


def test_play_stats_report_the_sample_recipe_event_for_event(tmp_path):
    import csv
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "stats.csv"
    subprocess.run([sys.executable, str(root / "cli.py"), "play", str(root / "sample_projects/07_death_sparks.kzm"),
                    "--headless", "--seconds", "3", "--stats", str(out)], check=True, capture_output=True)
    rows = list(csv.DictReader(out.open()))
    source = [r for r in rows if r["emitter"].endswith("/Source")]
    sparks = {r["frame"]: r for r in rows if r["emitter"].endswith("/Subemitter")}
    assert sum(int(r["events_written"]) for r in source) == sum(int(r["died"]) for r in source) >= 8
    for r in source:            # 24 sparks per event, in the frame of the event
        assert int(sparks[r["frame"]]["emitted"]) + int(sparks[r["frame"]]["stalled"]) == 24 * int(r["events_written"])
        assert r["events_dropped"] == "0"


def test_the_same_events_make_the_same_children_in_the_same_order_and_slots(simulate):
    # Thousands of deaths in one step, across many workgroups. The writers' atomic appends
    # follow the GPU's scheduling; the ordering passes put the records in slot order, and a
    # child's numbers are keyed by its parent and its number: the records, the children, their
    # serials and their slots repeat exactly, so pools, dumps and draws do.
    def run():
        sim = simulate(make_project(emitters={"Source": dying(n=3000), "Sub": subemitter(
            "Source", per_event=2, capacity=6000, **{"Emission.InitialVelocityStrengthVariance": 1.0,
                                                      "Emission.LifetimeVariance": 1.0})}))
        _run_until_events(sim, sim.emitters[0])
        return sim, read_events(sim.emitters[0])[1], [em.buffers.read_records() for em in sim.emitters]
    sim, events_a, pools_a = run()
    _, events_b, pools_b = run()
    kids = sim.read_particles(sim.emitters[1])
    assert len(kids) == 6000 and len(np.unique(kids["hash"])) == 6000
    assert len(events_a) == 3000 and np.all(np.diff(events_a["particle"].astype(np.int64)) > 0)
    assert events_a.tobytes() == events_b.tobytes()
    for a, b in zip(pools_a, pools_b):
        assert a.tobytes() == b.tobytes()


def test_a_chain_of_subemitters_fires_down_in_one_step(simulate):
    # Source deaths -> Middle children (whose births are events) -> Leaf grandchildren.
    middle = subemitter("Source", per_event=2, **{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                                                   "Events.LifetimeMin": 0.0, "Events.LifetimeMax": 0.0})
    leaf = subemitter("Middle", per_event=3)
    sim = simulate(make_project(emitters={"Leaf": leaf, "Middle": middle, "Source": dying()}))
    assert [em.item.name for em in sim.emitters] == ["Source", "Middle", "Leaf"]
    _run_until_events(sim, sim.emitters[0])
    counts = [sim.stats[em.path].emitted for em in sim.emitters]
    assert counts == [0, 80, 240]
    _, births = read_events(sim.emitters[1])
    np.testing.assert_allclose(sim.read_particles(sim.emitters[2])["position"],
                               np.repeat(births["position"], 3, axis=0), atol=1e-6)
