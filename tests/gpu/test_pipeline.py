"""The frame pipeline v2 (docs/player.md, The frame): one generated fused kernel per system,
every emitter of a system in one dispatch per stage, the live lists, the stats ring. Each
test compares the pipeline with another way of computing the same thing: the emitters of
one system with the same emitters in systems of their own, the live-list walk with a walk
of every slot, texel-buffer images with storage blocks, the barrier-free emitter scans with
the workgroup ones, late stats with stats read at once."""
from __future__ import annotations

import moderngl
import numpy as np
import pytest

from kzplayer.gpu import layout as L
from kzplayer.gpu.events import read_events
from kzplayer.project.model import Item, Project
from kzplayer.values import BufferHandle, Srt3D

from .conftest import burst_emitter, make_item

H = 1 / 60


def _stream(material="Emitter_Sphere", n=300, rate=900.0, lifetime=0.3, **props) -> dict:
    return {"ParticleEmitter.EmissionMaterial": material,
            "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
            "ParticleEmitter.MaximumAmount": n, "Emission.Rate": rate, "Emission.Lifetime": lifetime,
            "Emission.LifetimeVariance": 0.1, "Emission.InitialVelocityStrength": 3.0,
            "Emission.InitialVelocityStrengthVariance": 1.0, "Emission.InitialAngularVelocity": (0.0, 0.0, 2.0),
            **props}


