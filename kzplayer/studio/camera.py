"""The live view's mouse camera: orbit (yaw, pitch) and zoom around the Player's camera.

The pivot is the point the Player's camera looks at: on its view axis, as deep as the world
origin lies along it (the effects sit around their system's origin), at least a metre. A
drag turns the camera about the pivot (yaw about world up, pitch about the camera's right
axis); the wheel scales its distance to the pivot. Nothing of the project changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

MAX_PITCH = 85.0           # degrees: never over the pole (the view would flip)
ZOOM_RANGE = (0.05, 20.0)


@dataclass
class Orbit:
    yaw: float = 0.0       # degrees
    pitch: float = 0.0    # degrees: up is positive (the camera rises over the pivot)
    zoom: float = 1.0      # distance to the pivot, times the camera's own

    def moved(self, d_yaw: float = 0.0, d_pitch: float = 0.0, zoom_by: float = 1.0) -> "Orbit":
        pitch = min(max(self.pitch + d_pitch, -MAX_PITCH), MAX_PITCH)
        zoom = min(max(self.zoom * zoom_by, ZOOM_RANGE[0]), ZOOM_RANGE[1])
        return Orbit((self.yaw + d_yaw) % 360.0, pitch, zoom)

    @property
    def identity(self) -> bool:
        return self.yaw == 0.0 and self.pitch == 0.0 and self.zoom == 1.0


def _axis_rotation(axis: np.ndarray, degrees: float) -> np.ndarray:
    axis = axis / max(np.linalg.norm(axis), 1e-12)
    x, y, z = axis
    a = math.radians(degrees)
    c, s, t = math.cos(a), math.sin(a), 1 - math.cos(a)
    return np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                     [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                     [t * x * z - s * y, t * y * z + s * x, t * z * z + c]])


def orbit_camera(camera, orbit: Orbit):
    """`camera` (render.camera.Camera) turned and zoomed about its pivot by `orbit`."""
    if orbit.identity:
        return camera
    world = np.asarray(camera.world, dtype=float)
    rot = world[:3, :3] / np.maximum(np.linalg.norm(world[:3, :3], axis=0), 1e-12)
    pos = world[:3, 3]
    forward, right = -rot[:, 2], rot[:, 0]
    depth = max(float(np.dot(-pos, forward)), 1.0)
    pivot = pos + forward * depth
    turn = _axis_rotation(np.array([0.0, 1.0, 0.0]), orbit.yaw) @ _axis_rotation(right, -orbit.pitch)
    out = np.eye(4)
    out[:3, :3] = turn @ rot
    out[:3, 3] = pivot + orbit.zoom * (turn @ (pos - pivot))
    far = max(camera.far, camera.far * orbit.zoom)
    return replace(camera, world=out, far=far)
