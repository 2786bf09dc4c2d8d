"""Several colliders in one step (issue 12's defect): the step is resolved as a sequence of
earliest hits over ALL colliders of the system, so no particle ends a step on a solid side,
whatever the step, the speed, the tree order of the colliders and their shapes.

The check is independent of the shaders: every collider's solid side is written here as a
signed distance in numpy (> 0 on the solid side), and every particle is checked after every
step. Besides the defect's own configuration (a floor and a ceiling 1 m apart, 100 m/s,
60 Hz: 76 of 200 particles below the floor after 300 frames before the fix), the
configurations include random convex cells of tilted planes and random solids inside a
container, drawn from seeds nobody tuned the resolver for."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.transforms import world_matrix
from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_item, make_project

TOLERANCE = 1e-5        # metres a particle may be inside a solid (float round-off near a surface)


def collider(material, position=(0, 0, 0), rotation=(0, 0, 0), scale=(1, 1, 1), **props):
    return {"ParticleCollider.ColliderMaterial": material,
            "Node3D.RenderTransformation": Srt3D(scale, rotation, position),
            "Collider.Friction": 0.0, **{k.replace("Collider_", "Collider.", 1): v for k, v in props.items()}}


def swarm(n, centre, speed, radius=0.05, **extra):
    """n particles in a small ball at `centre`, flying in every direction at `speed`."""
    return burst_emitter("Emitter_Sphere", n, **{
        "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), centre),
        "Emission.Volume": True, "Emission.Radius": radius, "Emission.InitialVelocityStrength": speed,
        **extra})


def build(colliders: dict, emitter: dict, framerate=60.0, method="Euler", gravity=False):
    affectors = {"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}} if gravity else {}
    project = make_project(system={"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method},
                           emitters={"E": emitter}, affectors=affectors)
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    for name, props in colliders.items():
        ps.add_child(make_item("ParticleCollider", name, props))
    return project


def solid_depth(project) -> callable:
    """f(points) -> (N, C) depth of each point inside each collider's solid (<= 0: free)."""
    tests = []
    for item in project.walk():
        if item.type != "ParticleCollider":
            continue
        m = world_matrix(item, lambda it, name: it.get(name) if hasattr(it, "get") else None)
        inv = np.linalg.inv(m)
        props = {k: p.value for k, p in item.properties.items()}
        material = str(props["ParticleCollider.ColliderMaterial"])
        inside = bool(props.get("Collider.KeepInside", False))
        scale = float(np.cbrt(abs(np.linalg.det(m[:3, :3]))))
        if material == "Collider_Plane":
            def f(p, inv=inv, scale=scale):
                return -(p @ inv[:3, :3].T + inv[:3, 3])[:, 1] * scale
        elif material == "Collider_Sphere":
            r = float(props.get("Collider.Radius", 1.0))

            def f(p, inv=inv, r=r, scale=scale):
                return (r - np.linalg.norm(p @ inv[:3, :3].T + inv[:3, 3], axis=1)) * scale
        elif material == "Collider_Box":
            e = np.asarray(tuple(props.get("Collider.BoxExtents", (0.5, 0.5, 0.5))), float)

            def f(p, inv=inv, e=e, scale=scale):
                q = np.abs(p @ inv[:3, :3].T + inv[:3, 3]) - e
                return -q.max(axis=1) * scale     # inside: all axes within the extents
        else:
            raise AssertionError(material)
        tests.append((lambda p, f=f: -f(p)) if inside else f)
    return lambda points: np.stack([t(points) for t in tests], axis=1)


def run_and_check(simulate, project, steps, n):
    depth = solid_depth(project)
    sim = simulate(project)
    hits = 0
    worst = -np.inf
    for step in range(steps):
        sim.step()
        parts = sim.read_particles(sim.emitters[0])
        assert len(parts) == n
        d = depth(parts["position"].astype(np.float64))
        worst = max(worst, float(d.max()))
        bad = (d > TOLERANCE).any(axis=1)
        assert not bad.any(), (f"step {step + 1}: {int(bad.sum())} of {n} particles on a solid side, "
                               f"deepest {d.max():.4g} m")
        hits += int(((parts["flags"] & 4) != 0).sum())
    return hits, worst


