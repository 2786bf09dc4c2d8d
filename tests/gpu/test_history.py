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
    assert "kz_history()" not in sim.runners[0].code.sources[("step", 0)].text     # (the frame block names kz_historyStep)


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


# -- the history and NeL motion together (issue 12 x issue 13) -----------------------------

def _to_world(em, points: np.ndarray) -> np.ndarray:
    m = em.simulation_to_world
    return points @ m[:3, :3].T + m[:3, 3]


def test_a_world_emitters_trail_in_a_moving_local_system_is_its_world_path(simulate):
    """ParticleEmitter.Space = World in a ParticleSystem.LocalSpace system whose node moves and
    turns every step: the particle flies straight in the world, unmoved by the system, and its
    trail, drawn through em.simulation_to_world as the renderer does, is that straight world
    path: its positions at the last N steps, not points dragged along by the system."""
    from kzplayer.values import EnumValue, Srt3D
    v = np.array([2.0, 1.0, 0.0])
    emitter = shot(6, speed=float(np.linalg.norm(v)), **{
        "ParticleEmitter.Space": EnumValue("World"), "Emission.InitialVelocityDirection": tuple(v)})
    project = make_project(system={"ParticleSystem.LocalSpace": True,
                                   "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, 0, 0))},
                           emitters={"E": emitter})
    system = next(i for i in project.walk() if i.type == "ParticleSystem")
    sim = simulate(project)
    em = sim.emitters[0]
    for step in range(1, 11):
        sim.step()
        sim.set_value(system, "Node3D.RenderTransformation",
                      Srt3D((1, 1, 1), (0, 0, 17.0 * step), (0.5 * step, -0.3 * step, 0.2 * step)))
    trail_world = _to_world(em, newest_first(em, 0))
    want = np.array([v * DT * (10 - k) for k in range(6)])      # straight, from the emitter at the origin
    np.testing.assert_allclose(trail_world, want, atol=2e-5)


def test_the_trail_of_a_particle_resolved_by_several_sub_hits_holds_its_end_of_step_positions(simulate):
    """A floor and a ceiling 1 m apart at 100 m/s (the tunnelling defect's case): a particle
    bounces several times in one step; its ring's newest entry is its end-of-step position
    (never a sub-hit point), the entry before it the previous step's, and no entry is on a
    solid side."""
    from .test_earliest_hit import build, collider, solid_depth, swarm
    project = build({"Floor": collider("Collider_Plane", (0, 0, 0), **{"Collider.Bounce": 1.0}),
                     "Ceiling": collider("Collider_Plane", (0, 1, 0), (180, 0, 0), **{"Collider.Bounce": 1.0})},
                    swarm(50, (0, 0.5, 0), 100.0, **trail(4)))
    depth = solid_depth(project)
    sim = simulate(project)
    em = sim.emitters[0]
    previous = None
    for _ in range(12):
        sim.step()
        records = em.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        assert len(live) == 50
        rings = em.buffers.read_history()["position"][live]                 # (50, 4, 3)
        n = em.buffers.history_length
        np.testing.assert_array_equal(rings[:, em.history_newest], records["position"][live])
        if previous is not None:
            np.testing.assert_array_equal(rings[:, (em.history_newest - 1) % n], previous)
        assert depth(rings.reshape(-1, 3)).max() <= 1e-5
        previous = records["position"][live].copy()
    assert int(sim.stats[em.path].hits) > 0


def test_a_particle_destroyed_on_collision_leaves_its_slot_to_a_trail_that_starts_collapsed(simulate):
    """DestroyOnCollision kills a particle at the floor; the next particle in its slot starts
    its trail at its own spawn point, not on the dead one's path to the floor."""
    from .test_earliest_hit import build, collider
    emitter = {"ParticleEmitter.EmissionMaterial": "Emitter_Point", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
               "ParticleEmitter.MaximumAmount": 6, "Emission.Rate": 120.0, "Emission.Lifetime": 10.0,
               "ParticleEmitter.DestroyOnCollision": True, "Node3D.RenderTransformation": _srt(0, 1, 0),
               "Emission.InitialVelocityDirection": (0.0, -1.0, 0.0), "Emission.InitialVelocityOuterAngle": 0.0,
               "Emission.InitialVelocityStrength": 12.0, **trail(10)}
    sim = simulate(build({"Floor": collider("Collider_Plane", (0, 0, 0))}, emitter))
    em = sim.emitters[0]
    died = checked = 0
    for _ in range(40):
        sim.step()
        died += int(sim.stats[em.path].died)
        records = em.buffers.read_records()
        for slot in np.flatnonzero(records["flags"] & L.FLAG_ALIVE):
            steps = int(round(records["age"][slot] / DT))
            ring = newest_first(em, slot)
            np.testing.assert_array_equal(ring[0], records["position"][slot])
            np.testing.assert_allclose(ring[steps:], np.tile([0.0, 1.0, 0.0], (10 - steps, 1)), atol=1e-6)
            assert np.all(ring[:, 1] > 0.0)                                 # nothing of a dead one's path below
            checked += 1
    assert died > 20 and checked > 50


def _srt(x, y, z):
    from kzplayer.values import Srt3D
    return Srt3D((1, 1, 1), (0, 0, 0), (x, y, z))


def test_mesh_emitter_particles_start_their_trails_on_the_mesh(simulate, tmp_path):
    """Emitter_Mesh: every new particle's ring is collapsed onto its spawn point, which lies
    on the mesh surface as placed (the truth: the triangles in numpy)."""
    import trimesh

    from .conftest import with_mesh
    from .test_mesh_emitter import owner_triangle
    mesh = trimesh.creation.icosphere(subdivisions=1, radius=1.0)
    turned = __import__("kzplayer.values", fromlist=["Srt3D"]).Srt3D((2.0, 0.5, 1.0), (30, 40, 0), (1, 2, 3))
    emitter = burst_emitter("Emitter_Mesh", 200, **{"Emission.Mesh": "Meshes/Shape", "Emission.InitialVelocityStrength": 1.0,
                                                    "Node3D.RenderTransformation": turned, **trail(5)})
    project = with_mesh(make_project(emitters={"E": emitter}, path=str(tmp_path / "fx.kzm")), tmp_path, "Shape", mesh)
    sim = simulate(project)
    em = sim.emitters[0]
    for _ in range(2):
        sim.step()
    records = em.buffers.read_records()
    live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
    assert len(live) == 200
    rings = np.array([newest_first(em, s) for s in live])                   # (200, 5, 3)
    np.testing.assert_array_equal(rings[:, 0], records["position"][live])
    np.testing.assert_array_equal(rings[:, 2:], np.repeat(rings[:, 2:3], 3, axis=1))   # collapsed before its 2 steps
    from kzplayer.transforms import srt_matrix
    m = srt_matrix(turned)
    world_tri = mesh.vertices[mesh.faces] @ m[:3, :3].T + m[:3, 3]
    assert np.all(owner_triangle(world_tri, rings[:, 2]) >= 0)
    assert np.all(np.linalg.norm(rings[:, 0] - rings[:, 2], axis=1) > 1e-3)  # and it moved off it since


def test_bound_children_start_their_trails_collapsed_where_they_were_due_on_the_parents_path(simulate):
    """A subemitter bound to a shell flying straight up at 5 m/s (EmissionCount_PerParticle,
    RatePerParticle 37): a child born mid-step starts its trail collapsed at its own spawn
    point, the shell's position at the age n / R it was due (5 n / R up), not at the shell's
    end-of-step position nor the slot's last occupant."""
    from .test_bound_emitters import bound, shells
    parent = shells(1, lifetime=3.0, speed=5.0, **{"Emission.InitialVelocityOuterAngle": 0.0})
    child = {"Emission.RatePerParticle": 37.0, "Emission.Lifetime": 0.1, "ParticleEmitter.MaximumAmount": 64,
             "ParticleEmitter.SelfAffectMaterial": "Gravity", **trail(6)}
    sim = simulate(bound(parent, child))
    sub = sim.emitters[1]
    assert sub.history == 6
    checked = 0
    for _ in range(40):
        sim.step()
        records = sub.buffers.read_records()
        for slot in np.flatnonzero(records["flags"] & L.FLAG_ALIVE):
            steps = int(round(records["age"][slot] / DT))
            ring = newest_first(sub, slot)
            np.testing.assert_array_equal(ring[0], records["position"][slot])
            spawn = ring[min(steps, 5)]
            assert np.all(ring[steps:] == spawn)
            n = spawn[1] / 5.0 * 37.0                                       # its number: an integer
            assert abs(n - round(n)) < 2e-3 and abs(spawn[0]) < 1e-6 and abs(spawn[2]) < 1e-6
            if steps >= 2:
                assert ring[0][1] < spawn[1]                                  # it falls from there
            checked += 1
    assert checked > 100


def test_resizing_a_local_emitters_pool_keeps_its_trails_in_its_own_space(simulate):
    """MaximumAmount changed on a Space = Local emitter with a trail in a turned, moved system:
    every kept trail is unchanged by serial, and the next step continues it in the same space
    (its newest entry is the record, the one before the position before the resize)."""
    from kzplayer.values import EnumValue, Srt3D
    emitter = {"ParticleEmitter.EmissionMaterial": "Emitter_Sphere", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
               "ParticleEmitter.MaximumAmount": 40, "Emission.Rate": 1200.0, "Emission.Lifetime": 10.0,
               "Emission.InitialVelocityStrength": 2.0, "ParticleEmitter.Space": EnumValue("Local"), **trail(6)}
    sim = simulate(make_project(system={"Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 90), (4, 1, 0))},
                                emitters={"E": emitter}, affectors=GRAVITY))
    em = sim.emitters[0]
    assert em.space is not None
    for _ in range(4):
        sim.step()

    def trails():
        records = em.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        return {int(records["serial"][s]): (newest_first(em, s), records["position"][s].copy()) for s in live}
    for size in (100, 25):
        before = trails()
        sim.set_value(em.item, "ParticleEmitter.MaximumAmount", size)
        after = trails()
        assert after.keys() <= before.keys() and len(after) == min(size, len(before))
        for serial, (ring, _) in after.items():
            np.testing.assert_array_equal(ring, before[serial][0])
        sim.step()
        stepped = trails()
        for serial, (ring, position) in stepped.items():
            if serial in after:
                np.testing.assert_array_equal(ring[0], position)
                np.testing.assert_array_equal(ring[1], after[serial][1])


def test_resizing_a_bound_subemitter_keeps_its_childrens_trails_and_its_parents_count(simulate):
    """A bound subemitter with a trail: its pool and its parents' pool resized mid-flight; the
    children's trails are kept by serial, and every step's count stays the parents' own
    floor(R a1) - floor(R a0) (the carry is the parents' age, which a resize keeps)."""
    from .test_bound_emitters import bound, shells
    rate, parents = 30.0, 10
    sim = simulate(bound(shells(parents, lifetime=1.5), {"Emission.RatePerParticle": rate, "Emission.Lifetime": 0.3,
                                                        "ParticleEmitter.MaximumAmount": 200, **trail(5)}))
    source, sub = sim.emitters
    age = np.cumsum(np.full(100, np.float32(DT), np.float32), dtype=np.float32)
    a1 = np.minimum(age, np.float32(1.5))
    a0 = np.minimum(np.concatenate([np.zeros(1, np.float32), age[:-1]]), a1)
    want = (parents * (np.floor(np.float32(rate) * a1) - np.floor(np.float32(rate) * a0))).astype(int)

    def trails():
        records = sub.buffers.read_records()
        live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
        return {int(records["serial"][s]): newest_first(sub, s) for s in live}
    resizes = {20: (sub, 150), 35: (source, 64), 50: (sub, 400)}
    for step in range(80):
        if step in resizes:
            em, size = resizes[step]
            before = trails()
            sim.set_value(em.item, "ParticleEmitter.MaximumAmount", size)
            after = trails()
            assert after.keys() == before.keys() and after
            for serial, ring in after.items():
                np.testing.assert_array_equal(ring, before[serial])
        sim.step()
        assert sim.stats[sub.path].emitted == want[step], step
        assert sim.stats[sub.path].events_dropped == 0


def test_a_frame_over_the_step_budget_leaves_the_ring_in_step_order(simulate):
    """Steps a frame drops (Simulation.max_steps) are not run, so they write no entry: the
    ring still holds the positions of the steps really run, newest first, and the entry the
    renderer takes as the newest (history_newest) is the particle's position."""
    sim = simulate(make_project(emitters={"E": shot(6)}, affectors=GRAVITY))
    sim.max_steps = 1
    em = sim.emitters[0]
    seen = []
    for _ in range(9):
        sim.step_frame(4 / 60)                      # 4 due, 1 run, 3 dropped
        [p] = sim.read_particles(em)
        seen.append(p["position"].copy())
        want = [seen[-1 - k] if k < len(seen) else np.zeros(3) for k in range(6)]
        np.testing.assert_array_equal(newest_first(em, 0), np.array(want, np.float32))
    assert sim.dropped_steps and sim.runners[0].system.runs == 9 and sim.runners[0].system.steps == 36
