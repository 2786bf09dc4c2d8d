"""Meshes on the simulation's side: the collision mesh's bounding volume hierarchy and the
mesh emitter's sampling tables, built once on the CPU with numpy from the arrays of the one
mesh loader (kzplayer.meshes), and laid out as the texels (RGBA float32) of one buffer per
ParticleSystem that the shaders read through a samplerBuffer (Particles/mesh_data.glsl).

Collision mesh (Collider_Mesh, docs/player.md "Collision mesh"): the triangles sorted along a
Morton curve of their centroids, LEAF of them per leaf, and over the leaves a complete
binary tree in heap order (node k's children are 2k+1 and 2k+2, the leaves the last L
nodes, L a power of two; the empty ones have an inverted box no path meets). Texels: per
node its box (min, max), then per triangle v0, e1 = v1 - v0, e2 = v2 - v0. A linear BVH:
no SAH, but a build of a few numpy passes (10,000 triangles in milliseconds) and a walk of
at most log2(L) + 1 levels. The root's box is also given as two vec3 parameters (kz_meshLo,
kz_meshHi, the same float32 values), so a path that misses the whole mesh is rejected without
reading a texel.

Mesh emitter (Emitter_Mesh): the admissible elements (those whose world-space normal lies
within Emission.NormalFilterAngle of Emission.NormalFilterDirection) and, for surfaces and
edges, the cumulative distribution of their world-space areas or lengths, so a draw is
uniform over the surface (or the edges) as it is placed in the scene, scale included.
Texels: the CDF, four values a texel; then per element its geometry (a triangle: v0, e1, e2,
n0, n1, n2; a vertex: p, n; an edge: p0, p1, n0, n1), in the emitter's own frame.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEAF = 4                         # triangles per leaf of the collision mesh's tree
COLLIDER_TRIANGLE_BUDGET = 65_536
# a ParticleMesh: every particle draws the whole mesh (instanced), so the mesh and the mesh
# times the pool are bounded (docs/hardening.md, "Assets"); past either, billboards
PARTICLE_MESH_TRIANGLE_BUDGET = 65_536
PARTICLE_MESH_DRAW_BUDGET = 20_000_000           # triangles of one emitter's draw: mesh x MaximumAmount
MAX_DEPTH = 16                   # levels below the root the shader's stack holds (MESH_STACK)
MODES = ("Surface", "Vertices", "Edges")
TEXELS_PER_ELEMENT = {"Surface": 6, "Vertices": 2, "Edges": 4}


@dataclass
class Block:
    """One node's texels in the system's mesh buffer and what its shader needs to walk them."""
    texels: np.ndarray           # (T, 4) float32
    words: dict                  # kz_mesh* uniforms (offsets relative to the block, counts)
    base: int = 0                # its first texel in the system's buffer (set when packed)


# -- collision mesh ------------------------------------------------------------------------

def collider_block(positions: np.ndarray, indices: np.ndarray) -> Block:
    """The collision mesh's tree and triangles (the node's local frame)."""
    tri = np.asarray(positions, np.float64)[np.asarray(indices, np.int64)]          # (n, 3, 3)
    n = len(tri)
    order = np.argsort(_morton(tri.mean(axis=1)), kind="stable")
    tri = tri[order]
    leaves = 1 << max(int(np.ceil(np.log2(max(-(-n // LEAF), 1)))), 0)
    lo = np.full((leaves * LEAF, 3), np.inf)
    hi = np.full((leaves * LEAF, 3), -np.inf)
    lo[:n] = tri.min(axis=1)
    hi[:n] = tri.max(axis=1)
    levels_lo = [lo.reshape(leaves, LEAF, 3).min(axis=1)]
    levels_hi = [hi.reshape(leaves, LEAF, 3).max(axis=1)]
    while len(levels_lo[-1]) > 1:
        a, b = levels_lo[-1], levels_hi[-1]
        levels_lo.append(np.minimum(a[0::2], a[1::2]))
        levels_hi.append(np.maximum(b[0::2], b[1::2]))
    node_lo = np.concatenate(levels_lo[::-1])        # heap order: the root first, the leaves last
    node_hi = np.concatenate(levels_hi[::-1])
    # an empty box is inverted (min > max): no segment's slab test passes it
    empty = ~np.isfinite(node_lo).all(axis=1)
    node_lo[empty], node_hi[empty] = 1e30, -1e30
    nodes = len(node_lo)
    texels = np.zeros((2 * nodes + 3 * n, 4), np.float32)
    texels[0:2 * nodes:2, :3] = node_lo
    texels[1:2 * nodes:2, :3] = node_hi
    body = texels[2 * nodes:].reshape(n, 3, 4)
    body[:, 0, :3] = tri[:, 0]
    body[:, 1, :3] = tri[:, 1] - tri[:, 0]
    body[:, 2, :3] = tri[:, 2] - tri[:, 0]
    assert leaves.bit_length() - 1 <= MAX_DEPTH, "past the triangle budget"
    return Block(texels, {"kz_meshLeaves": leaves, "kz_meshTriangles": n, "kz_meshTriangleBase": 2 * nodes,
                          "kz_meshLo": tuple(float(c) for c in texels[0, :3]),
                          "kz_meshHi": tuple(float(c) for c in texels[1, :3])})


def _morton(points: np.ndarray) -> np.ndarray:
    """30-bit Morton codes of points in their bounding box (10 bits per axis)."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    q = ((points - lo) / np.where(hi > lo, hi - lo, 1.0) * 1023).astype(np.uint64)

    def spread(v):
        v = (v | (v << 16)) & 0x030000FF
        v = (v | (v << 8)) & 0x0300F00F
        v = (v | (v << 4)) & 0x030C30C3
        return (v | (v << 2)) & 0x09249249
    return (spread(q[:, 0]) << np.uint64(2)) | (spread(q[:, 1]) << np.uint64(1)) | spread(q[:, 2])