FLOOR = collider("Collider_Plane", (0, 0, 0), Collider_Bounce=1.0)
# the ceiling: a plane turned upside down at y = 1 (its solid side above)
CEILING = collider("Collider_Plane", (0, 1, 0), (180, 0, 0), Collider_Bounce=1.0)


@pytest.mark.parametrize("order", ["floor first", "ceiling first"])
@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_the_defect_floor_and_ceiling_one_metre_apart_at_100_m_per_s(simulate, order, method):
    colliders = {"Floor": FLOOR, "Ceiling": CEILING}
    if order == "ceiling first":
        colliders = dict(reversed(list(colliders.items())))
    project = build(colliders, swarm(200, (0, 0.5, 0), 100.0), framerate=60.0, method=method)
    hits, _ = run_and_check(simulate, project, 300, 200)
    # 1.67 m per step at most between surfaces 1 m apart: a hit in most steps of most particles
    assert hits > 200 * 300 * 0.6


@pytest.mark.parametrize("framerate,speed", [(30.0, 10.0), (240.0, 100.0), (10.0, 1000.0), (60.0, 400.0)])
def test_floor_and_ceiling_at_other_steps_and_speeds_with_gravity(simulate, framerate, speed):
    # 1000 m/s at 10 Hz is 100 m per step: more crossings than the sub-hit bound, so the
    # particle stops on the free side of the next surface it would cross.
    colliders = {"Ceiling": CEILING, "Floor": FLOOR}
    project = build(colliders, swarm(100, (0, 0.5, 0), speed), framerate=framerate, gravity=True)
    run_and_check(simulate, project, 40, 100)


@pytest.mark.parametrize("bounce,friction", [(0.0, 0.0), (0.3, 0.5), (1.0, 1.0)])
def test_a_wedge_of_two_tilted_planes_under_gravity(simulate, bounce, friction):
    # A V-shaped trough: two planes tilted 30 degrees either way meeting at the origin.
    props = {"Collider.Bounce": bounce, "Collider.Friction": friction}
    colliders = {"Left": collider("Collider_Plane", (0, 0, 0), (0, 0, -30), **props),
                 "Right": collider("Collider_Plane", (0, 0, 0), (0, 0, 30), **props)}
    project = build(colliders, swarm(100, (0, 1.0, 0), 30.0), framerate=30.0, method="Verlet", gravity=True)
    run_and_check(simulate, project, 90, 100)


def test_solids_inside_a_container_both_orders(simulate):
    for names in (("Jar", "Ball", "Brick"), ("Brick", "Ball", "Jar")):
        all_ = {"Jar": collider("Collider_Sphere", (0, 0, 0), Collider_Radius=1.0, Collider_KeepInside=True,
                                Collider_Bounce=0.9),
                "Ball": collider("Collider_Sphere", (0.45, 0, 0), Collider_Radius=0.3, Collider_Bounce=1.0),
                "Brick": collider("Collider_Box", (-0.4, 0.1, 0), (0, 25, 10), Collider_BoxExtents=(0.2, 0.3, 0.25),
                                  Collider_Bounce=0.7)}
        project = build({k: all_[k] for k in names}, swarm(150, (0, -0.6, 0), 25.0), framerate=30.0)
        hits, _ = run_and_check(simulate, project, 60, 150)
        assert hits > 150 * 20


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_convex_cells_of_tilted_planes(simulate, seed):
    """Cells nobody tuned for: 5 to 8 planes, random normals, at random distances around
    the swarm; particles at 20 to 200 m/s, random step, either integrator."""
    rng = np.random.default_rng(seed)
    planes = {}
    for k in range(int(rng.integers(5, 9))):
        normal = rng.normal(size=3)
        normal /= np.linalg.norm(normal)
        distance = rng.uniform(0.3, 1.5)
        # a plane's free side is along its local +Y: turn +Y onto `normal`, the plane at
        # -distance * normal so the origin is on its free side
        pitch = np.degrees(np.arccos(np.clip(normal[1], -1, 1)))
        yaw = np.degrees(np.arctan2(normal[0], normal[2]))
        # Rz Ry Rx: rotate about X by pitch (tilts +Y towards +Z), then about Y by yaw
        planes[f"P{k}"] = collider("Collider_Plane", tuple(-distance * normal), (float(pitch), float(yaw), 0),
                                   **{"Collider.Bounce": float(rng.uniform(0.2, 1.0)),
                                      "Collider.Friction": float(rng.uniform(0.0, 0.5))})
    framerate = float(rng.choice([20.0, 30.0, 60.0, 144.0]))
    method = str(rng.choice(["Euler", "Verlet"]))
    speed = float(rng.uniform(20.0, 200.0))
    project = build(planes, swarm(120, (0, 0, 0), speed, radius=0.1), framerate=framerate, method=method,
                    gravity=bool(rng.integers(0, 2)))
    depth = solid_depth(project)
    # the swarm must start free of every plane (the cell contains the origin's ball)
    assert (depth(np.zeros((1, 3))) < -0.1).all()
    run_and_check(simulate, project, 45, 120)


