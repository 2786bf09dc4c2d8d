"""Shadows (render/shadows.py, render/lighting.glsl): an occluder between a light and a plane
darkens exactly the region it projects to on the plane (the analytic projection along the
directional light, or from the spot light's position), within a pixel; a light without
CastShadows darkens nothing and the frame is as it was; a lit particle in the shadow is
darkened too."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.meshes import MeshData
from kzplayer.render.frame import Frame, ModelDraw
from kzplayer.render.lights import SceneLights
from kzplayer.render.renderer import Renderer
from kzplayer.values import Color4
from tests.render.helpers import camera, emitter, particles

SIZE = (160, 120)
AMBIENT = 0.05
GREY = {"Model3D.Color": Color4(1, 1, 1, 1), "Model3D.AmbientColor": Color4(0.25, 0.25, 0.25, 1)}.get


def horizontal_quad(half: float, height: float, centre=(0.0, 0.0)) -> MeshData:
    cx, cz = centre
    positions = np.array([(cx - half, height, cz - half), (cx + half, height, cz - half),
                          (cx + half, height, cz + half), (cx - half, height, cz + half)], np.float32)
    normals = np.tile(np.array([0.0, 1.0, 0.0], np.float32), (4, 1))
    return MeshData("quad", positions, normals, None, np.array([[0, 2, 1], [0, 3, 2]], np.uint32))


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE)
    yield r
    r.release()


def ground_points(cam):
    """Where each pixel's ray meets the plane y = 0 (world x, z), top row first."""
    w, h = SIZE
    inverse = np.linalg.inv(cam.projection(w / h) @ cam.view)
    cols, rows = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    ndc = np.stack([cols / w * 2 - 1, 1 - rows / h * 2, np.ones_like(cols), np.ones_like(cols)], axis=-1)
    far = ndc @ inverse.T
    far = far[..., :3] / far[..., 3:4]
    eye = cam.position
    d = far - eye
    s = -eye[1] / d[..., 1]
    return eye + d * s[..., None], eye, d


def seen_at(eye, d, height, half, centre):
    """Pixels whose ray meets the occluder square (at `height`) before the ground."""
    s = (height - eye[1]) / d[..., 1]
    p = eye + d * s[..., None]
    return (np.abs(p[..., 0] - centre[0]) <= half) & (np.abs(p[..., 2] - centre[1]) <= half)


def darkened(renderer, models, lights_on, lights_off, cam):
    renderer.draw(Frame(models=models, lights=lights_on), cam)
    shadowed = renderer.read_linear()[..., 0].astype(float)
    renderer.draw(Frame(models=models, lights=lights_off), cam)
    plain = renderer.read_linear()[..., 0].astype(float)
    return shadowed, plain


def check_region(shadowed, plain, expected, excluded, floor):
    lit = plain - floor                       # the light's share where nothing casts
    usable = (lit > 0.05) & ~excluded
    dark = (plain - shadowed) > 0.5 * lit
    wrong = (dark != expected) & usable
    assert (expected & usable).sum() > 150 and (~expected & usable).sum() > 1000
    # every disagreement is a pixel on the region's edge: a neighbour is on the other side
    pad = np.pad(expected, 1, mode="edge")
    edge = np.zeros_like(expected)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            edge |= pad[1 + dy:1 + dy + expected.shape[0], 1 + dx:1 + dx + expected.shape[1]] != expected
    assert not (wrong & ~edge).any(), f"{(wrong & ~edge).sum()} pixels off the shadow's edge are wrong"
    assert wrong.sum() <= 0.5 * edge[usable].sum()
    # and outside the shadow nothing changed at all
    np.testing.assert_allclose(shadowed[~expected & ~edge & ~excluded], plain[~expected & ~edge & ~excluded],
                               atol=1e-5)


