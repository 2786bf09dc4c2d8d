"""The scene: Model3D nodes drawn with the simple lit material at their transforms, writing
depth; DirectionalLight, PointLight and SpotLight nodes (Kanzi's types and properties)
lighting them by Lambert's law; particles hidden behind scene geometry; lit particles; and
light-casting particles (the brightest, capped) lighting the floor. Pixels are read in
linear light, so the expected values are the formulas of docs/rendering.md."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
import trimesh

from kzplayer.gpu.views import RecordBuffers
import kzplayer
from kzplayer.bindings import resolve
from kzplayer.render.camera import Camera
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.lights import LIGHTS_PER_CASTER
from kzplayer.render.renderer import Renderer

from tests.render.helpers import draw, emitter, particles

SIZE = (64, 64)


def floor_mesh(folder):
    """A 20 m square facing +Y, finely divided (its lighting is per fragment anyway)."""
    (folder / "meshes").mkdir(exist_ok=True)
    plane = trimesh.Trimesh(vertices=[(-10, 0, 10), (10, 0, 10), (10, 0, -10), (-10, 0, -10)],
                            faces=[(0, 1, 2), (0, 2, 3)], process=False)
    plane.export(folder / "meshes" / "floor.glb")
    wall = trimesh.creation.box(extents=(4, 4, 0.2))
    wall.unmerge_vertices()             # flat faces: a normal per face, not one per corner
    wall.export(folder / "meshes" / "wall.glb")


def scene(tmp_path, nodes: str, extra_meshes: str = "") -> tuple:
    floor_mesh(tmp_path)
    text = f"""<?xml version="1.0" encoding="utf-8"?>
<Project name="Scene" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Model3D name="Floor">
      <Property name="Model3D.Mesh">Meshes/Floor</Property>
      <Property name="Model3D.Color">Color4(1, 1, 1, 1)</Property>
      <Property name="Model3D.AmbientColor">Color4(0, 0, 0, 1)</Property>
    </Model3D>
    {nodes}
  </Scene></Screen></Screens>
  <Meshes>
    <Mesh name="Floor"><Property name="Mesh.File">meshes/floor.glb</Property></Mesh>
    <Mesh name="Wall"><Property name="Mesh.File">meshes/wall.glb</Property></Mesh>
    {extra_meshes}
  </Meshes>
