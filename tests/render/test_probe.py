"""The fit-to-content probe finds where an effect's particles actually go."""
from __future__ import annotations

import math

from kzplayer.commands.play import load_for_play
from kzplayer.render.probe import probe_positions


def test_probe_box_of_the_demo_fountain_matches_ballistics(ctx):
    project, graph = load_for_play(None)
    lo, hi = probe_positions(ctx, project, graph, seed=1, seconds=2.0)
    # The nozzle sits at the origin; speed 7 +- 0.6 m/s within 0.3 rad of +Y, gravity 9.8.
    v_max, g = 7.6, 9.8
    apex = (v_max * math.cos(0.12)) ** 2 / (2 * g)          # highest possible point
    assert 0.6 * apex < hi[1] <= apex + 1e-3
    reach = v_max * math.sin(0.3) * 1.8                       # farthest sideways in a lifetime
    assert 0.3 * reach < hi[0] <= reach and -reach <= lo[0] < -0.3 * reach
    assert abs(lo[0] + hi[0]) < 0.2 * reach                   # symmetric about the nozzle
    assert lo[1] < 0                                         # the arcs fall below the nozzle


def test_probe_of_an_empty_effect_is_none(ctx):
    nozzle = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
    project, graph = load_for_play(None, [f"{nozzle}:Emission.Rate=0"])
    assert probe_positions(ctx, project, graph, seed=None, seconds=1.0) is None
