"""Checkpoints (kzplayer.gpu.checkpoint): a run restored at frame k equals the run from 0 at
every later frame, bit for bit, on samples that exercise each kind of state: events and
subemitters (07, 14), trails (09), schedule bursts (03), colliders and the emission LOD
(10); every part of the state is needed (a restore with one part put back to a fresh
run's diverges); a checkpoint never restores into another project, other values or a
damaged file."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.gpu import Simulation
from kzplayer.gpu import layout as L
from kzplayer.gpu.checkpoint import BUFFERS, CheckpointError, read_header, scratch_cleared
from kzplayer.render.player import Player

from .conftest import make_project
from .test_subemitters import subemitter

SAMPLES = Path(__file__).resolve().parents[2] / "sample_projects"
DT = 1 / 30


@pytest.fixture
def build(ctx):
    """build(sample, seed=None, sets=()) -> a Simulation of a sample (or of a project of
    MADE), released after the test."""
    made = []

    def make(name, seed=None, sets=()):
        project = MADE[name]() if name in MADE else kzplayer.load(SAMPLES / name)
        graph = resolve(project)
        for item, prop, value in sets:
            graph.set_value(project.find(item), prop, value)
        sim = Simulation(ctx, project, graph, seed=seed, leave_out_broken=True)
        made.append(sim)
        return sim
    yield make
    for sim in made:
        sim.release()


def buffers(sim) -> dict[str, bytes]:
    out = {}
    for i, runner in enumerate(sim.runners):
        if runner.storage is not None:
            runner.storage.sync_for_cpu()
            for name in BUFFERS:
                raw = getattr(runner.storage, name).read()
                # the staging halves are filled in the GPU's atomic order (two runs from 0 differ
                # there too) and emptied within each step: not state
                out[f"{i}/{name}"] = scratch_cleared(runner.storage, raw) if name == "events" else raw
    return out


def same_state(a, b, frame) -> None:
    ba, bb = buffers(a), buffers(b)
    assert ba.keys() == bb.keys()
    for key in ba:
        assert ba[key] == bb[key], f"frame {frame}: buffer {key} differs"
    da, db = a.dump(), b.dump()
    assert da.keys() == db.keys()
    for key in da:
        assert da[key].tobytes() == db[key].tobytes(), f"frame {frame}: {key} differs"


def emitter_states(sim) -> list:
    return [(em, em.buffers.read_state()) for em in sim.emitters if em.capacity]


# What each sample exercises, checked on the run from 0 at the checkpoint and over the frames after.
def _events_and_subemitters(sim, figures):
    assert sum(f.events_written for fr in figures for f in fr.values()) > 0
    subs = [em for em in sim.emitters if em.level > 0]
    assert subs and sum(fr[em.path].emitted for fr in figures for em in subs if em.path in fr) > 0


def _colliders(sim, figures):
    assert sum(f.hits for fr in figures for f in fr.values()) > 0


def _trails(sim, figures):
    trails = [em for em in sim.emitters if em.buffers is not None and em.buffers.history_length]
    assert trails and any(np.any(em.buffers.read_history()["position"] != 0) for em in trails)


def _periodic_memory(sim, figures):
    em = sim.emitters[0]
    tracks, live = em.buffers.storage.read_tracks(0), sim.read_particles(em)
    assert len(live) and np.any(tracks["cycle"] > 0), "the periodic events' memory holds intervals fired"


def _periodic():
    """An emitter whose Event_Periodic remembers per particle which interval fired last (its
    track), and a subemitter spawning from those events."""
    return make_project(emitters={
        "Ticks": {"ParticleEmitter.EmissionMaterial": "Emitter_Point",
                  "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
                  "ParticleEmitter.MaximumAmount": 400, "Emission.Rate": 40.0, "Emission.Lifetime": 3.0,
                  "Emission.InitialVelocityStrength": 1.0,
                  "ParticleEmitter.GenerateEventsMaterial": "Event_Periodic", "Events.Interval": 0.1},
        "Sub": subemitter("Ticks", per_event=1, capacity=3000, **{"Emission.Lifetime": 0.5})})


MADE = {"periodic events": _periodic}


def _schedule(sim, figures):
    states = [s for _, s in emitter_states(sim)]
    assert any(int(s["cycle"]) > 0 for s in states), "no emitter has started a second cycle"
    assert any(float(s["carry"]) != 0.0 for s in states), "no fractional particle is carried"


CASES = {
    "07_death_sparks.kzm": (40, (_events_and_subemitters, _colliders)),
    "14_firework_shells.kzm": (56, (_events_and_subemitters,)),
    "09_firework_trails.kzm": (26, (_trails, _events_and_subemitters)),
    "03_firework.kzm": (45, (_schedule,)),
    "10_rain.kzm": (20, (_colliders, _events_and_subemitters)),
    "periodic events": (20, (_periodic_memory, _events_and_subemitters)),
}
AFTER = 16          # frames compared after the checkpoint


@pytest.mark.parametrize("sample", list(CASES))
def test_a_run_restored_at_frame_k_equals_the_run_from_zero_at_every_later_frame(build, sample):
    k, checks = CASES[sample]
    a = build(sample)
    for _ in range(k):
        a.step_frame(DT)
    data = a.checkpoint()
    b = build(sample)
    b.step_frame(DT)                 # a restore replaces what was there
    b.restore(data)
    assert b.checkpoint() == data    # nothing of the state is left out or changed on the way
    same_state(a, b, k)
    figures_a, figures_b = [], []
    for frame in range(k, k + AFTER):
        a.step_frame(DT)
        b.step_frame(DT)
        same_state(a, b, frame)
        figures_a += a.take_stats()
        figures_b += b.take_stats()
    figures_a += a.take_stats(flush=True)
    figures_b += b.take_stats(flush=True)
    frames = [f for f, _ in figures_a]
    # the frames still in the stats ring at the checkpoint come out of both, then every later one
    assert figures_a == figures_b and frames[0] < k and frames == list(range(frames[0], k + AFTER))
    assert a.checkpoint() == b.checkpoint()
    for check in checks:
        check(a, [fig for _, fig in figures_a])


def test_two_runs_to_the_same_frame_make_the_same_bytes(build):
    a, b = build("07_death_sparks.kzm"), build("07_death_sparks.kzm")
    for _ in range(10):
        a.step_frame(DT)
        b.step_frame(DT)
    assert a.checkpoint() == b.checkpoint()
    b.step_frame(DT)
    assert a.checkpoint() != b.checkpoint()


def _fresh_buffer(name):
    def damage(sim, fresh):
        for mine, theirs in zip(sim.runners, fresh.runners):
            if mine.storage is not None:
                mine.storage.sync_for_cpu()
                getattr(mine.storage, name).write(getattr(theirs.storage, name).read())
    return damage


def _fresh_clock(sim, fresh):
    for runner in sim.runners:
        runner.system.steps = runner.system.runs = 0
        runner.system.clock = 0.0


# Each part of the state put back to a fresh run's after the restore: the run goes elsewhere.
PARTS = {
    "particles (hot)": ("07_death_sparks.kzm", _fresh_buffer("hot")),
    "particles (cold)": ("07_death_sparks.kzm", _fresh_buffer("cold")),
    "free lists and live lists": ("07_death_sparks.kzm", _fresh_buffer("slots")),
    "emitter states, event headers, masks": ("03_firework.kzm", _fresh_buffer("control")),
    "event generators' memory (tracks)": ("periodic events", _fresh_buffer("tracks")),
    "position histories": ("09_firework_trails.kzm", _fresh_buffer("history")),
    "clocks and step counters": ("03_firework.kzm", _fresh_clock),
}


@pytest.mark.parametrize("part", list(PARTS))
def test_each_part_of_the_state_is_needed(build, part):
    sample, damage = PARTS[part]
    k = CASES[sample][0]
    a, b, fresh = build(sample), build(sample), build(sample)
    for _ in range(k):
        a.step_frame(DT)
    b.restore(a.checkpoint())
    damage(b, fresh)
    differ = False
    for _ in range(AFTER):
        a.step_frame(DT)
        b.step_frame(DT)
        ba, bb = buffers(a), buffers(b)
        if any(ba[key] != bb[key] for key in ba):
            differ = True
            break
    assert differ, f"{part} put back to a fresh run's changed nothing: the checkpoint test would not see it lost"


def test_host_events_and_stats_waiting_in_the_ring_come_out_after_the_restore(build):
    sample = "07_death_sparks.kzm"
    a, b = build(sample), build(sample)
    heard_a, heard_b = [], []
    a.listen(None, heard_a.append)
    b.listen(None, heard_b.append)
    k = CASES[sample][0]
    for _ in range(k):
        a.step_frame(DT)
        a.take_stats()
    assert a._ring.pending, "the frames of the last couple of steps wait in the ring"
    data = a.checkpoint()
    heard_a.clear()
    b.restore(data)
    got_a, got_b = [], []
    for _ in range(AFTER):
        a.step_frame(DT)
        b.step_frame(DT)
        got_a += a.take_stats()
        got_b += b.take_stats()
    got_a += a.take_stats(flush=True)
    got_b += b.take_stats(flush=True)
    assert got_a == got_b
    assert heard_a == heard_b and min(e.frame for e in heard_a) < k     # frames waiting at the checkpoint
    assert {e.kind for e in heard_a} == {"birth", "death", "hit"}


RAIN = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Rain"
LOD_SETS = [(RAIN, "Emission.LodNear", 0.0), (RAIN, "Emission.LodFar", 1.0)]


def _player(ctx, sample, size, sets=()):
    project = kzplayer.load(SAMPLES / sample)
    graph = resolve(project)
    for item, prop, value in sets:
        found = project.find(item)
        assert found is not None, item
        graph.set_value(found, prop, value)
    return Player(ctx, project, graph, size)


def test_a_restored_player_draws_the_frames_of_the_player_it_was_made_from(ctx):
    size = (64, 36)
    a = _player(ctx, "10_rain.kzm", size, LOD_SETS)
    b = _player(ctx, "10_rain.kzm", size, LOD_SETS)
    try:
        for _ in range(12):
            a.advance(DT)
        data = a.checkpoint()
        b.restore(data)
        assert b.time == a.time and b.frame == a.frame
        lods = {em.path: em.lod for em in a.sim.emitters}
        assert any(v < 1.0 for v in lods.values()), "the emission LOD thins an emitter at the checkpoint"
        assert {em.path: em.lod for em in b.sim.emitters} == lods
        for frame in range(6):
            a.advance(DT)
            b.advance(DT)
            a.draw()
            b.draw()
            image = a.image()
            assert image.any() and np.array_equal(image, b.image()), f"frame {frame} after the restore"
        assert a.checkpoint() == b.checkpoint()
    finally:
        a.release()
        b.release()


def test_a_checkpoint_restores_only_into_its_own_project_and_values(build):
    a = build("07_death_sparks.kzm")
    for _ in range(5):
        a.step_frame(DT)
    data = a.checkpoint()
    header = read_header(data)
    assert header["project"] == a.project.name and len(header["project_hash"]) == 32
    other = build("03_firework.kzm")
    before = other.checkpoint()
    with pytest.raises(CheckpointError, match="is of project .* not of") as err:
        other.restore(data)
    assert err.value.exit_code == 2 and err.value.diagnostics[0].code == "KZ912"
    assert other.checkpoint() == before            # refused before anything was written
    with pytest.raises(CheckpointError, match="other values"):
        build("07_death_sparks.kzm", seed=99).restore(data)
    source = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks/Source"
    with pytest.raises(CheckpointError, match="other values"):
        build("07_death_sparks.kzm", sets=[(source, "Emission.Rate", 1.0)]).restore(data)


def test_a_damaged_or_foreign_file_is_a_clear_error(build):
    a = build("03_firework.kzm")
    a.step_frame(DT)
    data = a.checkpoint()
    b = build("03_firework.kzm")
    with pytest.raises(CheckpointError, match="not a kzplayer checkpoint"):
        b.restore(b"PNG\x89 not a checkpoint at all")
    with pytest.raises(CheckpointError, match="damaged"):
        b.restore(data[:-50])
    with pytest.raises(CheckpointError, match="version 7"):
        b.restore(data[:6] + (7).to_bytes(2, "little") + data[8:])
    b.restore(data)                  # the good one still restores
    assert b.checkpoint() == data


def test_a_player_checkpoint_is_refused_at_another_size(ctx):
    a = _player(ctx, "03_firework.kzm", (64, 36))
    b = _player(ctx, "03_firework.kzm", (32, 18))
    try:
        a.advance(DT)
        with pytest.raises(CheckpointError, match="made at 64x36, not 32x18"):
            b.restore(a.checkpoint())
    finally:
        a.release()
        b.release()
