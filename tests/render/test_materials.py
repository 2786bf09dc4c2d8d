"""The stock rendering materials' behaviour, drawn from hand-made particles over black with a
flat white texture (so a pixel is exactly colour x opacity, in linear light): over-life
colour, scale and opacity at ages 0, 0.5 and 1, the three-stop variant, texture-sheet
frames at a given age, and what Particle.Color, BlendMode and Node.Opacity do."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from kzplayer.render.renderer import Renderer
from kzplayer.render.textures import srgb_to_linear

from tests.render.helpers import DIST, FOCAL, H, W, draw, lit_width, particles

LIFETIME = 2.0


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, (W, H))
    yield r
    r.release()


@pytest.fixture
def flat(tmp_path):
    Image.fromarray(np.full((4, 4, 4), 255, np.uint8), "RGBA").save(tmp_path / "white.png")
    return lambda values: dict(values={"Particle.Texture": "white.png", **values}, blend="Alpha",
                               files=lambda name: tmp_path / name)


def centre(img):
    return img[H // 2, W // 2]


OVER_LIFE = {"ColorOverLife.StartColor": (1, 0, 0, 1), "ColorOverLife.EndColor": (0, 0, 1, 1),
             "ParticlesOverLife.OpacityStart": 1.0, "ParticlesOverLife.OpacityEnd": 0.2,
             "ParticlesOverLife.ScaleStart": (1.0, 1.0, 1.0), "ParticlesOverLife.ScaleEnd": (3.0, 3.0, 3.0)}


@pytest.mark.parametrize("material", ["ParticlesOverLife", "ParticlesColorOverLife", "ColorOverLife_ImageUV"])
@pytest.mark.parametrize("t", [0.0, 0.5, 1.0])
def test_over_life_colour_scale_and_opacity_at_age_0_half_and_1(renderer, ctx, flat, material, t):
    img = draw(renderer, ctx, particles([(0, 0, 0)], age=t * LIFETIME, lifetime=LIFETIME, scale=1.0),
               material=material, linear=True, **flat(OVER_LIFE))
    opacity = 1.0 + (0.2 - 1.0) * t
    # colours mix in linear light: red and blue are 1 or 0 in both spaces
    assert np.allclose(centre(img), np.array([1 - t, 0.0, t]) * opacity, atol=2e-3)
    scale = 1.0 + 2.0 * t
    expected = 1.0 * scale * FOCAL / DIST * H / 2            # Particle.Size 1 m x scale, in pixels
    assert abs(lit_width(img) - expected) <= 1.5


def test_over_life_colours_mix_in_linear_light_not_in_srgb(renderer, ctx, flat):
    grey = {"ColorOverLife.StartColor": (1, 1, 1, 1), "ColorOverLife.EndColor": (0, 0, 0, 1),
            "ParticlesOverLife.OpacityEnd": 1.0}
    half = draw(renderer, ctx, particles([(0, 0, 0)], age=0.5 * LIFETIME, lifetime=LIFETIME, scale=1.0),
                material="ParticlesColorOverLife", **flat(grey))
    # half-way from white to black is 50 % linear light: sRGB 188, not 128
    assert centre(half) == pytest.approx((188, 188, 188), abs=1)


@pytest.mark.parametrize("t, rgb", [(0.0, (1, 0, 0)), (0.125, (0.5, 0.5, 0)), (0.25, (0, 1, 0)),
                                    (0.625, (0, 0.5, 0.5)), (1.0, (0, 0, 1))])
def test_three_stops_pass_through_the_mid_colour_at_its_point(renderer, ctx, flat, t, rgb):
    stops = {"ColorOverLife.StartColor": (1, 0, 0, 1), "ParticlesOverLife.ColorMid": (0, 1, 0, 1),
             "ParticlesOverLife.ColorMidPoint": 0.25, "ColorOverLife.EndColor": (0, 0, 1, 1),
             "ParticlesOverLife.OpacityEnd": 1.0}
    img = draw(renderer, ctx, particles([(0, 0, 0)], age=t * LIFETIME, lifetime=LIFETIME, scale=1.0),
               material="ParticlesColorOverLife3Stop", linear=True, **flat(stops))
    assert np.allclose(centre(img), rgb, atol=2e-3)


# -- texture sheets ----------------------------------------------------------------------------

# a 4 x 2 sheet: frame k (left to right, top to bottom) is a flat colour of its own
SHEET = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255), (0, 255, 255),
         (255, 255, 255), (128, 64, 0)]


@pytest.fixture
def sheet(tmp_path):
    img = np.zeros((2 * 16, 4 * 16, 4), np.uint8)
    for k, rgb in enumerate(SHEET):
        row, col = divmod(k, 4)
        img[row * 16:(row + 1) * 16, col * 16:(col + 1) * 16] = (*rgb, 255)
    Image.fromarray(img, "RGBA").save(tmp_path / "sheet.png")
    return lambda extra: dict(values={"Particle.Texture": "sheet.png", "Particle.TextureGrid": (4, 2), **extra},
                              blend="Alpha", material="ParticlesColorOverLife",
                              files=lambda name: tmp_path / name)


def frame_shown(img) -> int:
    srgb = centre(img)
    return int(np.argmin([np.abs(srgb - np.array(rgb)).sum() for rgb in SHEET]))


@pytest.mark.parametrize("t, frame", [(0.0, 0), (0.124, 0), (0.126, 1), (0.4, 3), (0.5, 4), (0.8, 6), (0.999, 7),
                                      (1.0, 7)])
def test_a_flipbook_plays_once_over_the_particles_life(renderer, ctx, sheet, t, frame):
    look = sheet({"ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})
    img = draw(renderer, ctx, particles([(0, 0, 0)], age=t * LIFETIME, lifetime=LIFETIME, scale=2.0), **look)
    assert frame_shown(img) == frame
    assert np.abs(centre(img) - np.array(SHEET[frame])).max() <= 2      # the frame itself, unblended


@pytest.mark.parametrize("age, frame", [(0.0, 0), (0.19, 0), (0.21, 1), (1.0, 5), (1.61, 0), (1.85, 1)])
def test_a_frame_rate_plays_the_sheet_from_birth_and_loops(renderer, ctx, sheet, age, frame):
    look = sheet({"Particle.FrameRate": 5.0, "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})
    img = draw(renderer, ctx, particles([(0, 0, 0)], age=age, lifetime=10.0, scale=2.0), **look)
    assert frame_shown(img) == frame


def test_sheet_frames_do_not_bleed_into_their_neighbours(renderer, ctx, sheet):
    """Each frame is sampled inside its own cell: the sprite's edge column shows the frame's
    colour, not the next frame's (mipmaps are built per sheet, so only the frame borders
    blend at a distance)."""
    look = sheet({"ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})
    img = draw(renderer, ctx, particles([(0, 0, 0)], age=0.0, scale=2.0), **look)
    lit = np.flatnonzero(img.sum(axis=(0, 2)) > 0)
    inner = img[H // 2, lit[0] + 1:lit[-1]]
    assert np.abs(inner - np.array(SHEET[0])).max(axis=1).mean() < 8


# -- tint, blending, opacity ----------------------------------------------------------------

def test_particle_colour_is_an_srgb_tint(renderer, ctx, flat):
    img = draw(renderer, ctx, particles([(0, 0, 0)]), material="ParticlesColorOverLife",
               **flat({"Particle.Color": (0.5, 1.0, 0.25, 1.0)}))
    assert centre(img) == pytest.approx((128, 255, 64), abs=1)       # as written, sRGB in, sRGB out


def test_node_opacity_fades_alpha_and_additive_alike(renderer, ctx, flat):
    look = flat({})
    full = draw(renderer, ctx, particles([(0, 0, 0)]), material="ParticlesColorOverLife", linear=True, **look)
    half = draw(renderer, ctx, particles([(0, 0, 0)]), material="ParticlesColorOverLife", linear=True, opacity=0.5, **look)
    assert np.allclose(centre(half), centre(full) * 0.5, atol=1e-4)
    look["blend"] = "Additive"
    full = draw(renderer, ctx, particles([(0, 0, 0)]), material="ParticlesColorOverLife", linear=True, **look)
    half = draw(renderer, ctx, particles([(0, 0, 0)]), material="ParticlesColorOverLife", linear=True, opacity=0.5, **look)
    assert np.allclose(centre(half), centre(full) * 0.5, atol=1e-4)


def test_textures_are_premultiplied_linear_so_mipmaps_have_no_dark_fringe(ctx, tmp_path):
    """A white square on transparent BLACK pixels (straight alpha, as painted). Averaged as
    straight alpha, the mip texels of its edge would be half-transparent grey: a dark rim
    when minified. Premultiplied in linear light, every texel with any alpha is white."""
    from kzplayer.render.textures import TextureCache
    img = np.zeros((64, 64, 4), np.uint8)
    img[16:48, 17:47] = (255, 255, 255, 255)
    img[16:48, 16] = img[16:48, 47] = (255, 255, 255, 128)      # a soft column on each side
    Image.fromarray(img, "RGBA").save(tmp_path / "sprite.png")
    cache = TextureCache(ctx)
    try:
        tex = cache.get(tmp_path / "sprite.png")
        for level, side in ((1, 32), (2, 16), (3, 8)):
            texels = np.frombuffer(tex.read(level=level), np.float16).astype(np.float32).reshape(side, side, 4)
            a = texels[..., 3]
            seen = a > 0.01
            assert seen.any() and ((a > 0.01) & (a < 0.99)).any()        # the edge is there, partly covered
            assert np.allclose(texels[seen][:, :3] / a[seen][:, None], 1.0, atol=2e-3)
    finally:
        cache.release()


def test_srgb_decode_and_encode_round_trip():
    c = np.linspace(0, 1, 256)
    from kzplayer.render.textures import linear_to_srgb
    assert np.allclose(linear_to_srgb(srgb_to_linear(c)), c, atol=1e-6)
    assert srgb_to_linear(np.array(188 / 255)) == pytest.approx(0.5, abs=0.003)
