"""NeL's representations (docs/rendering.md, "Representations"): what each must show,
measured on the picture against the projection of the particle (a line's pixels lie on its
segment, a ribbon follows the ballistic trajectory with N - 1 segments, a shockwave's radius
follows its over-life curve, a flare hides behind an opaque mesh), and a golden image of
each (128 x 72, hand-made particles: only a change of the drawing moves them).

After an intended change: KZPLAYER_UPDATE_GOLDENS=1 python -m pytest tests/render/test_representations.py,
then look at every image in tests/render/golden/render/ before committing it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.meshes import MeshData
from kzplayer.render.frame import Frame, ModelDraw
from kzplayer.render.renderer import Renderer

from tests.render.helpers import camera, emitter, particles
from tests.render.test_goldens import check

SIZE = (192, 108)
WARM = {"ColorOverLife.StartColor": (1.0, 0.85, 0.4, 1.0), "ColorOverLife.EndColor": (1.0, 0.85, 0.4, 1.0)}


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE)
    yield r
    r.release()


def to_pixels(cam, size, points) -> np.ndarray:
    """World points -> (column, row from the top) pixel coordinates, continuous."""
    p = np.c_[np.asarray(points, float).reshape(-1, 3), np.ones(len(np.asarray(points).reshape(-1, 3)))]
    clip = (cam.projection(size[0] / size[1]) @ cam.view @ p.T).T
    ndc = clip[:, :2] / clip[:, 3:4]
    return np.c_[(ndc[:, 0] + 1) / 2 * size[0], (1 - ndc[:, 1]) / 2 * size[1]]


def lit(image, threshold=12.0) -> np.ndarray:
    """(column, row) centres of the pixels brighter than threshold (sRGB 0..255)."""
    rows, cols = np.nonzero(image.max(axis=2) > threshold)
    return np.c_[cols + 0.5, rows + 0.5]


def distance_to_polyline(points, polyline) -> np.ndarray:
    a, b = polyline[:-1], polyline[1:]
    d = b - a
    t = np.clip(((points[:, None, :] - a[None]) * d[None]).sum(-1) / np.maximum((d * d).sum(-1), 1e-12)[None], 0, 1)
    nearest = a[None] + t[..., None] * d[None]
    return np.linalg.norm(points[:, None, :] - nearest, axis=-1).min(axis=1)


def render(renderer, ctx, records, cam, material, values, history=None, models=(), time=0.0, key="e", **fields):
    buf = RecordBuffers(ctx, records, history=history)
    try:
        em = emitter(buf, len(records), material=material, values={**WARM, **values}, key=key, **fields)
        renderer.draw(Frame(emitters=[em], models=list(models), time=time), cam)
        return renderer.read().astype(float)
    finally:
        buf.release()


# -- Particles_Dot ------------------------------------------------------------------------

def test_a_dot_is_one_pixel_where_the_particle_projects(renderer, ctx):
    cam = camera(10.0)
    p = (0.731, -0.412, 0.2)
    image = render(renderer, ctx, particles([p]), cam, "Particles_Dot", {})
    px = lit(image)
    assert len(px) == 1
    np.testing.assert_array_equal(np.floor(px[0]), np.floor(to_pixels(cam, SIZE, [p])[0]))


def test_a_wide_dot_is_a_disc_of_dot_size_pixels(renderer, ctx):
    cam = camera(10.0)
    image = render(renderer, ctx, particles([(0.3, 0.2, 0.0)]), cam, "Particles_Dot", {"Dot.Size": 9.0})
    px = lit(image, 40)
    centre = to_pixels(cam, SIZE, [(0.3, 0.2, 0.0)])[0]
    assert abs(len(px) - math.pi * 4.5 ** 2) < 12
    assert np.linalg.norm(px - centre, axis=1).max() <= 4.5 + 0.75


# -- Particles_Line -------------------------------------------------------------------------

@pytest.mark.parametrize("stretch", [1.0, 2.0])
def test_a_lines_lit_pixels_lie_on_the_projected_segment(renderer, ctx, stretch):
    cam = camera(8.0, yaw_deg=20.0, pitch_deg=-10.0)
    head, previous = np.array([1.4, 0.7, 0.3]), np.array([-0.9, -0.5, -0.4])
    records = particles([head])
    records["previous_position"] = previous
    image = render(renderer, ctx, records, cam, "Particles_Line", {"Line.Width": 1.5, "Line.Stretch": stretch})
    tail = head + (previous - head) * stretch
    segment = to_pixels(cam, SIZE, [tail, head])
    px = lit(image)
    assert len(px) > 0.8 * np.linalg.norm(segment[1] - segment[0]) * 1.5
    assert distance_to_polyline(px, segment).max() <= 0.5 * 1.5 + 1.0 + 0.71      # half width, edge, pixel centre
    # the whole segment is drawn: every point of it is lit
    for t in np.linspace(0.02, 0.98, 25):
        c, r = (segment[0] + t * (segment[1] - segment[0])).astype(int)
        assert image[r, c].max() > 40, (t, c, r)


def test_a_new_particles_line_has_no_length(renderer, ctx):
    records = particles([(0.5, 0.5, 0.0)])
    records["previous_position"] = records["position"]        # just spawned: collapsed
    image = render(renderer, ctx, records, camera(8.0), "Particles_Line", {})
    assert len(lit(image, 40)) <= 4


# -- Particles_GradientLine -----------------------------------------------------------------

def arc(n=10, lifetime=2.0):
    """A particle at the end of a parabola and its last n positions, newest first."""
    k = np.arange(n)
    history = np.c_[1.5 - 0.35 * k, 1.0 - 0.02 * (k - 3) ** 2, np.zeros(n)]
    records = particles([history[0]], lifetime=lifetime)
    records["age"] = 0.5
    return records, history[None]


def test_a_gradient_line_follows_its_history_and_fades_to_the_tail(renderer, ctx):
    cam = camera(8.0)
    records, history = arc()
    image = render(renderer, ctx, records, cam, "Particles_GradientLine", {"Trail.Length": 10, "Line.Width": 2.0},
                   history=history)
    poly = to_pixels(cam, SIZE, history[0])
    px = lit(image)
    assert distance_to_polyline(px, poly).max() <= 0.5 * 2.0 + 1.0 + 0.71
    brightness = [image[int(p[1]), int(p[0])].max() for p in poly[:-1] + 0.25 * (poly[1:] - poly[:-1])]
    assert brightness[0] > 200 and brightness[-1] < 0.45 * brightness[0]
    assert all(a >= b - 6 for a, b in zip(brightness, brightness[1:]))           # falls along the trail
    args = renderer.live_list("e").read_args()
    assert args[0] == 2 * 10 and args[1] == 1                                   # N points: 2N vertices


# -- Particles_Ribbon through a simulated history ---------------------------------------------

def _ballistic_sim(ctx, material, n_history, props):
    from kzplayer.gpu import Simulation
    from tests.gpu.conftest import burst_emitter, make_project
    from tests.gpu.test_colliders import GRAVITY
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 1, **{
        "ParticleEmitter.ParticleMaterial": material, "Trail.Length": n_history,
        "Emission.InitialVelocityDirection": (1.0, 1.6, 0.0), "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": 6.0, **props})}, affectors=GRAVITY)
    return project, Simulation(ctx, project)


def euler(steps, v0, dt=1 / 60):
    x, v, out = np.zeros(3), np.asarray(v0, float), [np.zeros(3)]
    for _ in range(steps):
        v = v + np.array([0.0, -9.8, 0.0]) * dt
        x = x + v * dt
        out.append(x)
    return np.array(out)


def test_a_ribbon_of_history_n_has_n_minus_1_segments_along_the_ballistic_trajectory(renderer, ctx):
    from kzplayer.render.frame import FrameBuilder
    n, steps, sides = 8, 30, 5
    project, sim = _ballistic_sim(ctx, "Particles_Ribbon", n, {"Ribbon.Radius": 0.04, "Ribbon.TaperEnd": 1.0,
                                                                "Ribbon.Sides": sides, **WARM})
    try:
        for _ in range(steps):
            sim.step()
        cam = camera(5.0, target=(1.5, 0.8, 0.0))
        renderer.draw(FrameBuilder(project, sim.graph).build(sim), cam)
        image = renderer.read().astype(float)
        args = renderer.live_list(sim.emitters[0].path).read_args()
    finally:
        sim.release()
    assert args[5] == 6 * (n - 1) * sides and args[6] == 1          # N - 1 segments of `sides` quads
    v0 = 6.0 * np.array([1.0, 1.6, 0.0]) / np.linalg.norm([1.0, 1.6, 0.0])
    path = euler(steps, v0)
    kept = to_pixels(cam, SIZE, path[steps - n + 1:])               # the last N positions
    radius_px = 0.04 * 0.5 * SIZE[1] / math.tan(math.radians(22.5)) / 5.0
    px = lit(image)
    assert len(px) > 12
    assert distance_to_polyline(px, kept).max() <= radius_px + 1.5
    # it reaches the head and the N-th position back, and no further
    head, tail = kept[-1], kept[0]
    assert np.linalg.norm(px - head, axis=1).min() < 1.5 and np.linalg.norm(px - tail, axis=1).min() < 1.5
    older = to_pixels(cam, SIZE, path[steps - n - 3:steps - n])
    assert np.linalg.norm(px[:, None] - older[None], axis=-1).min() > 1.5


def test_a_young_ribbon_grows_from_its_spawn_point(renderer, ctx):
    """Two steps after birth a ribbon of 12 positions is two segments long, not a streak
    from the origin of the slot's last occupant or of the world."""
    from kzplayer.render.frame import FrameBuilder
    project, sim = _ballistic_sim(ctx, "Particles_Ribbon", 12, {"Ribbon.Radius": 0.04, **WARM,
                                                                 **{"Node3D.RenderTransformation": None}})
    try:
        sim.step()
        sim.step()
        cam = camera(3.0)
        renderer.draw(FrameBuilder(project, sim.graph).build(sim), cam)
        image = renderer.read().astype(float)
    finally:
        sim.release()
    v0 = 6.0 * np.array([1.0, 1.6, 0.0]) / np.linalg.norm([1.0, 1.6, 0.0])
    grown = to_pixels(cam, SIZE, euler(2, v0))
    px = lit(image)
    assert len(px) > 0
    assert distance_to_polyline(px, grown).max() <= 3.0


