"""GPU timer queries (gpu/timers.py): present and positive on llvmpipe for compute and for
draws, per ParticleSystem and frame in the Player's figures and `play --gpu-timers --stats`,
read only once done (a frame loop never waits for them), summed per key."""
from __future__ import annotations

import csv

import numpy as np
from click.testing import CliRunner

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.cli import main
from kzplayer.gpu.timers import GpuTimers, available
from kzplayer.render.player import Player
from kzplayer.resources import samples_dir

BUSY = """#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() {
    float x = v[gl_GlobalInvocationID.x];
    for (int i = 0; i < 200; i++) x = sin(x) * 1.0001 + 0.1;
    v[gl_GlobalInvocationID.x] = x;
}"""


def test_a_compute_dispatch_and_a_draw_are_timed_and_keys_add_up(ctx):
    assert available()
    timers = GpuTimers(ctx)
    shader = ctx.compute_shader(BUSY)
    data = ctx.buffer(np.zeros(64 * 256, np.float32).tobytes())
    fbo = ctx.simple_framebuffer((64, 64))
    try:
        data.bind_to_storage_buffer(0)
        with timers.measure("compute", 3):
            shader.run(256)
        with timers.measure("twice", 3):
            shader.run(256)
        with timers.measure("twice", 3):
            shader.run(256)
        with timers.measure("clear", 4):
            fbo.clear(1.0, 0.0, 0.0, 1.0)
        ctx.finish()
        assert timers.done(3) and timers.done(4)
        three = timers.take(3)
        assert set(three) == {"compute", "twice"} and all(v > 0 for v in three.values())
        assert timers.take(3) == {}                     # taken once: the queries are free again
        assert set(timers.take(4)) == {"clear"}
        assert timers.take(99) == {}                    # nothing measured: nothing to wait for
        with timers.measure("again", 5):
            shader.run(256)
        assert timers.take(5, wait=True)["again"] > 0
    finally:
        timers.release()
        shader.release()
        data.release()
        fbo.release()


def test_the_players_figures_carry_each_systems_gpu_times(ctx):
    project = kzplayer.load(str(samples_dir() / "12_spell.kzm"))       # two ParticleSystems
    player = Player(ctx, project, resolve(project), (64, 36), seed=1, gpu_timers=True)
    seen = []
    player.on_stats = lambda frame, figures: seen.append((frame, figures))
    try:
        for frame in range(6):
            player.advance(1 / 60)
            if frame % 2:
                player.draw()
        player.flush_stats()
        assert [f for f, _ in seen] == list(range(6))           # every frame once, in order
        systems = {p.rsplit("/", 1)[0] for p in seen[0][1]}
        for frame, figures in seen:
            by_system = {}
            for path, f in figures.items():
                by_system.setdefault(path.rsplit("/", 1)[0], set()).add((f.sim_gpu_ms, f.draw_gpu_ms))
            assert all(len(v) == 1 for v in by_system.values())   # one system's emitters share its times
            assert all(f.sim_gpu_ms > 0 for f in figures.values()), frame
            drawn = [f.draw_gpu_ms > 0 for f in figures.values()]
            assert all(drawn) if frame % 2 else not any(drawn), frame
        assert len(systems) >= 2
    finally:
        player.release()


def test_without_timers_the_figures_say_zero(ctx):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    player = Player(ctx, project, resolve(project), (32, 18), seed=1)
    seen = []
    player.on_stats = lambda frame, figures: seen.append(figures)
    try:
        for _ in range(3):
            player.advance(1 / 60)
            player.draw()
        player.flush_stats()
        assert len(seen) == 3 and all(f.sim_gpu_ms == f.draw_gpu_ms == 0 for s in seen for f in s.values())
    finally:
        player.release()


def test_play_gpu_timers_adds_the_columns_to_stats(gl_ctx, tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    out = tmp_path / "s.csv"
    result = CliRunner().invoke(main, ["play", "--headless", "--frames", "5", "--gpu-timers", "--stats", str(out),
                                       "--output", str(tmp_path / "seq/"), "--size", "32x18"])
    assert result.exit_code == 0, result.output
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[-2:] == ["sim_gpu_ms", "draw_gpu_ms"] and len(rows) == 5
    assert all(float(r["sim_gpu_ms"]) > 0 and float(r["draw_gpu_ms"]) > 0 for r in rows)


class SlowTimers:
    """Timers whose results come in only when the test says (a busy GPU): take() answers
    None for a frame not released yet, unless asked to wait."""

    def __init__(self):
        self.released, self.waited = set(), []

    def measure(self, key, frame):
        from contextlib import nullcontext
        return nullcontext()

    def take(self, frame, wait=False):
        if wait:
            self.waited.append(frame)
        return {("sim", "x"): 1.0} if frame in self.released or wait else None

    def clear(self):
        pass

    def release(self):
        pass


def test_figures_wait_for_their_gpu_times_in_order_and_never_stall_the_loop(ctx):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    player = Player(ctx, project, resolve(project), (32, 18), seed=1)
    slow = SlowTimers()
    player.timers = slow
    seen = []
    player.on_stats = lambda frame, figures: seen.append(frame)
    try:
        for _ in range(6):
            player.advance(1 / 60)
        assert seen == [] and slow.waited == []          # frames 0-3 are in, their times are not
        slow.released = {1, 2}
        player.advance(1 / 60)
        assert seen == []                                # frame 0 holds the later ones back: in order
        slow.released = {0, 1, 2}
        player.advance(1 / 60)
        assert seen == [0, 1, 2]
        player.flush_stats()                             # the end of a run waits for the rest
        assert seen == list(range(8)) and slow.waited == list(range(3, 8))
    finally:
        player.timers = None
        player.release()
