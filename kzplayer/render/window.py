"""The interactive window of `kzplayer play` (glfw), used only where a display exists.

Keys (docs/play.md, "Keys"): Space pauses and resumes; Right (or `.`) steps one frame,
Left (or `,`) one frame back, PageUp / PageDown seek 1 s on or back, 0-9 seek to that
second (a seek re-runs the effect from 0: Player.seek); Up / Down (or `]` / `[`) speed up
and slow down (0.1x-1x); R or Home restarts from the first frame with the same seed; H or
F1 toggles the debug view (render/hud.py), which is also where a --watch session's problems
are drawn; Esc or Q closes.
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
from kzplayer.render.hud import burn_in, burn_problems
from kzplayer.render.player import Player, no_warnings
from kzplayer.render.live import LiveSession
from kzplayer.render.live_loop import Watcher

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
                   frame_budget=None, lod: bool = True, watch=None, start: float | None = None,
                   speed: float = 1.0, hud: bool = False, msaa: int = 0) -> None:
    """Open a window of `size`, play until it is closed (the frame loop is the Player's: a
    broken material leaves its slot out, a frame past `frame_budget` seconds stops it).
    `watch=(path, load, report, said[, check])`: the live preview (render/live.py): each save is
    applied or rebuilt between frames; said(outcome) hears it. `start`: the effect begins
    at that time (Player.seek); `speed` 0.1-1 slow motion; `hud` the debug view shown."""
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
                          gpu_timers=True, msaa=msaa)
        live = None
        if watch is not None:
            path, load, report, said, *check = watch     # check: run after a save's frame (render/live.py)
            session = LiveSession(path, load=load, make_player=make_player, report=report,
                                  check=check[0] if check else None)
            session.start(project, graph)
            live = (Watcher(session), said)
            player = session.player
        else:
            player = make_player(project, graph)
        player.clock.speed = speed
        if start:
            player.seek(start, 1.0 / fps)
        keys = Keys(hud=hud)
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
    """What the keys asked for since the last turn of the loop, set by the key callback and
    read (and cleared) by the loop: pause, single steps forward and back, seeks, slow
    motion, restart, the debug view, quit (docs/play.md, "Keys")."""

    def __init__(self, paused: bool = False, hud: bool = False):
        self.paused = paused
        self.pending_steps = 0            # frames to step forward (Right)
        self.seek_by = 0.0                # seconds to seek by (Left: one frame back; PageUp/Down)
        self.frames_back = 0              # frames to step back (Left), a seek
        self.speed = 0                    # +1 per Up (faster), -1 per Down (slower)
        self.seek_to = None               # seconds to seek to (the digit keys 0-9)
        self.restart = False
        self.hud = hud
        self.quit = False

    def on_key(self, win, key, scancode, action, mods):
        import glfw    # lazy (loaded already: this is glfw's callback)
        if action not in (glfw.PRESS, glfw.REPEAT):
            return
        once = action == glfw.PRESS          # a held key repeats steps and seeks, not toggles
        if key == glfw.KEY_SPACE and once:
            self.paused = not self.paused
        elif key in (glfw.KEY_RIGHT, glfw.KEY_PERIOD):
            self.paused = True
            self.pending_steps += 1
        elif key in (glfw.KEY_LEFT, glfw.KEY_COMMA):
            self.paused = True
            self.frames_back += 1
        elif key == glfw.KEY_PAGE_UP:
            self.seek_by += 1.0
        elif key == glfw.KEY_PAGE_DOWN:
            self.seek_by -= 1.0
        elif key in (glfw.KEY_UP, glfw.KEY_RIGHT_BRACKET):
            self.speed += 1
        elif key in (glfw.KEY_DOWN, glfw.KEY_LEFT_BRACKET):
            self.speed -= 1
        elif key in (glfw.KEY_R, glfw.KEY_HOME) and once:
            self.restart = True
        elif key in (glfw.KEY_H, glfw.KEY_F1) and once:
            self.hud = not self.hud
        elif glfw.KEY_0 <= key <= glfw.KEY_9 and once:
            self.seek_to, self.seek_by, self.frames_back = float(key - glfw.KEY_0), 0.0, 0
        elif key in (glfw.KEY_ESCAPE, glfw.KEY_Q):
            self.quit = True

    def apply(self, player, fps: float) -> None:
        """Hand what was asked to the Player: restart, speed, pause, steps, seeks (a seek
        re-runs the effect to the time asked from the latest checkpoint before it,
        Player.seek, on the grid of 1/fps)."""
        dt = 1.0 / fps
        if self.restart:
            player.restart()
            self.restart = False
        for _ in range(abs(self.speed)):
            player.clock.faster() if self.speed > 0 else player.clock.slower()
        self.speed = 0
        player.clock.paused = self.paused
        if self.frames_back or self.seek_by or self.seek_to is not None:
            base = player.time if self.seek_to is None else self.seek_to
            target = max(base - self.frames_back * dt + self.seek_by, 0.0)
            player.seek(round(target / dt) * dt, dt)
            self.frames_back, self.seek_by, self.seek_to = 0, 0.0, None
        while self.pending_steps:
            player.step(dt)
            self.pending_steps -= 1


def _loop(glfw, win, ctx, keys, player, fps, now=time.perf_counter, live=None):
    """The window's turns of the Player's loop until it closes: keys to the Player's clock
    (pause, single steps, restart), the wall time since the last turn to advance(), then a
    draw at the window's size. `now` is the wall clock (tests give one of their own).
    `live=(Watcher, said)`: a save since the last turn is applied before the turn's step (a
    rebuild brings a new Player), its frame drawn, its checks run (a refused save undone),
    and only then does the effect step on; said(outcome) hears each outcome."""
    last = now()
    shown, note = None, ""           # the window's title, and what the last save said
    while not glfw.window_should_close(win) and not keys.quit:
        glfw.poll_events()
        t = now()
        wall, last = t - last, t
        elapsed = min(wall, MAX_FRAME_DT)
        saved = live is not None and (outcome := live[0].poll()) is not None
        if saved:
            player = live[0].session.player
            note = _heard(live, outcome)
        else:                               # a save's frame waits for no step of the effect
            keys.apply(player, fps)         # (a step pauses first: this turn's time is none)
            player.advance(elapsed)
        width, height = glfw.get_framebuffer_size(win)
        if width and height:
            # the camera follows the window's shape; the view itself is the project's
            ctx.screen.viewport = (0, 0, width, height)
            player.draw((width, height))
            # the debug view (H) and a broken save's problems (LiveSession.problems) over it
            problems = list(getattr(live[0].session, "problems", None) or ()) if live is not None else []
            if keys.hud:
                burn_in(player, frame_ms=wall * 1e3, problems=problems)
            else:
                burn_problems(player, problems)
            player.show(ctx.screen)
            glfw.swap_buffers(win)
        if saved:
            # the save's whole-project checks right after its frame, before the effect steps on
            # (as the headless loop, render/live_loop.py): a refused save is undone now; then
            # the turn's step, the save's own wall time left out of the effect's
            if (checked := live[0].settle()) is not None:
                player = live[0].session.player
                note = _heard(live, checked)
            keys.apply(player, fps)
            player.advance(elapsed)
            last = now()
        slow = f" ({player.clock.speed:g}x)" if player.clock.speed < 1 else ""
        title = f"kzplayer - {player.project.name}" + slow + (
            " (paused: Space resumes, Right steps)" if keys.paused else "") + note
        if title != shown:
            shown = title
            glfw.set_window_title(win, title)


def _heard(live, outcome) -> str:
    """Tell a save's outcome (said); the window title's note for it."""
    live[1](outcome)
    return (" - the last save does not play (see the terminal): the last good state plays"
            if outcome.kind == "broken" else "")
