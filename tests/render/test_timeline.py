"""The timeline (issue 17): seek re-runs the deterministic simulation to any time and
meets, bit for bit, the particles of a run from 0 played in frames; `play --start` begins
the output at the frame of that time; slow motion is the same effect on a finer grid of
frames; the window's keys drive all of it through the Player. A restart resets the same
Simulation in place (nothing generated or compiled); a seek restores the latest of the
Player's checkpoints before it (render/timeline.py) and re-runs only the rest, within a
memory budget, and never a checkpoint of the effect before an edit."""
from __future__ import annotations

import csv

import glfw
import moderngl
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.cli import main
from kzplayer.commands.watch import load_live
from kzplayer.gpu import Simulation
from kzplayer.gpu.generate import Generator
from kzplayer.gpu.runner import SystemRunner
from kzplayer.render.live import LiveSession
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


# -- restarts in place and the seeks' checkpoints (render/timeline.py) -----------------------

def count_calls(monkeypatch, targets) -> list:
    """Every call of each (class, method) of `targets` from now on, by name."""
    calls = []
    for cls, name in targets:
        def wrapper(*args, _real=getattr(cls, name), _name=f"{cls.__name__}.{name}", **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)
        monkeypatch.setattr(cls, name, wrapper)
    return calls


def test_a_restart_keeps_the_simulation_and_its_listeners_and_makes_nothing(ctx, monkeypatch):
    heard, fresh_heard = [], []
    player, fresh = player_of(ctx, "07_death_sparks.kzm"), player_of(ctx, "07_death_sparks.kzm")
    try:
        for p, log in ((player, heard), (fresh, fresh_heard)):
            p.listen(None, lambda e, log=log: log.append((e.frame, e.kind, e.emitter, e.position, e.particle)))
        for _ in range(30):
            player.advance(DT)
        sim, compiled = player.sim, player.sim.programs.compiled
        calls = count_calls(monkeypatch, [(Generator, "layout"), (Generator, "write"), (Simulation, "__init__"),
                                          (SystemRunner, "refresh"), (moderngl.Context, "compute_shader")])
        player.restart()
        heard.clear()
        assert player.sim is sim and player.time == 0.0 and sim.frames == 0
        for p in (player, fresh):
            for _ in range(20):
                p.advance(DT)
            p.flush_stats()
        assert calls == [] and sim.programs.compiled == compiled
        assert dump_bytes(player) == dump_bytes(fresh) and heard == fresh_heard and heard
    finally:
        player.release()
        fresh.release()


# events and subemitters (07), subemitters bound to particles (14), trails (09), the
# emission LOD and colliders (10): each played to 3.2 s, then sought back and forth
SEEKS = (2.5, 0.7, 3.1, 1.0 + DT / 2, 2.0, 0.0, 3.2)


def runs_from_zero(ctx, name, times) -> dict:
    """What a run from 0 (no checkpoints) holds at each of `times`: (frames, time, particles,
    checkpoint). The whole frames come from one run, stopped at each on the way; a time
    between frames from a run of its own (its last, shorter step ends that run)."""
    found = {}

    def note(player, t):
        player.flush_stats()
        found[t] = (player.sim.frames, player.time, dump_bytes(player), player.sim.checkpoint())

    def run(ts):
        player = player_of(ctx, name)
        try:
            player.timeline.budget = 0                                 # a run from 0, as before
            for t in sorted(ts):
                whole = int(t / DT + 1e-9)
                while player.sim.frames < whole:
                    player.advance(DT)
                if t > whole * DT + 1e-9:
                    player.step(t - whole * DT)
                note(player, t)
        finally:
            player.release()
    between = [t for t in times if t > int(t / DT + 1e-9) * DT + 1e-9]
    run([t for t in times if t not in between])
    for t in between:
        run([t])
    return found


@pytest.mark.parametrize("name", ("07_death_sparks.kzm", "14_firework_shells.kzm", "09_firework_trails.kzm",
                                  "10_rain.kzm"))
def test_seeks_restore_the_latest_checkpoint_before_them_and_land_on_a_run_from_zero_byte_for_byte(ctx, name):
    references = runs_from_zero(ctx, name, SEEKS)
    player = player_of(ctx, name)
    try:
        for _ in range(96):
            player.advance(DT)
        kept = [k.frame for k in player.timeline.kept]
        assert kept == [30, 60, 90]             # the first frames at or past 1, 2 and 3 s
        for t in SEEKS:
            stepped, restored = player.frame, player.timeline.restored
            player.seek(t, DT)
            whole = int(t / DT + 1e-9)
            before = max([0] + [k for k in kept if k <= whole])
            assert player.frame - stepped == whole - before + (t > whole * DT + 1e-9), t
            assert player.timeline.restored == restored + (before > 0), t
            frames, time, particles, checkpoint = references[t]
            assert player.sim.frames == frames and player.time == time, t
            assert dump_bytes(player) == particles, t
            player.flush_stats()
            assert player.sim.checkpoint() == checkpoint, t
    finally:
        player.release()