# -- Particles_FlatRibbon -------------------------------------------------------------------

@pytest.mark.parametrize("pitch", [0.0, -60.0])
def test_a_flat_ribbon_faces_the_camera_from_any_side(renderer, ctx, pitch):
    cam = camera(6.0, pitch_deg=pitch)
    k = np.arange(8)
    history = np.c_[1.6 - 0.45 * k, np.zeros(8), np.zeros(8)][None]
    records = particles([history[0, 0]], scale=1.0)
    image = render(renderer, ctx, records, cam, "Particles_FlatRibbon",
                   {"Trail.Length": 8, "FlatRibbon.Width": 0.3, "Ribbon.TaperEnd": 1.0, "Trail.TailOpacity": 1.0},
                   history=history)
    column = int(to_pixels(cam, SIZE, [(0.0, 0.0, 0.0)])[0, 0])
    rows = np.flatnonzero(image[:, column].max(axis=1) > 12)
    width_px = 0.3 * 0.5 * SIZE[1] / math.tan(math.radians(22.5)) / 6.0
    assert abs(len(rows) - width_px) <= 2.0         # its full width whatever the camera's height


# -- Particles_Shockwave --------------------------------------------------------------------

@pytest.mark.parametrize("t", [0.1, 0.4, 0.8])
def test_a_shockwaves_radius_at_age_t_follows_its_over_life_curve(renderer, ctx, t):
    start, end, ease, width, life = 0.5, 3.0, 2.0, 0.25, 2.0
    cam = camera(10.0, pitch_deg=-90.0)             # looking straight down on the ring
    records = particles([(0.0, 0.0, 0.0)], lifetime=life, scale=1.0)
    records["age"] = t * life
    image = render(renderer, ctx, records, cam, "Particles_Shockwave",
                   {"Shockwave.RadiusStart": start, "Shockwave.RadiusEnd": end, "Shockwave.Ease": ease,
                    "Shockwave.Width": width, "Shockwave.Segments": 96})
    radius = start + (end - start) * (1 - (1 - t) ** ease)
    focal = 0.5 * SIZE[1] / math.tan(math.radians(22.5))
    centre = to_pixels(cam, SIZE, [(0.0, 0.0, 0.0)])[0]
    r = np.linalg.norm(lit(image, 6) - centre, axis=1)
    assert abs(r.max() - radius * focal / 10.0) <= 1.0
    assert abs(r.min() - (radius - width) * focal / 10.0) <= 1.5


