"""The frame: fixed steps with a carried remainder, integration accuracy against closed
forms (Euler first order, Verlet second order and correctly started), Gravity and
Accelerate with sphereFalloff, local space, and bit-identical determinism."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu import random as R
from kzplayer.project.model import Property
from kzplayer.values import Srt3D

from .conftest import burst_emitter, custom_material, make_project

G = np.array([0.0, -9.8, 0.0])


def _system(framerate: float, method: str, **extra) -> dict:
    return {"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method, **extra}


def _one_particle(direction=(1.0, 2.0, 0.0), speed=5.0) -> dict:
    return burst_emitter("Emitter_Point", 1, **{"Emission.InitialVelocityDirection": direction,
                                                "Emission.InitialVelocityOuterAngle": 0.0,
                                                "Emission.InitialVelocityStrength": speed})


def _ballistic_error(simulate, method: str, framerate: float, seconds: float = 1.0) -> tuple[float, float]:
    project = make_project(system=_system(framerate, method), emitters={"E": _one_particle()},
                           affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    sim = simulate(project)
    steps = round(seconds * framerate)
    for _ in range(steps):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    t = steps / framerate
    assert p["age"] == pytest.approx(t, rel=1e-5)
    v0 = 5.0 * np.array([1.0, 2.0, 0.0]) / math.sqrt(5.0)
    exact = v0 * t + 0.5 * G * t * t
    return float(np.linalg.norm(p["position"] - exact)), float(np.linalg.norm(p["velocity"] - (v0 + G * t)))


def test_euler_is_first_order_on_a_ballistic_flight(simulate):
    e60, _ = _ballistic_error(simulate, "Euler", 60.0)
    e120, _ = _ballistic_error(simulate, "Euler", 120.0)
    # Semi-implicit Euler under constant a is off by exactly |a| t h / 2.
    for err, h in ((e60, 1 / 60), (e120, 1 / 120)):
        bound = 9.8 * 1.0 * h / 2
        assert bound * 0.99 <= err <= bound * 1.01 + 1e-5
    assert e60 / e120 == pytest.approx(2.0, rel=0.02)


def test_verlet_is_exact_for_constant_acceleration(simulate):
    for rate in (30.0, 60.0):
        pos_err, vel_err = _ballistic_error(simulate, "Verlet", rate)
        assert pos_err < 2e-5 and vel_err < 2e-5      # float32 round-off only: the start is right


def _spring_error(simulate, tmp_path, method: str, framerate: float) -> float:
    # a = -k x with k = 4, w = 2, from x0 = 0.5 (a0 != 0: Euler's start then differs from
    # Verlet's) at v0 = 1: x(t) = 0.5 cos(w t) + (v0 / w) sin(w t)
    body = ("uniform float Spring_K;\n"
            "void affectParticle(uint index) {\n"
            "    addParticleAcceleration(index, -Spring_K * getParticlePosition(index));\n"
            "}\n")
    spring = custom_material(tmp_path, "Spring", "Affector", body, {"Spring.K": ("float", "4")})
    emitter = _one_particle(direction=(1.0, 0.0, 0.0), speed=1.0)
    emitter["Node3D.RenderTransformation"] = Srt3D((1, 1, 1), (0, 0, 0), (0.5, 0, 0))
    project = make_project(system=_system(framerate, method), emitters={"E": emitter},
                           affectors={"S": {"ParticleAffector.AffectorMaterial": "Spring"}},
                           materials=[spring], path=str(tmp_path / "p.kzm"))
    sim = simulate(project)
    steps = round(2.0 * framerate)
    for _ in range(steps):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    t = steps / framerate
    return abs(float(p["position"][0]) - (0.5 * math.cos(2.0 * t) + 0.5 * math.sin(2.0 * t)))


def test_verlet_is_second_order_and_euler_first_order_on_a_spring(simulate, tmp_path):
    euler = [_spring_error(simulate, tmp_path / f"e{r}", "Euler", r) for r in (10.0, 20.0)]
    verlet = [_spring_error(simulate, tmp_path / f"v{r}", "Verlet", r) for r in (10.0, 20.0)]
    # halving h halves Euler's error and quarters Verlet's (2 s, w h = 0.2 and 0.1)
    assert 1.8 < euler[0] / euler[1] < 2.2
    assert 3.6 < verlet[0] / verlet[1] < 4.4
    assert verlet[1] < euler[1] / 10


def test_fixed_steps_carry_the_remainder(simulate):
    sim = simulate(make_project(system=_system(60.0, "Euler"), emitters={"E": _one_particle()}))
    steps = [sim.step_frame(1.0 / 144.0) for _ in range(144)]
    assert sum(steps) == 60 and set(steps) == {0, 1}
    assert sim.systems[0].steps == 60
    assert sim.step_frame(0.5) == 30


def _accelerated(simulate, affector: dict, emitter: dict | None = None):
    props = {"ParticleAffector.AffectorMaterial": "Accelerate", **affector}
    project = make_project(emitters={"E": emitter or _one_particle(speed=0.0)}, affectors={"A": props})
    sim = simulate(project)
    sim.step()
    return sim.read_particles(sim.emitters[0])


def test_accelerate_direction_is_local_and_zero_means_local_y(simulate):
    [p] = _accelerated(simulate, {"Accelerate.Magnitude": -3.0, "Accelerate.Direction": (0.0, 0.0, 0.0)})
    np.testing.assert_allclose(p["acceleration"], (0, -3.0, 0), atol=1e-6)
    turned = {"Accelerate.Magnitude": 2.0, "Accelerate.Direction": (0.0, 5.0, 0.0),
              "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 90), (0, 0, 0))}
    [p] = _accelerated(simulate, turned)
    np.testing.assert_allclose(p["acceleration"], (-2.0, 0, 0), atol=1e-6)


def falloff(d, radius, e):
    """The Affectors page's curve, as documented in affector_falloff.glsl."""
    x = np.clip(1 - d / radius, 0, 1)
    return x ** (8.0 ** (-e))


