"""Multisampling (--msaa, render/targets.py): the edges of a known triangle against its
analytic coverage, with and without samples; the scene's depth (lens flares, soft particles)
still read after the multisampled depth is resolved; a driver's limit said, not failed."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.meshes import MeshData
from kzplayer.render.frame import Frame, ModelDraw
from kzplayer.render.renderer import Renderer
from kzplayer.values import Color4
from tests.render.helpers import camera, particles
from tests.render.test_representations import flare_light, wall

SIZE = (96, 64)
TRIANGLE = np.array([(-2.9, -1.7, 0.0), (2.3, -0.6, 0.0), (-0.4, 2.1, 0.0)], np.float32)
WHITE = {"Model3D.Color": Color4(0, 0, 0, 1), "Model3D.AmbientColor": Color4(0, 0, 0, 1),
         "Model3D.EmissiveColor": Color4(1, 1, 1, 1)}.get


def triangle_mesh() -> MeshData:
    normals = np.tile(np.array([0.0, 0.0, 1.0], np.float32), (3, 1))
    return MeshData("triangle", TRIANGLE, normals, None, np.array([[0, 1, 2]], np.uint32))


def coverage(cam, size, sub=32) -> np.ndarray:
    """The part of each pixel the projected triangle covers, (H, W), by `sub` x `sub` points
    a pixel (the truth: error under 1 / sub)."""
    w, h = size
    clip = (cam.projection(w / h) @ cam.view @ np.c_[TRIANGLE, np.ones(3)].T).T
    ndc = clip[:, :2] / clip[:, 3:4]
    px = np.c_[(ndc[:, 0] + 1) / 2 * w, (1 - ndc[:, 1]) / 2 * h]
    offsets = (np.arange(sub) + 0.5) / sub
    xs = (np.arange(w)[:, None] + offsets[None, :]).ravel()
    ys = (np.arange(h)[:, None] + offsets[None, :]).ravel()
    X, Y = np.meshgrid(xs, ys)
    inside = np.ones_like(X, bool)
    for k in range(3):                                     # the same side of every edge
        (x0, y0), (x1, y1), (x2, y2) = px[k], px[(k + 1) % 3], px[(k + 2) % 3]
        side = (x1 - x0) * (Y - y0) - (y1 - y0) * (X - x0)
        inside &= np.sign(side) == np.sign((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0))
    return inside.reshape(h, sub, w, sub).mean(axis=(1, 3))


def drawn(ctx, samples) -> np.ndarray:
    renderer = Renderer(ctx, SIZE, samples=samples)
    try:
        renderer.draw(Frame(models=[ModelDraw("t", triangle_mesh(), np.eye(4), WHITE)]), camera())
        return renderer.read_linear()[..., 0]
    finally:
        renderer.release()


def test_msaa_brings_the_edge_pixels_nearer_their_analytic_coverage(ctx):
    truth = coverage(camera(), SIZE)
    edge = (truth > 0.02) & (truth < 0.98)
    assert edge.sum() > 60
    errors = {n: np.abs(drawn(ctx, n) - truth)[edge].mean() for n in (0, 4)}
    plain, msaa = errors[0], errors[min(4, ctx.max_samples)]
    assert plain > 0.15                       # one sample a pixel: all or nothing
    assert msaa < 0.5 * plain                 # four samples: coverage in quarters
    for n in (0, 4):                          # inside and outside unchanged, the area kept
        image = drawn(ctx, n)
        assert np.array_equal(image[truth >= 0.999], np.ones((truth >= 0.999).sum(), np.float32))
        assert np.all(image[truth <= 0.0] == 0.0)
        assert image.sum() == pytest.approx(truth.sum(), rel=0.02)


def test_the_scene_depth_is_read_from_the_resolved_multisampled_depth(ctx):
    renderer = Renderer(ctx, (64, 64), samples=4)
    try:
        cam = camera(6.0)
        props = {"Model3D.Color": (0.3, 0.3, 0.3, 1.0)}.get
        nothing = flare_light(renderer, ctx, [], cam)
        in_front = flare_light(renderer, ctx, [ModelDraw("wall", wall(2.0), np.eye(4), props)], cam)
        assert nothing > 10.0 and in_front == 0.0
    finally:
        renderer.release()


def test_more_samples_than_the_driver_takes_draw_with_its_most_and_say_so(ctx):
    renderer = Renderer(ctx, (16, 16), samples=ctx.max_samples * 2)
    try:
        assert renderer.targets.samples == ctx.max_samples
        assert [d.rule for d in renderer.problems] == ["play.msaa-limit"]
        renderer.draw(Frame(emitters=[]), camera())
        assert renderer.read().shape == (16, 16, 3)
    finally:
        renderer.release()