# -- mesh emitter --------------------------------------------------------------------------

@dataclass
class Elements:
    """A mesh emitter's admissible elements, before packing (also what the tests check)."""
    mode: str
    index: np.ndarray            # which triangles / (welded) vertices / edges were admitted
    weights: np.ndarray          # world-space area, 1 or length, per admitted element
    geometry: np.ndarray         # (K, texels, 4) float32, the emitter's frame


def emitter_elements(positions, normals, indices, mode: str, to_world: np.ndarray,
                     direction, angle: float) -> Elements:
    """The admissible elements of a mesh for an emitter whose frame maps to the world by
    `to_world` (4x4), the filter a world direction and a cone half-angle (radians, >= pi:
    everything)."""
    p = np.asarray(positions, np.float64)
    nv = np.asarray(normals, np.float64)
    idx = np.asarray(indices, np.int64)
    m = np.asarray(to_world, np.float64)[:3, :3]
    normal_m = np.linalg.inv(m).T                     # normals by the inverse transpose
    d = np.asarray(direction, np.float64)
    d = d / np.linalg.norm(d) if np.linalg.norm(d) > 0 else np.array([0.0, -1.0, 0.0])
    cos_limit = np.cos(min(max(float(angle), 0.0), np.pi))

    def admitted(world_normals):
        length = np.linalg.norm(world_normals, axis=1)
        unit = world_normals / np.maximum(length, 1e-30)[:, None]
        ok = length > 0
        return ok & (unit @ d >= cos_limit - 1e-12) if angle < np.pi else np.ones(len(world_normals), bool)

    if mode == "Surface":
        v0, v1, v2 = p[idx[:, 0]], p[idx[:, 1]], p[idx[:, 2]]
        e1, e2 = v1 - v0, v2 - v0
        world_cross = np.cross(e1 @ m.T, e2 @ m.T)       # |.| = 2 x world area, along the face normal
        keep = np.flatnonzero(admitted(world_cross) & (np.linalg.norm(world_cross, axis=1) > 0))
        geometry = np.zeros((len(keep), 6, 4), np.float32)
        geometry[:, 0, :3] = v0[keep]
        geometry[:, 1, :3] = e1[keep]
        geometry[:, 2, :3] = e2[keep]
        for k in range(3):
            geometry[:, 3 + k, :3] = nv[idx[keep, k]]
        return Elements(mode, keep, 0.5 * np.linalg.norm(world_cross[keep], axis=1), geometry)
    welded, first, vertex_normal = _weld(p, nv, idx)
    if mode == "Vertices":
        keep = np.flatnonzero(admitted(vertex_normal @ normal_m.T))
        geometry = np.zeros((len(keep), 2, 4), np.float32)
        geometry[:, 0, :3] = p[first[keep]]
        geometry[:, 1, :3] = vertex_normal[keep]
        return Elements(mode, keep, np.ones(len(keep)), geometry)
    if mode == "Edges":
        edges = np.sort(np.concatenate([welded[:, [0, 1]], welded[:, [1, 2]], welded[:, [2, 0]]]), axis=1)
        edges = np.unique(edges, axis=0)
        en = vertex_normal[edges[:, 0]] + vertex_normal[edges[:, 1]]
        a, b = p[first[edges[:, 0]]], p[first[edges[:, 1]]]
        length = np.linalg.norm((b - a) @ m.T, axis=1)
        keep = np.flatnonzero(admitted(en @ normal_m.T) & (length > 0))
        geometry = np.zeros((len(keep), 4, 4), np.float32)
        geometry[:, 0, :3] = a[keep]
        geometry[:, 1, :3] = b[keep]
        geometry[:, 2, :3] = vertex_normal[edges[keep, 0]]
        geometry[:, 3, :3] = vertex_normal[edges[keep, 1]]
        return Elements(mode, keep, length[keep], geometry)
    raise ValueError(f"mesh emission mode {mode!r}: one of {', '.join(MODES)}")


