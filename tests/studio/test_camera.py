"""The mouse camera: orbiting keeps the distance to the pivot, zoom scales it, pitch stops
short of the pole, no move is the camera itself."""
from __future__ import annotations

import numpy as np

from kzplayer.render.camera import Camera
from kzplayer.studio.camera import MAX_PITCH, Orbit, orbit_camera


def camera_at(z: float) -> Camera:
    world = np.eye(4)
    world[2, 3] = z            # on +Z looking down -Z at the origin
    return Camera(world)


def test_no_move_is_the_camera_itself():
    cam = camera_at(8.0)
    assert orbit_camera(cam, Orbit()) is cam


def test_a_quarter_turn_puts_the_camera_on_the_x_axis_still_looking_at_the_pivot():
    cam = orbit_camera(camera_at(8.0), Orbit(yaw=90.0))
    assert np.allclose(cam.position, [8.0, 0.0, 0.0], atol=1e-9)
    forward = -cam.world[:3, 2]
    assert np.allclose(forward, [-1.0, 0.0, 0.0], atol=1e-9)


def test_zoom_scales_the_distance_and_pitch_is_bounded():
    cam = orbit_camera(camera_at(8.0), Orbit(zoom=0.5))
    assert np.allclose(cam.position, [0.0, 0.0, 4.0])
    o = Orbit().moved(d_pitch=500.0)
    assert o.pitch == MAX_PITCH
    up = orbit_camera(camera_at(8.0), o)
    assert np.isclose(np.linalg.norm(up.position), 8.0) and up.position[1] > 7.9
