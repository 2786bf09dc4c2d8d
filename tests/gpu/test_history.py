"""The position history (docs/player.md, "Position history"): an emitter whose rendering
material draws trails keeps N positions per slot, a ring the fused step writes once per
particle per step, collapsed onto the spawn point at birth, sized N x MaximumAmount, kept
through pool resizes and subemitter levels, and within GL 4.3's limits."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu import layout as L

from .conftest import burst_emitter, make_project
from .test_colliders import GRAVITY
from .test_subemitters import dying, subemitter

DT = 1.0 / 60.0
G = np.array([0.0, -9.8, 0.0])


def trail(n: int, **props) -> dict:
    return {"ParticleEmitter.ParticleMaterial": "Particles_Ribbon", "Trail.Length": n, **props}


def shot(n_history=6, speed=3.0, **props) -> dict:
    return burst_emitter("Emitter_Point", 1, **trail(n_history), **{
        "Emission.InitialVelocityDirection": (1.0, 1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": speed, **props})


def newest_first(em, slot: int) -> np.ndarray:
    """The slot's ring as positions, newest first."""
    ring = em.buffers.read_history()[slot]["position"]
    n = len(ring)
    return np.array([ring[(em.history_newest - k) % n] for k in range(n)])


def euler(x0, v0, steps: int) -> np.ndarray:
    """Semi-implicit Euler under gravity, in float64: x after 0 .. steps steps."""
    x, v, out = np.asarray(x0, float), np.asarray(v0, float), [np.asarray(x0, float)]
    for _ in range(steps):
        v = v + G * DT
        x = x + v * DT
        out.append(x)
    return np.array(out)


def test_the_ring_holds_the_last_n_positions_and_the_spawn_point_before_them(simulate):
    sim = simulate(make_project(emitters={"E": shot(6)}, affectors=GRAVITY))
    em = sim.emitters[0]
    assert em.history == 6 and em.buffers.history_length == 6
    seen = []
    v0 = 3.0 * np.array([1.0, 1.0, 0.0]) / np.sqrt(2.0)
    for step in range(1, 11):
        sim.step()
        [p] = sim.read_particles(em)
        seen.append(p["position"].copy())
        ring = newest_first(em, 0)
        # exactly what the particle was at each of its last steps (the same bits) ...
        want = [seen[-1 - k] if k < len(seen) else np.zeros(3) for k in range(6)]
        np.testing.assert_array_equal(ring, np.array(want, np.float32))
        # ... which is the ballistic trajectory, and before its first step its spawn point
        analytic = euler((0, 0, 0), v0, step)[::-1][:6]
        analytic = np.vstack([analytic, np.zeros((6 - len(analytic), 3))]) if len(analytic) < 6 else analytic
        np.testing.assert_allclose(ring, analytic, atol=2e-5)


def test_the_newest_entry_is_the_particles_position_every_step(simulate):
    sim = simulate(make_project(emitters={"E": {
        "ParticleEmitter.EmissionMaterial": "Emitter_Sphere", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": 200, "Emission.Rate": 900.0, "Emission.Lifetime": 0.2,
        "Emission.InitialVelocityStrength": 2.0, **trail(4)}}, affectors=GRAVITY))
    em = sim.emitters[0]
    for _ in range(30):
        sim.step()
        records = em.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        ring = em.buffers.read_history()["position"]
        np.testing.assert_array_equal(ring[live, em.history_newest], records["position"][live])


