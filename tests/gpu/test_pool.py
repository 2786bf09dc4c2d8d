"""The particle pool: a full pool stalls emission and counts it, never overwrites a live
particle; dead particles give their slots back; resizing keeps the live particles."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu import layout as L

from .conftest import make_project

DT = 1.0 / 60.0


def _stream(capacity: int, rate: float, lifetime: float) -> dict:
    return {"ParticleEmitter.EmissionMaterial": "Emitter_Point",
            "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
            "ParticleEmitter.MaximumAmount": capacity, "Emission.Rate": rate,
            "Emission.Lifetime": lifetime}


def test_full_pool_stalls_and_never_overwrites(simulate):
    sim = simulate(make_project(emitters={"E": _stream(50, 6000.0, 0.1)}))   # 100 asked per step
    em = sim.emitters[0]
    sim.step()
    s = sim.stats[em.path]
    assert (s.emitted, s.stalled, s.alive) == (50, 50, 50)
    first = sim.read_particles(em)
    for k in range(2, 6):                  # full: nothing emitted, the 50 age undisturbed
        sim.step()
        s = sim.stats[em.path]
        assert (s.emitted, s.stalled, s.alive, s.died) == (0, 100, 50, 0)
        now = sim.read_particles(em)
        np.testing.assert_array_equal(now["serial"], first["serial"])
        np.testing.assert_array_equal(now["hash"], first["hash"])
        np.testing.assert_allclose(now["age"], k * DT, rtol=1e-5)
    sim.step()                             # age 6/60 >= 0.1: all die, slots come back
    assert sim.stats[em.path].died == 50 and sim.stats[em.path].alive == 0
    sim.step()
    s = sim.stats[em.path]
    assert (s.emitted, s.stalled, s.alive) == (50, 50, 50)
    assert sorted(sim.read_particles(em)["serial"]) == list(range(50, 100))


def test_slots_are_either_free_or_live_never_both(simulate):
    sim = simulate(make_project(emitters={"E": {**_stream(64, 1500.0, 0.3),
                                                "Emission.LifetimeVariance": 0.2}}))
    em = sim.emitters[0]
    for _ in range(90):
        sim.step()
        records = em.buffers.read_records()
        live = set(np.flatnonzero(records["flags"] & L.FLAG_ALIVE).tolist())
        free = em.buffers.read_free_list().tolist()
        assert len(free) == len(set(free)) and not live & set(free)
        assert live | set(free) == set(range(64))


def test_resize_keeps_live_particles(simulate):
    project = make_project(emitters={"E": _stream(40, 1200.0, 10.0)})      # 20 per step
    sim = simulate(project)
    em = sim.emitters[0]
    sim.step()
    before = sim.read_particles(em)
    assert len(before) == 20
    sim.set_value(em.item, "ParticleEmitter.MaximumAmount", 100)
    assert em.capacity == 100
    after = sim.read_particles(em)
    for name in ("serial", "position", "velocity", "age", "hash"):
        np.testing.assert_array_equal(after[name], before[name])
    for _ in range(5):                     # 20 + 4 x 20 fill it; the fifth step stalls
        sim.step()
    assert sim.stats[em.path].alive == 100 and sim.stats[em.path].stalled == 20
    sim.set_value(em.item, "ParticleEmitter.MaximumAmount", 30)             # shrink: keep the youngest
    kept = sim.read_particles(em)
    assert em.capacity == 30 and list(kept["serial"]) == list(range(70, 100))
    sim.step()
    assert sim.stats[em.path].alive == 30 and sim.stats[em.path].emitted == 0


def test_zero_capacity_emits_nothing(simulate):
    sim = simulate(make_project(emitters={"E": _stream(0, 600.0, 1.0)}))
    sim.step_frame(0.1)
    assert len(sim.read_particles(sim.emitters[0])) == 0
    assert sim.stats[sim.emitters[0].path].alive == 0


def test_a_binding_that_changes_maximum_amount_resizes_keeping_live_particles(simulate):
    """The demo binds MaximumAmount to Rate x (Lifetime + LifetimeVariance): a new Rate set
    at run time (the window's --set, an application) grows the pool through the binding,
    and the particles alive before the change are still there, untouched."""
    import kzplayer
    from kzplayer.resources import samples_dir
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    sim = simulate(project)
    em = sim.emitters[0]
    rate, life, var = (em.item.get(n) for n in ("Emission.Rate", "Emission.Lifetime", "Emission.LifetimeVariance"))
    assert em.capacity == round(rate * (life + var))
    for _ in range(12):
        sim.step()
    before = sim.read_particles(em)
    assert len(before) == round(12 * rate / 60)
    sim.set_value(em.item, "Emission.Rate", 3 * rate)
    assert em.capacity == round(3 * rate * (life + var))
    after = sim.read_particles(em)
    for name in ("serial", "position", "velocity", "age", "hash"):
        np.testing.assert_array_equal(after[name], before[name])
    sim.step()
    assert sim.stats[em.path].alive == len(before) + round(3 * rate / 60)


def test_a_pool_beyond_one_dispatch_is_capped_with_a_warning(simulate, monkeypatch):
    monkeypatch.setattr("kzplayer.gpu.simulation.max_pool", lambda ctx: 64)
    sim = simulate(make_project(emitters={"E": _stream(1000, 6000.0, 1.0)}))
    em = sim.emitters[0]
    [d] = sim.diagnostics
    assert d.rule == "emitter.pool-limit" and d.severity.value == "warning" and "1,000" in d.message
    assert em.capacity == 64
    sim.step()
    assert sim.stats[em.path].alive == 64 and sim.stats[em.path].stalled == 100 - 64


@pytest.mark.parametrize("groups, block, expected", [
    (65535, 1 << 27, (1 << 27) // 144),     # Mesa's 128 MiB storage blocks: 932,067 slots
    (65535, 1 << 31, 65535 * 64),           # a desktop GPU: the dispatch is the limit
    (1 << 31, 1 << 34, (1 << 34) // 144),   # a 64-bit group count: the block again
])
def test_the_pool_limit_is_the_smaller_of_one_dispatch_and_one_storage_block(groups, block, expected):
    from types import SimpleNamespace

    from kzplayer.gpu.simulation import max_pool
    info = {"GL_MAX_COMPUTE_WORK_GROUP_COUNT": (groups, 65535, 65535), "GL_MAX_SHADER_STORAGE_BLOCK_SIZE": block}
    assert max_pool(SimpleNamespace(info=info)) == expected


def test_the_largest_pool_fits_the_drivers_storage_block_and_dispatch(ctx):
    from kzplayer.gpu.simulation import max_pool
    n = max_pool(ctx)
    assert n * L.PARTICLE_DTYPE.itemsize <= ctx.info["GL_MAX_SHADER_STORAGE_BLOCK_SIZE"]
    events = L.EVENT_HEADER_DTYPE.itemsize + 2 * n * L.EVENT_RECORD_DTYPE.itemsize   # records + staging
    assert events <= ctx.info["GL_MAX_SHADER_STORAGE_BLOCK_SIZE"]
    assert -(-n // L.WORKGROUP_SIZE) <= ctx.info["GL_MAX_COMPUTE_WORK_GROUP_COUNT"][0]


def _full_pool(simulate, capacity: int, dies: np.ndarray):
    """A pool whose every slot holds a particle at rest; those flagged in `dies` are past
    their lifetime (or marked), so the next step's kill passes free exactly them."""
    sim = simulate(make_project(emitters={"E": {"ParticleEmitter.MaximumAmount": capacity}}))
    em = sim.emitters[0]
    records = np.zeros(capacity, L.PARTICLE_DTYPE)
    records["flags"] = L.FLAG_ALIVE
    records["serial"] = np.arange(capacity)
    records["lifetime"] = np.where(dies, 0.0, 100.0)
    records["flags"][dies & (np.arange(capacity) % 3 == 0)] |= L.FLAG_KILL     # some marked instead
    records["lifetime"][dies & (np.arange(capacity) % 3 == 0)] = 100.0
    records["mass"] = records["time_scale"] = 1.0
    em.particles.write(records.tobytes())
    state = em.buffers.read_state()
    state["free_count"] = 0
    em.buffers.state.write(state.tobytes())
    return sim, em


@pytest.mark.parametrize("capacity", [50, 64 * 130 + 17])     # one group; 131 groups, 3 per scan run
def test_freed_slots_go_on_the_stack_in_slot_order_whatever_order_the_gpu_ran(simulate, capacity):
    """The kill passes (count per group, prefix sum, push) place each freed slot by its rank,
    not by an atomic's order: the same deaths give the same stack on any GPU, so new
    particles take the same slots and are drawn in the same order. Pushed highest first, so
    the lowest freed slot is reused first, as on a new pool."""
    dies = np.random.default_rng(capacity).random(capacity) < 0.4
    sim, em = _full_pool(simulate, capacity, dies)
    sim.step()
    assert sim.stats[em.path].died == dies.sum() and sim.stats[em.path].alive == capacity - dies.sum()
    # pushed highest first: the top of the stack is the lowest freed slot, taken first
    np.testing.assert_array_equal(em.buffers.read_free_list(), np.flatnonzero(dies)[::-1])
    state = em.buffers.read_state()
    assert state["free_count"] == dies.sum() and state["total_died"] == dies.sum()
    records = em.buffers.read_records()
    np.testing.assert_array_equal((records["flags"] & L.FLAG_ALIVE) != 0, ~dies)


def test_every_program_of_a_frame_fits_gl43s_minimum_storage_block_limits(simulate):
    """GL 4.3 guarantees compute shaders 8 storage blocks and 8 binding points, 8 image
    uniforms and 12 uniform blocks; drivers with more (llvmpipe: 16 and 80 blocks) would not
    notice one too many."""
    import moderngl

    from .test_barriers import _frame_project
    sim = simulate(_frame_project())
    for _ in range(3):
        sim.step()
    programs = [program for program, _ in sim.programs._programs.values()]
    # The frame pipeline v2 builds fewer programs than one per material and pass did (15+):
    # count and emit for each of the two subemitter levels, the fused step, the 7 ordering
    # and end passes.
    assert len(programs) >= 12
    images = {0x9063, 0x9051, 0x905D, 0x9068, 0x9067}      # (u)imageBuffer, (u)image2D types
    for program in programs:
        bindings = [m.binding for m in program._members.values() if isinstance(m, moderngl.StorageBlock)]
        assert len(bindings) <= 8 and max(bindings, default=0) < 8
        blocks = [m for m in program._members.values() if isinstance(m, moderngl.UniformBlock)]
        assert len(blocks) <= 12
        image_uniforms = [m for m in program._members.values()
                          if isinstance(m, moderngl.Uniform) and m.gl_type in images]
        assert len(image_uniforms) <= 8


def test_spawn_order_survives_the_32_bit_serial_wrapping(simulate):
    """After 2^32 spawns the serials wrap: dumps, read_particles and the youngest-first
    resize still follow spawn order (distance from the next serial, total_emitted)."""
    sim = simulate(make_project(emitters={"E": {"ParticleEmitter.MaximumAmount": 8}}))
    em = sim.emitters[0]
    serials = np.array([1, 0xFFFFFFFE, 0, 0xFFFFFFFF, 0xFFFFFFFD], np.uint32)   # 3 before the wrap, 2 after
    records = np.zeros(8, L.PARTICLE_DTYPE)
    records["flags"][:5] = L.FLAG_ALIVE
    records["serial"][:5] = serials
    records["lifetime"][:5] = 100.0
    records["age"][:5] = np.arange(5)          # tells the records apart
    em.particles.write(records.tobytes())
    state = em.buffers.read_state()
    state["total_emitted"], state["free_count"] = 2, 3          # the next spawn is serial 2
    em.buffers.state.write(state.tobytes())
    order = [0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFF, 0, 1]
    assert sim.read_particles(em)["serial"].tolist() == order
    sim.set_value(em.item, "ParticleEmitter.MaximumAmount", 3)          # keeps the youngest 3
    assert sim.read_particles(em)["serial"].tolist() == order[2:]
