"""The view: Srt3D -> matrices with Kanzi's conventions, projections checked against the
pinhole formula, fit-to-content keeping everything in view."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from kzplayer.render.camera import Camera, DEFAULT_FOV_DEG, camera_from_item, fit_camera
from kzplayer.transforms import srt_matrix, world_matrix
from kzplayer.values import Srt3D


def ndc(camera: Camera, point, aspect=1.0):
    clip = camera.projection(aspect) @ camera.view @ np.array([*point, 1.0])
    return clip[:3] / clip[3]


def test_rotation_applies_x_then_y_then_z():
    # (0,1,0) under X+90 goes to (0,0,1); then Y+90 takes (0,0,1) to (1,0,0).
    # The other order (Y first) would give (0,0,1).
    m = srt_matrix(Srt3D(rotation=(90, 90, 0)))
    assert m[:3, :3] @ [0, 1, 0] == pytest.approx([1, 0, 0], abs=1e-12)


def test_scale_then_rotate_then_translate():
    m = srt_matrix(Srt3D(scale=(2, 1, 1), rotation=(0, 0, 90), translation=(5, 0, 0)))
    # x scaled to 2, rotated +90 about Z to +Y, then moved +5 along X.
    assert (m @ [1, 0, 0, 1])[:3] == pytest.approx([5, 2, 0], abs=1e-12)


def _node(srt, parent=None):
    return SimpleNamespace(parent=parent, srt=srt)


def _value(item, name):
    return item.srt if name == "Node3D.RenderTransformation" else None


def test_world_matrix_composes_down_the_tree():
    parent = _node(Srt3D(rotation=(0, 90, 0), translation=(0, 0, 0)))
    child = _node(Srt3D(translation=(0, 0, 1)), parent)
    # The child's +1 along Z, turned 90 degrees about the parent's Y, lies on +X.
    assert world_matrix(child, _value)[:3, 3] == pytest.approx([1, 0, 0], abs=1e-12)
    grand = _node(Srt3D(translation=(0, 2, 0)), _node(Srt3D(translation=(1, 0, 0))))
    assert world_matrix(grand, _value)[:3, 3] == pytest.approx([1, 2, 0])


def test_camera_looks_down_its_minus_z_with_kanzi_fov():
    cam = camera_from_item(_node(Srt3D(translation=(0, 0, 10))), _value)
    assert cam.fov_y == DEFAULT_FOV_DEG == 45.0
    assert ndc(cam, (0, 0, 0))[:2] == pytest.approx([0, 0], abs=1e-12)
    # Pinhole: y_ndc = y / (d * tan(fov/2)).
    assert ndc(cam, (0, 1, 0))[1] == pytest.approx(1 / (10 * math.tan(math.radians(22.5))))
    # Aspect 2: x is squeezed by the aspect ratio.
    assert ndc(cam, (1, 0, 0), aspect=2.0)[0] == pytest.approx(0.5 / (10 * math.tan(math.radians(22.5))))
    # Behind the camera is outside the clip volume (w < 0).
    clip = cam.projection(1.0) @ cam.view @ [0, 0, 20, 1]
    assert clip[3] < 0


def test_pitched_camera_sees_the_point_it_points_at():
    # 10 m up, pitched -90 about X: looks straight down at the origin; +Z world is screen down.
    cam = camera_from_item(_node(Srt3D(rotation=(-90, 0, 0), translation=(0, 10, 0))), _value)
    assert ndc(cam, (0, 0, 0))[:2] == pytest.approx([0, 0], abs=1e-9)
    assert ndc(cam, (0, 0, 1))[1] < 0


def test_camera_properties_override_defaults_and_bad_ones_fall_back():
    values = {"Camera.FieldOfView": 60.0, "Camera.NearPlane": 1.0, "Camera.FarPlane": 50.0}
    item = _node(Srt3D(translation=(0, 0, 5)))
    cam = camera_from_item(item, lambda it, n: values.get(n, _value(it, n)))
    assert (cam.fov_y, cam.near, cam.far) == (60.0, 1.0, 50.0)
    bad = {"Camera.FieldOfView": 0.0, "Camera.NearPlane": 5.0, "Camera.FarPlane": 1.0}
    cam = camera_from_item(item, lambda it, n: bad.get(n, _value(it, n)))
    assert (cam.fov_y, cam.near, cam.far) == (45.0, 0.1, 1000.0)


def test_scaled_camera_node_does_not_skew_the_view():
    cam = Camera(srt_matrix(Srt3D(scale=(3, 3, 3), translation=(0, 0, 10))))
    assert ndc(cam, (0, 1, 0))[1] == pytest.approx(1 / (10 * math.tan(math.radians(22.5))))


@pytest.mark.parametrize("aspect", [16 / 9, 1.0, 9 / 16])
def test_fit_to_content_keeps_every_reachable_point_in_view(aspect):
    emitters = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, -2.0]])
    reach = 3.0
    cam = fit_camera(emitters, reach, aspect)
    rng = np.random.default_rng(1)
    dirs = rng.normal(size=(500, 3))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    for centre in emitters:
        for p in centre + reach * dirs:
            x, y, _ = ndc(cam, p, aspect)
            assert -1 < x < 1 and -1 < y < 1