AFFECTORS = {
    "Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"},
    "Drag": {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": 0.05},
    "Wind": {"ParticleAffector.AffectorMaterial": "Wind", "Wind.WindSpeed": 20.0, "Wind.GustAmplitude": 0.4,
             "Wind.TurbulenceStrength": 1.0},
    "Curl": {"ParticleAffector.AffectorMaterial": "CurlNoise", "CurlNoise.Strength": 2.0},
}
FLOOR = {"ParticleCollider.ColliderMaterial": "Collider_Plane", "Collider.Bounce": 0.4,
         "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, -0.3, 0))}


def _groups() -> list[dict]:
    """Emitters, in groups that must share a system (a subemitter and its source)."""
    return [
        {"Spray": _stream()},
        {"Box": _stream("Emitter_Box", n=200, rate=600.0, **{"Emission.Volume": True,
                                                             "ParticleEmitter.SelfAffectMaterial": "Accelerate",
                                                             "Accelerate.Magnitude": 4.0})},
        {"Ring": _stream("Emitter_Torus", n=250, rate=500.0, **{"Emission.Seed": 9})},
        {"Source": _stream(n=200, rate=600.0, lifetime=0.2, **{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime"}),
         "Sparks": {"ParticleEmitter.EmissionMaterial": "Emitter_FromEvents",
                    "ParticleEmitter.EmissionCountMaterial": "EmissionCount_FromEvents",
                    "ParticleEmitter.MaximumAmount": 500, "Emission.ParticlesPerEvent": 2, "Emission.Lifetime": 0.15,
                    "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                    "Events.LifetimeMin": 0.0, "Events.LifetimeMax": 0.0}},
    ]


def _project(together: bool) -> Project:
    """The emitters of _groups() in one ParticleSystem, or each group in a system of its own
    (with the same affectors and collider): tree order, and so every emitter's number (its
    random streams), is the same either way."""
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Screen", "Screen")).add_child(Item("Scene", "Scene"))
    systems = []
    for k, group in enumerate(_groups()):
        if together and systems:
            system = systems[0]
        else:
            system = scene.add_child(make_item("ParticleSystem", f"System {k}"))
            systems.append(system)
        for name, props in group.items():
            if name == "Sparks":
                props = {**props, "Emission.SourceEventBuffer": BufferHandle("EventBuffer", f"{system.path}/Source"),
                         "Emission.SourceParticleDataBuffer": BufferHandle("ParticleDataBuffer", f"{system.path}/Source")}
            system.add_child(make_item("ParticleEmitter", name, props))
    for system in systems:
        for name, props in AFFECTORS.items():
            system.add_child(make_item("ParticleAffector", name, props))
        system.add_child(make_item("ParticleCollider", "Floor", FLOOR))
    return Project(name="pipeline", root=root)


def _run(simulate, project, frames=30, **options):
    sim = simulate(project, **options)
    stats = []
    for _ in range(frames):
        sim.step_frame(H)
        stats.append({em.item.name: _figures(sim.stats[em.path]) for em in sim.emitters})
    pools = {em.item.name: sim.read_particles(em) for em in sim.emitters}
    events = {em.item.name: read_events(em) for em in sim.emitters}
    return sim, stats, pools, events


def _figures(s) -> dict:
    """An EmitterStats without its path: the figures."""
    return {k: v for k, v in vars(s).items() if k != "emitter"}


@pytest.fixture
def simulate_with(ctx):
    from kzplayer.gpu import Simulation
    made = []

    def build(project, **options):
        sim = Simulation(ctx, project, **options)
        made.append(sim)
        return sim
    yield build
    for sim in made:
        sim.release()


def _same_particles(a: dict, b: dict, exact: bool = True) -> None:
    assert a.keys() == b.keys()
    for name in a:
        pa, pb = a[name], b[name]
        assert len(pa) == len(pb) > 0, name
        for field in ("serial", "hash", "flags"):
            np.testing.assert_array_equal(pa[field], pb[field], err_msg=f"{name}/{field}")
        for field in ("position", "velocity", "age", "lifetime", "rotation", "scale", "mass", "acceleration"):
            if exact:
                np.testing.assert_array_equal(pa[field], pb[field], err_msg=f"{name}/{field}")
            else:
                np.testing.assert_allclose(pa[field], pb[field], rtol=1e-5, atol=1e-5, err_msg=f"{name}/{field}")


def test_a_fused_system_of_many_emitters_gives_the_same_particles_as_each_stepped_alone(simulate_with):
    """Five emitters (shapes, a self-affect, a source and its subemitter) share one system's
    buffers and dispatches: each particle is what it is when its emitter (with its source)
    has a system, buffers and programs of its own."""
    fused, stats_f, pools_f, events_f = _run(simulate_with, _project(together=True))
    alone, stats_a, pools_a, events_a = _run(simulate_with, _project(together=False))
    assert len(fused.systems) == 1 and len(alone.systems) == 4
    assert stats_f == stats_a
    assert sum(s["Sparks"]["emitted"] for s in stats_f) > 100 and sum(s["Spray"]["died"] for s in stats_f) > 100
    # The same particles, bit for bit here. (The programs differ: one holds every material,
    # the others a part; a driver may contract a multiply-add differently in them, so on
    # another GPU the floats could differ in their last bits. Then this needs a tolerance.)
    _same_particles(pools_f, pools_a)
    for name in events_f:
        assert events_f[name][1]["kind"].tolist() == events_a[name][1]["kind"].tolist()
        np.testing.assert_array_equal(events_f[name][1]["particle"], events_a[name][1]["particle"])


def test_live_list_dispatch_gives_the_same_results_as_a_full_pool_walk(simulate_with):
    """The step kernel over the live lists (work sized by live particles) against the same
    kernel over every slot of every pool, skipping the dead: the same bits."""
    live, stats_l, pools_l, events_l = _run(simulate_with, _project(together=True))
    walk, stats_w, pools_w, events_w = _run(simulate_with, _project(together=True), walk="pool")
    assert stats_l == stats_w
    _same_particles(pools_l, pools_w)
    for name in events_l:
        assert events_l[name][1].tobytes() == events_w[name][1].tobytes()
    for em_l, em_w in zip(live.emitters, walk.emitters):
        assert em_l.buffers.read_records().tobytes() == em_w.buffers.read_records().tobytes()
        np.testing.assert_array_equal(em_l.buffers.read_free_list(), em_w.buffers.read_free_list())


def test_texel_buffer_images_and_storage_blocks_give_the_same_bits(simulate_with):
    """Particles read and written as texel-buffer images (the default) or as storage blocks
    (drivers without texel buffers, programs whose custom material indexes the blocks)."""
    images, stats_i, pools_i, _ = _run(simulate_with, _project(together=True), frames=12)
    blocks, stats_b, pools_b, _ = _run(simulate_with, _project(together=True), frames=12, io="storage")
    assert images.image_io and not blocks.image_io
    assert stats_i == stats_b
    for em_i, em_b in zip(images.emitters, blocks.emitters):
        assert em_i.buffers.read_records().tobytes() == em_b.buffers.read_records().tobytes()


def test_the_emitter_scans_with_and_without_barriers_agree(simulate_with, monkeypatch):
    """An emitter of more than 64 runs (262,144 slots) is scanned by a workgroup, a shorter
    one by an invocation: forced here onto the workgroup form, the stacks, live lists and
    event records come out the same."""
    serial, stats_s, _, events_s = _run(simulate_with, _project(together=True))
    monkeypatch.setattr("kzplayer.gpu.runner.WIDE_RUNS", 0)
    wide, stats_w, _, events_w = _run(simulate_with, _project(together=True))
    assert stats_s == stats_w
    for a, b in zip(serial.emitters, wide.emitters):
        assert a.buffers.read_records().tobytes() == b.buffers.read_records().tobytes()
        np.testing.assert_array_equal(a.buffers.read_free_list(), b.buffers.read_free_list())
        np.testing.assert_array_equal(a.live.read(), b.live.read())
    for name in events_s:
        assert events_s[name][1].tobytes() == events_w[name][1].tobytes()


def test_the_live_list_holds_the_live_slots_ascending_with_its_count_on_the_gpu(simulate_with):
    sim = simulate_with(_project(together=True))
    for _ in range(20):
        sim.step_frame(H)
        for em in sim.emitters:
            records = em.buffers.read_records()
            live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
            np.testing.assert_array_equal(em.live.read(), live)
            header = np.frombuffer(em.live.header_buffer.read(L.LIVE_HEADER_DTYPE.itemsize, em.live.header_offset),
                                   L.LIVE_HEADER_DTYPE)[0]
            assert header["count"] == len(live) == sim.stats[em.path].alive
            assert tuple(header["dispatch"]) == (-(-len(live) // 64), 1, 1)
            assert tuple(header["draw"]) == (4, len(live), 0, 0)


def test_stats_read_late_equal_stats_read_now(simulate_with, monkeypatch):
    """`take_stats` hands out each frame's figures a couple of frames late, without reading
    the GPU in the frame loop; with the end-of-run flush they are every frame's figures as
    `stats` gives them at once."""
    now = simulate_with(_project(together=True))
    expected = []
    for _ in range(25):
        now.step_frame(2 * H)
        expected.append(dict(now.stats))
    late = simulate_with(_project(together=True))
    reads = []
    original = moderngl.Buffer.read

    def counted(self, *args, **kwargs):
        reads.append(self)
        return original(self, *args, **kwargs)
    got = []
    monkeypatch.setattr(moderngl.Buffer, "read", counted)
    for frame in range(25):
        reads.clear()
        late.step_frame(2 * H)
        assert reads == []                      # the frame itself reads nothing back
        ready = late.take_stats()
        assert all(f <= frame - 1 for f, _ in ready)     # a frame late or more
        got += ready
    got += late.take_stats(flush=True)
    assert [f for f, _ in got] == list(range(25))
    assert [figures for _, figures in got] == expected
    assert late.stats == expected[-1]


def test_host_work_per_step_does_not_grow_with_the_number_of_emitters(simulate_with, monkeypatch):
    """Dispatches, buffer writes and uniform writes per step: the same for 1 and 40 emitters."""
    from tests.gpu.conftest import make_project
    calls = []
    for cls, name in ((moderngl.ComputeShader, "run"), (moderngl.ComputeShader, "run_indirect"),
                      (moderngl.Buffer, "write"), (moderngl.Uniform, "value")):
        if name == "value":
            prop = cls.value

            def setter(self, v, _prop=prop):
                calls.append("uniform")
                _prop.fset(self, v)
            monkeypatch.setattr(cls, "value", property(prop.fget, setter))
            continue
        original = getattr(cls, name)

        def recorded(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(cls, name, recorded)
    counts = []
    for n in (1, 40):
        sim = simulate_with(make_project(emitters={f"E{k}": _stream(n=50, rate=300.0) for k in range(n)},
                                         affectors={"Gravity": AFFECTORS["Gravity"]}))
        sim.step_frame(H)
        calls.clear()
        sim.step_frame(H)
        counts.append(sorted(calls))
    assert counts[0] == counts[1]
    assert counts[0].count("write") == 1        # the step's constants: one block


def test_a_parameter_compiled_in_as_zero_still_follows_the_property(simulate_with):
    """Zero parameters that no binding drives are compiled into the programs (a CPU
    rasteriser runs both sides of every branch): changing one recompiles, and the new value
    acts (Wind's turbulence from 0, a self-affect's push from 0)."""
    from tests.gpu.conftest import make_project
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 50, **{
        "Emission.InitialVelocityStrength": 0.0, "ParticleEmitter.SelfAffectMaterial": "Accelerate",
        "Accelerate.Magnitude": 0.0})})
    sim = simulate_with(project)
    runner = sim.runners[0]
    assert "Accelerate_Magnitude = 0.0;     // compiled in" in runner.code.sources[("step", 0)].text
    sim.step()
    assert np.all(sim.read_particles(sim.emitters[0])["acceleration"] == 0.0)
    sim.set_value(sim.emitters[0].item, "Accelerate.Magnitude", 3.0)
    assert "Accelerate_Magnitude = 0.0;" not in runner.code.sources[("step", 0)].text
    sim.step()
    np.testing.assert_allclose(sim.read_particles(sim.emitters[0])["acceleration"][:, 1], 3.0)


def test_a_system_larger_than_the_driver_holds_caps_its_later_pools(simulate_with, monkeypatch):
    from tests.gpu.conftest import make_project
    monkeypatch.setattr("kzplayer.gpu.refresh.system_limit", lambda ctx, image_io: 256)
    sim = simulate_with(make_project(emitters={"A": _stream(n=200), "B": _stream(n=200)}))
    assert [em.capacity for em in sim.emitters] == [200, 0]
    [d] = sim.diagnostics
    assert d.rule == "emitter.pool-limit" and "together" in d.message and d.message.startswith(sim.emitters[1].path)


def test_frames_nobody_takes_are_folded_in_and_the_last_frame_stays_exact(simulate_with):
    from kzplayer.gpu.stats_ring import DEPTH
    a, b = simulate_with(_project(together=True)), simulate_with(_project(together=True))
    for _ in range(3 * DEPTH):
        a.step_frame(H)
        b.step_frame(H)
        assert len(b._ring.pending) <= DEPTH + 1
        expected = dict(a.stats)
    assert b.stats == expected
    assert sum(s.died for s in b.stats.values()) > 0


def test_a_table_and_parameters_in_a_storage_block_give_the_same_particles(simulate_with, monkeypatch):
    """Hundreds of emitters outgrow a uniform block: the table and the parameters then go to
    a storage block (forced here), with the same results."""
    ubo, stats_u, _, _ = _run(simulate_with, _project(together=True), frames=12)
    monkeypatch.setattr("kzplayer.gpu.generate.Generator.words_in_ssbo", lambda self, code: True)
    ssbo, stats_s, _, _ = _run(simulate_with, _project(together=True), frames=12)
    assert "#define KZ_WORDS_IN_SSBO 1" in ssbo.runners[0].code.sources[("step", 0)].text
    assert stats_u == stats_s
    for a, b in zip(ubo.emitters, ssbo.emitters):
        assert a.buffers.read_records().tobytes() == b.buffers.read_records().tobytes()
