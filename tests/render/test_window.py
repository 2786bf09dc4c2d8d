"""The window's controls and the display check (the window itself needs a display, which
CI does not have: `play --window` without one is tested in tests/test_play_cli.py)."""
from __future__ import annotations

import glfw
import numpy as np

from kzplayer.render.window import Keys, _loop, display_available


def press(state, key, action=glfw.PRESS):
    state.on_key(None, key, 0, action, 0)


def test_space_pauses_and_resumes_right_steps_r_restarts_escape_quits():
    state = Keys()
    assert not state.paused
    press(state, glfw.KEY_SPACE)
    assert state.paused
    press(state, glfw.KEY_SPACE, glfw.REPEAT)      # a held key does not flicker the pause
    assert state.paused
    press(state, glfw.KEY_SPACE)
    assert not state.paused
    press(state, glfw.KEY_RIGHT)
    press(state, glfw.KEY_RIGHT, glfw.REPEAT)      # held: steps keep coming
    assert state.paused and state.pending_steps == 2
    press(state, glfw.KEY_R)
    assert state.restart
    press(state, glfw.KEY_Q, glfw.RELEASE)         # releases do nothing
    assert not state.quit
    press(state, glfw.KEY_ESCAPE)
    assert state.quit


def test_no_display_means_no_window(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert display_available() is False


class FakeGlfw:
    """Just enough of glfw for the loop: the window closes after `frames` frames, and
    `keys` maps a frame number to the keys pressed before it."""

    def __init__(self, state, frames, keys=None, size=(64, 36)):
        self.state, self.frames, self.keys, self.size = state, frames, keys or {}, size
        self.frame = 0
        self.swaps = 0
        self.titles = []

    def window_should_close(self, win):
        return self.frame >= self.frames

    def poll_events(self):
        for key in self.keys.get(self.frame, ()):
            press(self.state, key)
        self.frame += 1

    def get_framebuffer_size(self, win):
        return self.size

    def swap_buffers(self, win):
        self.swaps += 1

    def set_window_title(self, win, title):
        self.titles.append(title)


def test_the_loop_plays_pauses_steps_restarts_and_draws(ctx):
    from types import SimpleNamespace

    from kzplayer.commands.play import load_for_play
    from kzplayer.render.player import Player
    from kzplayer.render.window import _loop

    project, graph = load_for_play(None)
    player = Player(ctx, project, graph, (64, 36), seed=1)
    keys = Keys()
    screen = ctx.simple_framebuffer((64, 36))
    sims = []
    restart = player.restart

    def counted_restart():
        sims.append(player.sim.frames)
        restart()
    player.restart = counted_restart
    try:
        # frame 0-1 play, 2 pause (Space), 3 step twice (Right, Right), 5 restart (R)
        fake = FakeGlfw(keys, 7, {2: [glfw.KEY_SPACE], 3: [glfw.KEY_RIGHT, glfw.KEY_RIGHT], 5: [glfw.KEY_R]})
        _loop(fake, None, SimpleNamespace(screen=screen), keys, player, 60.0)
        assert fake.swaps == 7
        assert sims == [2 + 2]                          # two played frames, then two steps
        assert player.sim.frames == 0                   # restarted while paused: frame 0
        assert any("paused" in t for t in fake.titles)
        assert screen.viewport == (0, 0, 64, 36)
        assert player.image().shape == (36, 64, 3)
    finally:
        player.release()
        screen.release()


def test_the_window_plays_a_rendering_material_that_does_not_compile_as_billboards(ctx, tmp_path):
    from types import SimpleNamespace

    from kzplayer.commands.play import load_for_play
    from kzplayer.render.player import Player
    from kzplayer.render.window import _loop
    from tests.test_play_cli import NOZZLE, _streak_fountain

    path = _streak_fountain(tmp_path, edit=("spark_streak.frag.glsl", "float along =", "float along = undefinedThing +"))
    project, graph = load_for_play(str(path))
    said = []
    player = Player(ctx, project, graph, (64, 36), seed=1, warn=said.extend)
    keys = Keys()
    screen = ctx.simple_framebuffer((64, 36))
    try:
        fake = FakeGlfw(keys, 20)
        _loop(fake, None, SimpleNamespace(screen=screen), keys, player, 60.0)      # raised KzError before
        assert fake.swaps == 20
        compile_errors = [d for d in said if d.rule == "shader.compile"]
        assert compile_errors and len(compile_errors) == len(set(compile_errors))     # each said once, not per frame
        line = next(n for n, t in enumerate((tmp_path / "shaders" / "spark_streak.frag.glsl").read_text().splitlines(), 1)
                    if "undefinedThing" in t)
        assert all(d.span.file.endswith("spark_streak.frag.glsl") and d.span.line == line for d in compile_errors)
        assert (player.image().max(axis=2) > 40).sum() > 0          # the fountain, as billboards
        assert player.renderer.live_list(NOZZLE).read_args()[0] == 4                # 4 vertices a billboard
    finally:
        player.release()
        screen.release()


class Recording(FakeGlfw):
    """A FakeGlfw that keeps every picture the window showed, as (H, W, 3) uint8, top row first."""

    def __init__(self, state, frames, screen):
        super().__init__(state, frames, size=screen.size)
        self.screen, self.shown = screen, []

    def swap_buffers(self, win):
        super().swap_buffers(win)
        w, h = self.screen.size
        data = self.screen.read(components=3, alignment=1)
        self.shown.append(np.frombuffer(data, np.uint8).reshape(h, w, 3)[::-1].copy())


def ticking(dt):
    """A wall clock that moves on `dt` each time it is read (dt a power of two: exact sums)."""
    t = [-dt]

    def now():
        t[0] += dt
        return t[0]
    return now


def test_the_window_shows_the_frames_the_offline_render_writes(ctx, tmp_path):
    from types import SimpleNamespace

    from PIL import Image

    from kzplayer.commands.play import load_for_play
    from kzplayer.render.offline import render_offline
    from kzplayer.render.player import Player

    fps, n = 32.0, 8
    project, graph = load_for_play(None)
    render_offline(project, graph, (64, 36), n_frames=n, fps=fps, seed=5, output=str(tmp_path / "seq"), ctx=ctx)
    written = [np.asarray(Image.open(tmp_path / "seq" / f"frame_{k:05d}.png").convert("RGB")) for k in range(n)]

    project, graph = load_for_play(None)
    player = Player(ctx, project, graph, (64, 36), seed=5)
    screen = ctx.simple_framebuffer((64, 36))
    keys = Keys()
    try:
        fake = Recording(keys, n, screen)
        _loop(fake, None, SimpleNamespace(screen=screen), keys, player, fps, now=ticking(1.0 / fps))
    finally:
        player.release()
        screen.release()
    assert len(fake.shown) == n and written[-1].max() > 0
    for k in range(n):
        assert np.array_equal(fake.shown[k], written[k]), f"frame {k}"
    assert not np.array_equal(written[0], written[-1])          # the effect moved between them
