"""The interactive window of `kzplayer play` (glfw), used only where a display exists.

Keys: Space pauses and resumes; Right arrow (or `.`) steps one frame while paused;
R restarts the effect from its first frame with the same seed; Esc or Q closes.
The simulation advances by the wall-clock time between frames (capped at 0.1 s so a
stall, a drag of the window, does not explode an effect), cut into
ParticleSystem.Framerate steps by kzplayer.gpu. The frame loop is the Player's
(render/player.py), as offline (render/offline.py); this module only adds the window and
its keys, which it hands to the Player's clock, step() and restart(). With `play --watch`,
a render/live.py Watcher's saves are applied between frames.
"""
from __future__ import annotations

import os
import time

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu.context import create_context
from kzplayer.render.player import Player, no_warnings
from kzplayer.render.live import LiveSession, Watcher

# glfw is imported lazily, in the functions that open or drive a window: a headless render
# (the usual case on a server) then never loads the glfw library.

MAX_FRAME_DT = 0.1


def display_available() -> bool:
    """True where a window could be shown: a display is named and glfw starts on it."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import glfw    # lazy, and optional here: no glfw is no display
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


def play_in_window(project, graph, size, *, fps: float = 60.0, seed=None, warn=None,
                   frame_budget=None, lod: bool = True, watch=None, msaa: int = 0) -> None:
    """Open a window of `size`, play until it is closed (the frame loop is the Player's: a
    broken material leaves its slot out, a frame past `frame_budget` seconds stops it).
    `watch=(path, load, report, said)`: the live preview (render/live.py): each save is
    applied or rebuilt between frames; said(outcome) hears it."""
    import glfw    # lazy: see the top of the module

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
        def make_player(p, g):
            return Player(ctx, p, g, size, seed=seed, warn=warn or no_warnings, frame_budget=frame_budget, lod=lod,
                          msaa=msaa)
        live = None
        if watch is not None:
            path, load, report, said = watch
            session = LiveSession(path, load=load, make_player=make_player, report=report)
            session.start(project, graph)
            live = (Watcher(session), said)
            player = session.player
        else:
            player = make_player(project, graph)
        keys = Keys()
        glfw.set_key_callback(win, keys.on_key)
        try:
            _loop(glfw, win, ctx, keys, player, fps, live=live)
        finally:
            if live is not None:
                live[0].close()
                live[0].session.release()
            else:
                player.release()
    finally:
        glfw.terminate()


class Keys:
    """Pause / step / restart / quit, set by the key callback, read by the loop."""

    def __init__(self):
        self.paused = False
        self.pending_steps = 0
        self.restart = False
        self.quit = False

    def on_key(self, win, key, scancode, action, mods):
        import glfw    # lazy (loaded already: this is glfw's callback)
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


def _loop(glfw, win, ctx, keys, player, fps, now=time.perf_counter, live=None):
    """The window's turns of the Player's loop until it closes: keys to the Player's clock
    (pause, single steps, restart), the wall time since the last turn to advance(), then a
    draw at the window's size. `now` is the wall clock (tests give one of their own).
    `live=(Watcher, said)`: a save since the last turn is applied first (a rebuild brings a
    new Player); said(outcome) hears it."""
    last = now()
    shown, note = None, ""           # the window's title, and what the last save said
    while not glfw.window_should_close(win) and not keys.quit:
        glfw.poll_events()
        t = now()
        elapsed, last = min(t - last, MAX_FRAME_DT), t
        if live is not None and (outcome := live[0].poll()) is not None:
            player = live[0].session.player
            live[1](outcome)
            note = (" - the last save does not play (see the terminal): the last good state plays"
                    if outcome.kind == "broken" else "")
        if keys.restart:
            player.restart()
            keys.restart = False
        player.clock.paused = keys.paused
        player.advance(elapsed)
        while keys.pending_steps:
            player.step(1.0 / fps)
            keys.pending_steps -= 1
        width, height = glfw.get_framebuffer_size(win)
        if width and height:
            # the camera follows the window's shape; the view itself is the project's
            ctx.screen.viewport = (0, 0, width, height)
            player.draw((width, height))
            player.show(ctx.screen)
            glfw.swap_buffers(win)
        title = f"kzplayer - {player.project.name}" + (
            " (paused: Space resumes, Right steps)" if keys.paused else "") + note
        if title != shown:
            shown = title
            glfw.set_window_title(win, title)