def test_a_directional_lights_occluder_darkens_exactly_its_projection(renderer):
    cam = camera(10.0, pitch_deg=-90.0)
    direction = np.array([1.0, -1.0, 0.3]) / np.linalg.norm([1.0, -1.0, 0.3])
    height, half, centre = 2.0, 0.6, (0.0, 0.0)
    models = [ModelDraw("ground", horizontal_quad(6.0, 0.0), np.eye(4), GREY, order=0),
              ModelDraw("occluder", horizontal_quad(half, height, centre), np.eye(4), GREY, order=1)]
    colour = np.array([0.8, 0.8, 0.8])
    on = SceneLights(directional=[(direction, colour)], shadows=[("DirectionalLight", 0)])
    off = SceneLights(directional=[(direction, colour)])
    shadowed, plain = darkened(renderer, models, on, off, cam)
    ground, eye, d = ground_points(cam)
    back = ground - direction * (height / -direction[1])      # towards the light, up to the occluder
    expected = (np.abs(back[..., 0] - centre[0]) <= half) & (np.abs(back[..., 2] - centre[1]) <= half)
    check_region(shadowed, plain, expected, seen_at(eye, d, height, half, centre), floor=0.05)


def test_a_spot_lights_occluder_darkens_its_central_projection(renderer):
    cam = camera(10.0, pitch_deg=-90.0)
    position, height, half, centre = np.array([0.0, 6.0, 0.0]), 3.0, 0.5, (1.2, 0.3)
    cone = (math.cos(math.radians(60.0)), 1.0, 1.0)
    models = [ModelDraw("ground", horizontal_quad(6.0, 0.0), np.eye(4), GREY, order=0),
              ModelDraw("occluder", horizontal_quad(half, height, centre), np.eye(4), GREY, order=1)]
    spot = (position, np.array([0.0, -1.0, 0.0]), np.array([1.0, 1.0, 1.0]), np.array([1.0, 0.0, 0.0]), cone)
    on = SceneLights(spot=[spot], shadows=[("SpotLight", 0)])
    off = SceneLights(spot=[spot])
    shadowed, plain = darkened(renderer, models, on, off, cam)
    ground, eye, d = ground_points(cam)
    # the ray from the ground point to the light crosses the occluder's height at a fraction
    s = height / position[1]
    at = ground + (position - ground) * s
    expected = (np.abs(at[..., 0] - centre[0]) <= half) & (np.abs(at[..., 2] - centre[1]) <= half)
    check_region(shadowed, plain, expected, seen_at(eye, d, height, half, centre), floor=0.05)


def test_without_cast_shadows_the_frame_is_as_it_was(renderer):
    cam = camera(10.0, pitch_deg=-60.0)
    direction = np.array([0.3, -1.0, 0.2]) / np.linalg.norm([0.3, -1.0, 0.2])
    models = [ModelDraw("ground", horizontal_quad(6.0, 0.0), np.eye(4), GREY),
              ModelDraw("occluder", horizontal_quad(0.7, 1.5), np.eye(4), GREY)]
    renderer.draw(Frame(models=models, lights=SceneLights(directional=[(direction, np.ones(3))])), cam)
    first = renderer.read()
    assert renderer.inputs.shadow_maps == [] and renderer.shadows.maps == []     # no map was made
    renderer.draw(Frame(models=models, lights=SceneLights(directional=[(direction, np.ones(3))])), cam)
    assert np.array_equal(renderer.read(), first)


def test_mesh_particles_cast_like_models(renderer, ctx):
    """The occluder is a mesh particle (an opaque mesh emitter of one particle) instead."""
    cam = camera(10.0, pitch_deg=-90.0)
    direction = np.array([1.0, -1.0, 0.3]) / np.linalg.norm([1.0, -1.0, 0.3])
    height, half = 2.0, 0.6
    models = [ModelDraw("ground", horizontal_quad(6.0, 0.0), np.eye(4), GREY)]
    buf = RecordBuffers(ctx, particles([(0.0, height, 0.0)], scale=1.0))
    try:
        em = emitter(buf, 1, material="ParticlesColorOverLife", mesh=horizontal_quad(half, 0.0), blend="Opaque",
                     values={"ParticlesOverLife.OpacityEnd": 1.0})
        colour = np.array([0.8, 0.8, 0.8])
        frames = {}
        for shadows in (True, False):
            lights = SceneLights(directional=[(direction, colour)],
                                 shadows=[("DirectionalLight", 0)] if shadows else [])
            renderer.draw(Frame(models=models, emitters=[em], lights=lights), cam)
            frames[shadows] = renderer.read_linear()[..., 0].astype(float)
    finally:
        buf.release()
    ground, eye, d = ground_points(cam)
    back = ground - direction * (height / -direction[1])
    expected = (np.abs(back[..., 0]) <= half) & (np.abs(back[..., 2]) <= half)
    check_region(frames[True], frames[False], expected, seen_at(eye, d, height, half, (0.0, 0.0)), floor=0.05)


