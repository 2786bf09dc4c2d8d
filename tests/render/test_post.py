"""The picture made of the linear frame (render/post.py, render/bloom.py): the default is the
plain clamp + sRGB, byte for byte; the ACES curve and exposure against their formula; the
bloom of a single bright pixel against its parameters (its energy, its halo's radius)."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.bloom import blur_level
from kzplayer.render.post import PostSettings, aces
from kzplayer.render.renderer import Renderer
from kzplayer.render.textures import linear_to_srgb


def synthetic(renderer, image):
    """Put a linear (H, W, 3) image, top row first, into the frame's colour target, as if a
    frame had drawn it."""
    h, w, _ = image.shape
    rgba = np.ones((h, w, 4), np.float32)
    rgba[..., :3] = image
    renderer.targets.color.write(rgba[::-1].tobytes())
    renderer.targets.generation += 1          # a new frame: its bloom is made again


def srgb8(linear):
    return np.round(linear_to_srgb(np.clip(linear, 0.0, 1.0)) * 255.0)


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, (128, 128))
    yield r
    r.release()


def ramp(h=128, w=128, top=12.0):
    """Every pixel a different brightness from 0 to `top` (a channel each: r, g, b differ)."""
    v = np.linspace(0.0, top, h * w, dtype=np.float32).reshape(h, w)
    return np.stack([v, v * 0.5, v * 0.125], axis=2)


def test_the_default_settings_are_the_plain_clamp_and_srgb_encode(renderer):
    image = ramp(top=2.0)
    synthetic(renderer, image)
    assert not PostSettings().active
    plain = renderer.read()
    np.testing.assert_array_less(np.abs(plain - srgb8(image)), 1.0 + 1e-9)   # the encode rounds once
    renderer.targets.post = PostSettings(tone_mapping="None", exposure=0.0, bloom_intensity=0.0)
    assert np.array_equal(renderer.read(), plain)


@pytest.mark.parametrize("exposure", [0.0, -1.5, 2.0])
def test_aces_with_exposure_follows_narkowiczs_fit(renderer, exposure):
    image = ramp()
    synthetic(renderer, image)
    renderer.targets.post = PostSettings(tone_mapping="ACES", exposure=exposure)
    hdr = renderer.read_hdr()
    np.testing.assert_allclose(hdr, image * 2.0 ** exposure, rtol=1e-5, atol=1e-6)
    want = srgb8(aces(image * 2.0 ** exposure))
    got = renderer.read().astype(float)
    assert np.abs(got - want).max() <= 1.0
    # the curve's shape, not only its code: 1 maps to ~0.80, and it rolls off towards 1
    assert aces(1.0) == pytest.approx(0.8038, abs=1e-3) and aces(16.0) > 0.98 and aces(0.0) == 0.0


def test_exposure_without_tone_mapping_scales_then_clamps(renderer):
    image = ramp(top=1.0)
    synthetic(renderer, image)
    renderer.targets.post = PostSettings(exposure=1.0)
    assert np.abs(renderer.read() - srgb8(image * 2.0)).max() <= 1.0


@pytest.mark.parametrize("radius", [0.015, 0.05, 0.12])
def test_one_bright_pixel_blooms_its_light_above_threshold_into_a_gaussian_of_the_radius(renderer, radius):
    h = w = 128
    image = np.zeros((h, w, 3), np.float32)
    image[64, 64] = (100.0, 40.0, 5.0)      # bright
    image[20, 100] = (0.9, 0.9, 0.9)        # under the threshold: no halo
    synthetic(renderer, image)
    settings = PostSettings(bloom_intensity=0.5, bloom_threshold=1.0, bloom_radius=radius)
    renderer.targets.post = settings
    halo = renderer.read_hdr() - image
    # energy: intensity x the excess over the threshold, per channel
    np.testing.assert_allclose(halo.sum(axis=(0, 1)), 0.5 * (np.array([100.0, 40.0, 5.0]) - 1.0), rtol=0.02)
    image[20, 100] = 0.0                    # the dim pixel added nothing to the halo
    synthetic(renderer, image)
    assert np.abs((renderer.read_hdr() - image) - halo).max() < 1e-6 * halo.max()
    # radius: the halo's second moment is 2 sigma^2 (two axes), sigma = radius x height
    weight = halo[..., 0]
    rows, cols = np.indices(weight.shape)
    cy, cx = (rows * weight).sum() / weight.sum(), (cols * weight).sum() / weight.sum()
    level, _ = blur_level(radius * h, (w, h))
    assert abs(cx - 64) <= 2 ** level / 2 and abs(cy - 64) <= 2 ** level / 2    # within its mip block
    spread = (((rows - cy) ** 2 + (cols - cx) ** 2) * weight).sum() / weight.sum()
    assert math.sqrt(spread / 2) == pytest.approx(radius * h, rel=0.06)
    # and it is round: the same sigma across and down
    sx = math.sqrt(((cols - cx) ** 2 * weight).sum() / weight.sum())
    sy = math.sqrt(((rows - cy) ** 2 * weight).sum() / weight.sum())
    assert sx == pytest.approx(sy, rel=0.03)


def test_the_threshold_is_taken_after_exposure(renderer):
    image = np.zeros((128, 128, 3), np.float32)
    image[64, 64] = (3.0, 3.0, 3.0)
    synthetic(renderer, image)
    renderer.targets.post = PostSettings(exposure=1.0, bloom_intensity=1.0, bloom_threshold=2.0, bloom_radius=0.03)
    halo = renderer.read_hdr() - image * 2.0
    np.testing.assert_allclose(halo.sum(axis=(0, 1)), [4.0, 4.0, 4.0], rtol=0.02)     # 3 x 2 - 2


def test_the_blur_level_keeps_the_gaussian_small_and_compensates_the_chain():
    for sigma in (0.5, 2.9, 3.1, 7.0, 30.0):
        level, s = blur_level(sigma, (640, 360))
        n = 2 ** level
        assert s <= 3.0 + 1e-9
        assert (n * s) ** 2 + (n * n - 1) / 4 == pytest.approx(max(sigma * sigma, (n * n - 1) / 4 + 0.25),
                                                               rel=1e-9)


def test_the_scene_node_gives_the_settings_after_bindings(tmp_path):
    (tmp_path / "p.kzm").write_text("""<?xml version="1.0" encoding="utf-8"?>
<Project name="Post" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Property name="Scene.ToneMapping">ACES</Property>
    <Property name="Scene.BloomIntensity">0.4</Property>
    <Property name="Scene.BloomRadius">0.5</Property>
    <Binding target="Scene.Exposure">{./Scene.BloomIntensity} * 5</Binding>
  </Scene></Screen></Screens>
</Project>""")
    proj = kzplayer.load(str(tmp_path / "p.kzm"))
    post = FrameBuilder(proj, resolve(proj)).build(SimpleNamespace(emitters=[])).post
    assert post == PostSettings(tone_mapping="ACES", exposure=2.0, bloom_intensity=0.4, bloom_threshold=1.0,
                                bloom_radius=0.25)       # the radius clamped (catalog: clamped)
    assert post.active and post.bloom


def test_a_project_without_scene_settings_draws_the_plain_picture(tmp_path):
    (tmp_path / "p.kzm").write_text("""<?xml version="1.0" encoding="utf-8"?>
<Project name="Post" format="1"><Screens><Screen name="Screen"><Scene name="Scene"/></Screen></Screens></Project>""")
    proj = kzplayer.load(str(tmp_path / "p.kzm"))
    assert not FrameBuilder(proj, resolve(proj)).build(SimpleNamespace(emitters=[])).post.active
