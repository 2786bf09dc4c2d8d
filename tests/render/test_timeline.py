"""The timeline (issue 17): seek re-runs the deterministic simulation from 0 to any time and
meets, bit for bit, the particles of a run from 0 played in frames; `play --start` begins
the output at the frame of that time; slow motion is the same effect on a finer grid of
frames; the window's keys drive all of it through the Player."""
from __future__ import annotations

import csv

import glfw
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.cli import main
from kzplayer.render.offline import render_offline
from kzplayer.render.clock import Clock, check_speed
from kzplayer.render.player import Player
from kzplayer.render.window import Keys
from kzplayer.resources import samples_dir

DT = 1 / 30
# a steady stream; events and subemitters (deaths make sparks); subemitters bound to
# particles (trails of shells); colliders (hits)
SAMPLES = ("demo_fountain.kzm", "07_death_sparks.kzm", "14_firework_shells.kzm", "08_rock_debris.kzm")


def player_of(ctx, name, size=(32, 18)):
    project = kzplayer.load(str(samples_dir() / name))
    return Player(ctx, project, resolve(project), size, seed=11)


def dump_bytes(player) -> dict[str, bytes]:
    return {key: value.tobytes() for key, value in player.sim.dump().items()}


@pytest.mark.parametrize("name", SAMPLES)
def test_seek_forward_and_back_gives_the_particles_of_a_run_from_zero_byte_for_byte(ctx, name):
    played = {}
    player = player_of(ctx, name)
    try:
        for frame in range(1, 25):
            player.advance(DT)
            if frame in (6, 24):
                played[frame] = dump_bytes(player)
        assert any(len(b) for b in played[24].values())           # something is alive to compare
        assert played[6] != played[24]
        player.seek(6 * DT, DT)                                    # back
        assert player.sim.frames == 6 and dump_bytes(player) == played[6]
        player.seek(24 * DT, DT)                                   # forward again
        assert player.sim.frames == 24 and dump_bytes(player) == played[24]
    finally:
        player.release()


def test_a_seek_from_a_fresh_player_lands_on_the_same_particles_and_picture(ctx):
    a, b = player_of(ctx, "07_death_sparks.kzm"), player_of(ctx, "07_death_sparks.kzm")
    try:
        for _ in range(40):
            a.advance(DT)
        b.seek(40 * DT, DT)
        assert dump_bytes(a) == dump_bytes(b)
        a.draw()
        b.draw()
        assert a.image().max() > 0 and np.array_equal(a.image(), b.image())
    finally:
        a.release()
        b.release()


def frames_of(folder, n):
    return [np.asarray(Image.open(folder / f"frame_{k:05d}.png").convert("RGB")) for k in range(n)]


def read_rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_start_makes_the_first_output_frame_the_one_at_that_time(ctx, tmp_path):
    project = kzplayer.load(str(samples_dir() / "07_death_sparks.kzm"))
    graph = resolve(project)
    plain, later = tmp_path / "plain", tmp_path / "later"
    render_offline(project, graph, (32, 18), n_frames=15, fps=30, seed=2, output=str(plain),
                   stats=str(tmp_path / "plain.csv"), ctx=ctx)
    project = kzplayer.load(str(samples_dir() / "07_death_sparks.kzm"))
    result = render_offline(project, resolve(project), (32, 18), n_frames=3, fps=30, seed=2, output=str(later),
                            stats=str(tmp_path / "later.csv"), start=0.4, ctx=ctx)
    assert result.start == 0.4
    whole, part = frames_of(plain, 15), frames_of(later, 3)
    # the plain run's frame k is at (k + 1) / 30 s: 0.4 s is its frame 11
    for k in range(3):
        assert np.array_equal(part[k], whole[11 + k]), f"frame {k}"
    assert whole[11].max() > 0 and not np.array_equal(whole[11], whole[13])
    rows, ref = read_rows(tmp_path / "later.csv"), read_rows(tmp_path / "plain.csv")
    emitters = len({r["emitter"] for r in ref})
    assert [int(r["frame"]) for r in rows] == [k for k in range(3) for _ in range(emitters)]
    assert [round(float(r["time"]), 6) for r in rows[::emitters]] == [0.4, round(0.4 + DT, 6), round(0.4 + 2 * DT, 6)]
    counts = ("emitter", "alive", "emitted", "died", "events_written")
    assert ([{c: r[c] for c in counts} for r in rows]
            == [{c: r[c] for c in counts} for r in ref[11 * emitters:14 * emitters]])


