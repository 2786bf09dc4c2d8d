"""Emitter_Mesh (NeL's mesh emitter, Kanzi Particles 3.0's mesh emission): uniform over a
mesh's surface by area as placed in the scene (chi-square over the triangles' world areas),
on its vertices (uniform) or along its edges (by length), and the admissible-normal filter
exact: no particle on an element whose world normal is outside the cone, every admissible
element in proportion. The truth is computed here in numpy from the mesh file."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh
from scipy import stats

from kzplayer.values import EnumValue, Srt3D
from kzplayer.transforms import srt_matrix

from .conftest import burst_emitter, make_project, with_mesh

N = 20_000


def lumpy_mesh() -> trimesh.Trimesh:
    """A closed mesh with triangles of very different sizes and every orientation: an
    icosphere, squashed and with a few vertices pulled out."""
    m = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    rng = np.random.default_rng(3)
    m.vertices *= rng.uniform(0.7, 1.4, size=(len(m.vertices), 1))
    m.vertices *= [1.0, 0.6, 1.3]
    return m


def spawn(simulate, tmp_path, mesh, transform=Srt3D((1, 1, 1), (0, 0, 0), (0, 0, 0)), n=N, **props):
    emitter = burst_emitter("Emitter_Mesh", n, **{
        "Emission.Mesh": "Meshes/Shape", "Emission.InitialVelocityStrength": 0.0,
        "Node3D.RenderTransformation": transform, **props})
    project = with_mesh(make_project(emitters={"E": emitter}, path=str(tmp_path / "fx.kzm")), tmp_path, "Shape", mesh)
    sim = simulate(project)
    sim.step()
    return sim, sim.read_particles(sim.emitters[0])


def owner_triangle(world_tri: np.ndarray, points: np.ndarray) -> np.ndarray:
    """For each point, the triangle it lies on (distance under 1e-4 m), else -1."""
    v0, e1, e2 = world_tri[:, 0], world_tri[:, 1] - world_tri[:, 0], world_tri[:, 2] - world_tri[:, 0]
    n = np.cross(e1, e2)
    out = np.full(len(points), -1)
    for k in range(0, len(points), 2000):
        p = points[k:k + 2000, None, :] - v0[None]                       # (P, M, 3)
        dist = np.abs(np.einsum("pmk,mk->pm", p, n)) / np.linalg.norm(n, axis=1)
        # barycentric coordinates in the triangle's plane
        d00, d01, d11 = (e1 * e1).sum(1), (e1 * e2).sum(1), (e2 * e2).sum(1)
        d20, d21 = np.einsum("pmk,mk->pm", p, e1), np.einsum("pmk,mk->pm", p, e2)
        den = d00 * d11 - d01 * d01
        v = (d11 * d20 - d01 * d21) / den
        w = (d00 * d21 - d01 * d20) / den
        ok = (dist < 1e-4) & (v >= -1e-4) & (w >= -1e-4) & (v + w <= 1 + 1e-4)
        hit = ok.any(axis=1)
        out[k:k + 2000][hit] = ok[hit].argmax(axis=1)
    return out


TURNED = Srt3D((2.0, 0.5, 1.0), (30, 40, 0), (1, 2, 3))          # a non-uniform scale: areas change unevenly


@pytest.mark.parametrize("transform", [Srt3D((1, 1, 1), (0, 0, 0), (0, 0, 0)), TURNED])
def test_surface_emission_is_uniform_by_world_area(simulate, tmp_path, transform):
    mesh = lumpy_mesh()
    _, parts = spawn(simulate, tmp_path, mesh, transform)
    assert len(parts) == N
    m = srt_matrix(transform)
    world = mesh.vertices[mesh.faces] @ m[:3, :3].T + m[:3, 3]
    owner = owner_triangle(world, parts["position"].astype(np.float64))
    assert (owner >= 0).all()
    area = 0.5 * np.linalg.norm(np.cross(world[:, 1] - world[:, 0], world[:, 2] - world[:, 0]), axis=1)
    counts = np.bincount(owner, minlength=len(mesh.faces))
    expected = N * area / area.sum()
    assert expected.min() > 5
    assert stats.chisquare(counts, expected).pvalue > 1e-3
    # and the uneven areas matter: uniform per triangle would be rejected
    assert stats.chisquare(counts, np.full(len(counts), N / len(counts))).pvalue < 1e-6


@pytest.mark.parametrize("transform", [Srt3D((1, 1, 1), (0, 0, 0), (0, 0, 0)), Srt3D((1, 1, 1), (180, 0, 0), (0, 0, 0))])
def test_the_normal_filter_admits_exactly_the_faces_heading_down(simulate, tmp_path, transform):
    mesh = lumpy_mesh()
    angle = np.radians(50)
    _, parts = spawn(simulate, tmp_path, mesh, transform, **{"Emission.NormalFilterAngle": float(angle)})
    m = srt_matrix(transform)
    world = mesh.vertices[mesh.faces] @ m[:3, :3].T + m[:3, 3]
    face = np.cross(world[:, 1] - world[:, 0], world[:, 2] - world[:, 0])
    area = 0.5 * np.linalg.norm(face, axis=1)
    down = (face / (2 * area[:, None])) @ [0, -1, 0] >= np.cos(angle)
    assert 10 < down.sum() < len(down) - 10
    # every particle lies on an admissible face (none outside the cone) ...
    owner = owner_triangle(world[down], parts["position"].astype(np.float64))
    assert (owner >= 0).all()
    # ... and every admissible face gets its share
    counts = np.bincount(owner, minlength=int(down.sum()))
    expected = N * area[down] / area[down].sum()
    assert stats.chisquare(counts, expected).pvalue > 1e-3       # every admissible face in proportion


def test_vertices_uniform_and_filtered_by_the_vertex_normal(simulate, tmp_path):
    mesh = lumpy_mesh()
    angle = np.radians(70)
    _, parts = spawn(simulate, tmp_path, mesh, **{"Emission.MeshMode": EnumValue("Vertices"),
                                                   "Emission.NormalFilterAngle": float(angle)})
    vertices = mesh.vertices
    normals = mesh.vertex_normals          # trimesh's area-weighted vertex normals of the welded mesh
    admissible = normals @ [0, -1, 0] >= np.cos(angle)
    d = np.linalg.norm(parts["position"][:, None, :].astype(np.float64) - vertices[None], axis=2)
    owner = d.argmin(axis=1)
    assert (d.min(axis=1) < 1e-5).all()
    assert admissible[owner].all()
    counts = np.bincount(owner, minlength=len(vertices))[admissible]
    assert stats.chisquare(counts).pvalue > 1e-3


def test_edges_by_length(simulate, tmp_path):
    box = trimesh.creation.box(extents=(3.0, 1.0, 0.5))          # edges of three lengths, and diagonals
    _, parts = spawn(simulate, tmp_path, box, **{"Emission.MeshMode": EnumValue("Edges")})
    edges = np.unique(np.sort(box.edges, axis=1), axis=0)
    a, b = box.vertices[edges[:, 0]], box.vertices[edges[:, 1]]
    p = parts["position"].astype(np.float64)
    ab = b - a
    s = np.clip(np.einsum("pek,ek->pe", p[:, None] - a[None], ab) / (ab * ab).sum(1), 0, 1)
    dist = np.linalg.norm(p[:, None] - (a[None] + s[..., None] * ab[None]), axis=2)
    owner = dist.argmin(axis=1)
    assert (dist.min(axis=1) < 1e-5).all()
    length = np.linalg.norm(ab, axis=1)
    counts = np.bincount(owner, minlength=len(edges))
    assert stats.chisquare(counts, N * length / length.sum()).pvalue > 1e-3


def test_orient_to_normal_reads_the_mesh_normal(simulate, tmp_path):
    sphere = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    _, parts = spawn(simulate, tmp_path, sphere, n=2000, **{
        "Emission.InitialVelocityStrength": 1.0, "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityDirection": (0.0, 0.0, 1.0), "Emission.InitialVelocityOrientToNormal": True})
    p = parts["position"].astype(np.float64)
    # the interpolated vertex normal of a sphere is close to the radial direction
    radial = p / np.linalg.norm(p, axis=1, keepdims=True)
    assert (np.einsum("ij,ij->i", parts["velocity"], radial) > 0.995).all()


def test_a_filter_that_admits_nothing_warns_and_emits_nothing_alive(simulate, tmp_path):
    floor = trimesh.creation.box(extents=(2.0, 0.1, 2.0))
    # only +Y and -Y... ask for normals within 10 degrees of +X: the +X face; of (1, 1, 0): none
    sim, parts = spawn(simulate, tmp_path, floor, n=100, **{"Emission.NormalFilterDirection": (1.0, 1.0, 0.0),
                                                           "Emission.NormalFilterAngle": 0.1})
    [warning] = [d for d in sim.diagnostics if d.rule == "mesh.filter-empty"]
    assert "emits nothing" in warning.message
    assert len(parts) == 0
    assert sim.stats[sim.emitters[0].path].emitted == 100      # spawned, and dead in their first step