def test_a_shockwave_fades_with_its_over_life_opacity(renderer, ctx):
    cam = camera(10.0, pitch_deg=-90.0)
    totals = []
    for t in (0.2, 0.8):
        records = particles([(0.0, 0.0, 0.0)], lifetime=1.0)
        records["age"] = t
        render(renderer, ctx, records, cam, "Particles_Shockwave",
               {"ParticlesOverLife.OpacityEnd": 0.0, "Shockwave.Ease": 1.0, "Shockwave.RadiusStart": 1.0,
                "Shockwave.RadiusEnd": 1.0})
        totals.append(renderer.read_linear().sum())
    assert totals[1] / totals[0] == pytest.approx(0.2 / 0.8, rel=0.02)      # opacity 1 - t


# -- Particles_Stretched, Particles_Faces ----------------------------------------------------

def test_a_stretched_billboard_is_as_long_as_its_flight_and_as_wide_as_its_size(renderer, ctx):
    cam = camera(8.0)
    records = particles([(0.5, 0.0, 0.0)], scale=1.0)
    records["velocity"] = (4.0, 0.0, 0.0)
    image = render(renderer, ctx, records, cam, "Particles_Stretched",
                   {"Particle.Size": 0.2, "Stretched.Length": 0.25})
    px = lit(image, 6)
    focal = 0.5 * SIZE[1] / math.tan(math.radians(22.5))
    length = (px[:, 0].max() - px[:, 0].min() + 1)
    height = (px[:, 1].max() - px[:, 1].min() + 1)
    assert abs(length - (4.0 * 0.25 + 0.2) * focal / 8.0) <= 3.0
    assert abs(height - 0.2 * focal / 8.0) <= 2.0
    # along the velocity, from the particle back
    head = to_pixels(cam, SIZE, [(0.5 + 0.1, 0.0, 0.0)])[0]
    assert abs(px[:, 0].max() - head[0]) <= 1.5


