"""ParticleEmitter.SortingType on the GPU: the order against NumPy's sort of the same view
depths (ties by slot), live particles only, the same order on every run, and what it is
for: an alpha stack composites in the right order from any camera."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.gpu.layout import FLAG_ALIVE
from kzplayer.render.live_list import LiveList
from kzplayer.render.renderer import Renderer
from kzplayer.render.shaders import RenderPrograms
from kzplayer.render.sort import DEPTH, REVERSE_DEPTH, Sorter, dispatches, padded, stages

from tests.render.helpers import camera, draw, particles


def sort_on_gpu(ctx, records, key, cam):
    programs = RenderPrograms(ctx)
    buf = RecordBuffers(ctx, records)
    live, sorter = LiveList(ctx, programs), Sorter(ctx, programs)
    try:
        live.update(buf, len(records))
        sorter.sort(live, len(records), key, np.eye(4), cam.view)
        return sorter.read()
    finally:
        live.release()
        sorter.release()
        buf.release()
        programs.release()


def expected_order(records, key, cam):
    """NumPy's answer: live slots by view depth (far first for Depth), ties by slot."""
    slots = np.flatnonzero(records["flags"] & FLAG_ALIVE)
    pos = records["position"][slots].astype(np.float64)
    depth = -(pos @ cam.view[:3, :3].T + cam.view[:3, 3])[:, 2]
    primary = -depth if key == DEPTH else depth
    return slots[np.lexsort((slots, primary))]


def test_the_network_has_every_stage_of_a_bitonic_sort():
    assert padded(1) == 2 and padded(2) == 2 and padded(3) == 4 and padded(1000) == 1024
    assert stages(8) == [(2, 1), (4, 2), (4, 1), (8, 4), (8, 2), (8, 1)]
    assert len(stages(1 << 17)) == 17 * 18 // 2
    # in dispatches: the short strides in shared memory, one dispatch for many stages
    assert dispatches(1024) == [("local", 0, 0)]
    assert dispatches(4096) == [("local", 0, 0), ("global", 2048, 1024), ("merge", 2048, 0),
                                ("global", 4096, 2048), ("global", 4096, 1024), ("merge", 4096, 0)]
    assert len(dispatches(1 << 14)) == 15 and len(dispatches(1 << 17)) == 36
    assert len(dispatches(1 << 14, 32)) == 55 and len(dispatches(1 << 17, 32)) == 91
    # and together they are the whole network: every (k, j) once, in order
    covered = []
    for kind, k, j in dispatches(1 << 13):
        if kind == "local":
            covered += [s for s in stages(1 << 13) if s[0] <= 1024]
        elif kind == "global":
            covered.append((k, j))
        else:
            covered += [(k, jj) for jj in (512, 256, 128, 64, 32, 16, 8, 4, 2, 1)]
    assert covered == stages(1 << 13)


@pytest.mark.parametrize("key", [DEPTH, REVERSE_DEPTH])
@pytest.mark.parametrize("n, seed", [(2, 0), (37, 1), (1000, 2), (1025, 4), (5000, 3), (40_000, 5)])
def test_the_gpu_order_is_numpys_over_the_live_particles(ctx, key, n, seed):
    rng = np.random.default_rng(seed)
    # depths a centimetre apart at least (float32 cannot swap them), in a shuffled slot order
    depth = rng.permutation(n) * 0.01
    xy = rng.uniform(-1, 1, (n, 2))
    records = particles(np.column_stack([xy, -depth]))
    records["flags"] = np.where(rng.random(n) < 0.8, FLAG_ALIVE, 0)
    cam = camera(distance=5.0)
    count, order = sort_on_gpu(ctx, records, key, cam)
    want = expected_order(records, key, cam)
    assert count == len(want) and np.array_equal(order, want)


def test_both_block_kernels_give_the_same_order(ctx):
    """Shared-memory blocks (GPUs) and per-invocation blocks (llvmpipe): the same network,
    the same order, bit for bit, at sizes around their block boundaries."""
    from kzplayer.render.sort import STRATEGIES
    programs = RenderPrograms(ctx)
    rng = np.random.default_rng(11)
    try:
        for n in (31, 33, 1023, 1025, 3000):
            records = particles(rng.integers(-9, 9, (n, 3)) * 0.5)
            buf = RecordBuffers(ctx, records)
            live = LiveList(ctx, programs)
            live.update(buf, n)
            orders = []
            for strategy in STRATEGIES:
                sorter = Sorter(ctx, programs, strategy)
                sorter.sort(live, n, DEPTH, np.eye(4), camera().view)
                orders.append(sorter.read()[1])
                sorter.release()
            live.release()
            buf.release()
            assert all(np.array_equal(orders[0], o) for o in orders[1:])
            assert np.array_equal(orders[0], expected_order(records, DEPTH, camera()))
    finally:
        programs.release()


