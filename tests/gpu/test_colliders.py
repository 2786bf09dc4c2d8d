"""Colliders (frame stage 6) against closed forms: a drop on a plane bounces to e^2 h
(restitution on the normal speed), friction scales the tangential speed by 1 - Friction,
a 1000 m/s particle at 10 steps a second cannot tunnel through a 1 cm solid, KeepInside keeps
a swarm in a sphere, two-sided surfaces only where they extend, node transforms place the
shape, KillOnHit kills."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_item, make_project


def with_colliders(project, colliders: dict):
    """Adds ParticleCollider children {name: {property: value}} to the project's system."""
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    for name, props in colliders.items():
        ps.add_child(make_item("ParticleCollider", name, props))
    return project


def at(x, y, z, rotation=(0, 0, 0), scale=(1, 1, 1)):
    return {"Node3D.RenderTransformation": Srt3D(scale, rotation, (x, y, z))}


def shot(position, direction, speed, n=1, **extra) -> dict:
    """n particles at `position` flying along `direction` at `speed`."""
    return burst_emitter("Emitter_Point", n, **at(*position), **{
        "Emission.InitialVelocityDirection": tuple(direction), "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": speed, **extra})


GRAVITY = {"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}}


def _bounce_apex(simulate, method: str, framerate: float, drop: float, e: float) -> float:
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method},
        emitters={"E": shot((0, drop, 0), (0, 1, 0), 0.0)}, affectors=GRAVITY),
        {"Floor": {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": e,
                   "Collider.Friction": 0.0}})
    sim = simulate(project)
    fall = math.sqrt(2 * drop / 9.8)
    heights, hit = [], False
    for _ in range(int(framerate * fall * (1 + e) * 1.15)):
        sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        hit = hit or p["velocity"][1] > 0
        if hit:
            heights.append(float(p["position"][1]))
    assert hit
    return max(heights)


def test_a_drop_bounces_to_restitution_squared_times_the_height(simulate):
    # Verlet is exact in flight and the collider resolves the hit inside the step.
    apex = _bounce_apex(simulate, "Verlet", 240.0, 2.0, 0.6)
    assert apex == pytest.approx(0.6 ** 2 * 2.0, rel=2e-3)
    apex = _bounce_apex(simulate, "Verlet", 60.0, 2.0, 0.8)
    assert apex == pytest.approx(0.8 ** 2 * 2.0, rel=5e-3)
    # Euler is first order: the same law within its O(h) error.
    apex = _bounce_apex(simulate, "Euler", 240.0, 2.0, 0.6)
    assert apex == pytest.approx(0.6 ** 2 * 2.0, rel=0.03)


def test_friction_damps_the_tangential_speed_and_bounce_the_normal_one(simulate):
    v = np.array([3.0, -5.0, 0.0])
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": 10.0},
        emitters={"E": shot((0, 0.75, 0), v, float(np.linalg.norm(v)))}),
        {"Floor": {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": 0.5,
                   "Collider.Friction": 0.25}})
    sim = simulate(project)
    sim.step()
    sim.step()      # crosses y = 0 halfway through this step, at x = 0.45
    [p] = sim.read_particles(sim.emitters[0])
    np.testing.assert_allclose(p["velocity"], [3.0 * 0.75, 5.0 * 0.5, 0.0], atol=1e-5)
    # The rest of the step (0.05 s) continues from the hit point with the new velocity.
    np.testing.assert_allclose(p["position"], [0.45 + 2.25 * 0.05, 2.5 * 0.05, 0.0], atol=2e-4)
    assert p["flags"] & 4      # FLAG_HIT


SOLIDS = {
    "Collider_Box": ({"Collider.BoxExtents": (0.005, 1.0, 1.0)}, 0.005),
    "Collider_Sphere": ({"Collider.Radius": 0.01}, 0.01),
    "Collider_Cylinder": ({"Collider.Radius": 0.01, "Collider.Height": 1.0}, 0.01),
    "Collider_Capsule": ({"Collider.Radius": 0.01, "Collider.Height": 0.5}, 0.01),
}