@pytest.mark.parametrize("basis, rotation, velocity, edge_on", [
    ("Rotation", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), False),
    ("Rotation", (math.pi / 2, 0.0, 0.0), (0.0, 0.0, 0.0), True),       # turned into the XZ plane
    ("Velocity", (0.0, 0.0, 0.0), (3.0, 0.0, 0.0), False),              # spans the velocity and up
    ("Velocity", (0.0, 0.0, 0.0), (0.0, 0.0, -3.0), True),              # velocity along the sight line
])
def test_faces_are_oriented_by_their_basis_not_by_the_camera(renderer, ctx, basis, rotation, velocity, edge_on):
    cam = camera(8.0)
    records = particles([(0.0, 0.0, 0.0)], scale=1.0)
    records["rotation"], records["velocity"] = rotation, velocity
    image = render(renderer, ctx, records, cam, "Particles_Faces", {"Particle.Size": 1.5, "Faces.Basis": basis})
    focal = 0.5 * SIZE[1] / math.tan(math.radians(22.5))
    square = (1.5 * focal / 8.0) ** 2
    area = len(lit(image, 6))
    assert (area < 0.1 * square) if edge_on else (area > 0.5 * square)


# -- Particles_FanLight ---------------------------------------------------------------------

def test_a_fan_light_stays_within_its_radius_and_swings_with_time(renderer, ctx):
    cam = camera(6.0)
    values = {"FanLight.Radius": 1.0, "FanLight.Amplitude": 0.5, "FanLight.Frequency": 2.0, "FanLight.Sectors": 24}
    focal = 0.5 * SIZE[1] / math.tan(math.radians(22.5))
    centre = to_pixels(cam, SIZE, [(0.0, 0.0, 0.0)])[0]
    images = [render(renderer, ctx, particles([(0.0, 0.0, 0.0)]), cam, "Particles_FanLight", values, time=t)
              for t in (0.0, 0.13, 0.5)]
    for image in images:
        r = np.linalg.norm(lit(image, 3) - centre, axis=1)
        assert r.max() <= 1.0 * focal / 6.0 + 1.0
        assert image[int(centre[1]), int(centre[0])].min() > 180            # the core saturates to white
    assert np.abs(images[0] - images[1]).max() > 30                          # the rays swing ...
    np.testing.assert_allclose(images[0], images[2], atol=2)                 # ... with period 1 / Frequency


# -- Particles_LensFlare --------------------------------------------------------------------

