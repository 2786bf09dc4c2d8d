"""The stock affectors beyond Gravity and Accelerate, against closed forms and statistics:
Drag's exponential decay (mass-aware, stable when stiff), Wind's time constant, height ramp,
gusts and turbulence, VelocityClamp (exact cap, radius gate, tree order, both integrators),
PointAttractor and Directional with falloff and the node transform, Buoyancy's decay,
TimeDilation, KillZone's kill probability, and CurlNoise's divergence-free field."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from kzplayer.values import Srt3D

from .conftest import burst_emitter, custom_material, make_project

H = 1 / 60


def falloff(d, radius, e):
    """The Affectors page's curve (docs/player.md), independent of the shader."""
    x = np.clip(1 - np.asarray(d) / radius, 0, 1)
    return np.where(x > 0, x, 0.0) ** (8.0 ** (-e)) if e < 1 else (x > 0).astype(float)


def smoothstep(a, b, x):
    t = np.clip((np.asarray(x) - a) / (b - a), 0, 1)
    return t * t * (3 - 2 * t)


def at(x=0.0, y=0.0, z=0.0, rotation=(0.0, 0.0, 0.0)) -> dict:
    return {"Node3D.RenderTransformation": Srt3D((1, 1, 1), rotation, (x, y, z))}


def moving(n=1, direction=(1.0, 0.0, 0.0), speed=0.0, **props) -> dict:
    """n particles at the emitter's origin, all with one velocity."""
    return burst_emitter("Emitter_Point", n, **{"Emission.InitialVelocityDirection": direction,
                                                "Emission.InitialVelocityOuterAngle": 0.0,
                                                "Emission.InitialVelocityStrength": speed, **props})


def cloud(n=600, extents=(3.0, 3.0, 3.0), speed=0.0, direction=(1.0, 0.0, 0.0), **props) -> dict:
    """n particles uniform in a box, all with one velocity."""
    return moving(n, direction, speed, **{"ParticleEmitter.EmissionMaterial": "Emitter_Box",
                                          "Emission.Volume": True, "Emission.BoxExtents": extents, **props})


def affector(material: str, **props) -> dict:
    return {"ParticleAffector.AffectorMaterial": material, **props}