def test_start_below_one_frame_and_at_zero(ctx, tmp_path):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    graph = resolve(project)
    render_offline(project, graph, (32, 18), n_frames=2, fps=30, seed=2, dump=str(tmp_path / "zero.npz"),
                   start=0.0, ctx=ctx)
    render_offline(project, graph, (32, 18), n_frames=1, fps=30, seed=2, dump=str(tmp_path / "one.npz"), ctx=ctx)
    zero, one = np.load(tmp_path / "zero.npz"), np.load(tmp_path / "one.npz")
    # frames at 0 and 1/30 s: the second is the plain run's first
    assert all(zero[k].tobytes() == one[k].tobytes() for k in one) and len(one[next(iter(one))])


def test_slow_motion_is_the_same_effect_on_a_finer_grid_of_frames(ctx, tmp_path):
    project = kzplayer.load(str(samples_dir() / "07_death_sparks.kzm"))
    graph = resolve(project)
    render_offline(project, graph, (32, 18), n_frames=40, fps=30, seed=4, speed=0.25,
                   dump=str(tmp_path / "slow.npz"), ctx=ctx)
    render_offline(project, graph, (32, 18), n_frames=40, fps=120, seed=4, dump=str(tmp_path / "fine.npz"), ctx=ctx)
    slow, fine = np.load(tmp_path / "slow.npz"), np.load(tmp_path / "fine.npz")
    assert sorted(slow) == sorted(fine) and any(len(slow[k]) for k in slow)
    assert all(slow[k].tobytes() == fine[k].tobytes() for k in slow)


def test_the_clock_speeds_are_slow_motion_only():
    clock = Clock()
    clock.faster()
    assert clock.speed == 1.0                       # never faster than real time
    seen = []
    for _ in range(5):
        clock.slower()
        seen.append(clock.speed)
    assert seen == [0.5, 0.25, 0.1, 0.1, 0.1]
    clock.faster()
    assert clock.speed == 0.25
    assert check_speed(0.1) == 0.1 and check_speed(1) == 1.0
    for bad in (0.05, 1.5, 0.0, float("nan"), -1):
        with pytest.raises(ValueError):
            check_speed(bad)


def press(keys, key, action=glfw.PRESS):
    keys.on_key(None, key, 0, action, 0)


def test_the_keys_step_back_seek_slow_down_and_toggle_the_debug_view(ctx):
    keys = Keys()
    press(keys, glfw.KEY_H)
    assert keys.hud
    press(keys, glfw.KEY_F1)
    press(keys, glfw.KEY_H, glfw.REPEAT)            # held: no flicker
    assert not keys.hud
    player, reference = player_of(ctx, "demo_fountain.kzm"), player_of(ctx, "demo_fountain.kzm")
    try:
        for _ in range(10):
            player.advance(DT)
        press(keys, glfw.KEY_LEFT)
        press(keys, glfw.KEY_COMMA)                 # two frames back, a seek: paused
        press(keys, glfw.KEY_DOWN)
        press(keys, glfw.KEY_DOWN)
        keys.apply(player, 30)
        assert keys.paused and player.clock.paused and player.clock.speed == 0.25
        assert player.sim.frames == 8 and abs(player.time - 8 * DT) < 1e-9
        for _ in range(8):
            reference.advance(DT)
        assert dump_bytes(player) == dump_bytes(reference)
        press(keys, glfw.KEY_PAGE_UP)               # a second on, from 8/30 s: 38 frames
        press(keys, glfw.KEY_UP)
        keys.apply(player, 30)
        assert player.sim.frames == 38 and player.clock.speed == 0.5
        press(keys, glfw.KEY_PAGE_DOWN)
        press(keys, glfw.KEY_PAGE_DOWN)             # past 0: clamped to the start
        keys.apply(player, 30)
        assert player.sim.frames == 0 and player.time == 0.0
        press(keys, glfw.KEY_3)                     # a digit: that second, from wherever it is
        keys.apply(player, 30)
        assert player.sim.frames == 90 and abs(player.time - 3.0) < 1e-9
        press(keys, glfw.KEY_HOME)
        assert keys.restart
    finally:
        player.release()
        reference.release()


def play(*args):
    return CliRunner().invoke(main, ["play", *map(str, args)])


@pytest.mark.parametrize("args, message", [
    (("--start", -1), "--start"), (("--start", "nan"), "--start"), (("--start", 1e12), "--start"),
    (("--speed", 2), "--speed"), (("--speed", 0), "--speed"),
    (("--start", 1, "--events", "e.jsonl"), "--start or --events"),
])
def test_bad_start_and_speed_exit_2_with_a_message(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = play("--headless", *args)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_play_start_prints_where_it_began(gl_ctx, tmp_path):
    result = play("--headless", "--frames", 3, "--start", 1.5, "--speed", 0.5, "--dump", tmp_path / "d.npz")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Fountain: 3 frames (0.05 s at 60 fps from 1.50 s, 0.5x slow motion); ")