def wall(z: float, x0: float = -1.0, x1: float = 1.0) -> MeshData:
    """A quad facing +Z at depth z, from x0 to x1 and y -1 to 1."""
    positions = np.array([(x0, -1.0, z), (x1, -1.0, z), (x1, 1.0, z), (x0, 1.0, z)], np.float32)
    normals = np.tile(np.array([0.0, 0.0, 1.0], np.float32), (4, 1))
    return MeshData("wall", positions, normals, None, np.array([[0, 1, 2], [0, 2, 3]], np.uint32))


def flare_light(renderer, ctx, models, cam):
    """The light the flare adds to the picture (linear): with it, less the scene alone."""
    records = particles([(0.0, 0.0, 0.0)])
    values = {"LensFlare.Size": 0.2}
    render(renderer, ctx, records, cam, "Particles_LensFlare", values, models=models)
    with_flare = renderer.read_linear()
    renderer.draw(Frame(models=list(models)), cam)
    return float((with_flare - renderer.read_linear()).clip(0).sum())


def test_a_lens_flare_hides_behind_an_opaque_mesh_and_shows_in_front_of_it(renderer, ctx):
    cam = camera(6.0)
    props = {"Model3D.Color": (0.3, 0.3, 0.3, 1.0)}.get
    nothing = flare_light(renderer, ctx, [], cam)
    in_front = flare_light(renderer, ctx, [ModelDraw("wall", wall(2.0), np.eye(4), props)], cam)
    behind = flare_light(renderer, ctx, [ModelDraw("wall", wall(-2.0), np.eye(4), props)], cam)
    # a wall whose edge is on the particle's line of sight covers half the depth samples
    half = flare_light(renderer, ctx, [ModelDraw("wall", wall(2.0, 0.0, 2.0), np.eye(4), props)], cam)
    aside = flare_light(renderer, ctx, [ModelDraw("wall", wall(2.0, 0.4, 2.0), np.eye(4), props)], cam)
    assert nothing > 50.0
    assert in_front == 0.0                       # hidden: the wall covers the particle
    assert behind == pytest.approx(nothing, rel=0.02)
    assert 0.25 * nothing < half < 0.75 * nothing   # an edge across it: a partial, soft fade
    assert aside == pytest.approx(nothing, rel=0.02)


def test_a_lens_flare_is_not_drawn_for_a_particle_behind_the_camera(renderer, ctx):
    cam = camera(6.0)
    image = render(renderer, ctx, particles([(0.0, 0.0, 8.0)]), cam, "Particles_LensFlare", {})
    assert image.max() == 0


# -- golden images ----------------------------------------------------------------------------

def _row(n=7, lifetime=2.0):
    xs = np.linspace(-3.3, 3.3, n)
    records = particles([(x, 0.0, 0.0) for x in xs], lifetime=lifetime, scale=1.0)
    records["age"] = np.linspace(0.1, 0.9, n) * lifetime
    return records


def _trails(records, n=12, v0=(2.0, 4.0, 0.0)):
    k = np.arange(n)[None, :, None] / 30.0
    v = np.asarray(v0)[None, None]
    g = np.array([0.0, -9.8, 0.0])[None, None]
    return records["position"][:, None, :] - v * k + 0.5 * g * k * k


GOLDEN = {
    "Particles_Dot": ({"Dot.Size": 3.0}, False),
    "Particles_Line": ({"Line.Width": 2.0}, False),
    "Particles_GradientLine": ({"Trail.Length": 12, "Line.Width": 2.0}, True),
    "Particles_Stretched": ({"Particle.Size": 0.3, "Stretched.Length": 0.15}, False),
    "Particles_Faces": ({"Particle.Size": 0.9}, False),
    "Particles_FanLight": ({"FanLight.Radius": 0.6}, False),
    "Particles_Shockwave": ({"Shockwave.RadiusEnd": 1.4, "ParticlesOverLife.OpacityEnd": 0.2}, False),
    "Particles_Ribbon": ({"Trail.Length": 12, "Ribbon.Radius": 0.12, "Particle.BlendMode": "Alpha"}, True),
    "Particles_FlatRibbon": ({"Trail.Length": 12, "FlatRibbon.Width": 0.3}, True),
    "Particles_LensFlare": ({"LensFlare.Size": 0.12}, False),
}


