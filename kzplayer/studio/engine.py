"""The studio's render thread: the one thread that owns the GL context. It makes the
context, loads the session, runs the Player (the same one as `play`), and between frames
runs the jobs the server hands it (every read and edit of the session: the model, the
graph and the simulation are only ever touched here). Each frame is drawn at the stream's
size, encoded as JPEG with Pillow and handed to the FrameHub, which wakes the websockets.

    engine = Engine("effect.kzm", size=(640, 360), fps=30)
    engine.start()                              # KzError: the project or the context failed
    value = await engine.run(lambda e: e.session.history())
    engine.close()
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import io
import queue
import threading
import time

from PIL import Image

from kzplayer.diagnostics import KzError
from kzplayer.gpu.context import create_context
from kzplayer.render.player import Player
from kzplayer.studio.camera import Orbit, orbit_camera
from kzplayer.studio.ops import EditError
from kzplayer.studio.session import Live, StudioSession

MAX_WALL_STEP = 0.1        # a stall (a rebuild) does not throw the effect forward
MAX_REPLAY = 20.0          # a rebuild re-runs the effect to its time, at most this far
STEP = 1.0 / 60.0          # the single step and the seek's frame
JOB_TIMEOUT = 120.0        # seconds a request waits for the render thread (a long seek, a rebuild)


class FrameHub:
    """The latest frame and who waits for the next: `publish` from the render thread wakes
    every subscriber's asyncio.Event in its own loop (a slow page skips frames, never
    queues them)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.latest: tuple[int, bytes, dict] | None = None
        self._waiting: dict[int, tuple] = {}

    def publish(self, jpeg: bytes, info: dict) -> None:
        with self._lock:
            seq = (self.latest[0] + 1) if self.latest else 1
            self.latest = (seq, jpeg, info)
            waiting = list(self._waiting.values())
        for loop, event in waiting:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:            # that loop is closed: its socket is gone
                pass

    def subscribe(self) -> asyncio.Event:
        event = asyncio.Event()
        with self._lock:
            self._waiting[id(event)] = (asyncio.get_running_loop(), event)
        if self.latest is not None:
            event.set()
        return event

    def unsubscribe(self, event: asyncio.Event) -> None:
        with self._lock:
            self._waiting.pop(id(event), None)


class _PlayerLive(Live):
    """Edits reach the running Player: values through Simulation.set_value, else a rebuild."""

    def __init__(self, engine: "Engine"):
        super().__init__(engine.session)
        self.engine = engine

    def set_value(self, item, name: str, value) -> None:
        if self.engine.player is None:
            return super().set_value(item, name, value)
        self.engine.player.sim.set_value(item, name, value)

    def rebuild(self) -> None:
        self.engine.rebuild()


