"""Particles_Lightning (render/Particles_Lightning.*.glsl): a bolt's pixels lie between its
two ends (and reach both), its shape changes with its seed (Lightning.Seed, its generation
at Lightning.Rate) and nothing else, and it ends at a node or at another emitter's particle
when told to."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.render.frame import Frame
from kzplayer.render.renderer import Renderer
from tests.render.helpers import camera, emitter, particles
from tests.render.test_representations import distance_to_polyline, lit, to_pixels

SIZE = (192, 108)
START = (-1.5, 1.0, 0.0)
BLUE = {"ColorOverLife.StartColor": (0.6, 0.7, 1.0, 1.0), "ColorOverLife.EndColor": (0.6, 0.7, 1.0, 1.0),
        "Lightning.Target": (3.0, -2.0, 0.0), "Lightning.Width": 2.0, "Lightning.Glow": 2.0}


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, SIZE)
    yield r
    r.release()


def bolt(renderer, ctx, values, time=0.0, extra=(), **fields):
    buf = RecordBuffers(ctx, particles([START]))
    try:
        em = emitter(buf, 1, material="Particles_Lightning", values={**BLUE, **values}, key="bolt", **fields)
        renderer.draw(Frame(emitters=[em, *extra], time=time), camera(8.0))
        return renderer.read().astype(float)
    finally:
        buf.release()


def ends(target=(3.0, -2.0, 0.0), start=START):
    a = np.asarray(start, float)
    return to_pixels(camera(8.0), SIZE, [a, a + np.asarray(target, float)])


def test_a_straight_bolt_is_the_segment_between_its_ends(renderer, ctx):
    image = bolt(renderer, ctx, {"Lightning.Jitter": 0.0})
    a, b = ends()
    px = lit(image, 20)
    assert len(px) > 50
    assert distance_to_polyline(px, np.array([a, b])).max() <= 0.5 * 2.0 * 2.0 + 1.5   # the glow's half width + AA
    # it reaches both ends
    assert np.linalg.norm(px - a, axis=1).min() < 1.5 and np.linalg.norm(px - b, axis=1).min() < 1.5


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_jagged_bolt_stays_between_its_ends_within_its_jitter(renderer, ctx, seed):
    jitter = 0.15
    image = bolt(renderer, ctx, {"Lightning.Jitter": jitter, "Lightning.Seed": seed})
    a, b = ends()
    px = lit(image, 20)
    length = np.linalg.norm(b - a)
    # the displacement sums to less than Jitter x length x (1 + 1/2 + 1/4 ...) < 2 Jitter x length
    # (in the picture its share across is at most that), plus the drawn half width
    assert distance_to_polyline(px, np.array([a, b])).max() <= 2 * jitter * length + 3.5
    along = ((px - a) @ (b - a)) / length ** 2
    assert along.min() > -0.05 and along.max() < 1.05              # between the ends, not past them
    assert np.linalg.norm(px - a, axis=1).min() < 1.5 and np.linalg.norm(px - b, axis=1).min() < 1.5
    straight = lit(bolt(renderer, ctx, {"Lightning.Jitter": 0.0}), 20)
    assert distance_to_polyline(px, np.array([a, b])).max() > 3.0   # and it is jagged, not straight
    assert len(straight) > 0


def test_the_shape_changes_with_the_seed_only(renderer, ctx):
    still = {"Lightning.Jitter": 0.15, "Lightning.Rate": 0.0}
    first = bolt(renderer, ctx, {**still, "Lightning.Seed": 3}, time=0.2)
    assert np.array_equal(bolt(renderer, ctx, {**still, "Lightning.Seed": 3}, time=0.2), first)   # repeats
    assert np.array_equal(bolt(renderer, ctx, {**still, "Lightning.Seed": 3}, time=4.7), first)   # Rate 0: one shape
    other = bolt(renderer, ctx, {**still, "Lightning.Seed": 4}, time=0.2)
    assert np.abs(other - first).max() > 100                                                     # another seed
    # at a rate the bolt is remade: one generation (1 / Rate) later its shape is another
    moving = {"Lightning.Jitter": 0.15, "Lightning.Rate": 10.0, "Lightning.Seed": 3}
    now, later = bolt(renderer, ctx, moving, time=1.0), bolt(renderer, ctx, moving, time=1.1)
    assert np.abs(now - later).max() > 100


def test_a_bolt_ends_at_its_target_node(renderer, ctx):
    node = (1.0, -1.5, 0.0)
    image = bolt(renderer, ctx, {"Lightning.Jitter": 0.0, "Lightning.Target": (0.0, 0.0, 0.0)}, bolt_node=node)
    a, b = to_pixels(camera(8.0), SIZE, [START, node])
    px = lit(image, 20)
    assert distance_to_polyline(px, np.array([a, b])).max() <= 3.5
    assert np.linalg.norm(px - b, axis=1).min() < 1.5


def test_a_bolt_ends_at_one_of_another_emitters_particles(renderer, ctx):
    spot = (2.0, -1.0, 0.0)
    target_buf = RecordBuffers(ctx, particles([spot], scale=0.05))
    try:
        target = emitter(target_buf, 1, key="cloud", values={"Particle.Size": 0.02})
        values = {"Lightning.Jitter": 0.0, "Lightning.Target": (0.0, 0.0, 0.0)}
        with_bolt = bolt(renderer, ctx, values, extra=[target], bolt_source="cloud")
        renderer.draw(Frame(emitters=[target]), camera(8.0))
        alone = renderer.read().astype(float)
    finally:
        target_buf.release()
    a, b = to_pixels(camera(8.0), SIZE, [START, spot])
    px = lit(np.clip(with_bolt - alone, 0, None), 20)
    assert len(px) > 30
    assert distance_to_polyline(px, np.array([a, b])).max() <= 3.5
    assert np.linalg.norm(px - b, axis=1).min() < 2.0


def test_branches_fork_off_the_bolt_and_stay_near_it(renderer, ctx):
    jitter = 0.12
    plain = bolt(renderer, ctx, {"Lightning.Jitter": jitter, "Lightning.Seed": 5})
    forked = bolt(renderer, ctx, {"Lightning.Jitter": jitter, "Lightning.Seed": 5, "Lightning.Branches": 3})
    assert np.array_equal(bolt(renderer, ctx, {"Lightning.Jitter": jitter, "Lightning.Seed": 5,
                                               "Lightning.Branches": 3}), forked)           # repeats
    main, more = lit(plain, 20), lit(forked, 20)
    assert len(more) > 1.2 * len(main)                            # the branches add light ...
    assert not np.any((plain > 20).any(axis=2) & ~(forked > 20).any(axis=2))    # ... and take none away
    a, b = ends()
    length = np.linalg.norm(b - a)
    # a fork starts on the bolt (within 2 J L of the line) and reaches at most 0.45 L aside
    # (x sin 50 degrees), with its own displacement (2 J x 0.45 L) and its half width
    reach = (2 * jitter + 0.45 * np.sin(np.radians(50)) + 2 * jitter * 0.45) * length + 3.5
    assert distance_to_polyline(more, np.array([a, b])).max() <= reach
