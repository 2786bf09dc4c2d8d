"""The interactive window of `kzplayer play` (glfw), used only where a display exists.

Keys: Space pauses and resumes; Right arrow (or `.`) steps one frame while paused;
R restarts the effect from its first frame with the same seed; Esc or Q closes.
The simulation advances by the wall-clock time between frames (capped at 0.1 s so a
stall, a drag of the window, does not explode an effect), cut into
ParticleSystem.Framerate steps by kzplayer.gpu.
"""
from __future__ import annotations

import os
import time

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.render.probe import PROBE_SECONDS

MAX_FRAME_DT = 0.1


def display_available() -> bool:
    """True where a window could be shown: a display is named and glfw starts on it."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import glfw
    except Exception:
        return False
    ok = _glfw_init(glfw)
    if ok:
        glfw.terminate()
    return ok


def _glfw_init(glfw) -> bool:
    # pyGLFW turns glfw's own errors into Python warnings; a missing display is an answer
    # here, not something to print.
    glfw.ERROR_REPORTING = "ignore"
    return bool(glfw.init())


def _no_window(reason: str) -> KzError:
    return KzError(Diagnostic("KZ902", "play.window", Severity.ERROR,
                              f"cannot open a window: {reason}",
                              hint="run with --headless (and --output to render to a file)"),
                   exit_code=2)


def play_in_window(project, graph, value, size, *, fps: float = 60.0, seed=None, frame_budget=None) -> None:
    """Open a window of `size`, play until it is closed. A broken material leaves its slot
    out; a frame past `frame_budget` seconds stops (kzplayer.commands.limits.FrameWatch)."""
    import glfw

    from kzplayer.gpu import Simulation
    from kzplayer.gpu.context import create_context
    from kzplayer.render.billboard import Renderer

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise _no_window("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
    if not _glfw_init(glfw):
        raise _no_window("glfw could not connect to the display")
    try:
        glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 4)
        glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
        glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
        glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
        win = glfw.create_window(size[0], size[1], f"kzplayer - {project.name}", None, None)
        if not win:
            raise _no_window("the display offers no OpenGL 4.3 core context")
        glfw.make_context_current(win)
        glfw.swap_interval(1)
        ctx = create_context(headless=False, window=win)
        state = _State(lambda: Simulation(ctx, project, graph, seed=seed, leave_out_broken=True))
        state.frame_budget = frame_budget
        from kzplayer.commands.play import content_probe, print_warnings
        print_warnings(state.sim.diagnostics)
        glfw.set_key_callback(win, state.on_key)
        renderer = Renderer(ctx, size)
        seen = content_probe(ctx, project, graph, seed, PROBE_SECONDS)
        try:
            _loop(glfw, win, ctx, state, renderer, project, value, fps, seen)
        finally:
            renderer.release()
            state.release()
    finally:
        glfw.terminate()


class _State:
    """Pause / step / restart, driven by the key callback."""

    def __init__(self, make_sim):
        self.make_sim = make_sim
        self.sim = make_sim()
        self.paused = False
        self.pending_steps = 0
        self.restart = False
        self.quit = False

    def on_key(self, win, key, scancode, action, mods):
        import glfw
        if action not in (glfw.PRESS, glfw.REPEAT):
            return
        if key == glfw.KEY_SPACE and action == glfw.PRESS:
            self.paused = not self.paused
        elif key in (glfw.KEY_RIGHT, glfw.KEY_PERIOD):
            self.paused = True
            self.pending_steps += 1
        elif key == glfw.KEY_R and action == glfw.PRESS:
            self.restart = True
        elif key in (glfw.KEY_ESCAPE, glfw.KEY_Q):
            self.quit = True

    frame_budget = None          # seconds a frame may take (None: no watch)
    _watch = None
    frames = 0

    def step(self, dt: float) -> None:
        """One frame; past the frame budget a KzError stops the window (an endless shader)."""
        if self.frame_budget is None:
            self.sim.step_frame(dt)
            return
        from kzplayer.commands.limits import FrameWatch
        if self._watch is None or self._watch.sim is not self.sim:
            self._watch = FrameWatch(self.sim, self.frame_budget)
        self._watch.start()
        self.sim.step_frame(dt)
        self._watch.stop(self.frames)
        self.frames += 1

    def release(self):
        if hasattr(self.sim, "release"):
            self.sim.release()


def _loop(glfw, win, ctx, state, renderer, project, value, fps, seen=None):
    from kzplayer.commands.play import draw_list
    from kzplayer.render.camera import choose_camera
    last = time.perf_counter()
    title_paused = None
    while not glfw.window_should_close(win) and not state.quit:
        glfw.poll_events()
        now = time.perf_counter()
        elapsed, last = min(now - last, MAX_FRAME_DT), now
        if state.restart:
            state.release()
            state.sim, state.restart = state.make_sim(), False
        if not state.paused:
            state.step(elapsed)
        while state.pending_steps:
            state.sim.step_frame(1.0 / fps)
            state.pending_steps -= 1
        width, height = glfw.get_framebuffer_size(win)
        if width and height:
            # The camera follows the window's shape; the view itself is the project's.
            camera, _ = choose_camera(project, value, width / height, seen)
            ctx.screen.viewport = (0, 0, width, height)
            renderer.resize((width, height))
            renderer.draw(draw_list(state.sim, project, value), camera)
            renderer.show(ctx.screen)
            glfw.swap_buffers(win)
        if state.paused != title_paused:
            title_paused = state.paused
            glfw.set_window_title(win, f"kzplayer - {project.name}" + (
                " (paused: Space resumes, Right steps)" if state.paused else ""))
