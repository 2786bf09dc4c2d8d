"""Collider_Mesh (NeL's collision mesh): a triangle mesh from the project's Mesh items, swept
through a bounding volume hierarchy, resolved with the other colliders. Checked against
independent truth: the generalised winding number of the closed mesh (inside or not) for
every particle after every step, a brute-force numpy sweep of random paths against every
triangle, the closed-form bounce, and the triangle budget."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh

from kzplayer.gpu import mesh_data
from kzplayer.gpu.events import read_events
from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_item, make_project, with_mesh

GRAVITY = {"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}}


def mesh_collider(project, mesh_name, name="Solid", transform=None, **props):
    ps = next(i for i in project.walk() if i.type == "ParticleSystem")
    values = {"ParticleCollider.ColliderMaterial": "Collider_Mesh", "Collider.Mesh": f"Meshes/{mesh_name}",
              "Collider.Friction": 0.0, **props}
    if transform is not None:
        values["Node3D.RenderTransformation"] = transform
    ps.add_child(make_item("ParticleCollider", name, values))
    return project


def winding(mesh: trimesh.Trimesh, points: np.ndarray) -> np.ndarray:
    """The generalised winding number of a closed mesh at each point (1 inside, 0 outside),
    from the solid angles of its triangles (Van Oosterom and Strackee)."""
    tri = mesh.vertices[mesh.faces]                              # (M, 3, 3)
    a = tri[None, :, 0] - points[:, None]
    b = tri[None, :, 1] - points[:, None]
    c = tri[None, :, 2] - points[:, None]
    la, lb, lc = (np.linalg.norm(v, axis=2) for v in (a, b, c))
    num = np.einsum("ijk,ijk->ij", a, np.cross(b, c))
    den = la * lb * lc + np.einsum("ijk,ijk->ij", a, b) * lc + np.einsum("ijk,ijk->ij", b, c) * la \
        + np.einsum("ijk,ijk->ij", c, a) * lb
    return (2 * np.arctan2(num, den)).sum(axis=1) / (4 * np.pi)


def swarm_at(n, centre, speed, radius, **extra):
    return burst_emitter("Emitter_Sphere", n, **{
        "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), centre), "Emission.Volume": False,
        "Emission.Radius": radius, "Emission.InitialVelocityStrength": speed,
        "Emission.InitialVelocityOrientToNormal": True, "Emission.InitialVelocityDirection": (0.0, 0.0, -1.0),
        "Emission.InitialVelocityOuterAngle": 0.5, **extra})


SHAPES = {
    "sphere": lambda: trimesh.creation.icosphere(subdivisions=3, radius=1.0),
    "box": lambda: trimesh.creation.box(extents=(1.6, 1.0, 1.2)),
    "torus": lambda: trimesh.creation.torus(major_radius=1.0, minor_radius=0.35, major_sections=48, minor_sections=16),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_no_tunnelling_into_a_closed_mesh_at_30_m_per_step(simulate, tmp_path, shape, method):
    """Particles fired inward from a sphere of radius 6 around the mesh at 300 m/s and 10 Hz
    (30 m per step, the mesh 2 m across): none is ever inside it."""
    mesh = SHAPES[shape]()
    assert mesh.is_watertight
    project = make_project(system={"ParticleSystem.Framerate": 10.0, "ParticleSystem.IntegrationMethod": method},
                           emitters={"E": swarm_at(300, (0, 0, 0), 300.0, 6.0, **{"Emission.InitialVelocityOuterAngle": 0.1})},
                           path=str(tmp_path / "fx.kzm"))
    mesh_collider(with_mesh(project, tmp_path, "Solid", mesh), "Solid", **{"Collider.Bounce": 0.8})
    sim = simulate(project)
    hits = 0
    for step in range(8):
        sim.step()
        parts = sim.read_particles(sim.emitters[0])
        assert len(parts) == 300
        w = winding(mesh, parts["position"].astype(np.float64))
        assert (w < 0.5).all(), f"step {step + 1}: {int((w >= 0.5).sum())} particles inside the {shape}"
        hits += int(((parts["flags"] & 4) != 0).sum())
    assert hits > (60 if shape == "torus" else 200)     # aimed at it (the torus lets some through its hole)


def test_particles_inside_a_closed_mesh_stay_inside(simulate, tmp_path):
    mesh = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    project = make_project(system={"ParticleSystem.Framerate": 30.0},
                           emitters={"E": swarm_at(200, (0, 0, 0), 40.0, 0.2)}, path=str(tmp_path / "fx.kzm"))
    mesh_collider(with_mesh(project, tmp_path, "Jar", mesh), "Jar", **{"Collider.Bounce": 1.0})
    sim = simulate(project)
    for _ in range(30):
        sim.step()
        parts = sim.read_particles(sim.emitters[0])
        assert (winding(mesh, parts["position"].astype(np.float64)) > 0.5).all()
        np.testing.assert_allclose(np.linalg.norm(parts["velocity"], axis=1), 40.0, rtol=1e-4)


@pytest.mark.parametrize("bounce,friction", [(0.5, 0.0), (0.8, 0.25), (0.0, 1.0)])
def test_the_bounce_ratio_is_bounce_and_friction_damps_the_tangent(simulate, tmp_path, bounce, friction):
    # a floor mesh of many triangles, turned 20 degrees about X: a slope; one 1 s step of
    # 20 m crosses it once (no gravity), the host's hit event has the velocity just before
    floor = trimesh.creation.box(extents=(8.0, 0.01, 8.0))
    floor = trimesh.Trimesh(*trimesh.remesh.subdivide(floor.vertices, floor.faces))
    project = make_project(system={"ParticleSystem.Framerate": 1.0},
                           emitters={"E": swarm_at(50, (0.3, 3.0, -0.2), 0.0, 0.5, **{
                               "Emission.InitialVelocityOrientToNormal": False, "Emission.InitialVelocityStrength": 20.0,
                               "Emission.InitialVelocityDirection": (0.3, -1.0, 0.1),
                               "Emission.InitialVelocityOuterAngle": 0.2})},
                           path=str(tmp_path / "fx.kzm"))
    tilt = Srt3D((1, 1, 1), (20, 0, 0), (0, 0, 0))
    mesh_collider(with_mesh(project, tmp_path, "Slope", floor), "Slope", transform=tilt,
                  **{"Collider.Bounce": bounce, "Collider.Friction": friction})
    sim = simulate(project)
    hits = []
    sim.listen(sim.emitters[0], hits.append, kinds=("hit",))
    sim.step()
    sim.take_stats(flush=True)
    after = sim.read_particles(sim.emitters[0])
    assert len(hits) == 50 and (after["flags"] & 4 != 0).all()
    by_particle = {h.particle: h for h in hits}
    normal = np.array([0.0, np.cos(np.radians(20)), np.sin(np.radians(20))])
    v0 = np.array([by_particle[int(p["hash"])].velocity for p in after], np.float64)
    v1 = after["velocity"].astype(np.float64)
    for h in hits:
        np.testing.assert_allclose(h.normal, normal, atol=1e-5)
    vn0, vn1 = v0 @ normal, v1 @ normal
    assert (vn0 < -5).all()
    np.testing.assert_allclose(vn1, -bounce * vn0, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v1 - np.outer(vn1, normal), (1 - friction) * (v0 - np.outer(vn0, normal)),
                               atol=1e-4)


def _brute_force(mesh, a, b):
    """The first crossing of each segment a -> b with any triangle (numpy, every triangle)."""
    tri = mesh.vertices[mesh.faces]
    v0, e1, e2 = tri[:, 0], tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    best = np.full(len(a), np.inf)
    for k in range(len(a)):
        d = b[k] - a[k]
        p = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, p)
        ok = det != 0
        f = np.where(ok, 1 / np.where(ok, det, 1), 0)
        o = a[k] - v0
        u = np.einsum("ij,ij->i", o, p) * f
        q = np.cross(o, e1)
        v = (q @ d) * f
        s = np.einsum("ij,ij->i", e2, q) * f
        inside = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (s >= 0) & (s <= 1)
        if inside.any():
            best[k] = s[inside].min()
    return best


def test_the_tree_walk_finds_the_first_triangle_of_a_20000_triangle_mesh(simulate, tmp_path):
    """A bumpy closed mesh of 20,480 triangles; paths from random points outside to random
    points in it; a sink collider stops each at its first hit: the hit point is where the
    brute-force numpy sweep over every triangle says."""
    rng = np.random.default_rng(7)
    mesh = trimesh.creation.icosphere(subdivisions=5, radius=1.0)            # 20,480 triangles
    mesh.vertices *= (1 + 0.15 * np.sin(5 * mesh.vertices[:, [0]]) * np.cos(4 * mesh.vertices[:, [1]]))
    n = 150
    start = rng.normal(size=(n, 3))
    start *= (2.5 / np.linalg.norm(start, axis=1))[:, None]
    end = rng.uniform(-0.5, 0.5, size=(n, 3))
    # one emitter per particle: a Point at its start, fired at its end in one 1 s step
    emitters = {}
    for k in range(n):
        d = end[k] - start[k]
        emitters[f"P{k}"] = burst_emitter("Emitter_Point", 1, **{
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), tuple(start[k])),
            "Emission.InitialVelocityDirection": tuple(d / np.linalg.norm(d)), "Emission.InitialVelocityOuterAngle": 0.0,
            "Emission.InitialVelocityStrength": float(np.linalg.norm(d)),
            "ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})
    project = make_project(system={"ParticleSystem.Framerate": 1.0}, emitters=emitters, path=str(tmp_path / "fx.kzm"))
    mesh_collider(with_mesh(project, tmp_path, "Blob", mesh), "Blob", **{"Collider.KillOnHit": True})
    assert len(mesh.faces) == 20480
    sim = simulate(project)
    sim.step()
    expected = _brute_force(mesh, start, end)
    assert np.isfinite(expected).all()
    for k, em in enumerate(sim.emitters):
        header, events = read_events(em)
        assert header["count"] == 1, k
        want = start[k] + expected[k] * (end[k] - start[k])
        np.testing.assert_allclose(events[0]["position"], want, atol=2e-5)


def _grazing_paths(half, deltas):
    """Paths in a box's frame (half extents `half`) that graze its faces, edges and corner, or
    end at a face, each once just inside and once just outside by delta: starts and ends."""
    hx, hy, hz = half
    out = []
    for delta in deltas:
        for sign in (-1.0, 1.0):           # -1 just inside, +1 just outside
            e = sign * delta
            z = 0.3 * hz
            out += [
                ((hx + 0.7, hy + e, z), (hx - 0.3, hy + e, z)),            # across the +X face by the +Y edge
                ((hx + 0.7, hy + e, z), (-hx - 0.7, hy + e, z)),           # along the +Y face, through or past it
                ((hx + 0.7, 0.2 * hy, z), (hx + e, 0.2 * hy, z)),          # ending just short of / past the face
                ((0.2 * hx, 0.1 * hy, z), (hx + e, 0.1 * hy, z)),          # from inside out to the face (two-sided)
                ((hx + e + 0.7, hy + e - 0.7, z), (hx + e - 0.7, hy + e + 0.7, z)),   # past the +X+Y edge
                ((hx + e, hy + e + 0.9, hz + e + 0.4), (hx + e, hy + e - 0.9, hz + e - 0.4)),  # by the corner
                ((-hx - 0.5, -hy - e, -hz - e), (hx + 0.5, -hy - e, -hz - e)),  # along the -Y-Z edge
            ]
    return np.array([p[0] for p in out]), np.array([p[1] for p in out])


def test_paths_grazing_the_meshs_box_resolve_like_the_brute_force_sweep(simulate, tmp_path):
    """The early reject of a path against the mesh's root box must never differ from the walk:
    a box mesh (its faces ARE the root box), placed with a non-uniform scale and an offset
    (the reject is in the collider's space), and paths that pass its faces, edges and corner,
    or end at a face, 1e-3 to 3e-5 m inside or outside. A sink collider stops each at its first
    hit: it is hit exactly when the brute-force numpy sweep over every triangle says, there."""
    half = np.array([0.8, 0.5, 0.6])
    mesh = trimesh.creation.box(extents=2 * half)
    scale, offset = np.array([1.5, 1.0, 0.8]), np.array([0.3, -0.2, 0.5])
    local_a, local_b = _grazing_paths(half, (1e-3, 1e-4, 3e-5))
    start, end = local_a * scale + offset, local_b * scale + offset
    placed = trimesh.Trimesh(mesh.vertices * scale + offset, mesh.faces, process=False)
    expected = _brute_force(placed, start, end)
    # the truth is the brute force; that it is the geometry meant: hit just inside, missed just
    # outside, but for the path from inside out, which crosses the face only when it ends past it
    meant = np.array([True] * 3 + [False] + [True] * 3 + [False] * 3 + [True] + [False] * 3)
    assert (np.isfinite(expected) == np.tile(meant, 3)).all()
    emitters = {}
    for k in range(len(start)):
        d = end[k] - start[k]
        emitters[f"P{k}"] = burst_emitter("Emitter_Point", 1, **{
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), tuple(start[k])),
            "Emission.InitialVelocityDirection": tuple(d / np.linalg.norm(d)), "Emission.InitialVelocityOuterAngle": 0.0,
            "Emission.InitialVelocityStrength": float(np.linalg.norm(d)),
            "ParticleEmitter.GenerateEventsMaterial": "Event_OnHit"})
    project = make_project(system={"ParticleSystem.Framerate": 1.0}, emitters=emitters, path=str(tmp_path / "fx.kzm"))
    mesh_collider(with_mesh(project, tmp_path, "Crate", mesh), "Crate",
                  transform=Srt3D(tuple(scale), (0, 0, 0), tuple(offset)), **{"Collider.KillOnHit": True})
    sim = simulate(project)
    sim.step()
    for k, em in enumerate(sim.emitters):
        header, events = read_events(em)
        assert header["count"] == int(np.isfinite(expected[k])), (k, start[k], end[k])
        if np.isfinite(expected[k]):
            want = start[k] + expected[k] * (end[k] - start[k])
            np.testing.assert_allclose(events[0]["position"], want, atol=2e-5, err_msg=str(k))


def test_the_tree_is_built_over_every_triangle():
    mesh = trimesh.creation.icosphere(subdivisions=3)
    block = mesh_data.collider_block(mesh.vertices, mesh.faces)
    leaves = block.words["kz_meshLeaves"]
    assert leaves & (leaves - 1) == 0 and leaves * mesh_data.LEAF >= len(mesh.faces)
    nodes = 2 * leaves - 1
    lo, hi = block.texels[0:2 * nodes:2, :3], block.texels[1:2 * nodes:2, :3]
    tri = block.texels[2 * nodes:].reshape(-1, 3, 4)[:, :, :3]
    corners = np.stack([tri[:, 0], tri[:, 0] + tri[:, 1], tri[:, 0] + tri[:, 2]], axis=1)
    assert sorted(map(tuple, np.round(corners.reshape(-1, 3), 5))) == sorted(
        map(tuple, np.round(mesh.vertices[mesh.faces].reshape(-1, 3).astype(np.float32), 5)))
    for leaf in range(leaves):      # every triangle inside its leaf's box, every box inside its parent's
        k = leaves - 1 + leaf
        mine = corners[leaf * mesh_data.LEAF:(leaf + 1) * mesh_data.LEAF].reshape(-1, 3)
        if len(mine):
            assert (mine >= lo[k] - 1e-6).all() and (mine <= hi[k] + 1e-6).all()
    for k in range(1, nodes):
        parent = (k - 1) // 2
        if lo[k, 0] <= hi[k, 0]:
            assert (lo[k] >= lo[parent]).all() and (hi[k] <= hi[parent]).all()


def test_a_collision_mesh_over_the_budget_is_left_out_with_a_warning(simulate, tmp_path):
    big = trimesh.creation.icosphere(subdivisions=6)         # 81,920 triangles
    assert len(big.faces) > mesh_data.COLLIDER_TRIANGLE_BUDGET
    project = make_project(emitters={"E": swarm_at(10, (0, 0, 0), 1.0, 3.0)}, path=str(tmp_path / "fx.kzm"))
    mesh_collider(with_mesh(project, tmp_path, "Big", big), "Big")
    sim = simulate(project)
    sim.step()
    [warning] = [d for d in sim.diagnostics if d.rule == "mesh.collider-budget"]
    assert "81,920 triangles" in warning.message and "65,536" in warning.message
