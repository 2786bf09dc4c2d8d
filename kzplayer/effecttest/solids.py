"""The solids of the stock colliders as point tests, for `[[bounds]] outside = "Collider"`:
`inside(points) -> bool array` in the collider's local space, each shape as its shader
(shaders/Collider_*.glsl) and docs/catalog.md describe it, a point within `tol` of the
surface counted as outside (the simulation leaves particles resting on it). A negative `tol`
widens the shape instead: `~inside` is then "outside by more than -tol", the solid side of a
KeepInside collider.

Collider_Rectangle and Collider_Disc are two-sided surfaces with no inside; a mesh's inside is
the generalised winding number of its triangles (1 inside a closed mesh, 0 outside), which
needs no watertight bookkeeping and is exact away from the surface.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

Inside = Callable[[np.ndarray], np.ndarray]
SURFACES = ("Collider_Rectangle", "Collider_Disc")    # two-sided: nothing is inside them


def plane(tol: float) -> Inside:
    return lambda q: q[:, 1] < -tol                 # the solid side is below local +Y


def sphere(r: float, tol: float) -> Inside:
    return lambda q: np.linalg.norm(q, axis=1) < r - tol


def box(extents, tol: float) -> Inside:
    e = np.asarray(extents, float)
    return lambda q: (np.abs(q) < e - tol).all(axis=1)


def cylinder(r: float, h: float, tol: float) -> Inside:
    """Along local +Y, Height centred on the node, flat caps."""
    return lambda q: (np.hypot(q[:, 0], q[:, 2]) < r - tol) & (np.abs(q[:, 1]) < h / 2 - tol)


def capsule(r: float, h: float, tol: float) -> Inside:
    """The points within Radius of the segment of Height along local +Y."""
    def inside(q):
        y = np.clip(q[:, 1], -h / 2, h / 2)
        return np.sqrt(q[:, 0] ** 2 + (q[:, 1] - y) ** 2 + q[:, 2] ** 2) < r - tol
    return inside


def cone(r: float, h: float, tol: float) -> Inside:
    """Base of Radius at y = -Height/2, apex at +Height/2: inside by more than `tol` when the
    point is that far from the base and from the slanted side (its distance to the side is
    the radial gap times the cosine of the half-angle)."""
    def inside(q):
        if r <= 0 or h <= 0:
            return np.zeros(len(q), bool)
        below_apex = h / 2 - q[:, 1]
        radial_gap = r * below_apex / h - np.hypot(q[:, 0], q[:, 2])
        side = radial_gap * (h / np.hypot(h, r))
        return (q[:, 1] > -h / 2 + tol) & (below_apex > min(tol, 0.0)) & (side > tol)
    return inside


def mesh(positions: np.ndarray, indices: np.ndarray, tol: float) -> Inside:
    """Inside a closed triangle mesh: winding number above one half, and farther than `tol`
    from every triangle (a negative `tol`: inside, or within -tol of a triangle)."""
    tri = np.asarray(positions, np.float64)[np.asarray(indices, np.int64)]     # (M, 3, 3)

    def inside(q):
        out = np.zeros(len(q), bool)
        for lo in range(0, len(q), max(1, 2_000_000 // max(1, len(tri)))):   # bounded memory
            chunk = q[lo:lo + max(1, 2_000_000 // max(1, len(tri)))]
            hit = winding(tri, chunk) > 0.5
            if hit.any() and tol > 0:
                hit[hit] = surface_distance(tri, chunk[hit]) > tol
            elif not hit.all() and tol < 0:
                hit[~hit] = surface_distance(tri, chunk[~hit]) <= -tol
            out[lo:lo + len(chunk)] = hit
        return out
    return inside


def winding(tri: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The generalised winding number at each point, from the solid angle of every triangle
    (Van Oosterom and Strackee)."""
    a, b, c = (tri[None, :, k] - points[:, None] for k in range(3))
    la, lb, lc = (np.linalg.norm(v, axis=2) for v in (a, b, c))
    num = np.einsum("ijk,ijk->ij", a, np.cross(b, c))
    den = la * lb * lc + np.einsum("ijk,ijk->ij", a, b) * lc + np.einsum("ijk,ijk->ij", b, c) * la \
        + np.einsum("ijk,ijk->ij", c, a) * lb
    return (2 * np.arctan2(num, den)).sum(axis=1) / (4 * np.pi)


def surface_distance(tri: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The distance of each point to the nearest triangle (the closest point on each triangle
    by its Voronoi regions, Ericson's Real-Time Collision Detection 5.1.5)."""
    a, b, c = (tri[None, :, k] for k in range(3))
    p = points[:, None]
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(-1), (ac * ap).sum(-1)
    bp, cp = p - b, p - c
    d3, d4 = (ab * bp).sum(-1), (ac * bp).sum(-1)
    d5, d6 = (ab * cp).sum(-1), (ac * cp).sum(-1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = va + vb + vc
        v = np.where(denom != 0, vb / denom, 0.0)
        w = np.where(denom != 0, vc / denom, 0.0)
        closest = a + ab * v[..., None] + ac * w[..., None]                  # inside the face
        t_ab = np.clip(d1 / np.where(d1 - d3 != 0, d1 - d3, 1), 0, 1)
        t_ac = np.clip(d2 / np.where(d2 - d6 != 0, d2 - d6, 1), 0, 1)
        t_bc = np.clip((d4 - d3) / np.where((d4 - d3) + (d5 - d6) != 0, (d4 - d3) + (d5 - d6), 1), 0, 1)
    regions = [
        (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0), b + (c - b) * t_bc[..., None],
        (vb <= 0) & (d2 >= 0) & (d6 <= 0), a + ac * t_ac[..., None],
        (vc <= 0) & (d1 >= 0) & (d3 <= 0), a + ab * t_ab[..., None],
        (d6 >= 0) & (d5 <= d6), c + 0 * p,
        (d3 >= 0) & (d4 <= d3), b + 0 * p,
        (d1 <= 0) & (d2 <= 0), a + 0 * p,
    ]
    for k in range(0, len(regions), 2):       # the later (vertex) regions take precedence
        closest = np.where(regions[k][..., None], regions[k + 1], closest)
    return np.linalg.norm(p - closest, axis=-1).min(axis=1)
