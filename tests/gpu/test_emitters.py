"""Shape emitters: spawn positions on or in their shape, uniform by area or volume (scipy
KS / chi-square tests on the marginals that uniformity fixes), velocity directions uniform
over the spherical cap, and the common property contract with its defaults and bands."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_project

N = 3000
P_MIN = 1e-3          # a correct sampler fails one of these tests at most 1 time in 1000
STILL = {"Emission.InitialVelocityStrength": 0.0}


def uniform_ok(samples, lo, hi):
    return stats.kstest(samples, stats.uniform(loc=lo, scale=hi - lo).cdf).pvalue > P_MIN


def azimuth(p, axes=(0, 2)):
    return np.arctan2(p[:, axes[1]], p[:, axes[0]])


def test_box_volume_fills_the_box_uniformly(spawn):
    e = np.array([1.0, 2.0, 0.5])
    p = spawn("Emitter_Box", N, **STILL, **{"Emission.Volume": True, "Emission.BoxExtents": tuple(e)})["position"]
    assert len(p) == N
    assert np.all(np.abs(p) <= e + 1e-6)
    for axis in range(3):
        assert uniform_ok(p[:, axis], -e[axis], e[axis])


def test_box_surface_picks_faces_by_area_and_points_uniformly(spawn):
    e = np.array([1.0, 2.0, 0.5])
    p = spawn("Emitter_Box", N, **STILL, **{"Emission.BoxExtents": tuple(e)})["position"]
    rel = np.abs(p) / e
    assert np.allclose(rel.max(axis=1), 1.0, atol=1e-5)         # every point on a face
    face = np.argmax(rel, axis=1) * 2 + (np.take_along_axis(p, np.argmax(rel, axis=1)[:, None], 1)[:, 0] > 0)
    area = np.repeat([e[1] * e[2], e[0] * e[2], e[0] * e[1]], 2)
    observed = np.bincount(face, minlength=6)
    assert stats.chisquare(observed, area / area.sum() * N).pvalue > P_MIN
    on_x = p[np.argmax(rel, axis=1) == 0]                         # inside a face: uniform
    assert uniform_ok(on_x[:, 1], -e[1], e[1]) and uniform_ok(on_x[:, 2], -e[2], e[2])


def test_sphere_surface_is_uniform(spawn):
    p = spawn("Emitter_Sphere", N, **STILL, **{"Emission.Radius": 2.0})["position"]
    assert np.allclose(np.linalg.norm(p, axis=1), 2.0, atol=1e-5)
    assert uniform_ok(p[:, 2] / 2.0, -1, 1)                       # Archimedes: z uniform
    assert uniform_ok(p[:, 1] / 2.0, -1, 1)
    assert uniform_ok(azimuth(p, (0, 1)), -math.pi, math.pi)


def test_sphere_volume_is_uniform(spawn):
    p = spawn("Emitter_Sphere", N, **STILL, **{"Emission.Radius": 2.0, "Emission.Volume": True})["position"]
    r = np.linalg.norm(p, axis=1)
    assert np.all(r <= 2.0 + 1e-5)
    assert uniform_ok((r / 2.0) ** 3, 0, 1)                       # volume inside r grows as r^3
    assert uniform_ok(p[:, 1] / r, -1, 1)


def test_disc_face_is_uniform_by_area(spawn):
    p = spawn("Emitter_Disc", N, **STILL, **{"Emission.InnerRadius": 1.0, "Emission.OuterRadius": 3.0,
                                             "Emission.Volume": True})["position"]
    assert np.allclose(p[:, 1], 0.0)
    r2 = p[:, 0] ** 2 + p[:, 2] ** 2
    assert np.all((r2 >= 1 - 1e-4) & (r2 <= 9 + 1e-4))
    assert uniform_ok(r2, 1.0, 9.0)
    assert uniform_ok(azimuth(p), -math.pi, math.pi)


def test_disc_edges_split_by_length(spawn):
    p = spawn("Emitter_Disc", N, **STILL, **{"Emission.InnerRadius": 1.0, "Emission.OuterRadius": 3.0})["position"]
    r = np.hypot(p[:, 0], p[:, 2])
    outer = np.isclose(r, 3.0, atol=1e-5)
    assert np.all(outer | np.isclose(r, 1.0, atol=1e-5)) and np.allclose(p[:, 1], 0.0)
    assert stats.binomtest(int(outer.sum()), N, 0.75).pvalue > P_MIN
    assert uniform_ok(azimuth(p[outer]), -math.pi, math.pi)


def _tube(p, major):
    rho_xz = np.hypot(p[:, 0], p[:, 2]) - major
    return np.hypot(rho_xz, p[:, 1]), np.arctan2(p[:, 1], rho_xz) % (2 * math.pi)


def test_torus_surface_is_uniform_by_area(spawn):
    R, r = 2.0, 0.5
    p = spawn("Emitter_Torus", N, **STILL, **{"Emission.MajorRadius": R, "Emission.MinorRadius": r})["position"]
    rho, v = _tube(p, R)
    assert np.allclose(rho, r, atol=1e-4)
    # dA = r (R + r cos v) du dv: the tube angle's CDF is (R v + r sin v) / (2 pi R)
    assert stats.kstest(v, lambda x: (R * x + r * np.sin(x)) / (2 * math.pi * R)).pvalue > P_MIN
    assert uniform_ok(azimuth(p), -math.pi, math.pi)


def test_torus_volume_is_uniform_by_volume(spawn):
    R, r = 2.0, 0.5
    p = spawn("Emitter_Torus", N, **STILL, **{"Emission.MajorRadius": R, "Emission.MinorRadius": r,
                                              "Emission.Volume": True})["position"]
    rho, v = _tube(p, R)
    assert np.all(rho <= r + 1e-4)
    assert uniform_ok((rho / r) ** 2, 0, 1)                        # dV ~ rho drho (cos term integrates out)
    norm = math.pi * R * r * r
    assert stats.kstest(v, lambda x: (R * r * r / 2 * x + r ** 3 / 3 * np.sin(x)) / norm).pvalue > P_MIN


def test_point_spawns_at_the_origin(spawn):
    p = spawn("Emitter_Point", 100, **STILL)["position"]
    assert np.all(p == 0.0)


def _directions(spawn, **props):
    v = spawn("Emitter_Point", N, **props)["velocity"]
    return v / np.linalg.norm(v, axis=1)[:, None]


@pytest.mark.parametrize("name, axis, inner, outer", [
    ("full sphere (defaults)", None, None, None),
    ("cone", (0.0, 0.0, 1.0), 0.0, 0.4),
    ("fountain", (0.0, 1.0, 0.0), 0.3, 0.6),
    ("equatorial", (1.0, 1.0, 0.0), math.pi / 2 - 0.05, math.pi / 2 + 0.05),
    ("outer clamped to pi", (0.0, 0.0, 1.0), 0.0, 5.0),
])
def test_cap_directions_are_uniform(spawn, name, axis, inner, outer):
    props = {}
    if axis is not None:
        props = {"Emission.InitialVelocityDirection": axis, "Emission.InitialVelocityInnerAngle": inner,
                 "Emission.InitialVelocityOuterAngle": outer}
    d = _directions(spawn, **props)
    a = np.array(axis or (0, 0, 1), float)
    a /= np.linalg.norm(a)
    lo, hi = (0.0, math.pi) if axis is None else (inner, min(outer, math.pi))
    cos_t = d @ a
    assert np.all(cos_t >= math.cos(hi) - 1e-5) and np.all(cos_t <= math.cos(lo) + 1e-5)
    assert uniform_ok(cos_t, math.cos(hi), math.cos(lo))           # equal solid angle per cos band
    # azimuth around the axis
    helper = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
    e1 = np.cross(a, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(a, e1)
    assert uniform_ok(np.arctan2(d @ e2, d @ e1), -math.pi, math.pi)


def test_zero_direction_means_local_z_and_direction_is_normalised(spawn):
    cone = {"Emission.InitialVelocityOuterAngle": 0.0, "Emission.InitialVelocityStrength": 3.0}
    for direction in ((0.0, 0.0, 0.0), (0.0, 0.0, 7.0)):
        v = spawn("Emitter_Point", 20, **cone, **{"Emission.InitialVelocityDirection": direction})["velocity"]
        assert np.allclose(v, (0, 0, 3.0), atol=1e-5)


def test_orient_to_normal_on_surfaces_only(spawn):
    along = {"Emission.InitialVelocityOuterAngle": 0.0, "Emission.Radius": 2.0}
    parts = spawn("Emitter_Sphere", 200, **along)
    n = parts["position"] / np.linalg.norm(parts["position"], axis=1)[:, None]
    # after one step of flight the particle moved along its normal
    assert np.allclose(parts["velocity"], n, atol=1e-4)
    off = spawn("Emitter_Sphere", 200, **along, **{"Emission.InitialVelocityOrientToNormal": False})
    assert np.allclose(off["velocity"], (0, 0, 1), atol=1e-5)
    volume = spawn("Emitter_Sphere", 200, **along, **{"Emission.Volume": True})
    assert np.allclose(volume["velocity"], (0, 0, 1), atol=1e-5)
    box = spawn("Emitter_Box", 200, **{"Emission.InitialVelocityOuterAngle": 0.0})
    v = box["velocity"]
    assert np.allclose(np.abs(v).max(axis=1), 1.0, atol=1e-5) and np.allclose(np.abs(v).sum(axis=1), 1.0, atol=1e-5)


def test_defaults_of_the_common_contract(spawn):
    parts = spawn("Emitter_Point", 500, **{"Emission.Lifetime": 1.0})
    assert np.all(parts["lifetime"] == 1.0) and np.all(parts["scale"] == 1.0) and np.all(parts["mass"] == 1.0)
    assert np.allclose(np.linalg.norm(parts["velocity"], axis=1), 1.0, atol=1e-5)
    assert np.all(parts["rotation"] == 0.0) and np.all(parts["angular_velocity"] == 0.0)
    assert np.all(parts["color"] == 1.0)


def test_variance_bands_are_symmetric_and_uniform(spawn):
    parts = spawn("Emitter_Point", N, **{
        "Emission.Lifetime": 50.0, "Emission.LifetimeVariance": 10.0,
        "Emission.InitialVelocityStrength": 4.0, "Emission.InitialVelocityStrengthVariance": 1.0,
        "Emission.Scale": (1.0, 2.0, 3.0), "Emission.ScaleVariance": (0.5, 0.5, 0.5),
        "Emission.InitialAngularVelocity": (1.0, 0.0, -1.0), "Emission.InitialAngularVelocityVariance": (0.5, 0.0, 2.0),
        "Emission.Density": 3.0})
    assert uniform_ok(parts["lifetime"], 40.0, 60.0)
    assert uniform_ok(np.linalg.norm(parts["velocity"], axis=1), 3.0, 5.0)
    s = parts["scale"]
    assert uniform_ok(s[:, 0], 0.5, 1.5)
    assert np.allclose(s[:, 1] - s[:, 0], 1.0, atol=1e-5)         # one draw scales all axes alike
    np.testing.assert_allclose(parts["mass"], 3.0 * s[:, 0] * s[:, 1] * s[:, 2], rtol=1e-5)
    w = parts["angular_velocity"]
    assert uniform_ok(w[:, 0], 0.5, 1.5) and np.all(w[:, 1] == 0.0) and uniform_ok(w[:, 2], -3.0, 1.0)


def test_emitter_node_transform_places_and_turns_the_spray(simulate):
    props = burst_emitter("Emitter_Point", 50, **{"Emission.InitialVelocityOuterAngle": 0.0})
    props["Node3D.RenderTransformation"] = Srt3D((1, 1, 1), (90, 0, 0), (5, 0, 0))
    project = make_project(emitters={"E": props})
    scene_ps = project.root.children[0].children[0].children[0].children[0]
    from kzplayer.project.model import Property
    scene_ps.properties["Node3D.RenderTransformation"] = Property(
        "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 0, 0), (0, 10, 0)))
    sim = simulate(project)
    sim.step()
    parts = sim.read_particles(sim.emitters[0])
    # +Z turned 90 degrees about X is -Y; it left (5, 10, 0) one step ago at 1 m/s
    assert np.allclose(parts["velocity"], (0, -1, 0), atol=1e-5)
    assert np.allclose(parts["previous_position"], (5, 10, 0), atol=1e-5)


@pytest.mark.parametrize("legacy, axis, inner, outer", [
    ("Emitter_Cone", (0, 0, 1), 0.0, math.radians(30)),          # the catalog's presets
    ("Emitter_Fountain", (0, 1, 0), math.radians(10), math.radians(20)),
])
def test_legacy_cone_and_fountain_are_point_presets(spawn, legacy, axis, inner, outer):
    parts = spawn(legacy, N)
    assert np.all(parts["previous_position"] == 0.0)              # spawned at the origin
    d = parts["velocity"] / np.linalg.norm(parts["velocity"], axis=1)[:, None]
    cos_t = d @ np.array(axis, float)
    assert np.all(cos_t >= math.cos(outer) - 1e-5) and np.all(cos_t <= math.cos(inner) + 1e-5)
    assert uniform_ok(cos_t, math.cos(outer), math.cos(inner))


def test_a_value_set_at_run_time_wins_over_a_legacy_preset(simulate):
    """The preset fills only what the node leaves unset: a --set / set_value of the cone
    angle on an Emitter_Cone node (not authored in the file) narrows the spray."""
    project = make_project(emitters={"E": burst_emitter("Emitter_Cone", 500)})
    sim = simulate(project)
    sim.set_value(sim.emitters[0].item, "Emission.InitialVelocityOuterAngle", 0.05)
    sim.step()
    v = sim.read_particles(sim.emitters[0])["velocity"]
    cos_t = v[:, 2] / np.linalg.norm(v, axis=1)
    assert len(v) == 500 and np.all(cos_t >= math.cos(0.05) - 1e-5)


def test_a_run_time_value_equal_to_the_default_still_beats_a_legacy_preset(simulate):
    """--set of the outer angle to its catalog default (pi: a full sphere) on an Emitter_Cone
    node must give the full sphere, not the cone preset's 30 degrees."""
    project = make_project(emitters={"E": burst_emitter("Emitter_Cone", 2000)})
    sim = simulate(project)
    sim.set_value(sim.emitters[0].item, "Emission.InitialVelocityOuterAngle", math.pi)
    sim.step()
    v = sim.read_particles(sim.emitters[0])["velocity"]
    cos_t = v[:, 2] / np.linalg.norm(v, axis=1)
    assert cos_t.min() < -0.9 and uniform_ok(cos_t, -1.0, 1.0)
