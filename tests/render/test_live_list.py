"""The live list the renderer draws from (docs/rendering.md, "Live list"): a count and the
live slots in ascending slot order, built on the GPU, with the indirect arguments of the
draws; checked against the flags written into the pool."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu.views import RecordBuffers
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE
from kzplayer.render.live_list import LiveList
from kzplayer.render.shaders import RenderPrograms


@pytest.fixture
def live(ctx):
    programs = RenderPrograms(ctx)
    lists = []

    def build(flags, vertex_count=4, index_count=36):
        records = np.zeros(len(flags), PARTICLE_DTYPE)
        records["flags"] = flags
        buf = RecordBuffers(ctx, records)
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
    buf = RecordBuffers(ctx, records)
    try:
        lst.update(buf, 130)
        count, slots = lst.read()
        assert count == 26 and np.array_equal(slots, np.arange(0, 130, 5))
        bigger = RecordBuffers(ctx, np.zeros(200, PARTICLE_DTYPE))
        lst.update(bigger, 200)                 # the pool was resized: the list follows
        assert lst.read()[0] == 0 and lst.capacity == 200
        bigger.release()
    finally:
        buf.release()



PROBE = """#version 430
layout(local_size_x = 1) in;
#include "Particles/particle_read.glsl"
layout(std430, binding = 8) readonly buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };
layout(std430, binding = 11) writeonly buffer Out { uint serials[]; };
void main() {
    for (uint n = 0u; n < liveCount; ++n) {
        serials[n] = getParticleSerial(liveSlots[n]);
    }
}
"""


def test_the_simulations_list_is_copied_as_the_passes_would_build_it(ctx, tmp_path):
    """With a simulation's emitter the list is the simulation's own (copied on the GPU, no
    count read back): the same count, slots and arguments as the three passes over the same
    pool give; and the pool is left bound for the passes after it (the sort's key pass binds
    none of its own), as the three passes leave it."""
    from kzplayer.gpu import Simulation
    from kzplayer.gpu.preprocessor import preprocess
    from kzplayer.gpu.shader_errors import compile_compute
    from tests.gpu.conftest import burst_emitter, make_project
    from tests.gpu.test_colliders import GRAVITY

    project = make_project(emitters={"E": burst_emitter("Emitter_Box", 300, **{
        "Emission.Lifetime": 0.3, "Emission.LifetimeVariance": 0.9, "ParticleEmitter.MaximumAmount": 400})},
        affectors=GRAVITY)
    sim = Simulation(ctx, project, seed=4)
    programs = RenderPrograms(ctx)
    copied, built = LiveList(ctx, programs), LiveList(ctx, programs)
    probe_file = tmp_path / "probe.glsl"
    probe_file.write_text(PROBE)
    probe = compile_compute(ctx, preprocess(probe_file))
    other = RecordBuffers(ctx, np.zeros(400, PARTICLE_DTYPE))
    out = ctx.buffer(reserve=400 * 4)
    try:
        for _ in range(12):
            sim.step()
        em = sim.emitters[0]
        particles = em.particles
        assert particles.live is not None

        class NoList:              # the same pool without the simulation's list
            def bind_to_storage_buffer(self, *args):
                particles.bind_to_storage_buffer(*args)
        built.update(NoList(), 400, 4, 36)
        other.bind_to_storage_buffer()                 # something else bound where the pool goes
        copied.update(particles, 400, 4, 36)
        count, slots = copied.read()
        assert 0 < count < 300                         # some died, at random ages
        assert count == built.read()[0] and np.array_equal(slots, built.read()[1])
        assert np.array_equal(copied.read_args()[:15], built.read_args()[:15])
        records = np.frombuffer(particles.read(), PARTICLE_DTYPE)
        assert np.array_equal(slots, np.flatnonzero(records["flags"] & FLAG_ALIVE))

        copied.buffer.bind_to_storage_buffer(8)
        out.bind_to_storage_buffer(11)
        probe.run(1)
        ctx.memory_barrier()
        serials = np.frombuffer(out.read(), np.uint32)[:count]
        assert np.array_equal(serials, records["serial"][slots])    # read from the pool, not `other`
    finally:
        for obj in (copied, built, programs, probe, other, out, sim):
            obj.release()
