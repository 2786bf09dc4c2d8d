"""The window's controls and the display check (the window itself needs a display, which
CI does not have: `play --window` without one is tested in tests/test_play_cli.py)."""
from __future__ import annotations

import glfw

from kzplayer.render.window import _State, display_available


class FakeSim:
    made = 0

    def __init__(self):
        FakeSim.made += 1
        self.released = False

    def release(self):
        self.released = True


def press(state, key, action=glfw.PRESS):
    state.on_key(None, key, 0, action, 0)


def test_space_pauses_and_resumes_right_steps_r_restarts_escape_quits():
    FakeSim.made = 0
    state = _State(FakeSim)
    assert FakeSim.made == 1 and not state.paused
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
    first = state.sim
    state.release()
    assert first.released


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

    from kzplayer.commands.play import load_for_play, reader
    from kzplayer.gpu import Simulation
    from kzplayer.render.renderer import Renderer
    from kzplayer.render.window import _loop

    project, graph = load_for_play(None)
    sims = []

    def make():
        sims.append(Simulation(ctx, project, graph, seed=1))
        return sims[-1]

    state = _State(make)
    renderer = Renderer(ctx, (64, 36))
    screen = ctx.simple_framebuffer((64, 36))
    try:
        # frame 0-1 play, 2 pause (Space), 3 step twice (Right, Right), 5 restart (R)
        fake = FakeGlfw(state, 7, {2: [glfw.KEY_SPACE], 3: [glfw.KEY_RIGHT, glfw.KEY_RIGHT], 5: [glfw.KEY_R]})
        _loop(fake, None, SimpleNamespace(screen=screen), state, renderer, project, reader(graph), 60.0)
        assert fake.swaps == 7
        assert len(sims) == 2 and sims[0].frames == 2 + 2   # two played frames, then two steps
        assert sims[1].frames == 0                          # restarted while paused: frame 0
        assert any("paused" in t for t in fake.titles)
        assert screen.viewport == (0, 0, 64, 36)
    finally:
        state.release()
        sims[0].release()
        renderer.release()
        screen.release()
