"""The collider solids of `[[bounds]] outside` (kzplayer/effecttest/solids.py) against
independent truth: the capsule as a cylinder and two balls, the cone and a sphere against
the winding number of trimesh's meshes of them, a box mesh's surface distance against the
closed-form distance to a box, inside and out (faces, edges and corners)."""
from __future__ import annotations

import numpy as np
import trimesh

from kzplayer.effecttest import solids

RNG = np.random.default_rng(7)


def points(n=4000, span=2.0):
    return RNG.uniform(-span, span, (n, 3))


def test_the_capsule_is_a_cylinder_and_two_balls():
    r, h = 0.6, 1.4
    q = points(4000, 1.3)
    want = solids.cylinder(r, h, 0)(q) | solids.sphere(r, 0)(q - (0, h / 2, 0)) | solids.sphere(r, 0)(q + (0, h / 2, 0))
    assert (solids.capsule(r, h, 0)(q) == want).all()
    assert want.sum() > 500                     # the sample reaches inside


def test_the_cone_and_the_sphere_agree_with_their_meshes_away_from_the_surface():
    r, h = 0.9, 1.6
    cone = trimesh.creation.cone(radius=r, height=h, sections=256)
    cone.apply_translation((0, 0, -h / 2))
    cone.apply_transform(trimesh.transformations.rotation_matrix(-np.pi / 2, (1, 0, 0)))   # +Z -> +Y
    ball = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    for mesh, analytic in ((cone, solids.cone(r, h, 0)), (ball, solids.sphere(1.0, 0))):
        q = points(1000, 1.05)
        far = solids.surface_distance(mesh.vertices[mesh.faces], q) > 0.05   # facets differ near it
        by_mesh = solids.mesh(mesh.vertices, mesh.faces, 0)(q)
        assert (by_mesh[far] == analytic(q)[far]).all()
        assert by_mesh[far].sum() > 50


def test_surface_distance_is_the_distance_to_a_box_inside_and_out():
    e = np.array([0.8, 0.5, 0.6])
    box = trimesh.creation.box(extents=2 * e)
    q = points(3000, 1.5)
    outside = np.linalg.norm(np.maximum(np.abs(q) - e, 0), axis=1)
    inside = (e - np.abs(q)).min(axis=1)
    want = np.where(outside > 0, outside, inside)
    got = solids.surface_distance(box.vertices[box.faces], q)
    np.testing.assert_allclose(got, want, atol=1e-9)


def test_the_tolerance_spares_points_on_the_surface():
    box = trimesh.creation.box(extents=(2, 2, 2))
    q = np.array([[0.0, 0.0, 0.0], [0.9995, 0.0, 0.0], [0.5, 0.9995, 0.2]])
    assert solids.mesh(box.vertices, box.faces, 1e-3)(q).tolist() == [True, False, False]
    assert solids.box((1, 1, 1), 1e-3)(q).tolist() == [True, False, False]
    assert solids.cone(1, 2, 1e-3)(np.array([[0, -0.9995, 0], [0, -0.5, 0]])).tolist() == [False, True]


def test_a_negative_tolerance_widens_the_shape_for_keep_inside():
    """KeepInside's solid side is outside the shape: `~inside(-tol)` flags the points outside
    it by more than tol, for the analytic box and its mesh alike (closed-form distance)."""
    e = np.array([0.8, 0.5, 0.6])
    box = trimesh.creation.box(extents=2 * e)
    q = points(3000, 1.5)
    outside = np.linalg.norm(np.maximum(np.abs(q) - e, 0), axis=1)
    tol = 0.05
    want = outside > tol
    assert (~solids.mesh(box.vertices, box.faces, -tol)(q) == want).all()
    near = (outside > 0) & (outside < tol)
    assert near.sum() > 10 and not (~solids.box(e, -tol)(q))[near].any()     # resting on it: spared
    assert ((~solids.box(e, -tol)(q)) == want)[np.abs(outside - tol) > 1e-3].mean() > 0.97   # box corners are square
    assert (~solids.plane(-tol)(np.array([[0, 0.04, 0], [0, 0.06, 0]]))).tolist() == [False, True]
