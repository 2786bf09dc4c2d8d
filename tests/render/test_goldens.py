"""Golden images (128 x 72) of what the renderer draws, from hand-made particles (no
simulation, so only a change of the drawing moves them): every stock rendering material,
each SortingType, mesh particles, and a lit scene. What each must show is tested in
test_materials, test_sort, test_mesh_particles and test_scene; these catch everything else
(a changed sprite, a lost texture sheet, light in the wrong place).

After an intended change: KZPLAYER_UPDATE_GOLDENS=1 python -m pytest tests/render/test_goldens.py,
then look at every image in tests/render/golden/render/ before committing it."""
from __future__ import annotations

import math
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.meshes import load_mesh
from kzplayer.render.camera import Camera
from kzplayer.render.frame import Frame, ModelDraw
from kzplayer.render.lights import SceneLights
from kzplayer.render.renderer import Renderer
from kzplayer.resources import samples_dir

from tests.render.helpers import camera, emitter, particles
from tests.test_samples import UPDATE, compare, MAX_DIFFERING, MAX_MEAN_DIFF

GOLDEN = Path(__file__).parent / "golden" / "render"
SIZE = (128, 72)
ASSETS = samples_dir() / "assets"


def assets(name):
    return ASSETS / name


def check(renderer, name):
    image = renderer.read()
    assert image.shape == (SIZE[1], SIZE[0], 3)
    assert (image.max(axis=2) > 40).sum() > 30, f"{name}: nothing to see"
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        iio.imwrite(path, image)
    assert path.is_file(), f"no golden image {path}: run with KZPLAYER_UPDATE_GOLDENS=1"
    mean, differing = compare(image, iio.imread(path))
    assert mean <= MAX_MEAN_DIFF and differing <= MAX_DIFFERING, (
        f"{name}: mean abs diff {mean:.2f} (max {MAX_MEAN_DIFF}), {differing:.1%} differ")


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE)
    yield r
    r.release()


def draw_frame(renderer, ctx, records_and_looks, cam, lights=None, models=()):
    bufs = []
    try:
        ems = []
        for k, (records, look) in enumerate(records_and_looks):
            buf = RecordBuffers(ctx, records)
            bufs.append(buf)
            ems.append(emitter(buf, len(records), key=f"e{k}", order=k, **look))
        renderer.draw(Frame(emitters=ems, models=list(models), lights=lights or SceneLights()), cam)
    finally:
        for buf in bufs:
            buf.release()


def a_life(n=9, lifetime=2.0, spread=8.0, scale=1.0):
    """n particles in a row, left to right from birth to death."""
    records = particles([(spread * (k / (n - 1) - 0.5), 0, 0) for k in range(n)], lifetime=lifetime, scale=scale)
    records["age"] = np.linspace(0.0, lifetime * 0.999, n)
    return records


MATERIALS = {
    "ParticlesDefault": {},
    "ParticlesColorOverLife": {"ColorOverLife.StartColor": (1, 0.9, 0.3, 1), "ColorOverLife.EndColor": (0.2, 0.4, 1, 1),
                               "ParticlesOverLife.ScaleStart": (0.5, 0.5, 0.5), "ParticlesOverLife.ScaleEnd": (1.5, 1.5, 1.5)},
    "ParticlesColorOverLife3Stop": {"ColorOverLife.StartColor": (1, 1, 0.8, 1), "ParticlesOverLife.ColorMid": (1, 0.45, 0.05, 1),
                                    "ParticlesOverLife.ColorMidPoint": 0.3, "ColorOverLife.EndColor": (0.4, 0.0, 0.1, 1),
                                    "ParticlesOverLife.ScaleStart": (0.4, 0.4, 0.4), "ParticlesOverLife.ScaleMid": (1.4, 1.4, 1.4),
                                    "ParticlesOverLife.ScaleMidPoint": 0.3, "ParticlesOverLife.ScaleEnd": (0.8, 0.8, 0.8),
                                    "ParticlesOverLife.OpacityMid": 1.0, "ParticlesOverLife.OpacityEnd": 0.3},
    "ColorOverLife_ImageUV": {"ColorOverLife.StartColor": (1, 0.8, 0.6, 1), "ColorOverLife.EndColor": (0.5, 0.5, 0.6, 1),
                              "Particle.Texture": "textures/smoke_sheet.png", "Particle.TextureGrid": (4, 4)},
}


@pytest.mark.parametrize("material", MATERIALS)
def test_every_stock_material_over_a_life(renderer, ctx, material):
    blend = "Alpha" if material == "ColorOverLife_ImageUV" else "Additive"
    look = dict(material=material, values={"Particle.Size": 1.0, **MATERIALS[material]}, blend=blend,
                files=lambda name: assets(name))
    draw_frame(renderer, ctx, [(a_life(), look)], camera(distance=7.0))
    check(renderer, f"material_{material}")


def stack():
    """A 4 x 4 x 4 lattice of large, 70 % opaque sprites, coloured by position, in slot order
    from the (-x, -y, -z) corner: seen from that corner's side, Identity draws the near ones
    first (as ReverseDepth) and only Depth composites them back to front."""
    g = np.linspace(-1.2, 1.2, 4)
    pts = np.array([(x, y, z) for x in g for y in g for z in g])
    records = particles(pts, scale=0.9, color=(1, 1, 1, 0.7))
    records["color"][:, :3] = (pts - pts.min()) / (pts.max() - pts.min())
    return records


