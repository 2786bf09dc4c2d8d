"""ParticleEmitter.Space (NeL's "local basis" flag per located): Local keeps an emitter's
particles in its ParticleSystem's basis (they move and turn with the system node), World in
the world's, Inherit follows ParticleSystem.LocalSpace; the affectors, colliders, events and
subemitters see every emitter in the system's simulation space."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.values import BufferHandle, EnumValue, Srt3D

from .conftest import burst_emitter, make_item, make_project

STILL = {"Emission.InitialVelocityStrength": 0.0, "Emission.Lifetime": 100.0}


def at(x, y, z, rz=0.0):
    return Srt3D((1, 1, 1), (0, 0, rz), (x, y, z))


def positions(sim):
    dump = sim.dump()
    return {em.item.name: dump[f"{em.path}/position"] for em in sim.emitters}


@pytest.mark.parametrize("local_system", [False, True])
def test_local_particles_move_with_the_system_and_world_ones_stay(simulate, local_system):
    spaces = {"Inherit": "Local" if local_system else "World", "Local": "Local", "World": "World"}
    emitters = {name: burst_emitter("Emitter_Point", 1, **STILL, **{"ParticleEmitter.Space": EnumValue(name),
                                                                   "Node3D.RenderTransformation": at(1, 0, 0)})
                for name in spaces}
    project = make_project(system={"ParticleSystem.LocalSpace": local_system,
                                   "Node3D.RenderTransformation": at(0, 0, 0)}, emitters=emitters)
    sim = simulate(project)
    sim.step()
    before = positions(sim)
    for name in spaces:
        np.testing.assert_allclose(before[name], [[1, 0, 0]], atol=1e-6)
    system = next(i for i in project.walk() if i.type == "ParticleSystem")
    sim.set_value(system, "Node3D.RenderTransformation", at(5, 2, 0, rz=90))    # moved and turned
    sim.step()
    after = positions(sim)
    for name, space in spaces.items():
        want = [5, 3, 0] if space == "Local" else [1, 0, 0]     # (1, 0, 0) turned 90 about Z, then moved
        np.testing.assert_allclose(after[name], [want], atol=1e-5, err_msg=name)


def test_a_local_emitter_falls_world_down_and_hits_the_systems_floor(simulate):
    """A world-space system at (0, 2, 0) turned 90 degrees about Z, a Local emitter in it at
    its local (0, 1, 0), world (-1, 2, 0): gravity (a world direction) pulls its particles
    down the world, not along the system's turned -Y, and the system's floor collider (turned
    back to level, at world y = 0) catches them."""
    emitters = {"Local": burst_emitter("Emitter_Point", 20, **STILL, **{
        "ParticleEmitter.Space": EnumValue("Local"), "Node3D.RenderTransformation": at(0, 1, 0)})}
    project = make_project(system={"Node3D.RenderTransformation": at(0, 2, 0, rz=90)}, emitters=emitters,
                           affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    ps.add_child(make_item("ParticleCollider", "Floor", {
        "ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": 0.0, "Collider.Friction": 1.0,
        "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, -90), (-2, 0, 0))}))
    sim = simulate(project)
    sim.step()
    first = positions(sim)["Local"]
    np.testing.assert_allclose(first, np.tile([-1, 2 - 9.8 / 3600, 0], (20, 1)), atol=1e-5)
    hits = 0
    for _ in range(60):             # 4.9 m of fall: the floor stops them at y = 0
        sim.step()
        hits += sim.stats[sim.emitters[0].path].hits
    last = positions(sim)["Local"]
    np.testing.assert_allclose(last, np.tile([-1, 1e-4, 0], (20, 1)), atol=2e-4)
    assert hits >= 20


def test_subemitter_children_start_at_a_local_parents_world_position(simulate):
    parent = burst_emitter("Emitter_Point", 5, **{"Emission.Lifetime": 0.5, "Emission.InitialVelocityStrength": 2.0,
                                                 "ParticleEmitter.Space": EnumValue("Local"),
                                                 "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime"})
    child = {"ParticleEmitter.EmissionCountMaterial": "EmissionCount_FromEvents",
             "ParticleEmitter.EmissionMaterial": "Emitter_FromEvents", "ParticleEmitter.MaximumAmount": 100,
             "Emission.Lifetime": 10.0, "Emission.InitialVelocityStrength": 0.0}
    project = make_project(system={"Node3D.RenderTransformation": at(3, 0, 0, rz=30)},
                           emitters={"Shells": parent, "Sparks": child})
    shells = next(i for i in project.walk() if i.name == "Shells")
    sparks = next(i for i in project.walk() if i.name == "Sparks")
    from kzplayer.project.model import Property
    sparks.properties["Emission.SourceEventBuffer"] = Property("Emission.SourceEventBuffer",
                                                               BufferHandle("EventBuffer", shells.path))
    sim = simulate(project)
    for _ in range(29):
        sim.step()
    dying = positions(sim)["Shells"]
    sim.step()                      # the shells die at 0.5 s: the sparks start where they were
    kids = positions(sim)["Sparks"]
    assert len(kids) == 5
    # where the shells died: one more step of flight from where they were a step ago
    v = sim.read_particles(sim.emitters[0])
    assert len(v) == 0
    d = np.linalg.norm(kids[:, None] - dying[None], axis=2).min(axis=1)
    assert (d < 2.0 / 60 + 1e-4).all()


@pytest.mark.parametrize("change", ["Space", "LocalSpace"])
def test_changing_the_space_at_run_time_keeps_the_particles_and_their_trails_where_they_are(simulate, change):
    """ParticleEmitter.Space (or ParticleSystem.LocalSpace, for an Inherit emitter) set while
    particles fly, in a turned and moved system: no particle jumps; they keep their world
    position, velocity and trail, and from then on follow the new space (a World particle
    stays put when the system moves, a Local one moves with it)."""
    from kzplayer.values import MaterialRef
    emitter = burst_emitter("Emitter_Point", 1, **{"Emission.InitialVelocityStrength": 1.0, "Emission.Lifetime": 100.0,
                                                  "Emission.InitialVelocityDirection": (1.0, 0.0, 0.0),
                                                  "Emission.InitialVelocityOuterAngle": 0.0,
                                                  "ParticleEmitter.ParticleMaterial": MaterialRef("Particles_Ribbon"),
                                                  "Trail.Length": 4,
                                                  "ParticleEmitter.Space": EnumValue("Local" if change == "Space" else "Inherit")})
    project = make_project(system={"Node3D.RenderTransformation": at(4, 1, 0, rz=90),
                                   "ParticleSystem.LocalSpace": change == "LocalSpace"}, emitters={"E": emitter})
    system = next(i for i in project.walk() if i.type == "ParticleSystem")
    sim = simulate(project)
    em = sim.emitters[0]
    for _ in range(5):
        sim.step()

    def world():
        [p] = sim.read_particles(em)
        m = em.simulation_to_world
        ring = em.buffers.read_history()[int(np.flatnonzero(em.buffers.read_records()["flags"] & 1)[0])]["position"]
        return p["position"] @ m[:3, :3].T + m[:3, 3], p["velocity"] @ m[:3, :3].T, ring @ m[:3, :3].T + m[:3, 3]
    before = world()
    if change == "Space":
        sim.set_value(em.item, "ParticleEmitter.Space", EnumValue("World"))
    else:
        sim.set_value(system, "ParticleSystem.LocalSpace", False)
    after = world()
    for b, a in zip(before, after):
        np.testing.assert_allclose(a, b, atol=1e-5)
    np.testing.assert_allclose(before[1], [0.0, 1.0, 0.0], atol=1e-5)     # +X turned 90 about Z: world +Y
    sim.set_value(system, "Node3D.RenderTransformation", at(0, 0, 0))    # now World: the system's move leaves it
    np.testing.assert_allclose(world()[0], after[0], atol=1e-5)
