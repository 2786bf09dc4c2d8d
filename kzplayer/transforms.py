"""Node transforms, shared by the binding language, the simulation and the renderer.

Kanzi's conventions: Euler angles in DEGREES applied X first, then Y, then Z
(R = Rz @ Ry @ Rx); an Srt3D is the matrix T @ R @ S; column vectors (M @ p).
Node transforms compose down the tree.
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
            m = m @ srt_matrix(srt)
    return m
