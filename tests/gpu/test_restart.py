"""A restart in place (kzplayer.gpu.restart): a Simulation that ran, put back to its first
frame, holds what a new Simulation of the same scene holds (its checkpoint bytes: every
buffer, clock, counter and figure the next frame reads), plays on as one does frame by frame
(particles, host events, figures), and generates, compiles and makes nothing to get there."""
from __future__ import annotations

from pathlib import Path

import moderngl
import pytest

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.gpu import Simulation
from kzplayer.gpu.generate import Generator
from kzplayer.gpu.restart import restart
from kzplayer.gpu.runner import SystemRunner
from kzplayer.gpu.storage import SystemStorage

SAMPLES = Path(__file__).resolve().parents[2] / "sample_projects"
DT = 1 / 30
# events and subemitters with colliders (07), subemitters bound to particles (14), trails
# (09), colliders and the emission LOD (10): frames run before the restart
CASES = {"07_death_sparks.kzm": 40, "14_firework_shells.kzm": 56, "09_firework_trails.kzm": 26, "10_rain.kzm": 20}


def simulation(ctx, name, heard):
    project = kzplayer.load(SAMPLES / name)
    sim = Simulation(ctx, project, resolve(project), seed=9, leave_out_broken=True)
    sim.listen(None, lambda e: heard.append((e.frame, e.kind, e.emitter, e.position, e.particle)))
    return sim


def lod(sim, factor):
    sim.set_emission_lod({em.path: factor for em in sim.emitters})


def figures(sim):
    return [(frame, sorted((p, vars(f)) for p, f in fig.items())) for frame, fig in sim.take_stats()]


@pytest.mark.parametrize("name", list(CASES))
def test_a_restarted_simulation_is_a_new_one_bit_for_bit_and_plays_on_as_one(ctx, name):
    heard_run, heard_new = [], []
    sim, new = simulation(ctx, name, heard_run), simulation(ctx, name, heard_new)
    try:
        at_zero = new.checkpoint()
        for _ in range(CASES[name]):
            lod(sim, 0.5)                     # a LOD the new one never had
            sim.step_frame(DT)
            sim.take_stats()
        assert sim.checkpoint() != at_zero    # it ran: something to put back
        assert any(d.size for d in sim.dump().values()) and heard_run
        heard_run.clear()
        restart(sim)
        assert sim.checkpoint() == at_zero
        for frame in range(24):
            for s in (sim, new):
                s.step_frame(DT)
            assert figures(sim) == figures(new), f"frame {frame}"
            if frame % 8 == 7:
                # (the ring's host records are in the GPU's atomic order, even between two new
                # simulations: they are compared as heard, below)
                sim.take_stats(flush=True)
                new.take_stats(flush=True)
                assert sim.checkpoint() == new.checkpoint(), f"frame {frame}"
        sim.take_stats(flush=True)
        new.take_stats(flush=True)
        assert heard_run == heard_new and heard_new
        assert {k: v.tobytes() for k, v in sim.dump().items()} == {k: v.tobytes() for k, v in new.dump().items()}
    finally:
        sim.release()
        new.release()


def test_a_restart_generates_compiles_and_makes_nothing(ctx, monkeypatch):
    sim = simulation(ctx, "07_death_sparks.kzm", [])
    try:
        for _ in range(10):
            sim.step_frame(DT)
        calls = []

        def counted(cls, name):
            real = getattr(cls, name)

            def wrapper(*args, **kwargs):
                calls.append(f"{cls.__name__}.{name}")
                return real(*args, **kwargs)
            monkeypatch.setattr(cls, name, wrapper)
        for cls, name in ((Generator, "layout"), (Generator, "write"), (SystemRunner, "refresh"),
                          (SystemRunner, "__init__"), (SystemStorage, "__init__"), (moderngl.Context, "buffer"),
                          (moderngl.Context, "compute_shader")):
            counted(cls, name)
        compiled, storages = sim.programs.compiled, [r.storage for r in sim.runners]
        restart(sim)
        assert calls == [] and sim.programs.compiled == compiled
        assert [r.storage for r in sim.runners] == storages
        sim.step_frame(DT)           # (the stats ring takes its buffers again: those are made)
        assert not [c for c in calls if c != "Context.buffer"] and sim.programs.compiled == compiled
    finally:
        sim.release()