def _weld(p, nv, idx):
    """Vertices welded by position (a glTF file splits them at seams and hard edges): the
    triangles over welded indices, each welded vertex's first original index, and its
    normal, the normalised mean of its copies' normals weighted by the area of their faces."""
    _, first, inverse = np.unique(p, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    welded = inverse[idx]
    e1, e2 = p[idx[:, 1]] - p[idx[:, 0]], p[idx[:, 2]] - p[idx[:, 0]]
    area = 0.5 * np.linalg.norm(np.cross(e1, e2), axis=1)
    acc = np.zeros((len(first), 3))
    for k in range(3):
        np.add.at(acc, welded[:, k], nv[idx[:, k]] * area[:, None])
    length = np.linalg.norm(acc, axis=1, keepdims=True)
    fallback = np.zeros((len(first), 3))
    np.add.at(fallback, inverse, nv)
    acc = np.where(length > 1e-30, acc, fallback)
    length = np.linalg.norm(acc, axis=1, keepdims=True)
    return welded, first, acc / np.maximum(length, 1e-30)


def emitter_block(elements: Elements) -> Block:
    """The CDF (four values a texel) and the elements' geometry."""
    k = len(elements.weights)
    per = TEXELS_PER_ELEMENT[elements.mode]
    cdf_texels = -(-k // 4) if elements.mode != "Vertices" else 0
    texels = np.zeros((cdf_texels + k * per, 4), np.float32)
    if cdf_texels:
        cdf = np.cumsum(np.asarray(elements.weights, np.float64))
        cdf = cdf / cdf[-1] if k and cdf[-1] > 0 else cdf
        flat = np.ones(cdf_texels * 4, np.float32)
        flat[:k] = cdf
        texels[:cdf_texels] = flat.reshape(-1, 4)
    texels[cdf_texels:] = elements.geometry.reshape(-1, 4)
    return Block(texels, {"kz_meshCount": k, "kz_meshElementBase": cdf_texels,
                          "kz_meshMode": MODES.index(elements.mode)})


def pack(blocks: list[Block]) -> np.ndarray:
    """Every block's texels in one array (each block's `base` set), at least one texel."""
    at, parts = 0, []
    for b in blocks:
        b.base = at
        parts.append(b.texels)
        at += len(b.texels)
    return np.concatenate(parts) if at else np.zeros((1, 4), np.float32)


__all__ = ["Block", "Elements", "collider_block", "emitter_elements", "emitter_block", "pack", "LEAF",
           "COLLIDER_TRIANGLE_BUDGET", "PARTICLE_MESH_TRIANGLE_BUDGET", "PARTICLE_MESH_DRAW_BUDGET", "MODES"]