class Engine:
    def __init__(self, path: str, *, size: tuple[int, int] = (640, 360), fps: float = 30.0,
                 seed: int | None = None, quality: int = 80):
        self.path = path
        self.size = (int(size[0]), int(size[1]))
        self.fps = float(fps)
        self.seed = seed
        self.quality = int(quality)
        self.hub = FrameHub()
        self.session: StudioSession | None = None
        self.player: Player | None = None
        self.orbit = Orbit()
        self.problems: list = []            # what the run found (left-out materials...), said once
        self.player_error: str | None = None
        self.alive: dict[str, int] = {}     # per emitter, the latest frame's figures
        self.frames = 0
        self.dirty = True
        self._jobs: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._ctx = None
        self._thread = threading.Thread(target=self._run, name="kzplayer-studio-gl", daemon=True)

    # -- from other threads ----------------------------------------------------------------

    def start(self, timeout: float = 120.0) -> None:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the render thread did not start")
        if self._failure is not None:
            raise self._failure

    def call(self, fn) -> concurrent.futures.Future:
        """Run fn(engine) on the render thread between two frames."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        if self._stop.is_set():
            future.set_exception(RuntimeError("the studio is closing"))
        else:
            self._jobs.put((fn, future))
        return future

    async def run(self, fn, timeout: float = JOB_TIMEOUT):
        """fn(engine) on the render thread; asyncio.TimeoutError past `timeout` seconds."""
        return await asyncio.wait_for(asyncio.wrap_future(self.call(fn)), timeout)

    def turn(self, d_yaw: float, d_pitch: float, zoom_by: float) -> None:
        self.orbit = self.orbit.moved(d_yaw, d_pitch, zoom_by)
        self.dirty = True

    def reset_view(self) -> None:
        self.orbit = Orbit()
        self.dirty = True

    def close(self) -> None:
        self._stop.set()
        self._jobs.put((None, None))
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    # -- on the render thread --------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._ctx = create_context(headless=True)
            self.session = StudioSession(self.path)
            self.session.live = _PlayerLive(self)
            self._make_player()
        except BaseException as exc:        # said to start(): the CLI shows a KzError as such
            self._failure = exc
            self._ready.set()
            self._release()
            return
        self._ready.set()
        try:
            self._loop()
        finally:
            self._release()

    def _loop(self) -> None:
        interval = 1.0 / self.fps
        last = next_tick = time.perf_counter()
        while not self._stop.is_set():
            urgent = self._jobs_until(next_tick)
            if self._stop.is_set():
                break
            now = time.perf_counter()
            if now < next_tick and not urgent:
                continue
            next_tick = max(next_tick + interval, now)
            try:
                if self.player is not None and not self.player.clock.paused:
                    self.player.advance(min(now - last, MAX_WALL_STEP))
                    self.dirty = True
                if self.dirty and self.player is not None:
                    self._frame()
            except Exception as exc:         # a frame over its budget, a driver error, a bug: said, the studio goes on
                self._stop_playing(exc)
            last = now

    def _jobs_until(self, deadline: float) -> bool:
        """Run jobs until `deadline`; True when one ran (its effect is drawn at once)."""
        ran = False
        while True:
            wait = 0.0 if ran else max(deadline - time.perf_counter(), 0.0)
            try:
                fn, future = self._jobs.get(timeout=wait) if wait > 0 else self._jobs.get_nowait()
            except queue.Empty:
                return ran
            if fn is None:
                return ran
            ran = True
            self.dirty = True
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(self))
            except BaseException as exc:    # handed to the request that asked (a clear error there)
                future.set_exception(exc)

    def _stop_playing(self, exc: Exception) -> None:
        """The Player failed (KzError: its diagnostics; anything else: a bug): it is let go,
        the page says why, the next edit or undo that rebuilds plays again."""
        if isinstance(exc, KzError):
            self.player_error = "; ".join(d.message for d in exc.diagnostics) or str(exc)
        else:
            self.player_error = f"internal error: {type(exc).__name__}: {exc}"
        if self.player is not None:
            try:
                self.player.release()
            except Exception:                # releasing a broken Player: nothing more to lose
                pass
            self.player = None
        if self.session is not None:
            self.session.version += 1        # the pages fetch the state and show it

    def _frame(self) -> None:
        player = self.player
        base, _ = player.camera(self.size[0] / self.size[1])
        player.draw(camera=orbit_camera(base, self.orbit))
        image = player.image()
        buf = io.BytesIO()
        Image.fromarray(image).save(buf, "JPEG", quality=self.quality)
        self.frames += 1
        self.dirty = False
        self.hub.publish(buf.getvalue(), self.info())

    def info(self) -> dict:
        player = self.player
        return {"type": "frame", "time": round(player.time, 4) if player else 0.0,
                "paused": bool(player and player.clock.paused),
                "speed": player.clock.speed if player else 1.0, "alive": dict(self.alive),
                "version": self.session.version if self.session else 0, "frames": self.frames}

    def _warn(self, diagnostics) -> None:
        self.problems.extend(diagnostics)

    def _stats(self, frame, figures) -> None:
        self.alive = {path: int(f.alive) for path, f in figures.items()}

    def _make_player(self) -> None:
        session = self.session
        self.player_error = None
        player = Player(self._ctx, session.project, session.graph, self.size, seed=self.seed, warn=self._warn)
        player.on_stats = self._stats
        player.prepare()
        self.player = player

    def rebuild(self) -> None:
        """A new Player for the session's project and graph, re-run to the old one's time
        (at most MAX_REPLAY seconds), its pause and speed kept."""
        old = self.player
        at, clock = (old.time, old.clock) if old is not None else (0.0, None)
        if old is not None:
            old.release()
            self.player = None
        self.alive = {}
        try:
            self._make_player()
            if clock is not None:
                self.player.clock = clock
            if at > 0:
                self.player.seek(min(at, MAX_REPLAY), STEP)
        except Exception as exc:              # the edit left nothing that plays (or a bug): said on the page
            self._stop_playing(exc)

    def control(self, action: str, value: float | None = None) -> None:
        player = self.player
        if player is None:
            raise EditError("nothing plays (see the problems)")
        if action == "pause":
            player.clock.paused = True
        elif action == "play":
            player.clock.paused = False
        elif action == "step":
            player.step(STEP if value is None else value)
        elif action == "restart":
            player.restart()
            self.alive = {}
        elif action == "seek":
            player.seek(value, STEP)
        elif action == "speed":
            player.clock.speed = value
        else:
            raise EditError(f"unknown control {action!r}")

    def _release(self) -> None:
        if self.player is not None:
            self.player.release()
            self.player = None
        if self._ctx is not None:
            self._ctx.release()
            self._ctx = None
