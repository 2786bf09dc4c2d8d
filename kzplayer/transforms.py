"""Node transforms, shared by the binding language, the simulation and the renderer.

Kanzi's conventions: Euler angles in DEGREES applied X first, then Y, then Z
(R = Rz @ Ry @ Rx); an Srt3D is the matrix T @ R @ S; column vectors (M @ p).
Node transforms compose down the tree.

A node transform that cannot be inverted (a scale of 0) or is not finite breaks every stage
that maps into the node's space (a collider, a local-space ParticleSystem, Emitter_Mesh, a
model's normals). `world_matrix` never hands one out: such a node holds its last usable
transform of the run (identity before it had one), and validate reports it at the node
(`property.singular-transform`, kzplayer/validate/rules/property_singular_transform.py).
"""
from __future__ import annotations

import math

import numpy as np

from kzplayer.values import Srt3D

TRANSFORM = "Node3D.RenderTransformation"


def sin_deg(d: float) -> float:
    """Sine of degrees, exact at multiples of 90 (sin(180) == 0, not 1.2e-16)."""
    if not math.isfinite(d):
        return math.nan
    d = math.fmod(d, 360.0)
    if d % 90 == 0:
        return (0.0, 1.0, 0.0, -1.0)[int(d % 360) // 90]
    return math.sin(math.radians(d))


def cos_deg(d: float) -> float:
    return sin_deg(d + 90.0) if math.isfinite(d) else math.nan


def rotation_matrix(rx: float, ry: float, rz: float) -> np.ndarray:
    """3x3 rotation of Euler degrees, X applied first: R = Rz @ Ry @ Rx."""
    cx, sx, cy, sy, cz, sz = cos_deg(rx), sin_deg(rx), cos_deg(ry), sin_deg(ry), cos_deg(rz), sin_deg(rz)
    rxm = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    rym = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rzm = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rzm @ rym @ rxm


def srt_matrix(srt: Srt3D | None) -> np.ndarray:
    """The 4x4 matrix of an Srt3D: T @ Rz @ Ry @ Rx @ S (identity for None)."""
    m = np.eye(4)
    if srt is None:
        return m
    m[:3, :3] = rotation_matrix(*srt.rotation) @ np.diag(srt.scale)
    m[:3, 3] = srt.translation
    return m


def usable(m: np.ndarray) -> bool:
    """Finite and invertible in practice: the 3x3 part's smallest singular value is above
    1e-9 of its largest (a scale of 0, or of 1e-12 beside 1, is not)."""
    if not np.isfinite(m).all():
        return False
    sv = np.linalg.svd(m[:3, :3], compute_uv=False)
    return bool(sv[0] > 0 and sv[-1] > 1e-9 * sv[0] and sv[-1] > 1e-30)


_held: dict[int, tuple[object, np.ndarray]] = {}     # id(node) -> (node, its last usable matrix)


def node_matrix(node, srt) -> np.ndarray:
    """One node's matrix, or the last usable one it had when this one is not usable."""
    m = srt_matrix(srt)
    if usable(m):
        if len(_held) < 100_000:
            _held[id(node)] = (node, m)
        return m
    held = _held.get(id(node))
    return held[1] if held is not None and held[0] is node else np.eye(4)


def world_matrix(item, value) -> np.ndarray:
    """The world matrix of a node: the product of the RenderTransformations from the root
    down to `item`. `value(item, name)` reads a property after bindings (None if absent)."""
    chain = []
    node = item
    while node is not None:
        chain.append(node)
        node = node.parent
    m = np.eye(4)
    for node in reversed(chain):
        srt = value(node, TRANSFORM)
        if isinstance(srt, Srt3D):
            m = m @ node_matrix(node, srt)
    return m
