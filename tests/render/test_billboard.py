"""ParticlesDefault, the camera-facing billboard, drawn from an SSBO filled here (no
simulation): where a particle lands on screen (the pinhole formula), how wide (scale),
additive, dead slots invisible, the age ramp, local-space model matrices, exact image size."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.gpu.layout import FLAG_ALIVE
from kzplayer.render.renderer import MIN_PIXELS, Renderer

from tests.render.helpers import DIST, FOCAL, H, W, camera, centroid, draw, expected_pixel, lit_width, particles

SPRITE_SIZE = 0.1     # the catalog default of Particle.Size


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, (W, H))
    yield r
    r.release()


def test_image_is_exactly_the_requested_size(ctx):
    r = Renderer(ctx, (33, 17))
    try:
        assert draw(r, ctx, particles([(0, 0, 0)])).shape == (17, 33, 3)
    finally:
        r.release()


@pytest.mark.parametrize("x, y", [(0, 0), (2, 1), (-3, -1.5)])
def test_particle_lands_where_the_pinhole_camera_puts_it(renderer, ctx, x, y):
    img = draw(renderer, ctx, particles([(x, y, 0)], scale=0.3))
    cx, cy = centroid(img)
    ex, ey = expected_pixel(x, y)
    assert cx == pytest.approx(ex, abs=0.5) and cy == pytest.approx(ey, abs=0.5)


@pytest.mark.parametrize("size, scale", [(1.0, 0.5), (1.0, 1.0), (SPRITE_SIZE, 10.0), (0.25, 4.0)])
def test_width_is_particle_size_times_scale_through_the_lens(renderer, ctx, size, scale):
    img = draw(renderer, ctx, particles([(0, 0, 0)], scale=scale), values={"Particle.Size": size})
    # The quad is size * scale wide; the round sprite fades to 0 at its rim.
    expected = size * scale * FOCAL / DIST * H / 2
    assert expected - 3 <= lit_width(img) <= expected + 1


def test_colour_over_life_goes_from_start_to_end_in_linear_light(renderer, ctx):
    over = {"ColorOverLife.StartColor": (0, 0, 1, 1), "ColorOverLife.EndColor": (1, 0, 0, 1),
            "ParticlesOverLife.OpacityEnd": 1.0}
    young = draw(renderer, ctx, particles([(0, 0, 0)], age=0.0), material="ParticlesColorOverLife",
                 values=over, linear=True).sum(axis=(0, 1))
    old = draw(renderer, ctx, particles([(0, 0, 0)], age=1.5), material="ParticlesColorOverLife",
               values=over, linear=True).sum(axis=(0, 1))
    assert young[0] == 0 and young[1] == 0 and young[2] > 0
    # 3/4 of the way, mixed in linear light (as Kanzi's ColorOverLife material mixes in
    # gamma 2.22 light): 0.75 red against 0.25 blue in the linear image.
    assert old[0] / old[2] == pytest.approx(0.75 / 0.25, rel=0.01) and old[1] == 0


def test_texture_replaces_the_round_sprite(renderer, ctx, tmp_path):
    from PIL import Image
    img = np.zeros((8, 8, 4), np.uint8)
    img[:4, :, :] = (0, 255, 0, 255)      # top half opaque green, bottom half transparent
    Image.fromarray(img, "RGBA").save(tmp_path / "half.png")
    look = dict(values={"Particle.Size": 4.0, "Particle.Texture": "half.png"}, blend="Alpha",
                files=lambda name: tmp_path / name)
    out = draw(renderer, ctx, particles([(0, 0, 0)], scale=1.0), **look)
    lit = out[..., 1] > 0
    rows = np.flatnonzero(lit.any(axis=1))
    assert out[..., 0].max() == 0 and out[..., 2].max() == 0
    # Only the image's top half shows: from the quad's top edge (4 m through the lens) down
    # to its centre row, give or take the one row that linear filtering blends.
    assert rows.min() == pytest.approx(H / 2 - 4.0 * FOCAL / DIST * H / 4, abs=1)
    assert rows.max() <= H / 2 + 1
    # Square, not round: the lit region's corners are lit too.
    assert lit[rows.min(), np.flatnonzero(lit[rows.min()])].size == lit[rows.max()].sum()


def test_z_rotation_spins_the_sprite_about_the_view_axis(renderer, ctx, tmp_path):
    from PIL import Image
    img = np.zeros((8, 8, 4), np.uint8)
    img[:4, :, :] = (0, 255, 0, 255)      # top half opaque
    Image.fromarray(img, "RGBA").save(tmp_path / "half.png")
    look = dict(values={"Particle.Size": 4.0, "Particle.Texture": "half.png"}, blend="Alpha",
                files=lambda name: tmp_path / name)
    records = particles([(0, 0, 0)], scale=1.0)
    records["rotation"] = (0.0, 0.0, math.pi)    # half a turn: the opaque half is below
    lit_rows = np.flatnonzero((draw(renderer, ctx, records, **look)[..., 1] > 0).any(axis=1))
    assert lit_rows.min() >= H / 2 - 2         # give or take the rows linear filtering blends
    records["rotation"] = (0.0, 0.0, math.pi / 2)  # a quarter turn (counter-clockwise): on the left
    lit_cols = np.flatnonzero((draw(renderer, ctx, records, **look)[..., 1] > 0).any(axis=0))
    assert lit_cols.max() <= W / 2 + 2


def test_opaque_overwrites_with_full_colour_inside_a_hard_edge(renderer, ctx):
    one = draw(renderer, ctx, particles([(0, 0, 0)], age=0.0, scale=3.0), blend="Opaque")
    two = draw(renderer, ctx, particles([(0, 0, 0)] * 2, age=0.0, scale=3.0), blend="Opaque")
    assert np.array_equal(one, two)                     # no accumulation
    lit = one.max(axis=2) > 0
    # Every drawn pixel has the full colour of a newborn particle (white-hot ramp start).
    assert np.all(one[lit] == one[lit][0]) and tuple(one[lit][0]) == (255, 235, 184)
    # The hard edge sits where the soft sprite is half covered: r^2 where 0.7 (1 - r^2)^2 +
    # 0.3 exp(-12 r^2) = 0.5, r = 0.428 of the quad's half width.
    half_width = 3.0 * FOCAL / DIST * H / 4
    radius = np.sqrt(lit.sum() / np.pi)
    assert radius == pytest.approx(0.428 * half_width, abs=0.6)


def test_alpha_blend_composites_over(renderer, ctx):
    one = draw(renderer, ctx, particles([(0, 0, 0)], age=0.0, scale=3.0), blend="Alpha")
    two = draw(renderer, ctx, particles([(0, 0, 0)] * 2, age=0.0, scale=3.0), blend="Alpha")
    centre = (H // 2, W // 2)
    # At the centre the sprite is nearly opaque: a second copy over it changes little,
    # where additive drawing would double it.
    assert two[centre].sum() < 1.2 * one[centre].sum()


def test_tiny_particles_keep_a_minimum_size(renderer, ctx):
    img = draw(renderer, ctx, particles([(0, 0, 0)], scale=1e-4))
    assert img.max() > 0
    assert (img.sum(axis=2) > 0).sum() <= math.ceil(MIN_PIXELS + 1) ** 2


def test_dead_slots_draw_nothing(renderer, ctx):
    records = particles([(0, 0, 0), (1, 0, 0)], flags=0)
    assert draw(renderer, ctx, records).max() == 0
    records["flags"][1] = FLAG_ALIVE
    img = draw(renderer, ctx, records)
    assert centroid(img)[0] == pytest.approx(expected_pixel(1, 0)[0], abs=0.5)


def test_drawing_is_additive_in_linear_light_and_order_free(renderer, ctx):
    one = draw(renderer, ctx, particles([(0, 0, 0)], age=1.0, scale=0.4), linear=True)
    two = draw(renderer, ctx, particles([(0, 0, 0), (0, 0, 0)], age=1.0, scale=0.4), linear=True)
    assert one.max() < 0.5   # far from saturation, so doubling is exact up to float rounding
    assert np.abs(two - 2 * one).max() <= 1e-6
    # Additive particles test depth but write none: one behind another still adds up.
    front_back = draw(renderer, ctx, particles([(0, 0, 1), (0, 0, -1)], age=1.0, scale=0.4))
    back_front = draw(renderer, ctx, particles([(0, 0, -1), (0, 0, 1)], age=1.0, scale=0.4))
    assert np.array_equal(front_back, back_front)


def test_colour_runs_from_white_hot_to_red_and_fades_out(renderer, ctx):
    young = draw(renderer, ctx, particles([(0, 0, 0)], age=0.0))
    old = draw(renderer, ctx, particles([(0, 0, 0)], age=1.7))
    dead_age = draw(renderer, ctx, particles([(0, 0, 0)], age=2.0))
    y, o = young.sum(axis=(0, 1)), old.sum(axis=(0, 1))
    assert y[0] >= y[1] >= y[2] > 0 and o[0] > o[1] >= o[2]   # warm at every age
    assert y[2] / y[0] > 0.5 > o[2] / o[0]                    # bluer (whiter) when young
    assert o.sum() < 0.5 * y.sum()                           # fading near the end
    assert dead_age.max() == 0                               # gone at age == lifetime


def test_particle_colour_tints_the_sprite(renderer, ctx):
    img = draw(renderer, ctx, particles([(0, 0, 0)], color=(0, 1, 0, 1)))
    s = img.sum(axis=(0, 1))
    assert s[1] > 0 and s[0] == 0 and s[2] == 0


def test_model_matrix_moves_local_space_particles(renderer, ctx):
    model = np.eye(4)
    model[:3, 3] = (2, 1, 0)
    img = draw(renderer, ctx, particles([(0, 0, 0)], scale=0.3), model=model)
    cx, cy = centroid(img)
    ex, ey = expected_pixel(2, 1)
    assert cx == pytest.approx(ex, abs=0.5) and cy == pytest.approx(ey, abs=0.5)


def test_particles_behind_the_camera_are_not_drawn(renderer, ctx):
    assert draw(renderer, ctx, particles([(0, 0, 12)])).max() == 0