def test_a_lit_particle_in_the_shadow_is_darkened(renderer, ctx):
    """Smoke receives: a lit billboard under an occluder loses the light's share; one beside
    it keeps it."""
    cam = camera(10.0)
    models = [ModelDraw("roof", horizontal_quad(1.0, 3.0), np.eye(4), GREY)]
    down = (np.array([0.0, -1.0, 0.0]), np.array([1.0, 1.0, 1.0]))
    values = {"Particle.ReceiveLight": True, "Particle.AmbientColor": (0, 0, 0, 1), "Particle.BlendMode": "Alpha",
              "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)}
    light = {}
    for x in (0.0, 2.5):                          # under the roof, beside it
        buf = RecordBuffers(ctx, particles([(x, 1.0, 0.0)], scale=0.6))
        try:
            for shadows in (True, False):
                lights = SceneLights(directional=[down], shadows=[("DirectionalLight", 0)] if shadows else [])
                renderer.draw(Frame(models=models, emitters=[emitter(buf, 1, material="ParticlesColorOverLife",
                                                                     blend="Alpha", values=values)],
                                    lights=lights), cam)
                light[x, shadows] = float(renderer.read_linear()[28:, :, 0].sum())   # below the roof
        finally:
            buf.release()
    assert light[0.0, False] > 1.0 and light[2.5, False] > 1.0
    assert light[0.0, True] < 0.02 * light[0.0, False]            # in the shadow: no light but ambient (0)
    assert light[2.5, True] == pytest.approx(light[2.5, False], rel=1e-4)


def test_a_blended_emitter_casts_only_when_it_says_so(renderer, ctx):
    """Particle.CastShadows: a sprite's silhouette (where it is at least half opaque) darkens
    the ground round the point below it along the light; without it nothing does."""
    cam = camera(10.0, pitch_deg=-90.0)
    direction = np.array([1.0, -1.0, 0.0]) / math.sqrt(2.0)
    models = [ModelDraw("ground", horizontal_quad(6.0, 0.0), np.eye(4), GREY)]
    lights = SceneLights(directional=[(direction, np.ones(3) * 0.8)], shadows=[("DirectionalLight", 0)])
    buf = RecordBuffers(ctx, particles([(-1.5, 2.0, 0.5)], scale=1.0))
    images = {}
    try:
        for casts in (False, True):
            em = emitter(buf, 1, blend="Alpha", values={"Particle.BlendMode": "Alpha", "Particle.CastShadows": casts})
            renderer.draw(Frame(models=models, emitters=[em], lights=lights), cam)
            images[casts] = renderer.read_linear()[..., 0].astype(float)
        renderer.draw(Frame(models=models, lights=lights), cam)
        ground_only = renderer.read_linear()[..., 0].astype(float)
    finally:
        buf.release()
    ground, eye, d = ground_points(cam)
    r = np.hypot(ground[..., 0] - 0.5, ground[..., 2] - 0.5)        # 2 m along the light: x + 2
    seen = seen_at(eye, d, 2.0, 0.6, (-1.5, 0.5))                    # the sprite itself, from above
    assert not (seen & (r < 1.5)).any()
    np.testing.assert_allclose(images[False][~seen], ground_only[~seen], atol=1e-5)    # casts nothing
    far = (r > 1.2) & ~seen
    np.testing.assert_allclose(images[True][far], ground_only[far], atol=1e-5)         # only near its shadow
    core = r < 0.15
    assert core.sum() > 4 and (images[True][core] < ground_only[core] - 0.3).all()      # the silhouette's middle
