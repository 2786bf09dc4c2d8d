"""Particles_FanLight's light (issue 22): FanLight.Falloff shapes NeL's coordinate t (0 at
the rim, 1 at the centre) as t^Falloff before the gradient, FanLight.Intensity scales the
light; their defaults are exactly the fan as it was."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.render.renderer import Renderer
from tests.render.helpers import camera, particles
from tests.render.test_representations import render

SIZE = (96, 96)
WHITE = {"ColorOverLife.StartColor": (1.0, 1.0, 1.0, 1.0), "ColorOverLife.EndColor": (1.0, 1.0, 1.0, 1.0),
         "FanLight.Radius": 1.5, "FanLight.Amplitude": 0.0, "FanLight.Sectors": 64}


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE, samples=0)
    yield r
    r.release()


def fan(renderer, ctx, **values):
    render(renderer, ctx, particles([(0.0, 0.0, 0.0)]), camera(6.0), "Particles_FanLight", {**WHITE, **values})
    return renderer.read_linear()[..., 0].astype(float)


def test_the_defaults_draw_the_fan_as_it_was(renderer, ctx):
    plain = fan(renderer, ctx)
    assert np.array_equal(fan(renderer, ctx, **{"FanLight.Falloff": 1.0, "FanLight.Intensity": 1.0}), plain)


@pytest.mark.parametrize("falloff", [2.0, 3.0, 0.5])
def test_falloff_is_the_power_of_neles_coordinate_before_the_gradient(renderer, ctx, falloff):
    # white, no gradient image: light = min(t / 0.7, 1) (then towards white), so where the
    # plain fan is under 0.95 it gives t = 0.7 x light, and t^Falloff predicts the other
    plain = fan(renderer, ctx)
    shaped = fan(renderer, ctx, **{"FanLight.Falloff": falloff})
    ramp = (plain > 0.02) & (plain < 0.95)
    assert ramp.sum() > 500
    t = 0.7 * plain[ramp]
    predicted = np.minimum(t ** falloff / 0.7, 1.0)
    np.testing.assert_allclose(shaped[ramp][predicted < 0.95], predicted[predicted < 0.95], atol=2e-3)
    assert (shaped > 0).sum() == pytest.approx((plain > 0).sum(), rel=0.02)     # the same fan


def test_intensity_scales_the_light_past_white(renderer, ctx):
    plain = fan(renderer, ctx)
    bright = fan(renderer, ctx, **{"FanLight.Intensity": 3.0})
    np.testing.assert_allclose(bright, 3.0 * plain, rtol=1e-5, atol=1e-6)
    assert bright.max() > 2.0                   # HDR: above white, for the bloom and the tone curve