def test_equal_depths_keep_slot_order(ctx):
    records = particles([(0, 0, 0)] * 6 + [(0, 0, -3)] * 4)
    records["flags"][[1, 7]] = 0
    count, order = sort_on_gpu(ctx, records, DEPTH, camera())
    assert list(order) == [6, 8, 9, 0, 2, 3, 4, 5]      # the far ones first, each group by slot


def test_a_sorted_frame_repeats_run_to_run(ctx):
    rng = np.random.default_rng(7)
    n = 20_000
    # many exact ties (positions on a coarse grid): only the slot can order them
    records = particles(rng.integers(-20, 20, (n, 3)) * 0.25)
    records["flags"] = np.where(rng.random(n) < 0.9, FLAG_ALIVE, 0)
    cam = camera(yaw_deg=33.0, pitch_deg=-20.0)
    first = sort_on_gpu(ctx, records, DEPTH, cam)
    second = sort_on_gpu(ctx, records, DEPTH, cam)
    assert first[0] == second[0] and np.array_equal(first[1], second[1])
    assert np.array_equal(first[1], expected_order(records, DEPTH, cam))


# -- what sorting is for: the alpha stack ----------------------------------------------------

COLOURS = {0: (1.0, 0.0, 0.0), 2: (0.0, 1.0, 0.0), 4: (0.0, 0.0, 1.0)}   # slot -> linear colour
ALPHA = 0.75


@pytest.fixture
def stack(ctx, tmp_path):
    """Three large, flat, 75 % opaque sprites one metre apart along a diagonal (slots 0, 2, 4;
    slots 1 and 3 dead), each a colour of its own: the centre pixel sees all three."""
    from PIL import Image
    Image.fromarray(np.full((4, 4, 4), 255, np.uint8), "RGBA").save(tmp_path / "white.png")
    records = particles([(-0.6, 0.3, 1.0), (0, 0, 0), (0.0, 0.0, 0.0), (5, 5, 5), (0.6, -0.3, -1.0)],
                        scale=4.0, color=(1, 1, 1, ALPHA))
    records["flags"][[1, 3]] = 0
    for slot, rgb in COLOURS.items():
        records["color"][slot, :3] = rgb
    r = Renderer(ctx, (33, 33))
    # ParticlesOverLife at age 0 with its default white ColorStart: exactly the particle's colour
    yield records, r, dict(values={"Particle.Texture": "white.png", "Particle.Size": 1.0}, blend="Alpha",
                            material="ParticlesColorOverLife", files=lambda name: tmp_path / name)
    r.release()


def composite(order) -> np.ndarray:
    """`over` of the sprites drawn in `order` (slots) onto black, in linear light."""
    out = np.zeros(3)
    for slot in order:
        out = np.array(COLOURS[slot]) * ALPHA + out * (1 - ALPHA)
    return out


VIEWS = [(0, 0), (90, 0), (180, 0), (270, 0), (45, 30), (135, -40), (225, 60), (315, -10)]


@pytest.mark.parametrize("yaw, pitch", VIEWS)
def test_depth_sorting_composites_an_alpha_stack_back_to_front_from_any_camera(stack, ctx, yaw, pitch):
    records, r, look = stack
    cam = camera(distance=8.0, yaw_deg=yaw, pitch_deg=pitch)
    far_to_near = expected_order(records, DEPTH, cam)
    centre = draw(r, ctx, records, cam=cam, sorting="Depth", linear=True, **look)[16, 16]
    assert np.allclose(centre, composite(far_to_near), atol=2e-3)
    # ReverseDepth draws the nearest first: the farthest sprite ends on top
    centre = draw(r, ctx, records, cam=cam, sorting="ReverseDepth", linear=True, **look)[16, 16]
    assert np.allclose(centre, composite(far_to_near[::-1]), atol=2e-3)


@pytest.mark.parametrize("sorting", ["Identity", "Unsorted"])
def test_without_depth_sorting_the_stack_is_drawn_in_slot_order(stack, ctx, sorting):
    """Identity is slot order whatever the camera: right from one side, wrong from the other
    (which is why Depth exists); Unsorted draws the live list as it comes (today the same)."""
    records, r, look = stack
    for yaw in (0, 180):
        cam = camera(distance=8.0, yaw_deg=yaw)
        centre = draw(r, ctx, records, cam=cam, sorting=sorting, linear=True, **look)[16, 16]
        assert np.allclose(centre, composite([0, 2, 4]), atol=2e-3)
    assert not np.allclose(composite([0, 2, 4]), composite(expected_order(records, DEPTH, camera(8.0, 0))), atol=0.05)