</Project>"""
    path = tmp_path / "scene.kzm"
    path.write_text(text)
    project = kzplayer.load(str(path))
    assert [d for d in project.diagnostics if d.severity.name != "NOTE"] == []
    builder = FrameBuilder(project, resolve(project))
    return project, builder


def top_down(height=6.0):
    """A camera above the origin looking straight down (-Z of the camera = world -Y)."""
    world = np.eye(4)
    world[:3, :3] = [[1, 0, 0], [0, 0, 1], [0, -1, 0]]      # rotate -90 degrees about X
    world[:3, 3] = (0, height, 0)
    return Camera(world)


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE)
    yield r
    r.release()


def shot(renderer, builder, cam=None, sim=None, edit=None):
    frame = builder.build(sim or SimpleNamespace(emitters=[]))
    if edit:
        edit(frame)
    renderer.draw(frame, cam or top_down())
    return renderer.read_linear(), frame


def light(kind, rotation=(0, 0, 0), at=(0, 0, 0), **props):
    body = "".join(f'<Property name="{k.replace("_", ".", 1)}">{v}</Property>' for k, v in props.items())
    return (f'<{kind} name="{kind}"><Property name="Node3D.RenderTransformation">'
            f'Srt3D(1,1,1, {rotation[0]},{rotation[1]},{rotation[2]}, {at[0]},{at[1]},{at[2]})</Property>{body}</{kind}>')


@pytest.mark.parametrize("tilt, expected", [(0, 1.0), (60, 0.5), (80, math.cos(math.radians(80)))])
def test_a_directional_light_lights_the_floor_by_the_cosine_of_its_angle(renderer, tmp_path, tilt, expected):
    # -90 about X points the light's -Z straight down; `tilt` more leans it over
    _, builder = scene(tmp_path, light("DirectionalLight", rotation=(-90 + tilt, 0, 0)))
    img, frame = shot(renderer, builder)
    assert len(frame.lights.directional) == 1 and len(frame.models) == 1
    assert np.allclose(img[32, 32], expected, atol=2e-3)
    assert np.allclose(img[5:-5, 5:-5], expected, atol=2e-3)      # a directional light is everywhere the same


def test_colour_colour_scale_and_enabled(renderer, tmp_path):
    _, builder = scene(tmp_path, light("DirectionalLight", rotation=(-90, 0, 0),
                                       DirectionalLight_Color="Color4(1, 0.5, 0, 1)", Light_ColorScale="0.5"))
    img, _ = shot(renderer, builder)
    assert np.allclose(img[32, 32], (0.5, 0.5 * 0.21404, 0.0), atol=2e-3)     # sRGB 0.5 is 0.214 linear
    _, builder = scene(tmp_path, light("DirectionalLight", rotation=(-90, 0, 0), Light_Enabled="false"))
    assert shot(renderer, builder)[0].max() == 0.0
    _, builder = scene(tmp_path, light("DirectionalLight", rotation=(-90, 0, 0), Node_Visible="false"))
    assert shot(renderer, builder)[0].max() == 0.0


def test_a_point_light_falls_off_by_its_attenuation(renderer, tmp_path):
    _, builder = scene(tmp_path, light("PointLight", at=(0, 1, 0), PointLight_Attenuation="(1, 0, 1)"))
    img, _ = shot(renderer, builder)
    # straight below: distance 1, N.L = 1, 1 / (1 + 1^2)
    assert np.allclose(img[32, 32], 0.5, atol=5e-3)
    # 2 m off to the side (x = 2 is 2 / 6 / tan(22.5) of the half-width on screen)
    col = 32 + round(2 / 6 / math.tan(math.radians(22.5)) * 32)
    d = math.sqrt(5)
    assert np.allclose(img[32, col], (1 / d) / (1 + d * d), atol=0.01)


def test_a_spot_light_lights_its_cone_only(renderer, tmp_path):
    _, builder = scene(tmp_path, light("SpotLight", rotation=(-90, 0, 0), at=(0, 2, 0),
                                       SpotLight_CutoffAngle="30", SpotLight_InnerAngle="30"))
    img, frame = shot(renderer, builder)
    assert len(frame.lights.spot) == 1
    radius = 2 * math.tan(math.radians(30)) / 6 / math.tan(math.radians(22.5)) * 32     # pixels
    rows, cols = np.indices(img.shape[:2])
    r = np.hypot(rows + 0.5 - 32, cols + 0.5 - 32)
    lit = img[..., 0] > 0
    assert lit[r < radius - 1.5].all() and not lit[r > radius + 1.5].any()
    assert np.allclose(img[32, 32], 1.0, atol=5e-3)         # straight below, inside the inner angle


def test_scene_geometry_hides_particles_behind_it(ctx, renderer, tmp_path):
    wall = ('<Model3D name="Wall"><Property name="Model3D.Mesh">Meshes/Wall</Property>'
            '<Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, -2,0,0)</Property></Model3D>')
    _, builder = scene(tmp_path, wall + light("DirectionalLight"))
    cam = Camera(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 10.0], [0, 0, 0, 1]]))
    # two particles at x = -2 (behind the wall, which spans x in [-4, 0] at z = 0) and x = +2
    records = particles([(-2, 0, -1.0), (2, 0, -1.0)], scale=0.6)
    buf = RecordBuffers(ctx, records)
    try:
        def add(frame):
            frame.models = [m for m in frame.models if m.key.endswith("Wall")]
            frame.emitters = [emitter(buf, 2)]
        img, _ = shot(renderer, builder, cam=cam, edit=add)
    finally:
        buf.release()
    row = img.shape[0] // 2
    px = 2 / 11 / math.tan(math.radians(22.5)) * 32       # 2 m aside at 11 m, in pixels
    hidden_at, shown_at = int(32 - px), int(32 + px)
    wall_colour = img[row, 8]
    assert np.allclose(img[row, hidden_at], wall_colour, atol=1e-4)      # only the wall there
    assert img[row, shown_at].sum() > 0.3                                # the other one glows


def test_a_lit_particle_takes_the_lights_colour_an_unlit_one_does_not(ctx, renderer, tmp_path):
    _, builder = scene(tmp_path, light("DirectionalLight", rotation=(0, 0, 0),
                                       DirectionalLight_Color="Color4(1, 0, 0, 1)"))
    cam = Camera(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 10.0], [0, 0, 0, 1]]))
    records = particles([(0, 1, 0)], scale=3.0)
    buf = RecordBuffers(ctx, records)
    looks = {}
    try:
        for lit in (False, True):
            def add(frame, lit=lit):
                frame.models = []
                frame.emitters = [emitter(buf, 1, material="ParticlesColorOverLife",
                                          values={"Particle.ReceiveLight": lit,
                                                  "Particle.AmbientColor": (0, 0, 0, 1),
                                                  "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})]
            looks[lit], _ = shot(renderer, builder, cam=cam, edit=add)
    finally:
        buf.release()
    unlit, lit = looks[False].sum(axis=(0, 1)), looks[True].sum(axis=(0, 1))
    assert unlit[0] == pytest.approx(unlit[1]) == pytest.approx(unlit[2]) and unlit[0] > 0    # white
    # the light shines along -Z, into the camera-facing sprite (wrap lighting: N.L = 1 at the
    # centre): red only
    assert lit[0] > 0.5 * unlit[0] and lit[1] == 0 and lit[2] == 0


def test_light_casting_particles_light_the_floor_brightest_first_capped(ctx, renderer, tmp_path):
    _, builder = scene(tmp_path, "")
    n = LIGHTS_PER_CASTER + 4
    xs = np.linspace(-4.5, 4.5, n // 2)
    positions = [(x, 0.15, z) for z in (-1.5, 1.5) for x in xs]
    records = particles(positions, scale=0.01, lifetime=100.0)
    dim = [0, 5, 12, 19]                  # four dim ones: the brightest sixteen are the lights
    records["color"][dim, :3] = 0.3
    buf = RecordBuffers(ctx, records)
    try:
        def add(frame):
            frame.emitters = [emitter(buf, n, material="ParticlesColorOverLife", cast_light=True,
                                      values={"Particle.LightRange": 0.6, "Particle.Size": 0.01,
                                              "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})]
        img, frame = shot(renderer, builder, cam=top_down(height=13.0), edit=add)
    finally:
        buf.release()
    assert frame.lights.casters == 1
    k = 1 / 13 / math.tan(math.radians(22.5)) * 32         # pixels per metre on the floor
    for slot, (x, _, z) in enumerate(positions):
        # a pixel 0.3 m beside the particle (not under its own tiny sprite)
        px, pz = round(32 + (x + 0.3) * k - 0.5), round(32 + z * k - 0.5)
        assert 0 <= px < 64 and 0 <= pz < 64
        value = img[pz, px].sum()
        if slot in dim:
            assert value == 0.0, slot
        else:
            assert value > 0.05, slot


def test_soft_particles_fade_where_they_meet_the_scene(ctx, renderer, tmp_path):
    """A puff 0.3 m in front of a wall: with Particle.SoftDepth 0.8 its light over the wall
    is 0.3 / 0.8 of what it is without (a linear fade over the depth); 3 m in front, no fade."""
    wall = ('<Model3D name="Wall"><Property name="Model3D.Mesh">Meshes/Wall</Property>'
            '<Property name="Model3D.AmbientColor">Color4(0, 0, 0, 1)</Property></Model3D>')
    _, builder = scene(tmp_path, wall)
    cam = Camera(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 10.0], [0, 0, 0, 1]]))

    def puff(z, soft):
        records = particles([(0, 0, z)], scale=1.5)
        buf = RecordBuffers(ctx, records)
        try:
            def add(frame):
                frame.models = [m for m in frame.models if m.key.endswith("Wall")]
                frame.emitters = [emitter(buf, 1, material="ParticlesColorOverLife", blend="Additive",
                                          values={"Particle.SoftDepth": soft})]
            img, _ = shot(renderer, builder, cam=cam, edit=add)
            return img[32, 32].sum()
        finally:
            buf.release()
    # the wall's front face is at z = 0.1 (a 0.2 m thick slab), unlit: black
    assert puff(0.4, 0.8) / puff(0.4, 0.0) == pytest.approx(0.3 / 0.8, abs=0.02)
    assert puff(3.0, 0.8) / puff(3.0, 0.0) == pytest.approx(1.0, abs=1e-4)


def test_a_model_with_node_opacity_composites_as_alpha(ctx, renderer, tmp_path):
    wall = ('<Model3D name="Wall"><Property name="Model3D.Mesh">Meshes/Wall</Property>'
            '<Property name="Model3D.Color">Color4(1, 0, 0, 1)</Property>'
            '<Property name="Model3D.AmbientColor">Color4(1, 1, 1, 1)</Property>'
            '<Property name="Node.Opacity">0.25</Property></Model3D>')
    _, builder = scene(tmp_path, wall)
    cam = Camera(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 10.0], [0, 0, 0, 1]]))

    def only_wall(frame):
        frame.models = [m for m in frame.models if m.key.endswith("Wall")]
    img, frame = shot(renderer, builder, cam=cam, edit=only_wall)
    assert not frame.models[0].opaque
    # red, ambient 1: a quarter of it over black
    assert np.allclose(img[32, 32], (0.25, 0.0, 0.0), atol=2e-3)