@pytest.mark.parametrize("sorting", ["Identity", "Depth", "ReverseDepth", "Unsorted"])
def test_each_sorting_type(renderer, ctx, sorting, tmp_path):
    from PIL import Image
    Image.fromarray(np.full((8, 8, 4), 255, np.uint8), "RGBA").save(tmp_path / "white.png")
    look = dict(material="ParticlesColorOverLife", sorting=sorting, blend="Alpha", files=lambda name: tmp_path / name,
                values={"Particle.Size": 1.0, "Particle.Texture": "white.png", "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})
    draw_frame(renderer, ctx, [(stack(), look)], camera(distance=8.0, yaw_deg=-145.0, pitch_deg=-25.0))
    check(renderer, f"sorting_{sorting}")


def test_mesh_particles(renderer, ctx):
    rock = load_mesh(assets("meshes/rock.glb"))
    rng = np.random.default_rng(5)
    records = particles([(x, 0.3 * math.sin(2 * x), 0) for x in np.linspace(-3.5, 3.5, 8)], scale=0.5)
    records["rotation"] = rng.uniform(-3, 3, (8, 3))
    records["scale"] *= rng.uniform(0.6, 1.3, (8, 1))
    lights = SceneLights(directional=[(np.array([0.5, -0.7, -0.5]) / np.linalg.norm([0.5, -0.7, -0.5]),
                                       np.array([1.0, 0.95, 0.85]))])
    look = dict(material="ParticlesColorOverLife", mesh=rock, blend="Opaque",
                values={"Particle.ReceiveLight": True, "ColorOverLife.StartColor": (0.7, 0.62, 0.52, 1),
                        "ColorOverLife.EndColor": (0.7, 0.62, 0.52, 1), "ParticlesOverLife.OpacityEnd": 1.0})
    draw_frame(renderer, ctx, [(records, look)], camera(distance=6.0, pitch_deg=-15.0), lights=lights)
    check(renderer, "mesh_particles")


def test_a_lit_scene(renderer, ctx):
    """A floor and a rock lit by a directional, a point and a spot light, a lit smoke puff,
    and a few light-casting sparks over the floor."""
    floor = load_mesh(assets("meshes/floor.glb"))
    rock = load_mesh(assets("meshes/rock.glb"))
    props = {"Model3D.Color": (0.8, 0.8, 0.8, 1), "Model3D.AmbientColor": (0.03, 0.03, 0.04, 1),
             "Model3D.Texture": "textures/ground.png"}
    rock_world = np.diag([0.6, 0.6, 0.6, 1.0])
    rock_world[:3, 3] = (1.2, 0.3, -0.5)
    models = [ModelDraw("floor", floor, np.eye(4), props.get, files=assets),
              ModelDraw("rock", rock, rock_world, {**props, "Model3D.Texture": ""}.get, files=assets, order=1)]
    # (Model3D colours are sRGB like every colour property; the renderer decodes them)
    lights = SceneLights(
        directional=[(np.array([0.0, -0.6, -0.8]), np.array([0.15, 0.17, 0.25]))],
        point=[(np.array([-1.5, 0.8, 0.5]), np.array([1.0, 0.5, 0.15]), np.array([1.0, 0.0, 0.8]))],
        spot=[(np.array([1.0, 3.0, 0.0]), np.array([0.0, -1.0, 0.0]), np.array([0.6, 0.8, 1.0]),
               np.array([1.0, 0.0, 0.0]), (math.cos(math.radians(28)), math.cos(math.radians(18)), 1.0))])
    smoke = particles([(-0.2, 1.1, 0.3)], scale=2.2, lifetime=4.0)
    smoke["age"] = 1.0
    sparks = particles([(x, 0.12, 1.2 + 0.4 * math.cos(3 * x)) for x in np.linspace(-2.5, 2.5, 6)], scale=0.3)
    sparks["color"][:, :3] = (1.0, 0.6, 0.2)
    looks = [(smoke, dict(material="ParticlesColorOverLife", sorting="Depth", blend="Alpha", files=assets,
                          values={"Particle.Texture": "textures/smoke_sheet.png", "Particle.TextureGrid": (4, 4),
                                  "Particle.ReceiveLight": True, "Particle.AmbientColor": (0.05, 0.05, 0.06, 1),
                                  "ParticlesOverLife.OpacityEnd": 0.5})),
             (sparks, dict(material="ParticlesDefault", cast_light=True,
                           values={"Particle.Size": 0.2, "Particle.LightRange": 1.0, "Particle.LightIntensity": 1.5}))]
    world = np.eye(4)
    c, s = math.cos(math.radians(-25)), math.sin(math.radians(-25))
    world[:3, :3] = [[1, 0, 0], [0, c, -s], [0, s, c]]
    world[:3, 3] = (0, 3.0, 6.0)
    draw_frame(renderer, ctx, looks, Camera(world), lights=lights, models=models)
    check(renderer, "lit_scene")
