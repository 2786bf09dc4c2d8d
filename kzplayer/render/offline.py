"""The offline driver of the frame loop: a Player (render/player.py) run for a fixed number
of output frames headless, writing what was asked (an image, a video, --stats, --events,
--dump), through the Player's public methods only.

    result = render_offline(project, graph, size, n_frames=300, fps=60, output="out.mp4", warn=show)

The window (render/window.py) is the other driver; both see the same frames.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kzplayer.atomic import AtomicFile, guard
from kzplayer.gpu.context import create_context
from kzplayer.render.budget import FRAME_BUDGET
from kzplayer.render.event_log import EventLog
from kzplayer.render.hud import burn_in
from kzplayer.render.player import Player, no_warnings
from kzplayer.render.probe import PROBE_SECONDS
from kzplayer.render.stats import StatsRecorder
from kzplayer.render.writers import needs_every_frame, open_writer


@dataclass
class Result:
    """What an offline run did, for the summary line (kzplayer.commands.play)."""
    frames: int
    seconds: float
    fps: float
    emitters: int
    alive: int
    wrote: list[str] = field(default_factory=list)
    camera: str | None = None
    size: tuple[int, int] = (0, 0)
    memory: int = 0                   # bytes of the simulation's buffers (Simulation.memory)
    history_memory: int = 0           # of which position histories
    start: float | None = None        # play --start: the effect time of the first frame
    speed: float = 1.0                # play --speed
    diagnostics: list = field(default_factory=list)    # kzplayer.render(): the warnings play prints


def render_offline(project, graph, size, *, n_frames: int, fps: float, seed=None, output=None, stats=None,
                   dump=None, events=None, events_cap=None, ctx=None, warn=no_warnings, progress=None,
                   frame_budget=None, lod: bool = True, start: float | None = None, speed: float = 1.0,
                   hud: bool = False, gpu_timers: bool = False, msaa: int = 0) -> Result:
    """Simulate n_frames output frames headless, writing what was asked. `ctx` lets tests
    share their context (otherwise a standalone one is made and released); `progress()` is
    called once per frame (a progress bar); `frame_budget`: seconds a frame may take
    (default render/budget.FRAME_BUDGET); `msaa`: samples a pixel (0: none). --stats rows are streamed as they come.
    `start` (play --start): the first output frame is the effect at `start` seconds, reached
    by re-running it from 0 without drawing (Player.seek): the same particles as the frame
    at that time of a run from 0. `speed` (0.1 to 1): each output frame moves the effect on
    by speed / fps seconds (slow motion). `gpu_timers`: each system's simulation and draw
    time measured with GL timer queries, in the --stats rows (sim_gpu_ms, draw_gpu_ms).
    `hud`: the debug view drawn over every frame written (render/hud.py)."""
    own_ctx = ctx is None
    ctx = ctx or create_context(headless=True)
    player = writer = recorder = log = None
    try:
        player = Player(ctx, project, graph, size, seed=seed, warn=warn,
                        probe_seconds=min(n_frames / fps, PROBE_SECONDS),
                        frame_budget=FRAME_BUDGET if frame_budget is None else frame_budget,
                        events_cap=events_cap, lod=lod, gpu_timers=gpu_timers or hud, msaa=msaa,
                        checkpoint_budget=0)     # it never seeks back: checkpoints would only cost
        camera = how = None
        if output:
            camera, how = player.camera(size[0] / size[1])
            player.prepare(camera)          # the materials compiled before simulating: say what is left out
            writer = open_writer(output, fps, size)
        dt = 1.0 / fps
        player.clock.speed = speed
        step = dt * speed                   # effect seconds an output frame
        first, base, skipped = step, 0.0, 0
        if start is not None:
            # the frames before the one at `start`, re-run without drawing (on the output's
            # grid of frames, so the particles are those of a run from 0), then the rest
            before = max(start - step, 0.0)
            player.seek(before, step)
            player.flush_stats()
            first, base, skipped = start - before, start - step, player.sim.frames
        recorder = StatsRecorder(player.sim, stats, gpu_times=gpu_timers) if stats else None
        if events:
            log = EventLog(player.sim, events)
        every = bool(output) and needs_every_frame(output)
        if recorder:
            player.on_stats = lambda number, figures: recorder.add(
                number - skipped, base + (number - skipped + 1) * step, figures)
        for frame in range(n_frames):
            if frame == 0:
                player.step(first)
            else:
                player.advance(dt)
            if writer and (every or frame == n_frames - 1):
                player.draw(camera=camera)
                if hud:
                    burn_in(player)             # the debug view, written with the frame
                writer.write(player.image())
            if progress:
                progress()
        player.flush_stats()
        if writer:
            writer.close()
        if recorder:
            recorder.close()
        if log:
            log.close()
        if dump:
            save_dump(player.sim, dump)
        player.finish()
        sim = player.sim
        memory = sim.memory()
        return Result(frames=n_frames, seconds=n_frames * dt, fps=fps, emitters=len(sim.emitters),
                      alive=sum(int(s.alive) for s in sim.stats.values()),
                      wrote=[str(p) for p in (output, stats, events, dump) if p], camera=how, size=tuple(size),
                      memory=sum(sum(m.values()) for m in memory.values()),
                      history_memory=sum(m["history"] for m in memory.values()), start=start, speed=speed)
    finally:
        if recorder:
            recorder.abandon()       # only when the run stopped: close() put the file in place
        if log:
            log.abandon()
        if writer:
            writer.abandon()         # only when the run stopped: close() put the file in place
        if player is not None:
            player.release()
        if own_ctx:
            ctx.release()


def save_dump(sim, path: str) -> None:
    """The --dump .npz (cli.md keys: `<emitter path>/position` and so on)."""
    arrays = sim.dump()
    with guard(path, "--dump"), AtomicFile(path) as out:   # np.savez(path) would append .npz to other names
        np.savez(out.file, **arrays)