@pytest.mark.parametrize("material", sorted(SOLIDS))
def test_no_tunnelling_through_a_thin_solid_at_a_huge_step(simulate, material):
    props, half = SOLIDS[material]
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": 10.0},      # 100 m per step against a 1-2 cm solid
        emitters={"E": shot((-50, 0, 0), (1, 0, 0), 1000.0, **{"ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})}),
        {"Wall": {"ParticleCollider.ColliderMaterial": material, "Collider.Bounce": 1.0,
                  "Collider.Friction": 0.0, **props}})
    sim = simulate(project)
    sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    np.testing.assert_allclose(p["velocity"], [-1000.0, 0, 0], atol=1e-3)
    # Reflected at x = -half after 50 - half metres; the other 50 + half metres go back.
    assert p["position"][0] == pytest.approx(-half - (50.0 + half), abs=2e-3)
    from kzplayer.gpu.events import read_events
    header, events = read_events(sim.emitters[0])
    assert header["count"] == 1
    np.testing.assert_allclose(events[0]["position"], [-half, 0, 0], atol=1e-4)
    np.testing.assert_allclose(events[0]["normal"], [-1, 0, 0], atol=1e-6)


INSIDE = {      # container, and how far outside it a point is (<= 0 inside)
    "Collider_Sphere": ({"Collider.Radius": 1.0}, lambda p: np.linalg.norm(p, axis=1) - 1.0),
    "Collider_Box": ({"Collider.BoxExtents": (1.0, 0.6, 0.8)},
                     lambda p: (np.abs(p) - [1.0, 0.6, 0.8]).max(axis=1)),
    "Collider_Cylinder": ({"Collider.Radius": 1.0, "Collider.Height": 1.2},
                          lambda p: np.maximum(np.hypot(p[:, 0], p[:, 2]) - 1.0, np.abs(p[:, 1]) - 0.6)),
    "Collider_Capsule": ({"Collider.Radius": 0.7, "Collider.Height": 1.0},
                         lambda p: np.linalg.norm(p - np.c_[0 * p[:, 0], np.clip(p[:, 1], -0.5, 0.5), 0 * p[:, 0]],
                                                  axis=1) - 0.7),
    # base of radius 1.2 at y = -1.2, apex at y = 1.2: inside where r <= (1.2 - y) / 2
    "Collider_Cone": ({"Collider.Radius": 1.2, "Collider.Height": 2.4},
                      lambda p: np.maximum((np.hypot(p[:, 0], p[:, 2]) - 0.5 * (1.2 - p[:, 1])) / np.sqrt(1.25),
                                           np.abs(p[:, 1]) - 1.2)),
}


@pytest.mark.parametrize("material", sorted(INSIDE))
def test_keep_inside_holds_a_swarm_in_a_container(simulate, material):
    props, outside = INSIDE[material]
    n = 200
    emitter = burst_emitter("Emitter_Sphere", n, **{"Emission.Volume": True, "Emission.Radius": 0.4,
                                                     "Emission.InitialVelocityStrength": 20.0})
    project = with_colliders(make_project(system={"ParticleSystem.Framerate": 30.0}, emitters={"E": emitter}),
                             {"Jar": {"ParticleCollider.ColliderMaterial": material, "Collider.KeepInside": True,
                                      "Collider.Bounce": 1.0, "Collider.Friction": 0.0, **props}})
    sim = simulate(project)
    hits = 0
    for _ in range(60):         # each particle crosses the container about ten times
        sim.step()
        parts = sim.read_particles(sim.emitters[0])
        assert len(parts) == n
        assert outside(parts["position"]).max() <= 1e-3
        np.testing.assert_allclose(np.linalg.norm(parts["velocity"], axis=1), 20.0, rtol=1e-4)
        hits += int(((parts["flags"] & 4) != 0).sum())
    assert hits > 5 * n


@pytest.mark.parametrize("material,props,top", [
    ("Collider_Box", {"Collider.BoxExtents": (0.5, 0.3, 0.5)}, 0.3),
    ("Collider_Sphere", {"Collider.Radius": 0.4}, 0.4),
    ("Collider_Cylinder", {"Collider.Radius": 0.5, "Collider.Height": 1.0}, 0.5),
    ("Collider_Capsule", {"Collider.Radius": 0.25, "Collider.Height": 1.0}, 0.75),
])
def test_a_drop_lands_on_the_top_with_its_normal(simulate, material, props, top):
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": 10.0},
        emitters={"E": shot((0, 5, 0), (0, -1, 0), 30.0, **{"ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})}),
        {"Solid": {"ParticleCollider.ColliderMaterial": material, "Collider.Bounce": 0.5, **props}})
    sim = simulate(project)
    from kzplayer.gpu.events import read_events
    sim.step()                  # 5 -> 2: above
    sim.step()                  # 2 -> -1: through the top, caught
    [p] = sim.read_particles(sim.emitters[0])
    _, [event] = read_events(sim.emitters[0])
    np.testing.assert_allclose(event["position"], [0, top, 0], atol=1e-5)
    np.testing.assert_allclose(event["normal"], [0, 1, 0], atol=1e-6)
    np.testing.assert_allclose(p["velocity"], [0, 15.0, 0], atol=1e-4)
    assert p["position"][1] > top


@pytest.mark.parametrize("x, speed", [(0.1, 30.0), (-0.2, 12.0)])
def test_a_drop_on_the_side_of_a_cone_reflects_off_its_slanted_normal(simulate, x, speed):
    # Radius 0.5, Height 1: the side is y = 0.5 - 2 r, its outward normal (2, 1, 0) / sqrt(5)
    # at x > 0. A vertical drop at x hits it at y = 0.5 - 2 |x| and leaves with the mirror
    # image of its velocity: (0, -v, 0) - 2 (v.n) n = (0, -v, 0) + (4v/5) (2, 1, 0) = (0.8 v, -0.6 v, 0),
    # mirrored in x on the other side.
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": 10.0},
        emitters={"E": shot((x, 2.0, 0), (0, -1, 0), speed, **{"ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})}),
        {"Cone": {"ParticleCollider.ColliderMaterial": "Collider_Cone", "Collider.Bounce": 1.0,
                  "Collider.Friction": 0.0, "Collider.Radius": 0.5, "Collider.Height": 1.0}})
    sim = simulate(project)
    from kzplayer.gpu.events import read_events
    fall = 2.0 - (0.5 - 2 * abs(x))
    steps = 0
    while not read_events(sim.emitters[0])[0]["count"]:
        sim.step()
        steps += 1
        assert steps <= math.ceil(fall / (speed * 0.1)) + 1
    _, [event] = read_events(sim.emitters[0])
    side = math.copysign(1.0, x)
    np.testing.assert_allclose(event["position"], [x, 0.5 - 2 * abs(x), 0], atol=1e-4)
    np.testing.assert_allclose(event["normal"], [2 * side / math.sqrt(5), 1 / math.sqrt(5), 0], atol=1e-5)
    [p] = sim.read_particles(sim.emitters[0])
    np.testing.assert_allclose(p["velocity"], [0.8 * speed * side, -0.6 * speed, 0], atol=1e-3)


def test_a_cone_has_a_flat_base_and_stops_at_its_apex(simulate):
    emitters = {
        "Up": shot((0.2, -3, 0), (0, 1, 0), 20.0),        # into the base, at y = -0.5
        "Above": shot((0.6, 3, 0), (0, -1, 0), 20.0),     # beside the cone: passes the base's rim
    }
    project = with_colliders(make_project(system={"ParticleSystem.Framerate": 10.0}, emitters=emitters),
                             {"Cone": {"ParticleCollider.ColliderMaterial": "Collider_Cone", "Collider.Bounce": 1.0,
                                       "Collider.Friction": 0.0, "Collider.Radius": 0.5, "Collider.Height": 1.0}})
    sim = simulate(project)
    for _ in range(2):      # -3 -> -1 -> +1: through y = -0.5 in the second step
        sim.step()
    got = {em.item.name: sim.read_particles(em)[0] for em in sim.emitters}
    np.testing.assert_allclose(got["Up"]["velocity"], [0, -20.0, 0], atol=1e-4)
    assert got["Up"]["position"][1] == pytest.approx(-0.5 - 1.5, abs=2e-3)   # 1.5 m of the step left after the hit
    assert got["Above"]["velocity"][1] == pytest.approx(-20.0)


@pytest.mark.parametrize("material,props,inside,outside", [
    ("Collider_Rectangle", {"Collider.RectangleExtents": (0.5, 0.2)}, (0.45, 0.15), (0.45, 0.25)),
    ("Collider_Disc", {"Collider.Radius": 0.5}, (0.3, 0.3), (0.4, 0.4)),
])
def test_flat_colliders_are_two_sided_and_finite(simulate, material, props, inside, outside):
    emitters = {
        "DownIn": shot((inside[0], 1, inside[1]), (0, -1, 0), 10.0),
        "DownOut": shot((outside[0], 1, outside[1]), (0, -1, 0), 10.0),
        "UpIn": shot((inside[0], -1, inside[1]), (0, 1, 0), 10.0),
    }
    project = with_colliders(make_project(system={"ParticleSystem.Framerate": 4.0}, emitters=emitters),
                             {"Sheet": {"ParticleCollider.ColliderMaterial": material, "Collider.Bounce": 1.0,
                                        "Collider.Friction": 0.0, **props}})
    sim = simulate(project)
    sim.step()      # 2.5 m per step: every path crosses y = 0
    ys = {em.item.name: sim.read_particles(em)[0] for em in sim.emitters}
    assert ys["DownIn"]["position"][1] > 0 and ys["DownIn"]["velocity"][1] == pytest.approx(10.0)
    assert ys["DownOut"]["position"][1] < 0 and ys["DownOut"]["velocity"][1] == pytest.approx(-10.0)
    assert ys["UpIn"]["position"][1] < 0 and ys["UpIn"]["velocity"][1] == pytest.approx(-10.0)


def test_the_node_transform_places_turns_and_scales_the_shape(simulate):
    # A plane turned 90 degrees about Z: its +Y normal points along world -X, solid beyond x = 1.5.
    wall = {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": 1.0,
            "Collider.Friction": 0.0, **at(1.5, 0, 0, rotation=(0, 0, 90))}
    # A unit-radius sphere scaled by 2 around x = 3: its surface at x = 1.
    ball = {"ParticleCollider.ColliderMaterial": "Collider_Sphere", "Collider.Radius": 1.0,
            "Collider.Bounce": 1.0, "Collider.Friction": 0.0, **at(3.0, 5, 0, scale=(2, 2, 2))}
    for collider, y, surface in ((wall, 0.0, 1.5), (ball, 5.0, 1.0)):
        project = with_colliders(make_project(system={"ParticleSystem.Framerate": 10.0},
                                              emitters={"E": shot((0, y, 0), (1, 0, 0), 10.0)}), {"C": collider})
        sim = simulate(project)
        for _ in range(3):          # 0 -> 1 -> 2 crosses the surface; -> back
            sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        assert p["velocity"][0] == pytest.approx(-10.0)
        assert p["position"][0] == pytest.approx(surface - (3.0 - surface), abs=1e-3)
        np.testing.assert_allclose(p["position"][1:], [y, 0.0], atol=1e-5)


def test_kill_on_hit_is_a_sink(simulate):
    project = with_colliders(make_project(
        system={"ParticleSystem.Framerate": 10.0},
        emitters={"E": burst_emitter("Emitter_Point", 50, **at(0, 1, 0), **{"Emission.InitialVelocityStrength": 5.0})}),
        {"Sink": {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.KillOnHit": True}})
    sim = simulate(project)
    for _ in range(10):
        sim.step()
    up = sim.read_particles(sim.emitters[0])
    # Only particles thrown upward enough to still be flying, none below the floor.
    assert np.all(up["position"][:, 1] >= 0)
    assert sim.stats[sim.emitters[0].path].alive == len(up) < 50


def test_a_custom_collider_material_defines_the_crossing(simulate, tmp_path):
    from .conftest import custom_material
    # A ceiling at local y = 2 (solid above), written as a project's own material.
    ceiling = custom_material(tmp_path, "Ceiling", "Collider", """
uniform float Ceiling_Height = 2.0;
bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    if (a.y > Ceiling_Height || b.y <= Ceiling_Height) {
        return false;
    }
    t = (Ceiling_Height - a.y) / (b.y - a.y);
    n = vec3(0.0, -1.0, 0.0);
    return true;
}
""", {"Ceiling.Height": ("float", "2.0")})
    project = make_project(system={"ParticleSystem.Framerate": 10.0},
                           emitters={"E": shot((0, 0, 0), (0, 1, 0), 15.0)}, materials=[ceiling],
                           path=str(tmp_path / "fx.kzm"))
    with_colliders(project, {"C": {"ParticleCollider.ColliderMaterial": "Ceiling", "Collider.Bounce": 1.0,
                                   "Collider.Friction": 0.0, "Ceiling.Height": 1.0}})
    sim = simulate(project)
    sim.step()          # 0 -> 1.5 crosses y = 1 at t = 2/3: back down 0.5 m
    [p] = sim.read_particles(sim.emitters[0])
    assert p["velocity"][1] == pytest.approx(-15.0)
    assert p["position"][1] == pytest.approx(0.5, abs=1e-3)
