"""The player for Python scripts: `kzplayer.render(...)` writes what `kzplayer play
--headless` writes, and `kzplayer.Player` steps, seeks and hands out frames as numpy
arrays (thumbnails, per-frame checks), in the calling process (docs/api.md, "Rendering").

    kzplayer.render("effect.kzm", "take.mp4", size=(640, 360), seconds=3, seed=7,
                    set=["Screens/.../Nozzle:Emission.Rate=800"])
    with kzplayer.Player("effect.kzm", size=(320, 180), seed=7) as player:
        player.seek(1.5)                     # re-run to 1.5 s (from a checkpoint), nothing drawn
        image = player.frame()               # (180, 320, 3) uint8 sRGB, top row first
        small = player.thumbnail((96, 54))   # the same moment at another size

Both go through the frame loop that play uses (render/player.py, render/offline.py), so a
frame here is byte for byte the one play writes for the same options. Nothing is printed:
the warnings play would show are in `diagnostics`. Bad arguments raise ValueError; a
project that cannot be loaded raises KzError, as kzplayer.load does.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from kzplayer.bindings import parse_override, resolve
from kzplayer.diagnostics import Diagnostic
from kzplayer.gpu.context import create_context
from kzplayer.project.catalog import catalog
from kzplayer.project.loader import load
from kzplayer.project.model import Project
from kzplayer.render.offline import Result, render_offline
from kzplayer.render.clock import check_speed
from kzplayer.render.player import Player as FrameLoop
from kzplayer.render.writers import check_output
from kzplayer.scene import Scene

DEFAULT_SECONDS = 5.0       # as play


def _project(project_or_path, overrides) -> tuple[Project, object]:
    """The project (a Project, or a path kzplayer.load reads) and its resolved graph with
    every `--set`-style override applied."""
    project = project_or_path if isinstance(project_or_path, Project) else load(str(project_or_path))
    graph = resolve(project)
    for text in ([overrides] if isinstance(overrides, str) else overrides or ()):
        item, name, value = parse_override(text, project)
        graph.set_value(item, name, value)
    return project, graph


def _size(size, project, graph) -> tuple[int, int]:
    limit = int(catalog().property("Node.Width").work_max)
    if size is None:
        return Scene(project, graph, records=False).viewport_size(limit)
    w, h = (int(v) for v in size)
    if not (1 <= w <= limit and 1 <= h <= limit):
        raise ValueError(f"size {w}x{h}: width and height must be 1..{limit}")
    return w, h


def _fps(fps: float) -> float:
    fps = float(fps)
    if not 1 <= fps <= 1000:
        raise ValueError(f"fps {fps!r}: the frame rate is 1 to 1000")
    return fps


def render(project_or_path, output, *, size=None, seconds=None, frames=None, fps=60.0, seed=None, set=(),
           start=None, speed=1.0, stats=None, dump=None, lod=True, hud=False, gpu_timers=False, ctx=None) -> Result:
    """Render headless to `output` (.png: the last frame, .gif, .mp4, or a folder of PNG
    frames): the bytes `kzplayer play PROJECT --headless --output OUTPUT` writes with the
    same options (`set`: play's --set texts, `size`: (W, H)). `seconds` (default 5) or
    `frames`; `start`, `speed`, `hud`, `stats`, `dump` and `gpu_timers` as play's --start,
    --speed, --hud, --stats, --dump and --gpu-timers. Returns the
    run's Result (frames, alive at the end, what was written); its `diagnostics` are the
    warnings play prints. `ctx` shares a moderngl context (else one is made and released)."""
    if frames is not None and seconds is not None:
        raise ValueError("give seconds or frames, not both")
    fps = _fps(fps)
    speed = check_speed(speed)
    if frames is None:
        seconds = DEFAULT_SECONDS if seconds is None else float(seconds)
        if not 0 < seconds < 1e9:
            raise ValueError(f"seconds {seconds!r}: a duration above 0")
        frames = max(1, round(seconds * fps))
    if int(frames) < 1:
        raise ValueError(f"frames {frames!r}: at least one")
    if start is not None and not (0 <= float(start) < math.inf):
        raise ValueError(f"start {start!r}: a time in seconds from 0")
    project, graph = _project(project_or_path, set)
    size = _size(size, project, graph)
    if (problem := check_output(output, size)):
        raise ValueError(problem)
    said: list[Diagnostic] = []
    result = render_offline(project, graph, size, n_frames=int(frames), fps=fps, seed=seed, output=str(output),
                            stats=None if stats is None else str(stats), dump=None if dump is None else str(dump),
                            ctx=ctx, warn=said.extend, lod=lod, start=None if start is None else float(start),
                            speed=speed, hud=hud, gpu_timers=gpu_timers)
    result.diagnostics = said
    return result


class Player:
    """A project played in this process, frame by frame, for scripts: `step`, `seek`,
    `frame()` as a numpy array. Deterministic: the same project, seed and steps give the
    same particles and pictures as `kzplayer play` (a frame after n steps of 1/fps is play's
    n-th output frame). Use it in a `with` block, or call `close()`."""

    def __init__(self, project_or_path, *, size=None, fps: float = 60.0, seed=None, set=(), lod: bool = True,
                 hud: bool = False, ctx=None):
        self.project, self.graph = _project(project_or_path, set)
        self.size = _size(size, self.project, self.graph)
        self.fps = _fps(fps)
        self.hud = hud
        self.diagnostics: list[Diagnostic] = []
        self._own_ctx = ctx is None
        self.ctx = ctx or create_context(headless=True)
        try:
            self._loop = FrameLoop(self.ctx, self.project, self.graph, self.size, seed=seed,
                                   warn=self.diagnostics.extend, lod=lod, gpu_timers=hud)
            self._camera, self.camera_choice = self._loop.camera(self.size[0] / self.size[1])
            self._loop.prepare(self._camera)
        except BaseException:
            self.close()
            raise

    # -- time ------------------------------------------------------------------------------

    @property
    def time(self) -> float:
        """Seconds of effect time played."""
        return self._loop.time

    @property
    def frames(self) -> int:
        """Frames stepped since the start (or the last seek's re-run)."""
        return self._loop.sim.frames

    def step(self, frames: int = 1) -> None:
        """Move the effect on by `frames` frames of 1/fps seconds each."""
        for _ in range(int(frames)):
            self._loop.step(1.0 / self.fps)

    def seek(self, t: float) -> None:
        """The effect at `t` seconds: re-run in frames of 1/fps from the latest checkpoint
        before it (Player.seek), nothing drawn; the particles are those a run from 0 has at
        that time, bit for bit."""
        t = float(t)
        if not 0 <= t < math.inf:
            raise ValueError(f"seek({t!r}): a time in seconds from 0")
        self._loop.seek(t, 1.0 / self.fps)

    def restart(self) -> None:
        """Back to t = 0, same seed."""
        self._loop.restart()

    # -- pictures and figures ----------------------------------------------------------------

    def frame(self) -> np.ndarray:
        """The picture of the current moment, (H, W, 3) uint8 sRGB, top row first."""
        return self._draw(self.size)

    def thumbnail(self, size=(160, 90)) -> np.ndarray:
        """The current moment drawn at another size (the camera keeps its vertical field of
        view, as a resized window does); the simulation is not touched."""
        return self._draw((int(size[0]), int(size[1])))

    def frames_at(self, times) -> list[np.ndarray]:
        """The pictures at each of `times` (seconds, any order: each a seek, then a frame)."""
        out = []
        for t in times:
            self.seek(t)
            out.append(self.frame())
        return out

    def save(self, path) -> Path:
        """The current frame as a PNG file."""
        from PIL import Image    # lazy: only the scripts that save pictures need Pillow loaded
        Image.fromarray(self.frame()).save(str(path))
        return Path(path)

    def particles(self) -> dict[str, np.ndarray]:
        """Every emitter's live particles in world space, `<emitter path>/position` (N, 3),
        ... (play --dump's arrays)."""
        return self._loop.sim.dump()

    @property
    def stats(self) -> dict:
        """{emitter path: EmitterStats} of the last frame (alive, emitted, died, stalled...)."""
        return self._loop.sim.stats

    def _draw(self, size) -> np.ndarray:
        camera = self._camera if size == self.size else self._loop.camera(size[0] / size[1])[0]
        self._loop.draw(size, camera=camera)
        if self.hud:
            from kzplayer.render.hud import burn_in    # lazy: the debug view's font is made on first use
            burn_in(self._loop)
        return self._loop.image()

    # -- the end ---------------------------------------------------------------------------

    def close(self) -> None:
        loop = getattr(self, "_loop", None)
        if loop is not None:
            loop.release()
            self._loop = None
        if self._own_ctx and getattr(self, "ctx", None) is not None:
            self.ctx.release()
            self.ctx = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