@pytest.mark.parametrize("exponent", [0.0, -0.5, 0.6])
def test_accelerate_fades_across_its_radius(simulate, exponent):
    cloud = burst_emitter("Emitter_Box", 400, **{"Emission.Volume": True, "Emission.BoxExtents": (3.0, 3.0, 3.0),
                                                 "Emission.InitialVelocityStrength": 0.0})
    parts = _accelerated(simulate, {"Accelerate.Magnitude": 4.0, "Affector.Radius": 2.5,
                                    "Affector.FalloffExponent": exponent,
                                    "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0.5, 0, 0))}, cloud)
    d = np.linalg.norm(parts["previous_position"] - (0.5, 0, 0), axis=1)
    expected = 4.0 * falloff(d, 2.5, exponent)
    np.testing.assert_allclose(parts["acceleration"][:, 1], expected, atol=2e-5)
    assert np.all(parts["acceleration"][d >= 2.5, 1] == 0.0) and (d < 2.5).sum() > 50


def test_falloff_shape_follows_the_exponent():
    d = np.linspace(0, 1, 101)
    linear, soft, hard = falloff(d, 1, 0.0), falloff(d, 1, -1.0), falloff(d, 1, 0.99)
    assert linear[50] == pytest.approx(0.5) and soft[50] < 0.05 and hard[50] > 0.9
    assert all(np.all(np.diff(c) <= 0) for c in (linear, soft, hard))


def _dump(simulate, seed=None, emission_seed=0, steps=40):
    emitter = {"ParticleEmitter.EmissionMaterial": "Emitter_Sphere",
               "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
               "ParticleEmitter.MaximumAmount": 300, "Emission.Rate": 900.0, "Emission.RateVariance": 300.0,
               "Emission.Volume": True, "Emission.Lifetime": 0.4, "Emission.LifetimeVariance": 0.2,
               "Emission.InitialVelocityStrengthVariance": 0.5, "Emission.Seed": emission_seed}
    project = make_project(system=_system(60.0, "Verlet"), emitters={"A": emitter, "B": dict(emitter)},
                           affectors={"G": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    sim = simulate(project, seed=seed)
    for _ in range(steps):
        sim.step_frame(1 / 60)
    return sim.dump()


def test_same_seed_gives_bit_identical_dumps(simulate):
    a, b = _dump(simulate, seed=7), _dump(simulate, seed=7)
    assert a.keys() == b.keys() and len(a) == 12
    for key in a:
        assert a[key].tobytes() == b[key].tobytes(), key
    assert len(a["Screens/Screen/Scene/Particle System/A/position"]) > 100
    c = _dump(simulate, seed=8)
    assert a["Screens/Screen/Scene/Particle System/A/position"].tobytes() != \
        c["Screens/Screen/Scene/Particle System/A/position"].tobytes()
    # --seed overrides Emission.Seed: the same as writing the seed into the project
    d = _dump(simulate, emission_seed=7)
    assert all(a[k].tobytes() == d[k].tobytes() for k in a)
    # two emitters with one seed still differ: the emitter number is part of the hash
    assert a["Screens/Screen/Scene/Particle System/A/position"].tobytes() != \
        a["Screens/Screen/Scene/Particle System/B/position"].tobytes()


def test_particle_hash_and_draws_match_the_numpy_mirror(spawn):
    parts = spawn("Emitter_Point", 64, seed=1234, **{"Emission.Lifetime": 5.0, "Emission.LifetimeVariance": 2.0})
    n = np.arange(64, dtype=np.uint32)
    np.testing.assert_array_equal(parts["hash"], R.spawn_hash(1234, 0, 0, n))
    u = R.spawn_random(1234, 0, 0, n, 0)
    np.testing.assert_allclose(parts["lifetime"], 5.0 + 2.0 * (2.0 * u - 1.0), rtol=1e-6)


def _local_system(simulate, local: bool):
    system = _system(60.0, "Euler", **{"ParticleSystem.LocalSpace": local})
    project = make_project(system=system, emitters={"E": _one_particle(speed=0.0)},
                           affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    ps = project.root.children[0].children[0].children[0].children[0]
    ps.properties["Node3D.RenderTransformation"] = Property(
        "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 0, 90), (0, 10, 0)))
    return simulate(project), ps


@pytest.mark.parametrize("local", [False, True])
def test_gravity_pulls_world_down_in_either_space(simulate, local):
    sim, _ = _local_system(simulate, local)
    n = 30
    for _ in range(n):
        sim.step()
    h = 1 / 60
    [pos] = sim.dump()["Screens/Screen/Scene/Particle System/E/position"]
    np.testing.assert_allclose(pos, (0, 10 - 9.8 * h * h * n * (n + 1) / 2, 0), atol=1e-4)


def test_local_space_particles_follow_the_system(simulate):
    key = "Screens/Screen/Scene/Particle System/E/position"
    for local in (False, True):
        sim, ps = _local_system(simulate, local)
        sim.step()
        before = sim.dump()[key][0]
        sim.set_value(ps, "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 0, 90), (4, 10, 0)))
        after = sim.dump()[key][0]
        np.testing.assert_allclose(after - before, (4, 0, 0) if local else (0, 0, 0), atol=1e-5)


CANCEL = """// zero the accumulator: shows which affectors ran before this one
void affectParticle(uint index) { particles[index].acceleration = vec3(0.0); }
"""


@pytest.mark.parametrize("order, expected_y", [(("Gravity", "Cancel"), 0.0), (("Cancel", "Gravity"), -9.8)])
def test_affectors_run_in_tree_order(simulate, tmp_path, order, expected_y):
    cancel = custom_material(tmp_path, "Cancel", "Affector", CANCEL)
    affectors = {name: {"ParticleAffector.AffectorMaterial": name} for name in order}
    project = make_project(emitters={"E": _one_particle(speed=0.0)}, affectors=affectors,
                           materials=[cancel], path=str(tmp_path / "p.kzm"))
    sim = simulate(project)
    sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    assert p["acceleration"][1] == pytest.approx(expected_y)


def test_self_affect_is_scoped_to_its_emitter_and_affectors_reach_all(simulate):
    lifted = {**_one_particle(speed=0.0), "ParticleEmitter.SelfAffectMaterial": "Accelerate",
              "Accelerate.Magnitude": 2.0}
    project = make_project(emitters={"Lifted": lifted, "Plain": _one_particle(speed=0.0)},
                           affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    sim = simulate(project)
    sim.step()
    accel = {em.item.name: sim.read_particles(em)["acceleration"][0] for em in sim.emitters}
    np.testing.assert_allclose(accel["Lifted"], (0, 2.0 - 9.8, 0), atol=1e-6)
    np.testing.assert_allclose(accel["Plain"], (0, -9.8, 0), atol=1e-6)


def test_framerate_change_applies_from_then_on(simulate):
    sim = simulate(make_project(system=_system(60.0, "Euler"), emitters={"E": _one_particle()}))
    assert sim.step_frame(0.5) == 30
    sim.set_value(sim.systems[0].item, "ParticleSystem.Framerate", 20.0)
    assert sim.step_frame(0.5) == 10 and sim.systems[0].steps == 40


def test_a_loaded_project_with_a_bound_pool_size(simulate, tmp_path):
    import kzplayer
    (tmp_path / "fx.kzm").write_text("""<?xml version="1.0" encoding="utf-8"?>
<Project name="Fx" format="1">
  <Screens>
    <Screen name="Screen">
      <Scene name="Scene">
        <ParticleSystem name="Particle System">
          <ParticleEmitter name="Nozzle">
            <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
            <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
            <Property name="Emission.Rate">120</Property>
            <Property name="Emission.Lifetime">0.5</Property>
            <Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * {./Emission.Lifetime}</Binding>
          </ParticleEmitter>
          <ParticleAffector name="Gravity">
            <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
          </ParticleAffector>
        </ParticleSystem>
      </Scene>
    </Screen>
  </Screens>
</Project>
""")
    sim = simulate(kzplayer.load(str(tmp_path / "fx.kzm")))
    em = sim.emitters[0]
    assert em.capacity == 60
    for _ in range(40):
        sim.step_frame(1 / 60)
    # 2 born a step; a particle dies in the step its age reaches 0.5 s (its 30th), so 29
    # steps' worth are alive at the end of a frame
    assert sim.stats[em.path].alive == 2 * 29
    sim.set_value(em.item, "Emission.Rate", 240.0)
    assert em.capacity == 120                    # the binding re-ran; the pool followed
    for _ in range(40):
        sim.step_frame(1 / 60)
    assert sim.stats[em.path].alive == 4 * 29 and sim.stats[em.path].stalled == 0


def test_a_hidden_node_is_frozen_and_resumes_when_shown(simulate):
    """Catalog, Node.Visible: a hidden node and everything below it is not simulated."""
    moving = burst_emitter("Emitter_Point", 5, **{"Emission.InitialVelocityOuterAngle": 0.0})
    project = make_project(emitters={"Shown": moving, "Hidden": dict(moving)},
                           affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
    sim = simulate(project)
    shown, hidden = sim.emitters
    sim.step()
    assert len(sim.read_particles(shown)) == 5 and len(sim.read_particles(hidden)) == 5
    frozen = sim.read_particles(hidden)
    sim.set_value(hidden.item, "Node.Visible", False)
    for _ in range(3):
        sim.step()
    np.testing.assert_array_equal(sim.read_particles(hidden)["position"], frozen["position"])
    np.testing.assert_array_equal(sim.read_particles(hidden)["age"], frozen["age"])
    assert sim.read_particles(shown)["age"] == pytest.approx(4 / 60)
    sim.set_value(hidden.item, "Node.Visible", True)
    sim.step()
    assert sim.read_particles(hidden)["age"] == pytest.approx(2 / 60)

    system = shown.system
    sim.set_value(system.item, "Node.Visible", False)       # the whole system, clock included
    steps = system.steps
    sim.step_frame(0.5)
    assert system.steps == steps and sim.read_particles(shown)["age"] == pytest.approx(5 / 60)
    sim.set_value(system.item, "Node.Visible", True)
    sim.step_frame(1 / 60)
    assert system.steps == steps + 1


def test_steps_past_the_per_frame_budget_are_dropped_and_counted(ctx):
    from kzplayer.gpu import Simulation
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 5)})
    sim = Simulation(ctx, project)
    try:
        sim.max_steps = 3
        system = sim.systems[0]
        assert sim.step_frame(10 / system.framerate) == 3          # 10 due, 3 run
        assert sim.dropped_steps == {system.item.path: 7}
        assert system.steps == 10                                   # the clock moved on
        sim.step_frame(1 / system.framerate)
        assert sim.dropped_steps == {system.item.path: 7} and system.steps == 11
    finally:
        sim.release()