@pytest.mark.parametrize("material", GOLDEN)
def test_golden_image_of_each_representation(ctx, material):
    r = Renderer(ctx, (128, 72))
    try:
        values, trails = GOLDEN[material]
        records = _row(3 if material == "Particles_LensFlare" else 7)
        records["velocity"] = (2.0, 4.0, 0.0)
        records["previous_position"] = records["position"] - np.array([2.0, 4.0, 0.0]) / 15.0
        records["rotation"] = [(0.6 * k, 0.4 * k, 0.3 * k) for k in range(len(records))]
        records["color"] = [(1.0, 0.55 + 0.07 * k, 0.3 + 0.1 * k, 1.0) for k in range(len(records))]
        colors = {"ColorOverLife.StartColor": (1.0, 0.9, 0.6, 1.0), "ColorOverLife.EndColor": (0.5, 0.7, 1.0, 1.0)}
        history = _trails(records) if trails else None
        buf = RecordBuffers(ctx, records, history=history)
        try:
            em = emitter(buf, len(records), material=material, values={**colors, **values},
                         blend=str(values.get("Particle.BlendMode", "Additive")))
            r.draw(Frame(emitters=[em]), camera(9.0, pitch_deg=-15.0))
        finally:
            buf.release()
        check(r, f"representation_{material}")
    finally:
        r.release()


def _image(tmp_path, name, pixels):
    from PIL import Image
    Image.fromarray(np.asarray(pixels, np.uint8), "RGBA").save(tmp_path / name)
    return name


@pytest.mark.parametrize("repeat", [1.0, 2.0])
def test_a_shockwaves_texture_wraps_round_the_ring_in_u(renderer, ctx, tmp_path, repeat):
    """A texture red in its left half, blue in its right: wrapped once, half the ring is red
    and half blue; TextureRepeat 2 alternates them by quarter (a repeating sampler)."""
    row = [(255, 0, 0, 255)] * 8 + [(0, 0, 255, 255)] * 8
    name = _image(tmp_path, "halves.png", [row] * 4)
    cam = camera(10.0, pitch_deg=-90.0)
    records = particles([(0.0, 0.0, 0.0)], lifetime=1.0, scale=1.0)
    records["age"] = 0.5
    image = render(renderer, ctx, records, cam, "Particles_Shockwave",
                   {"Particle.Texture": name, "Shockwave.TextureRepeat": repeat, "Shockwave.RadiusStart": 2.0,
                    "Shockwave.RadiusEnd": 2.0, "Shockwave.Width": 0.4, "Shockwave.Segments": 96,
                    "Particle.BlendMode": "Alpha"}, files=lambda n: tmp_path / n, blend="Alpha")
    colours = []
    for a in np.radians(np.arange(15, 360, 30)):          # never on a seam
        # U runs with the angle in the ring's XZ plane: world (cos a, 0, sin a)
        p = to_pixels(cam, SIZE, [(2.0 * 0.9 * math.cos(a), 0.0, 2.0 * 0.9 * math.sin(a))])[0]
        c, r = int(p[0]), int(p[1])
        colours.append("red" if image[r, c, 0] > image[r, c, 2] else "blue")
    expected = ["red" if (a * repeat / 360.0) % 1.0 < 0.5 else "blue" for a in np.arange(15, 360, 30)]
    assert colours == expected


def test_a_fan_lights_colours_come_from_its_gradient(renderer, ctx, tmp_path):
    """FanLight.Gradient is read along U from the rim (left) to the centre (right): a
    red-to-green gradient makes the core green and the outer rays red."""
    row = [(int(255 * (1 - k / 15)), int(255 * k / 15), 0, 255) for k in range(16)]
    name = _image(tmp_path, "gradient.png", [row] * 2)
    cam = camera(6.0)
    image = render(renderer, ctx, particles([(0.0, 0.0, 0.0)], scale=1.0), cam, "Particles_FanLight",
                   {"FanLight.Gradient": name, "FanLight.Radius": 1.0, "FanLight.Amplitude": 0.0,
                    "ColorOverLife.StartColor": (1, 1, 1, 1), "ColorOverLife.EndColor": (1, 1, 1, 1)},
                   files=lambda n: tmp_path / n)
    centre = to_pixels(cam, SIZE, [(0.0, 0.0, 0.0)])[0]
    c, r = int(centre[0]), int(centre[1])
    focal = 0.5 * SIZE[1] / math.tan(math.radians(22.5))
    out = int(0.75 * focal / 6.0)
    assert image[r, c, 1] > 200 and image[r, c, 0] < 80                 # the core: the gradient's right end
    assert image[r, c + out, 0] > image[r, c + out, 1]                  # out towards the rim: its left