def test_a_seek_forward_goes_on_from_where_the_run_is(ctx):
    player = player_of(ctx, "demo_fountain.kzm")
    try:
        for _ in range(10):
            player.advance(DT)
        stepped = player.frame
        player.seek(20 * DT, DT)
        assert player.frame - stepped == 10 and player.sim.frames == 20
    finally:
        player.release()


def test_frames_of_other_lengths_keep_no_checkpoints_and_the_seek_still_lands_exactly(ctx):
    player, reference = player_of(ctx, "07_death_sparks.kzm"), player_of(ctx, "07_death_sparks.kzm")
    try:
        for k in range(80):
            player.advance(DT * (0.5 + (k % 3) * 0.5))      # a window's wall-clock frames
        assert player.timeline.kept == [] and player.timeline.taken == 0
        player.seek(1.5, DT)                                # re-run from 0, checkpoints on the way
        assert [k.frame for k in player.timeline.kept] == [30]
        reference.seek(1.5, DT)
        assert dump_bytes(player) == dump_bytes(reference)
    finally:
        player.release()
        reference.release()


def test_the_budget_thins_the_checkpoints_evenly_and_keeps_the_newest(ctx):
    player = player_of(ctx, "07_death_sparks.kzm")
    try:
        timeline = player.timeline
        for _ in range(360):                                 # to 12 s
            player.advance(DT)
        one = max(len(k.data) for k in timeline.kept)        # (the pools fill: later ones are bigger)
        assert len(timeline.kept) == 12
        timeline.forget()
        timeline.budget, timeline.taken = int(3.5 * one), 0
        player.restart()
        for _ in range(360):
            player.advance(DT)
        frames = [k.frame for k in timeline.kept]
        assert timeline.taken == 12 and timeline.size <= timeline.budget and len(frames) >= 2
        assert frames[-1] == 360 and frames == sorted(frames)
        # spread over the run (dropping the oldest would leave 300, 330, 360: a gap of 10 s)
        assert np.diff([0] + frames).max() <= 180, frames
        reference = player_of(ctx, "07_death_sparks.kzm")
        try:
            for t in (11.5, 4.2, 7.0):
                player.seek(t, DT)
                reference.seek(t, DT)
                assert dump_bytes(player) == dump_bytes(reference), t
        finally:
            reference.release()
        timeline.budget = 100                                # not even one fits: none is kept
        timeline.forget()
        timeline.taken = 0
        player.restart()
        for _ in range(90):
            player.advance(DT)
        assert timeline.kept == [] and timeline.taken == 1   # one tried, then none more of that run
    finally:
        player.release()


def test_an_edit_or_forget_checkpoints_leaves_the_checkpoints_unused(ctx):
    player = player_of(ctx, "07_death_sparks.kzm")
    try:
        for _ in range(65):
            player.advance(DT)
        assert player.timeline.latest(player, DT, 50) is not None
        player.forget_checkpoints()
        assert player.timeline.latest(player, DT, 50) is None and player.timeline.kept == []
        restored = player.timeline.restored
        player.seek(1.5, DT)                                   # from 0: the run was no run from 0 either
        assert player.timeline.restored == restored and player.sim.frames == 45
    finally:
        player.release()


def test_a_live_save_makes_the_checkpoints_of_the_effect_before_it_unused(ctx, tmp_path):
    path = tmp_path / "fountain.kzm"
    text = (samples_dir() / "demo_fountain.kzm").read_text()
    path.write_text(text)
    session = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, (32, 18), seed=11))
    session.start()
    try:
        player = session.player
        for _ in range(65):
            player.advance(DT)
        assert player.timeline.latest(player, DT, 45) is not None
        strength = '<Property name="Emission.InitialVelocityStrength">7</Property>'
        assert strength in text
        path.write_text(text.replace(strength, strength.replace(">7<", ">12<")))
        assert session.reload([str(path)]).kind == "applied" and session.player is player
        assert player.timeline.latest(player, DT, 45) is None   # of the effect before the save
        player.seek(1.5, DT)
        edited = Player(ctx, *load_live(str(path))[:2], (32, 18), seed=11)
        try:
            edited.seek(1.5, DT)
            assert dump_bytes(player) == dump_bytes(edited)
        finally:
            edited.release()
    finally:
        session.release()


def test_a_seek_after_the_lod_camera_moved_lands_on_a_run_from_zero_seen_from_there(ctx):
    from kzplayer.render.camera import Camera
    from tests.render.test_lod import lod_project

    def lod_player():
        project = lod_project(25.0)
        return Player(ctx, project, resolve(project), (160, 90), seed=3)
    far = Camera(world=np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 55.0], [0, 0, 0, 1]]))
    player, reference = lod_player(), lod_player()
    try:
        for _ in range(65):
            player.advance(DT)
        assert [k.frame for k in player.timeline.kept] == [30, 60]
        for p in (player, reference):
            p.draw(camera=far)                 # a window's camera moved: the LOD is decided for it
        player.seek(1.5, DT)
        reference.seek(1.5, DT)                # from 0, every frame seen from far
        assert dump_bytes(player) == dump_bytes(reference)
        assert player.sim.emitters[0].lod == pytest.approx(0.25)   # (at 25 m it was 0.625)
    finally:
        player.release()
        reference.release()
