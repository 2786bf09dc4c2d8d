"""The live list the renderer draws from (docs/rendering.md, "Live list"): a count and the
live slots in ascending slot order, built on the GPU, with the indirect arguments of the
draws; checked against the flags written into the pool."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE
from kzplayer.render.live_list import LiveList
from kzplayer.render.shaders import ProgramCache


@pytest.fixture
def live(ctx):
    programs = ProgramCache(ctx)
    lists = []

    def build(flags, vertex_count=4, index_count=36):
        records = np.zeros(len(flags), PARTICLE_DTYPE)
        records["flags"] = flags
        buf = ctx.buffer(records.tobytes())
        lst = LiveList(ctx, programs)
        lst.update(buf, len(flags), vertex_count, index_count)
        lists.append((lst, buf))
        return lst
    yield build
    for lst, buf in lists:
        lst.release()
        buf.release()
    programs.release()


@pytest.mark.parametrize("capacity, seed", [(1, 0), (63, 1), (64, 2), (65, 3), (1000, 4), (20_000, 5)])
def test_the_list_holds_exactly_the_live_slots_in_ascending_order(live, capacity, seed):
    rng = np.random.default_rng(seed)
    alive = rng.random(capacity) < 0.37
    flags = np.where(alive, FLAG_ALIVE | 4, 2).astype(np.uint32)     # other bits do not count
    count, slots = live(flags).read()
    assert count == alive.sum()
    assert np.array_equal(slots, np.flatnonzero(alive))


def test_an_empty_and_a_full_pool(live):
    assert live(np.zeros(300, np.uint32)).read()[0] == 0
    count, slots = live(np.full(300, FLAG_ALIVE, np.uint32)).read()
    assert count == 300 and np.array_equal(slots, np.arange(300))


def test_the_draw_arguments_carry_the_live_count(live):
    flags = np.zeros(500, np.uint32)
    flags[[3, 77, 499]] = FLAG_ALIVE
    args = live(flags, vertex_count=4, index_count=36).read_args()
    assert list(args[0:4]) == [4, 3, 0, 0]              # DrawArraysIndirectCommand
    assert list(args[5:10]) == [36, 3, 0, 0, 0]         # DrawElementsIndirectCommand, byte 20
    assert list(args[12:15]) == [1, 1, 1]               # a dispatch over the live particles


def test_a_list_follows_its_pool_from_frame_to_frame(ctx, live):
    flags = np.full(130, FLAG_ALIVE, np.uint32)
    lst = live(flags)
    records = np.zeros(130, PARTICLE_DTYPE)
    records["flags"][::5] = FLAG_ALIVE
    buf = ctx.buffer(records.tobytes())
    try:
        lst.update(buf, 130)
        count, slots = lst.read()
        assert count == 26 and np.array_equal(slots, np.arange(0, 130, 5))
        bigger = ctx.buffer(np.zeros(200, PARTICLE_DTYPE).tobytes())
        lst.update(bigger, 200)                 # the pool was resized: the list follows
        assert lst.read()[0] == 0 and lst.capacity == 200
        bigger.release()
    finally:
        buf.release()