@pytest.mark.parametrize("seed", [5, 6])
def test_random_solids_in_a_box_container(simulate, seed):
    rng = np.random.default_rng(seed)
    colliders = {"Room": collider("Collider_Box", (0, 0, 0), Collider_BoxExtents=(1.0, 1.0, 1.0),
                                  Collider_KeepInside=True, Collider_Bounce=1.0)}
    for k in range(4):
        centre = rng.uniform(-0.6, 0.6, 3)
        while np.linalg.norm(centre) < 0.45:        # leave the swarm's start free
            centre = rng.uniform(-0.6, 0.6, 3)
        if k % 2:
            colliders[f"S{k}"] = collider("Collider_Sphere", tuple(centre), Collider_Radius=float(rng.uniform(0.1, 0.3)),
                                          Collider_Bounce=float(rng.uniform(0.3, 1.0)))
        else:
            colliders[f"B{k}"] = collider("Collider_Box", tuple(centre), tuple(rng.uniform(0, 90, 3)),
                                          Collider_BoxExtents=tuple(rng.uniform(0.05, 0.2, 3)),
                                          Collider_Bounce=float(rng.uniform(0.3, 1.0)))
    order = list(colliders.items())
    rng.shuffle(order)
    project = build(dict(order), swarm(150, (0, 0, 0), float(rng.uniform(30, 120)), radius=0.1),
                    framerate=float(rng.choice([24.0, 60.0])), method=str(rng.choice(["Euler", "Verlet"])))
    run_and_check(simulate, project, 45, 150)


def test_located_flags_dont_collide_and_destroyed_on_collision(simulate):
    """NeL's located flags per emitter: "don't collide" skips every collider, "destroyed on
    collision" kills on any hit (a bouncing collider included), at the hit point."""
    def shots(**flags):
        return burst_emitter("Emitter_Point", 20, **{
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, 0.5, 0)),
            "Emission.InitialVelocityDirection": (0.0, -1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.3,
            "Emission.InitialVelocityStrength": 20.0, **flags})
    project = make_project(system={"ParticleSystem.Framerate": 10.0}, emitters={
        "Plain": shots(), "Ghost": shots(**{"ParticleEmitter.IgnoreColliders": True}),
        "Fragile": shots(**{"ParticleEmitter.DestroyOnCollision": True,
                            "ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})})
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    ps.add_child(make_item("ParticleCollider", "Floor", collider("Collider_Plane", Collider_Bounce=1.0)))
    sim = simulate(project)
    sim.step()                  # 0.5 m up, 2 m per step down: every path crosses the floor
    got = {em.item.name: sim.read_particles(em) for em in sim.emitters}
    assert len(got["Plain"]) == 20 and (got["Plain"]["position"][:, 1] > 0).all()
    assert (got["Plain"]["velocity"][:, 1] > 0).all()
    assert len(got["Ghost"]) == 20 and (got["Ghost"]["position"][:, 1] < -1.0).all()
    assert (got["Ghost"]["flags"] & 4 == 0).all()
    from kzplayer.gpu.events import read_events
    header, events = read_events(sim.emitters[2])
    assert header["count"] == 20                     # every one hit (and its event fired) ...
    np.testing.assert_allclose(events["position"][:, 1], 0.0, atol=1e-6)
    assert sim.stats[sim.emitters[2].path].died == 20   # ... and died at the floor
    assert len(sim.read_particles(sim.emitters[2])) == 0
    assert sim.stats[sim.emitters[0].path].hits == 20