def run(simulate, emitter: dict, affectors: dict, steps=1, method="Euler", seed=None, framerate=60.0):
    system = {"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method}
    sim = simulate(make_project(system=system, emitters={"E": emitter}, affectors=affectors), seed=seed)
    for _ in range(steps):
        sim.step()
    return sim, sim.read_particles(sim.emitters[0])


def speeds(parts) -> np.ndarray:
    return np.linalg.norm(parts["velocity"], axis=1)


# -- Drag --------------------------------------------------------------------------------

@pytest.mark.parametrize("method, tol", [("Euler", 2e-5), ("Verlet", 1e-3)])
def test_drag_decays_velocity_exponentially_and_heavier_slows_less(simulate, method, tol):
    k, v0, steps = 0.9, 4.0, 90
    t = steps * H
    found = {}
    for density in (1.0, 3.0):          # unit scale: mass = density
        _, [p] = run(simulate, moving(speed=v0, **{"Emission.Density": density}),
                     {"D": affector("Drag", **{"Drag.DragCoefficient": k})}, steps, method)
        m = density
        assert p["mass"] == pytest.approx(m)
        assert p["velocity"][0] == pytest.approx(v0 * math.exp(-k * t / m), rel=tol)
        assert abs(p["velocity"][1]) < 1e-6 and abs(p["velocity"][2]) < 1e-6
        # distance: the integral v0 m / k (1 - exp(-k t / m)), within a first-order step error
        assert p["position"][0] == pytest.approx(v0 * m / k * (1 - math.exp(-k * t / m)), abs=v0 * H)
        found[m] = p["velocity"][0]
    assert found[3.0] > found[1.0]


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_stiff_drag_on_a_light_particle_relaxes_instead_of_exploding(simulate, method):
    # mass 0.001 and k = 1 at 60 Hz: k h / m = 17 (explicit Euler of the raw force diverges past 2)
    _, [p] = run(simulate, moving(speed=5.0, **{"Emission.Density": 0.001}),
                 {"D": affector("Drag", **{"Drag.DragCoefficient": 1.0})}, 20, method)
    assert np.all(np.isfinite(p["position"])) and np.linalg.norm(p["velocity"]) < 1e-6
    assert 0.0 <= p["position"][0] <= 5.0 * H        # stopped within its first step, never backwards


@pytest.mark.parametrize("exponent", [0.0, -0.6])
def test_drag_fades_across_its_radius(simulate, exponent):
    k, v0 = 6.0, 2.0
    _, parts = run(simulate, cloud(speed=v0), {"D": affector("Drag", **{"Drag.DragCoefficient": k,
                                                                          "Affector.Radius": 2.0,
                                                                          "Affector.FalloffExponent": exponent},
                                                                 **at(0.5, 0, 0))})
    d = np.linalg.norm(parts["previous_position"] - (0.5, 0, 0), axis=1)
    np.testing.assert_allclose(parts["velocity"][:, 0], v0 * np.exp(-k * falloff(d, 2.0, exponent) * H), rtol=1e-5)
    assert np.all(parts["velocity"][d >= 2.0, 0] == v0) and (d < 1.5).sum() > 20


# -- Wind --------------------------------------------------------------------------------

def test_wind_drives_velocity_to_the_wind_with_time_constant_m_over_drag(simulate):
    # 36 km/h = 10 m/s along local +Z, turned by a 90 degree yaw onto world +X
    wind = affector("Wind", **{"Wind.WindSpeed": 36.0, "Wind.DragFactor": 2.0}, **at(rotation=(0, 90, 0)))
    steps = 45
    t = steps * H
    for m in (1.0, 4.0):
        _, [p] = run(simulate, moving(**{"Emission.Density": m}), {"W": wind}, steps)
        expected = 10.0 * (1 - math.exp(-2.0 * t / m))
        np.testing.assert_allclose(p["velocity"], (expected, 0, 0), rtol=2e-5, atol=1e-5)


def test_wind_respects_the_height_ramp(simulate):
    # heights -0.5 .. 4.5 (the node at y = 0.5 lifts GroundLevel 1 / FullWindHeight 3 by 0.5)
    column = cloud(800, extents=(0.5, 2.5, 0.5), **at(y=2.0))
    wind = affector("Wind", **{"Wind.WindSpeed": 18.0, "Wind.DragFactor": 6.0, "Wind.GroundLevel": 1.0,
                               "Wind.FullWindHeight": 3.0}, **at(y=0.5))
    _, parts = run(simulate, column, {"W": wind}, 180)         # 3 s = 18 time constants
    y = parts["position"][:, 1]
    np.testing.assert_allclose(parts["velocity"][:, 2], 5.0 * smoothstep(1.5, 3.5, y), atol=1e-4)
    assert (y < 1.5).sum() > 50 and (y > 3.5).sum() > 50


def test_wind_gusts_vary_the_speed_within_their_amplitude(simulate):
    wind = affector("Wind", **{"Wind.WindSpeed": 36.0, "Wind.DragFactor": 200.0, "Wind.GustAmplitude": 0.5,
                               "Wind.GustFrequency": 2.0})
    sim, _ = run(simulate, moving(), {"W": wind}, 0)
    seen = []
    for _ in range(240):
        sim.step()
        seen.append(sim.read_particles(sim.emitters[0])["velocity"][0, 2])
    seen = np.array(seen[10:])               # after the first few time constants
    assert 5.0 - 1e-3 <= seen.min() < 9.0 and 11.0 < seen.max() <= 15.0 + 1e-3
    steady = run(simulate, moving(), {"W": affector("Wind", **{"Wind.WindSpeed": 36.0,
                                                               "Wind.DragFactor": 200.0})}, 60)[1]
    assert steady["velocity"][0, 2] == pytest.approx(10.0, rel=1e-5)


def test_wind_turbulence_is_a_velocity_of_the_given_rms(simulate):
    wind = affector("Wind", **{"Wind.WindSpeed": 0.0, "Wind.DragFactor": 500.0, "Wind.TurbulenceStrength": 2.0,
                               "Wind.TurbulenceFrequency": 0.5})
    _, parts = run(simulate, cloud(3000, extents=(20.0, 20.0, 20.0)), {"W": wind}, 3)
    rms = math.sqrt(np.mean(np.sum(parts["velocity"] ** 2, axis=1)))
    assert rms == pytest.approx(2.0, rel=0.2)


# -- VelocityClamp ------------------------------------------------------------------------

PUSH = affector("Accelerate", **{"Accelerate.Magnitude": 30.0})
CLAMP = affector("VelocityClamp", **{"VelocityClamp.MaxSpeed": 5.0})


# Verlet's velocity is a difference of float32 positions: round-off ~ eps |x| / |dx|
@pytest.mark.parametrize("method, tol", [("Euler", 1e-6), ("Verlet", 2e-5)])
def test_velocity_clamp_after_the_push_caps_speed_exactly(simulate, method, tol):
    sim, _ = run(simulate, moving(speed=1.0), {"Push": PUSH, "Clamp": CLAMP}, 0, method)
    track = []
    for _ in range(30):
        sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        assert np.linalg.norm(p["velocity"]) <= 5.0 * (1 + tol)
        track.append(p["position"].copy())
    assert np.linalg.norm(p["velocity"]) == pytest.approx(5.0, rel=tol)
    # the motion, not only the reported velocity, runs at the cap: 5 h per step at the end
    assert np.linalg.norm(track[-1] - track[-2]) == pytest.approx(5.0 * H, rel=1e-4)


def test_velocity_clamp_before_the_push_does_not_cap_it(simulate):
    # above the push it caps only the velocity the step starts from: the step's push adds a h
    _, [p] = run(simulate, moving(speed=0.0), {"Clamp": CLAMP, "Push": PUSH}, 30)
    assert p["velocity"][1] == pytest.approx(5.0 + 30.0 * H, rel=1e-6)
    _, [q] = run(simulate, moving(speed=0.0), {"Push": PUSH}, 30)
    assert q["velocity"][1] == pytest.approx(30.0 * 30 * H, rel=1e-5)


def test_velocity_clamp_radius_is_an_in_out_gate(simulate):
    clamp = affector("VelocityClamp", **{"VelocityClamp.MaxSpeed": 3.0, "Affector.Radius": 2.0,
                                         "Affector.FalloffExponent": -1.0}, **at(0.5, 0, 0))
    _, parts = run(simulate, cloud(speed=8.0, direction=(1.0, 1.0, 0.0)), {"C": clamp})
    d = np.linalg.norm(parts["previous_position"] - (0.5, 0, 0), axis=1)
    inside = d < 2.0
    np.testing.assert_allclose(speeds(parts)[inside], 3.0, rtol=1e-6)      # no falloff: the exponent is ignored
    np.testing.assert_allclose(speeds(parts)[~inside], 8.0, rtol=1e-6)
    assert inside.sum() > 50 and (~inside).sum() > 50


# -- PointAttractor, Directional, Buoyancy ---------------------------------------------------

@pytest.mark.parametrize("radius, exponent", [(0.0, 0.0), (2.5, 0.0), (2.5, -0.4)])
def test_point_attractor_pulls_toward_the_node_origin_with_falloff(simulate, radius, exponent):
    centre = np.array([1.0, -0.5, 0.0])
    pull = affector("PointAttractor", **{"PointAttractor.Strength": 3.0, "Affector.Radius": radius,
                                         "Affector.FalloffExponent": exponent}, **at(*centre))
    _, parts = run(simulate, cloud(), {"P": pull})
    offset = centre - parts["previous_position"]
    d = np.linalg.norm(offset, axis=1)
    strength = 1.0 if radius == 0 else falloff(d, radius, exponent)
    expected = 3.0 * strength[..., None] * offset / d[:, None] if radius else 3.0 * offset / d[:, None]
    np.testing.assert_allclose(parts["acceleration"], expected, atol=2e-5)


def test_directional_pushes_along_the_rotated_local_z_with_falloff(simulate):
    # a 90 degree yaw turns local +Z onto world +X
    push = affector("Directional", **{"Directional.DirectionalStrength": 2.5, "Affector.Radius": 2.0},
                    **at(0, 0.5, 0, rotation=(0, 90, 0)))
    _, parts = run(simulate, cloud(), {"D": push})
    d = np.linalg.norm(parts["previous_position"] - (0, 0.5, 0), axis=1)
    expected = np.zeros_like(parts["acceleration"])
    expected[:, 0] = 2.5 * falloff(d, 2.0, 0.0)
    np.testing.assert_allclose(parts["acceleration"], expected, atol=2e-5)


def test_buoyancy_lifts_and_decays_with_height(simulate):
    lift = affector("Buoyancy", **{"Buoyancy.MaxBuoyancy": 4.0, "Buoyancy.BuoyancyFalloff": 0.3}, **at(y=1.0))
    _, parts = run(simulate, cloud(extents=(1.0, 5.0, 1.0), **at(y=4.0)), {"B": lift})
    height = parts["previous_position"][:, 1] - 1.0
    expected = 4.0 * np.exp(-0.3 * np.maximum(height, 0.0))
    np.testing.assert_allclose(parts["acceleration"][:, 1], expected, rtol=1e-5)
    assert np.all(parts["acceleration"][:, [0, 2]] == 0) and parts["velocity"][:, 1].min() > 0


def test_buoyancy_turbulence_stirs_in_proportion_to_the_lift(simulate):
    lift = affector("Buoyancy", **{"Buoyancy.MaxBuoyancy": 2.0, "Buoyancy.BuoyancyFalloff": 0.2,
                                   "Buoyancy.TurbulenceStrength": 1.5, "Buoyancy.TurbulenceFrequency": 1.0})
    _, parts = run(simulate, cloud(4000, extents=(8.0, 8.0, 8.0), **at(y=8.0)), {"B": lift})
    scale = np.exp(-0.2 * np.maximum(parts["previous_position"][:, 1], 0.0))
    stir = parts["acceleration"] / scale[:, None] - (0.0, 2.0, 0.0)
    assert math.sqrt(np.mean(np.sum(stir ** 2, axis=1))) == pytest.approx(1.5, rel=0.2)
    assert abs(np.mean(stir[:, 1])) < 0.15           # turbulence does not add net lift


# -- TimeDilation --------------------------------------------------------------------------

def test_time_dilation_zero_freezes_the_centre_and_leaves_the_outside_alone(simulate):
    freeze = affector("TimeDilation", **{"TimeDilation.DilationFactor": 0.0, "Affector.Radius": 1.0,
                                         "Affector.FalloffExponent": 1.0})
    project = make_project(emitters={"Centre": moving(speed=0.3), "Outside": moving(speed=0.3, **at(3.0, 0, 0))},
                           affectors={"T": freeze, "G": affector("Gravity")})
    sim = simulate(project)
    for _ in range(12):
        sim.step()
    centre, outside = (sim.read_particles(em)[0] for em in sim.emitters)
    assert centre["age"] == 0.0 and np.all(centre["position"] == 0.0)
    assert outside["age"] == pytest.approx(12 * H)
    assert outside["position"][0] == pytest.approx(3.0 + 0.3 * 12 * H, rel=1e-5)


@pytest.mark.parametrize("factor", [0.25, 2.0])
def test_time_dilation_scales_the_step_by_the_falloff(simulate, factor):
    n = 10
    # at rest: each particle's scale mix(1, factor, falloff(d)) holds for all n steps
    slow = affector("TimeDilation", **{"TimeDilation.DilationFactor": factor, "Affector.Radius": 2.0})
    _, parts = run(simulate, cloud(), {"T": slow}, n)
    s = 1 + (factor - 1) * falloff(np.linalg.norm(parts["position"], axis=1), 2.0, 0.0)
    np.testing.assert_allclose(parts["age"], n * H * s, rtol=1e-5)
    # moving inside a hard-edged zone: the distance covered scales too
    hard = affector("TimeDilation", **{"TimeDilation.DilationFactor": factor, "Affector.Radius": 5.0,
                                       "Affector.FalloffExponent": 1.0})
    _, [p] = run(simulate, moving(speed=2.0), {"T": hard}, n)
    assert p["position"][0] == pytest.approx(2.0 * factor * n * H, rel=1e-5)


# -- KillZone ------------------------------------------------------------------------------

def test_kill_zone_kills_all_at_the_centre_and_spares_the_outside(simulate):
    zone = affector("KillZone", **{"Affector.Radius": 1.5, "Affector.FalloffExponent": 0.0}, **at(4.0, 0, 0))
    project = make_project(emitters={"Centre": moving(200, **at(4.0, 0, 0)), "Far": moving(200)},
                           affectors={"K": zone})
    sim = simulate(project)
    sim.step()
    assert len(sim.read_particles(sim.emitters[0])) == 0
    assert len(sim.read_particles(sim.emitters[1])) == 200
    assert sim.stats[sim.emitters[0].path].died == 200


def test_kill_zone_with_a_hard_edge_kills_everything_inside(simulate):
    zone = affector("KillZone", **{"Affector.Radius": 2.0, "Affector.FalloffExponent": 1.0})
    sim, parts = run(simulate, cloud(), {"K": zone})
    assert len(parts) > 100
    assert np.all(np.linalg.norm(parts["position"], axis=1) >= 2.0)
    assert sim.stats[sim.emitters[0].path].died == 600 - len(parts)


@pytest.mark.parametrize("exponent", [0.0, -0.5, 0.5])
def test_kill_fraction_matches_the_falloff_probability_each_step(simulate, exponent):
    # every particle on a sphere of radius 0.6 around the zone: p = falloff(0.6, 1.5, e) per step
    n = 8000
    shell = burst_emitter("Emitter_Sphere", n, **{"Emission.Radius": 0.6, "Emission.InitialVelocityStrength": 0.0})
    zone = affector("KillZone", **{"Affector.Radius": 1.5, "Affector.FalloffExponent": exponent})
    sim, parts = run(simulate, shell, {"K": zone}, seed=11)
    p = float(falloff(0.6, 1.5, exponent))
    alive = [n, len(parts)]
    sim.step()
    alive.append(len(sim.read_particles(sim.emitters[0])))
    for before, after in zip(alive, alive[1:]):       # each step a fresh, independent draw
        assert stats.binomtest(before - after, before, p).pvalue > 1e-4


def test_kill_zone_is_deterministic_per_seed(simulate):
    def survivors(seed):
        zone = affector("KillZone", **{"Affector.Radius": 2.0})
        return sorted(run(simulate, cloud(), {"K": zone}, 3, seed=seed)[1]["serial"])
    a = survivors(5)
    assert a == survivors(5) and a != survivors(6)


# -- CurlNoise -------------------------------------------------------------------------------

GRID = 12


def grid_material(tmp_path, spacing: float):
    """A custom emission material: particle n sits on point n of a GRID^3 lattice."""
    body = f"""
void emitParticle(uint index) {{
    uint n = kz_spawnIndex;
    vec3 c = vec3(float(n % {GRID}u), float((n / {GRID}u) % {GRID}u), float(n / {GRID * GRID}u));
    setParticlePosition(index, vec3(0.3, -0.7, 1.1) + c * {spacing});
    setParticleLifetime(index, 100.0);
}}
"""
    return custom_material(tmp_path, "Grid", "Emission", body)


def _field_on_grid(simulate, tmp_path, spacing, **props):
    grid = grid_material(tmp_path, spacing)
    emitter = burst_emitter("Grid", GRID ** 3)
    project = make_project(emitters={"E": emitter}, affectors={"C": affector("CurlNoise", **props)},
                           materials=[grid], path=str(tmp_path / "p.kzm"))
    sim = simulate(project)
    sim.step()
    parts = sim.read_particles(sim.emitters[0])        # spawn order = n
    return parts["acceleration"].reshape(GRID, GRID, GRID, 3)   # [z, y, x, component]


def _divergence_ratio(field, spacing):
    """|div| against the size of the derivatives it sums, at the interior points."""
    dx = (field[1:-1, 1:-1, 2:, 0] - field[1:-1, 1:-1, :-2, 0]) / (2 * spacing)
    dy = (field[1:-1, 2:, 1:-1, 1] - field[1:-1, :-2, 1:-1, 1]) / (2 * spacing)
    dz = (field[2:, 1:-1, 1:-1, 2] - field[:-2, 1:-1, 1:-1, 2]) / (2 * spacing)
    return np.mean(np.abs(dx + dy + dz)) / np.mean(np.abs(dx) + np.abs(dy) + np.abs(dz))


def test_curl_noise_field_is_divergence_free(simulate, tmp_path):
    spacing = 0.04
    field = _field_on_grid(simulate, tmp_path, spacing, **{"CurlNoise.Strength": 2.0, "CurlNoise.Frequency": 1.5})
    assert np.sqrt(np.mean(np.sum(field ** 2, axis=-1))) > 0.5
    assert _divergence_ratio(field, spacing) < 0.01
    # the measure does catch a field that is not solenoidal: the same field, components swapped
    assert _divergence_ratio(field[..., [1, 2, 0]], spacing) > 0.3


def test_curl_noise_strength_is_the_rms_acceleration_and_particles_swirl(simulate):
    props = {"CurlNoise.Strength": 3.0, "CurlNoise.Frequency": 0.7, "CurlNoise.TimeScale": 0.5}
    sim, parts = run(simulate, cloud(4000, extents=(15.0, 15.0, 15.0)), {"C": affector("CurlNoise", **props)})
    a = parts["acceleration"]
    assert math.sqrt(np.mean(np.sum(a ** 2, axis=1))) == pytest.approx(3.0, rel=0.15)
    assert np.all(np.abs(a.mean(axis=0)) < 0.3)           # no mean drift, only swirls
    first = parts[np.argsort(parts["serial"])]
    for _ in range(60):
        sim.step()
    later = sim.read_particles(sim.emitters[0])
    moved = np.linalg.norm(later["position"] - first["position"], axis=1)
    assert np.median(moved) > 0.2
    # the field evolves in time: at the same points, a different acceleration a second later
    assert np.mean(np.linalg.norm(later["acceleration"] - a, axis=1)) > 0.5


def test_curl_noise_fades_across_its_radius(simulate):
    props = {"CurlNoise.Strength": 3.0, "Affector.Radius": 2.0, "Affector.FalloffExponent": 1.0}
    _, parts = run(simulate, cloud(), {"C": affector("CurlNoise", **props)})
    d = np.linalg.norm(parts["previous_position"], axis=1)
    assert np.all(parts["acceleration"][d >= 2.0] == 0) and np.all(np.linalg.norm(parts["acceleration"][d < 1.9], axis=1) > 0)


# -- Placement -------------------------------------------------------------------------------

def test_a_self_affect_material_is_centred_on_its_emitter(simulate):
    # SelfAffectMaterial: the emitter node is the affector; a ParticleAffector using the
    # same material elsewhere must not lend it its transform
    attract = {"ParticleEmitter.SelfAffectMaterial": "PointAttractor", "PointAttractor.Strength": 2.0}
    project = make_project(emitters={"Self": cloud(200, extents=(1.0, 1.0, 1.0), **attract, **at(3.0, 0, 0)),
                                     "Other": moving(1, **at(-9.0, 0, 0))},
                           affectors={"Far": affector("PointAttractor", **at(-5.0, 0, 0))})
    sim = simulate(project)
    sim.step()
    parts = sim.read_particles(sim.emitters[0])
    offset = (3.0, 0, 0) - parts["previous_position"]
    far = (-5.0, 0, 0) - parts["previous_position"]
    expected = 2.0 * offset / np.linalg.norm(offset, axis=1)[:, None] + far / np.linalg.norm(far, axis=1)[:, None]
    np.testing.assert_allclose(parts["acceleration"], expected, atol=2e-5)


def test_buoyancy_and_wind_use_world_up_in_a_local_space_system(simulate):
    # the system turned 90 degrees about Z: its local +X is world up
    system = {"ParticleSystem.LocalSpace": True, **at(0, 0, 0, rotation=(0, 0, 90))}
    lift = affector("Buoyancy", **{"Buoyancy.MaxBuoyancy": 3.0, "Buoyancy.BuoyancyFalloff": 0.0})
    sim = simulate(make_project(system=system, emitters={"E": moving()}, affectors={"B": lift}))
    sim.step()
    [v] = sim.dump()["Screens/Screen/Scene/Particle System/E/velocity"]
    np.testing.assert_allclose(v, (0, 3.0 * H, 0), atol=1e-6)