def test_a_new_particle_in_a_used_slot_starts_collapsed_at_its_spawn_point(simulate):
    """Slots are reused as particles die; a new particle's ring never shows its
    predecessor's positions: every entry older than its own steps is its spawn point."""
    sim = simulate(make_project(emitters={"E": {
        "ParticleEmitter.EmissionMaterial": "Emitter_Point", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": 8, "Emission.Rate": 120.0, "Emission.Lifetime": 4 * DT,
        "Emission.InitialVelocityDirection": (0.0, 1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": 5.0, **trail(12)}}))
    em = sim.emitters[0]
    checked = 0
    for _ in range(40):
        sim.step()
        records = em.buffers.read_records()
        for slot in np.flatnonzero(records["flags"] & L.FLAG_ALIVE):
            steps = int(round(records["age"][slot] / DT))
            ring = newest_first(em, slot)
            assert np.all(ring[steps + 1:] == 0.0), (slot, steps, ring)      # the spawn point, the origin
            assert np.all(np.diff(ring[:steps + 1, 1]) < 0)                  # rising: its own steps
            checked += 1
    assert checked > 100 and int(sim.stats[em.path].died) >= 0


def test_subemitter_children_start_their_trails_where_they_are_born(simulate):
    sim = simulate(make_project(emitters={
        "Source": dying(n=10, lifetime=0.1),
        "Sub": subemitter("Source", per_event=3, capacity=60, **trail(5))}))
    source, sub = sim.emitters
    assert source.history == 0 and sub.history == 5
    born = False
    for _ in range(20):
        sim.step()
        records = sub.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        if not len(live):
            continue
        born = True
        ring = sub.buffers.read_history()["position"][live]
        for row, slot in zip(ring, live):
            steps = int(round(records["age"][slot] / DT))
            newest = newest_first(sub, slot)
            np.testing.assert_array_equal(newest[0], records["position"][slot])
            spawn = newest[min(steps, 4)]
            assert np.all(newest[steps:] == spawn)      # before its first step: where it was born
        if np.any(records["age"][live] > 2.5 * DT):
            break
    assert born


def test_resizing_the_pool_keeps_each_particles_trail(simulate):
    project = make_project(emitters={"E": {
        "ParticleEmitter.EmissionMaterial": "Emitter_Sphere", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": 40, "Emission.Rate": 1200.0, "Emission.Lifetime": 10.0,
        "Emission.InitialVelocityStrength": 2.0, **trail(6)}}, affectors=GRAVITY)
    sim = simulate(project)
    em = sim.emitters[0]
    for _ in range(3):
        sim.step()

    def trails():
        records = em.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        return {int(records["serial"][s]): newest_first(em, s) for s in live}
    before = trails()
    assert len(before) == 40
    sim.set_value(em.item, "ParticleEmitter.MaximumAmount", 100)          # grow: every trail moves
    after = trails()
    assert after.keys() == before.keys()
    for serial, ring in before.items():
        np.testing.assert_array_equal(after[serial], ring)
    sim.step()
    grown = trails()
    sim.set_value(em.item, "ParticleEmitter.MaximumAmount", 30)           # shrink: the youngest keep theirs
    kept = trails()
    assert len(kept) == 30
    for serial, ring in kept.items():
        np.testing.assert_array_equal(ring, grown[serial])
    sim.step()
    records = em.buffers.read_records()
    live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
    np.testing.assert_array_equal(em.buffers.read_history()["position"][live, em.history_newest],
                                  records["position"][live])


def test_a_new_trail_length_starts_every_trail_where_its_particle_is(simulate):
    sim = simulate(make_project(emitters={"E": shot(6)}, affectors=GRAVITY))
    em = sim.emitters[0]
    for _ in range(5):
        sim.step()
    sim.set_value(em.item, "Trail.Length", 9)
    assert em.buffers.history_length == 9
    [p] = sim.read_particles(em)
    ring = newest_first(em, 0)
    assert np.all(ring == p["position"])
    sim.step()
    [q] = sim.read_particles(em)
    ring = newest_first(em, 0)
    np.testing.assert_array_equal(ring[0], q["position"])
    assert np.all(ring[1:] == p["position"])


def test_the_history_is_n_x_the_pool_and_counted_in_the_memory_report(simulate):
    sim = simulate(make_project(emitters={"Trails": {**shot(16), "ParticleEmitter.MaximumAmount": 1000},
                                          "Plain": burst_emitter("Emitter_Point", 100)}))
    memory = sim.memory()
    trails, plain = (memory[em.path] for em in sim.emitters)
    slots = 1024                                        # the pool in whole groups of 64
    assert trails["history"] == 16 * slots * L.HISTORY_DTYPE.itemsize
    assert plain["history"] == 0
    assert trails["particles"] == slots * (L.HOT_DTYPE.itemsize + L.COLD_DTYPE.itemsize)
    assert sim.runners[0].storage.history.size == 16 * slots * 16


def test_an_emitter_without_a_trail_material_keeps_no_history_and_its_step_writes_none(simulate):
    sim = simulate(make_project(emitters={"E": burst_emitter("Emitter_Point", 10)}))
    assert sim.emitters[0].history == 0 and not sim.runners[0].code.history
    assert "kz_history" not in sim.runners[0].code.sources[("step", 0)].text


@pytest.mark.parametrize("io", ["storage"])
def test_images_and_storage_blocks_keep_the_same_history(simulate, ctx, io):
    from kzplayer.gpu import Simulation

    def run(io_mode):
        sim = Simulation(ctx, make_project(emitters={"E": {**dying(n=30, lifetime=0.2), **trail(7)},
                                                     "Sub": subemitter("E", per_event=2, capacity=100, **trail(3))},
                                           affectors=GRAVITY), io=io_mode)
        try:
            for _ in range(20):
                sim.step()
            return [em.buffers.read_history().tobytes() for em in sim.emitters]
        finally:
            sim.release()
    assert run(None) == run(io)


def test_programs_that_keep_a_history_fit_gl43s_minimum_limits(simulate):
    """The history is the eighth image, not a ninth storage block (GL 4.3 promises eight)."""
    import moderngl

    from kzplayer.project.model import Property
    from kzplayer.values import MaterialRef

    from .test_barriers import _frame_project
    project = _frame_project()
    for item in project.walk():
        if item.type == "ParticleEmitter":
            item.properties["ParticleEmitter.ParticleMaterial"] = Property(
                "ParticleEmitter.ParticleMaterial", MaterialRef("Particles_GradientLine"))
    sim = simulate(project)
    for _ in range(3):
        sim.step()
    assert all(em.history == 16 for em in sim.emitters)
    images = {0x9063, 0x9051, 0x905D, 0x9068, 0x9067}
    programs = [program for program, _ in sim.programs._programs.values()]
    assert any("kz_historyTexels" in p for p in programs)
    for program in programs:
        blocks = [m.binding for m in program._members.values() if isinstance(m, moderngl.StorageBlock)]
        assert len(blocks) <= 8 and max(blocks, default=0) < 8
        assert len([m for m in program._members.values()
                    if isinstance(m, moderngl.Uniform) and m.gl_type in images]) <= 8


def test_a_local_emitters_trail_is_kept_in_its_own_space_like_its_records(simulate):
    # ParticleEmitter.Space = Local in a world-space system that is turned and moved: the
    # step runs in the system's space, and the ring must hold what the record holds (the
    # emitter's space) so the renderer's one matrix (em.simulation_to_world) draws both.
    from kzplayer.values import EnumValue, Srt3D
    emitters = {"E": shot(5, **{"ParticleEmitter.Space": EnumValue("Local")})}
    turned = Srt3D((1, 1, 1), (0, 0, 90), (4, 1, 0))
    sim = simulate(make_project(system={"Node3D.RenderTransformation": turned}, emitters=emitters,
                                affectors=GRAVITY))
    em = sim.emitters[0]
    assert em.space is not None
    for _ in range(8):
        sim.step()
        records = em.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        ring = em.buffers.read_history()["position"]
        np.testing.assert_allclose(ring[live, em.history_newest], records["position"][live], atol=1e-6)
    # and the trail is the particle's path, in that space: the last positions are distinct
    trail_points = newest_first(em, int(live[0]))
    assert np.all(np.linalg.norm(np.diff(trail_points, axis=0), axis=1) > 1e-3)
