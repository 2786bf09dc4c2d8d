"""The view the player renders from: the project's Camera node, or a fit-to-content fallback.

Conventions (Kanzi's, see docs/play.md):
* `Node3D.RenderTransformation` is an Srt3D: scale, Euler rotation in DEGREES applied
  X first, then Y, then Z (M = T * Rz * Ry * Rx * S), translation. Node transforms
  compose down the tree, so the Camera's world matrix is the product of its ancestors'.
* A camera looks down its local -Z with +Y up (right-handed, like OpenGL).
* Perspective with Kanzi's defaults: 45 degree vertical field of view (`Camera.FieldOfView`),
  near 0.1 (`Camera.NearPlane`), far 1000 (`Camera.FarPlane`); the aspect ratio is the image's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kzplayer.transforms import world_matrix
from kzplayer.values import as_float

DEFAULT_FOV_DEG = 45.0
DEFAULT_NEAR = 0.1
DEFAULT_FAR = 1000.0


def perspective(fov_y_deg: float, aspect: float, near: float, far: float) -> np.ndarray:
    """OpenGL perspective projection (clip z in [-w, w])."""
    f = 1.0 / math.tan(math.radians(fov_y_deg) / 2.0)
    return np.array([
        [f / aspect, 0, 0, 0],
        [0, f, 0, 0],
        [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
        [0, 0, -1, 0],
    ])


@dataclass
class Camera:
    """A perspective camera: `world` is its 4x4 world matrix (its rigid part is used)."""
    world: np.ndarray
    fov_y: float = DEFAULT_FOV_DEG
    near: float = DEFAULT_NEAR
    far: float = DEFAULT_FAR

    @property
    def view(self) -> np.ndarray:
        # Scale on a camera node would skew the view; keep rotation and translation only.
        rot = self.world[:3, :3]
        rot = rot / np.maximum(np.linalg.norm(rot, axis=0), 1e-12)
        view = np.eye(4)
        view[:3, :3] = rot.T
        view[:3, 3] = -rot.T @ self.world[:3, 3]
        return view

    def projection(self, aspect: float) -> np.ndarray:
        return perspective(self.fov_y, aspect, self.near, self.far)

    @property
    def position(self) -> np.ndarray:
        return self.world[:3, 3].copy()


def find_camera_item(project, scene=None):
    """The first Camera in tree order (inside `scene` when given), or None."""
    root = scene if scene is not None else project.root
    for item in root.walk():
        if item.type == "Camera":
            return item
    return None


def camera_from_item(item, value) -> Camera:
    """A Camera from a Camera node, with Kanzi's defaults for what the node does not set."""
    fov = as_float(value(item, "Camera.FieldOfView"), DEFAULT_FOV_DEG)
    near = as_float(value(item, "Camera.NearPlane"), DEFAULT_NEAR)
    far = as_float(value(item, "Camera.FarPlane"), DEFAULT_FAR)
    if not (0.0 < fov < 180.0):
        fov = DEFAULT_FOV_DEG
    if not (0.0 < near < far):
        near, far = DEFAULT_NEAR, DEFAULT_FAR
    return Camera(world_matrix(item, value), fov, near, far)


def fit_camera(points: np.ndarray, radius: float, aspect: float,
               fov_y: float = DEFAULT_FOV_DEG) -> Camera:
    """A camera on +Z of the content's centre, looking down -Z, far enough back that the
    box around `points` (each grown by `radius`) fits both fields of view with a 10 %
    margin: the nearest face of the box is what must fit, so its depth is added."""
    pts = np.atleast_2d(np.asarray(points, dtype=float))
    grow = max(radius, 0.25)
    lo, hi = pts.min(axis=0) - grow, pts.max(axis=0) + grow
    centre, half = (lo + hi) / 2.0, (hi - lo) / 2.0
    tan_y = math.tan(math.radians(fov_y) / 2.0)
    tan_x = tan_y * aspect
    distance = 1.1 * max(half[0] / tan_x, half[1] / tan_y) + half[2]
    world = np.eye(4)
    world[:3, 3] = centre + np.array([0.0, 0.0, distance])
    far = max(DEFAULT_FAR, 4 * distance)
    return Camera(world, fov_y, DEFAULT_NEAR, far)


def choose_camera(project, value, aspect: float, seen: np.ndarray | None = None) -> tuple[Camera, str]:
    """The project's Camera, else a fit-to-content camera. `seen` is where particles were
    found by a probe run (world positions, see kzplayer.render.probe); without it the
    content is estimated from the emitters' properties. Returns (camera, how) where `how`
    says which, for the summary line."""
    item = find_camera_item(project)
    if item is not None:
        return camera_from_item(item, value), f"camera {item.path}"
    if seen is not None and len(seen):
        return fit_camera(seen, 0.0, aspect), "fit-to-content camera (the project has no Camera)"
    points, reach = _content_estimate(project, value)
    return fit_camera(points, reach, aspect), "fit-to-content camera (the project has no Camera)"


def _content_estimate(project, value) -> tuple[np.ndarray, float]:
    """Where the particles could be, from the emitters' properties alone (no simulation):
    every emitter's world position, and the farthest a particle can get from it in a
    straight flight (shape size + top speed x top lifetime), capped to keep a sane view."""
    points, reach = [], 0.0
    for item in project.walk():
        if item.type != "ParticleEmitter":
            continue
        points.append(world_matrix(item, value)[:3, 3])
        shape = max((as_float(value(item, n), 0.0) for n in
                     ("Emission.Radius", "Emission.OuterRadius", "Emission.MajorRadius")), default=0.0)
        extents = value(item, "Emission.BoxExtents")
        if isinstance(extents, tuple) and len(extents) >= 3:
            shape = max(shape, float(np.linalg.norm(extents[:3])))
        speed = as_float(value(item, "Emission.InitialVelocityStrength"), 1.0) \
            + abs(as_float(value(item, "Emission.InitialVelocityStrengthVariance"), 0.0))
        life = as_float(value(item, "Emission.Lifetime"), 1.0) \
            + abs(as_float(value(item, "Emission.LifetimeVariance"), 0.0))
        reach = max(reach, min(shape + speed * life, 100.0))
    if not points:
        points = [np.zeros(3)]
    return np.array(points), reach
