"""Emitters bound to particles (EmissionCount_PerParticle, the NeL design's "emitters can emit
other emitters"): a subemitter emits continuously from every live particle of its source,
RatePerParticle children a second per parent, with a fractional carry per parent that is a
function of the parent's age (floor(R age) children by age `age`), deterministic; the
children start on their parent's path where they were due; any emission material follows
the parent, in the subemitter's emission basis (NeL's world, system, or a basis from the
parent's velocity by Gram-Schmidt)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu import layout as L
from kzplayer.values import BufferHandle, EnumValue, Srt3D

from .conftest import burst_emitter, make_project

H = 1 / 60


def bound(parents: dict, children: dict, system=None, affectors=None, seed=None):
    """A project with a source emitter 'Shells' and a subemitter 'Trail' bound to it."""
    trail = {"ParticleEmitter.EmissionCountMaterial": "EmissionCount_PerParticle",
             "ParticleEmitter.EmissionMaterial": "Emitter_FromEvents",
             "ParticleEmitter.MaximumAmount": 20000, "Emission.Lifetime": 10.0,
             "Emission.InitialVelocityStrength": 0.0, **children}
    project = make_project(system=system, emitters={"Shells": parents, "Trail": trail}, affectors=affectors)
    shells = next(i for i in project.walk() if i.name == "Shells")
    item = next(i for i in project.walk() if i.name == "Trail")
    from kzplayer.project.model import Property
    item.properties["Emission.SourceEventBuffer"] = Property("Emission.SourceEventBuffer", BufferHandle("EventBuffer", shells.path))
    return project


def shells(n=10, lifetime=2.0, speed=5.0, **extra):
    return burst_emitter("Emitter_Point", n, **{"Emission.Lifetime": lifetime, "Emission.InitialVelocityStrength": speed,
                                              "Emission.InitialVelocityDirection": (0.0, 1.0, 0.0),
                                              "Emission.InitialVelocityOuterAngle": 0.8, **extra})


def run(sim, steps):
    emitted = []
    for _ in range(steps):
        sim.step()
        emitted.append(sim.stats[sim.emitters[1].path].emitted)
    return emitted


@pytest.mark.parametrize("rate", [7.5, 30.0, 2.4, 250.0])
def test_every_parent_emits_floor_rate_times_its_life(simulate, rate):
    """Over a parent's whole life of L seconds it emits floor(R L) children, whatever R h is
    (a fraction of a child a step, or several), and the count of each step is the sum over
    parents of floor(R a1) - floor(R a0)."""
    sim = simulate(bound(shells(10, lifetime=1.5), {"Emission.RatePerParticle": rate}))
    emitted = run(sim, 100)            # the shells die at step 90
    age = np.cumsum(np.full(100, np.float32(H), np.float32), dtype=np.float32)     # float32, as the GPU adds them
    lifetime = np.float32(1.5)
    a1 = np.minimum(age, lifetime)
    a0 = np.minimum(np.concatenate([np.zeros(1, np.float32), age[:-1]]), a1)
    r = np.float32(rate)
    per_step = np.floor(r * a1) - np.floor(r * a0)
    alive = np.concatenate([[True], age[:-1] < lifetime])        # a parent steps until the step it dies in
    assert emitted == (10 * per_step * alive).astype(int).tolist()
    assert sum(emitted) == 10 * math.floor(r * lifetime)


def test_children_start_on_their_parents_path_when_they_were_due(simulate):
    """A shell thrown up under gravity (its own SelfAffect Gravity: the children, at rest, do
    not fall), Verlet (exact flight): the child due at age t = n / R starts where the shell
    was then, within the step's chord sag g h^2 / 8 of the parabola (and 1e-5 s of the
    float32 age's drift from the steps' time, at 12 m/s)."""
    parent = shells(1, lifetime=3.0, speed=12.0, **{"Emission.InitialVelocityOuterAngle": 0.0,
                                                    "ParticleEmitter.SelfAffectMaterial": "Gravity"})
    sim = simulate(bound(parent, {"Emission.RatePerParticle": 37.0},
                         system={"ParticleSystem.IntegrationMethod": "Verlet"}))
    run(sim, 61)            # the shell's age passes 1 s: 37 children
    children = sim.read_particles(sim.emitters[1])
    assert len(children) == 37
    t = np.arange(1, 38) / 37.0
    want = np.stack([np.zeros(37), 12.0 * t - 4.9 * t * t, np.zeros(37)], axis=1)
    np.testing.assert_allclose(children["position"], want, atol=9.8 * H * H / 8 + 12.0 * 1e-5)
    # a step's children are spread along its path, not in a clump at its end
    assert len(np.unique(np.round(children["position"][:, 1], 4))) == 37


def test_determinism_and_a_variance_per_parent(simulate):
    children = {"Emission.RatePerParticle": 20.0, "Emission.RatePerParticleVariance": 15.0}
    a = simulate(bound(shells(200, lifetime=1.0), children), seed=5)
    b = simulate(bound(shells(200, lifetime=1.0), children), seed=5)
    run(a, 70)
    run(b, 70)
    ca, cb = a.read_particles(a.emitters[1]), b.read_particles(b.emitters[1])
    assert ca.tobytes() == cb.tobytes()
    # each parent emitted floor(r_p * 1 s), r_p uniform on [5, 35]: the mean is about 19.5 per parent
    total = len(ca)
    assert 200 * 17 < total < 200 * 22


def test_a_shape_emitter_follows_its_parent(simulate):
    # Emitter_Sphere of radius 0.5 bound to one still parent at (3, 2, 1): its children lie
    # on the sphere around the parent, not around the subemitter's node
    parent = burst_emitter("Emitter_Point", 1, **{"Emission.Lifetime": 2.0, "Emission.InitialVelocityStrength": 0.0,
                                                 "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (3, 2, 1))})
    sim = simulate(bound(parent, {"ParticleEmitter.EmissionMaterial": "Emitter_Sphere", "Emission.Radius": 0.5,
                                  "Emission.RatePerParticle": 120.0}))
    run(sim, 30)
    kids = sim.read_particles(sim.emitters[1])
    assert len(kids) == 60
    np.testing.assert_allclose(np.linalg.norm(kids["position"] - [3, 2, 1], axis=1), 0.5, atol=1e-5)


@pytest.mark.parametrize("basis", ["Emitter", "World", "System", "ParentVelocity"])
def test_the_emission_basis_turns_the_childrens_direction(simulate, basis):
    """Children fired along their basis's local +Z (a zero cone). The ParticleSystem is
    turned 90 degrees about X (its +Z is the world's -Y), the subemitter's node 90 degrees
    about Y within it; the parent flies along the system's +Z, world -Y. Emitter: the
    subemitter node's world axes; World: world +Z; System: the system node's +Z, world -Y;
    ParentVelocity: +Z along the parent's velocity, world -Y."""
    parent = burst_emitter("Emitter_Point", 1, **{"Emission.Lifetime": 2.0, "Emission.InitialVelocityStrength": 3.0,
                                                 "Emission.InitialVelocityDirection": (0.0, 0.0, 1.0),
                                                 "Emission.InitialVelocityOuterAngle": 0.0})
    system = {"Node3D.RenderTransformation": Srt3D((1, 1, 1), (90, 0, 0), (0, 0, 0))}     # local +Z -> world -Y
    children = {"Emission.RatePerParticle": 30.0, "Emission.InitialVelocityStrength": 1.0,
                "Emission.InitialVelocityDirection": (0.0, 0.0, 1.0), "Emission.InitialVelocityOuterAngle": 0.0,
                "Emission.InitialVelocityOrientToNormal": False, "Emission.EmissionBasis": EnumValue(basis),
                "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 90, 0), (0, 0, 0))}
    sim = simulate(bound(parent, children, system=system))
    run(sim, 20)
    kids = sim.read_particles(sim.emitters[1])
    assert len(kids) == 10
    d = kids["velocity"] / np.linalg.norm(kids["velocity"], axis=1, keepdims=True)
    from kzplayer.transforms import rotation_matrix
    expected = {"Emitter": rotation_matrix(90, 0, 0) @ rotation_matrix(0, 90, 0) @ [0, 0, 1],
                "World": [0, 0, 1], "System": [0, -1, 0], "ParentVelocity": [0, -1, 0]}
    np.testing.assert_allclose(d, np.tile(expected[basis], (10, 1)), atol=1e-5)


def test_parent_velocity_basis_keeps_up_up(simulate):
    # a parent flying along +X: Gram-Schmidt's +Y is the world's up, +X the velocity's side
    parent = burst_emitter("Emitter_Point", 1, **{"Emission.Lifetime": 2.0, "Emission.InitialVelocityStrength": 3.0,
                                                 "Emission.InitialVelocityDirection": (1.0, 0.0, 0.0),
                                                 "Emission.InitialVelocityOuterAngle": 0.0})
    children = {"Emission.RatePerParticle": 30.0, "Emission.InitialVelocityStrength": 1.0,
                "Emission.InitialVelocityDirection": (0.0, 1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.0,
                "Emission.InitialVelocityOrientToNormal": False, "Emission.EmissionBasis": EnumValue("ParentVelocity")}
    sim = simulate(bound(parent, children))
    run(sim, 20)
    kids = sim.read_particles(sim.emitters[1])
    np.testing.assert_allclose(kids["velocity"], np.tile([0, 1, 0], (len(kids), 1)), atol=1e-5)


def test_the_channel_is_no_emitter_of_the_project(simulate):
    """The channel a bound subemitter reads is internal: not among the emitters, the stats,
    a dump; a binding that changes the rate follows at once."""
    project = bound(shells(5), {"Emission.RatePerParticle": 12.0})
    sim = simulate(project)
    emitted = run(sim, 30)
    assert [em.item.name for em in sim.emitters] == ["Shells", "Trail"]
    assert set(sim.stats) == {em.path for em in sim.emitters}
    assert {k.rsplit("/", 1)[0] for k in sim.dump()} == {em.path for em in sim.emitters}
    assert sum(emitted) == 5 * 6                     # 12/s for 0.5 s
    trail = next(i for i in project.walk() if i.name == "Trail")
    sim.set_value(trail, "Emission.RatePerParticle", 120.0)
    age = np.cumsum(np.full(60, np.float32(H), np.float32), dtype=np.float32)
    r = np.float32(120.0)
    assert sum(run(sim, 30)) == 5 * int(np.floor(r * age[59]) - np.floor(r * age[29]))   # from the age it has


def test_the_memory_report_counts_the_channels_buffers_under_their_subemitter(simulate):
    """A bound subemitter's channel holds slots and an Event Buffer of its own: the report's
    figures add up to the system's buffers (nothing hidden), under the project's emitters."""
    sim = simulate(bound(shells(10), {"Emission.RatePerParticle": 30.0, "ParticleEmitter.MaximumAmount": 500}))
    sim.step()
    memory = sim.memory()
    storage = sim.runners[0].storage
    assert set(memory) == {em.path for em in sim.emitters}
    assert sum(m["particles"] for m in memory.values()) == storage.hot.size + storage.cold.size
    assert sum(m["slots"] for m in memory.values()) == storage.slots.size
    assert sum(m["tracks"] for m in memory.values()) == storage.tracks.size
    channel = sim.emitters[1].channel
    assert memory[sim.emitters[1].path]["events"] >= 2 * channel.capacity * L.EVENT_RECORD_DTYPE.itemsize


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_children_of_a_parent_that_bounces_in_a_step_start_on_the_free_side(simulate, method):
    """Parents fly at 40 m/s past a sphere collider and bounce off it within a step (the
    earliest-hit resolver); their children, due all along the step, start on the path the
    parent really took, which bends at the hit, not on the chord from its start to its end
    (which cuts through the sphere): none starts inside it."""
    from kzplayer.project.model import Property  # noqa: F401
    from .conftest import make_item
    from .test_earliest_hit import collider
    parent = burst_emitter("Emitter_Sphere", 200, **{
        "Emission.Lifetime": 0.5, "Emission.InitialVelocityStrength": 40.0, "Emission.Volume": True,
        "Emission.Radius": 0.8, "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (-3.0, 0, 0)),
        "Emission.InitialVelocityDirection": (1.0, 0.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.0})
    project = bound(parent, {"Emission.RatePerParticle": 600.0, "ParticleEmitter.MaximumAmount": 60000,
                             "Emission.Lifetime": 10.0}, system={"ParticleSystem.IntegrationMethod": method})
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    ps.add_child(make_item("ParticleCollider", "Ball", collider("Collider_Sphere", (0, 0, 0), **{"Collider.Radius": 1.0,
                                                                                                "Collider.Bounce": 1.0})))
    sim = simulate(project)
    hits = 0
    for _ in range(12):
        sim.step()
        hits += int(sim.stats[sim.emitters[0].path].hits)
    children = sim.read_particles(sim.emitters[1])["position"]
    assert hits > 50 and len(children) > 10000
    inside = np.linalg.norm(children, axis=1) < 1.0 - 1e-5
    assert not inside.any(), f"{inside.sum()} of {len(children)} children start inside the sphere"


@pytest.mark.parametrize("lod", [1.0, 0.5])
def test_children_past_the_per_step_bound_are_the_subemitters_stalled(simulate, lod):
    """At most 64 children a parent and step (BOUND_PER_STEP); the rest are counted where a
    user sees them, as the subemitter's `stalled`, and with the emission LOD at f only the
    share it would have kept: per parent and step, emitted + stalled = floor(f n1) - floor(f n0)
    of the children due (n = floor(R age)), emitted the kept ones among the first 64."""
    rate, parents = 6000.0, 3                           # 100 due a parent and step at 60 Hz
    sim = simulate(bound(shells(parents, lifetime=1.0), {"Emission.RatePerParticle": rate}))
    sim.set_emission_lod({sim.emitters[1].path: lod})
    f = np.float32(lod)
    age = np.float32(0.0)
    for _ in range(5):
        sim.step()
        a0, age = age, np.float32(age + np.float32(H))
        n0, n1 = np.floor(np.float32(rate) * a0), np.floor(np.float32(rate) * age)
        kept = lambda n: np.floor(f * np.float32(n))
        first = [n0 + 1 + j for j in range(int(min(n1 - n0, 64)))]
        emitted = sum(1 for n in first if kept(n) > kept(n - 1))
        figures = sim.stats[sim.emitters[1].path]
        assert figures.emitted == parents * emitted
        assert figures.stalled == parents * (int(kept(n1) - kept(n0)) - emitted) > 0
