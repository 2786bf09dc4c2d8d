"""`kzplayer play`: turn the command line into a call of the player (kzplayer.render.player).

Contract: shared/design/cli.md (`play`); behaviour decided here is in docs/play.md.
Order of work: check every option that can be checked without the project (exit 2), load
(the loader's diagnostics, exit 1 or 2), bindings and --set overrides (exit 1 or 2), every
destination tried for writing (exit 2), then the GPU: a window (render/window.py) or an
offline render (render/player.py), which own the frame loop and its budgets
(render/budget.py); this module prints what they report and the summary line. The option
ranges and the destination checks are kzplayer/commands/limits.py.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click

from kzplayer.diagnostics import KzError, Severity
from kzplayer.scene import Scene
from kzplayer.project.catalog import catalog
from kzplayer.commands import limits
from kzplayer.render.writers import check_output, output_kind
from kzplayer.render.offline import render_offline
from kzplayer.render.clock import check_speed as player_speed
from kzplayer.commands.watch import check_watch, load_live, play_watch, window_watch
from kzplayer.commands.loading import _SHOWN, load_for_play, print_warnings

DEFAULT_SECONDS = 5.0


def _image_limit() -> int:
    """The most pixels an image has a side: the catalog's work limit of Node.Width, one
    number for --size, the Viewport2D's size and validate's property.work-limit."""
    return int(catalog().property("Node.Width").work_max)


MAX_SIZE = _image_limit()

_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """`WxH` -> (W, H); click.BadParameter (exit 2) for anything else."""
    m = _SIZE.match(text or "")
    if not m:
        raise click.BadParameter(f"{text!r} is not WIDTHxHEIGHT, e.g. 640x360", param_hint="--size")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_SIZE and 1 <= h <= MAX_SIZE):
        raise click.BadParameter(f"{w}x{h}: width and height must be 1..{MAX_SIZE}", param_hint="--size")
    return w, h


def frame_count(frames: int | None, seconds: float | None, fps: float) -> int:
    """Output frames to produce: --frames, else --seconds (default 5) x --fps, at least 1."""
    if frames is not None and seconds is not None:
        raise click.UsageError("give --frames or --seconds, not both")
    if frames is not None:
        return frames
    if seconds is not None and not (0 < seconds < 1e9):      # NaN and infinity too
        raise click.BadParameter(f"{seconds!r}: a duration is a number of seconds above 0 "
                                 "(and below a billion)", param_hint="--seconds")
    return max(1, round((DEFAULT_SECONDS if seconds is None else seconds) * fps))


def check_start(start: float | None, fps: float) -> float | None:
    """--start: a finite time from 0, at most as many frames to re-run as a run may have."""
    if start is None:
        return None
    if not (0 <= start <= limits.MAX_FRAMES / fps):         # NaN and infinity too
        raise click.BadParameter(f"{start!r}: the start is a time in seconds from 0 to {limits.MAX_FRAMES / fps:g} "
                                 f"({limits.MAX_FRAMES:,} frames at {fps:g} fps are re-run to reach it)",
                                 param_hint="--start")
    return float(start)


def check_speed(speed: float | None) -> float:
    """--speed: slow motion, 0.1 to 1 (render/player.py, Clock)."""
    if speed is None:
        return 1.0
    try:
        return player_speed(speed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--speed") from None


def run(project=None, frames=None, seconds=None, fps=60.0, size=None, seed=None, output=None,
        window=None, stats=None, dump=None, events=None, events_cap=None, overrides=(), frame_budget=None,
        lod=True, watch=False, start=None, speed=None, hud=False, gpu_timers=False, msaa="0") -> None:

    fps = limits.check_fps(fps)
    start = check_start(start, fps)
    speed = check_speed(speed)
    msaa = int(msaa)
    seed = limits.check_seed(seed)
    budget = limits.check_frame_budget(frame_budget)
    n_frames = limits.check_frames(frame_count(frames, seconds, fps), "--frames" if frames else "--seconds")
    events_cap = limits.check_events_cap(events_cap)
    requested_size = parse_size(size) if size is not None else None
    _check_suffix(stats, (".csv", ".json"), "--stats")
    _check_suffix(dump, (".npz",), "--dump")
    _check_suffix(events, (".jsonl",), "--events")
    if events_cap is not None and not events:
        raise click.UsageError("--events-cap sets how many events --events keeps per frame: give --events FILE.jsonl")
    files_wanted = bool(output or stats or dump or events)
    if window and files_wanted:
        raise click.UsageError("--window plays interactively; --output, --stats, --events and --dump are "
                               "written by a --headless run")
    if watch:
        check_watch(project, output, window, stats, dump, events)
        if start is not None or speed != 1.0:
            raise click.UsageError("--start and --speed apply to a plain play; with --watch use the window's keys")
    if start is not None and events:
        raise click.UsageError("--events records a run from its first frame: give --start or --events, not both")
    if output and requested_size and (problem := check_output(output, requested_size)):
        raise click.BadParameter(problem, param_hint="--output")

    if watch:
        proj, graph = load_live(project, overrides)
    else:
        proj, graph = load_for_play(project, overrides)
    width, height = requested_size or Scene(proj, graph, records=False).viewport_size(MAX_SIZE)
    if output and (problem := check_output(output, (width, height))):
        raise click.BadParameter(problem, param_hint="--output")
    # every destination is tried before anything is simulated
    limits.check_destination(output, "--output", folder=bool(output) and output_kind(output) == "folder")
    limits.check_destination(stats, "--stats")
    limits.check_destination(dump, "--dump")
    limits.check_destination(events, "--events")

    if watch and window is None and not output:
        # optional: the window needs glfw and a display, headless play never imports it
        from kzplayer.render.window import display_available
        window = display_available()
        if not window:
            raise click.UsageError("--watch: no display here for a window; give --headless --output FILE.png or .gif")
    if watch and not window:
        if hud:
            raise click.UsageError("--hud with --watch is drawn in the window; a headless watch does not burn it in")
        play_watch(project, overrides, (width, height), n_frames=n_frames, fps=fps, seed=seed,
                   output=output, frame_budget=budget, lod=lod)
        return
    if window is None:
        # optional: the window needs glfw and a display, headless play never imports it
        from kzplayer.render.window import display_available
        window = not files_wanted and display_available()
    if window:
        # optional: glfw, as above
        from kzplayer.render.window import play_in_window
        if frames is not None or seconds is not None:
            click.echo("note: a window plays until it is closed; --frames and --seconds apply to "
                       "a --headless run", err=True)
        live = None
        if watch:
            live = window_watch(project, overrides)
        play_in_window(proj, graph, (width, height), fps=fps, seed=seed, warn=print_warnings,
                       frame_budget=budget, lod=lod, watch=live, start=start, speed=speed, hud=hud, msaa=msaa)
        return
    click.echo(play_offline(proj, graph, (width, height), n_frames=n_frames, fps=fps, seed=seed,
                            output=output, stats=stats, dump=dump, events=events, events_cap=events_cap,
                            frame_budget=budget, lod=lod, start=start, speed=speed, hud=hud,
                            gpu_timers=gpu_timers, msaa=msaa))


def _check_suffix(path: str | None, suffixes: tuple[str, ...], option: str) -> None:
    if path is not None and Path(path).suffix.lower() not in suffixes:
        raise click.BadParameter(f"{path!r}: the file name must end in {' or '.join(suffixes)}",
                                 param_hint=option)


def play_offline(proj, graph, size, *, n_frames, fps, seed=None, output=None, stats=None, dump=None,
                 events=None, events_cap=None, ctx=None, frame_budget=None, lod=True, start=None, speed=1.0,
                 hud=False, gpu_timers=False, msaa=0) -> str:
    """Render n_frames headless (kzplayer.render.offline.render_offline), writing what was
    asked, its warnings on stderr; returns the summary line. `ctx` lets tests share theirs.
    Where "playing anyway" was said and the simulation meets what it cannot leave out (an
    event-source cycle), it says that it does not play after all."""
    try:
        with _progress(n_frames, enabled=bool(output)) as advance:
            result = render_offline(proj, graph, size, n_frames=n_frames, fps=fps, seed=seed, output=output,
                                    stats=stats, dump=dump, events=events, events_cap=events_cap, ctx=ctx,
                                    warn=print_warnings, progress=advance, frame_budget=frame_budget, lod=lod,
                                    start=start, speed=speed, hud=hud, gpu_timers=gpu_timers, msaa=msaa)
    except KzError as exc:
        if (any(d.severity == Severity.ERROR for d in _SHOWN)
                and not any(d.rule == "play.frame-budget" for d in exc.diagnostics)):
            click.echo("kzplayer: not playing after all: the problem below cannot be left out", err=True)
        raise
    return summary(proj, result)


def summary(proj, r) -> str:
    """`Fountain: 300 frames (5.00 s at 60 fps); 1 emitter; 645 particles alive at the end; ...`"""
    emitters = (f"{r.emitters} emitter{'s' if r.emitters != 1 else ''}" if r.emitters else
                "0 emitters (nothing to play: the project has no ParticleEmitter under a ParticleSystem)")
    timeline = "".join([f" from {r.start:.2f} s" if r.start is not None else "",
                        f", {r.speed:g}x slow motion" if r.speed != 1.0 else ""])
    parts = [f"{proj.name}: {r.frames} frames ({r.seconds:.2f} s at {r.fps:g} fps{timeline})", emitters,
             f"{r.alive} particles alive at the end"]
    if r.memory:
        history = f" (position history {_mib(r.history_memory)})" if r.history_memory else ""
        parts.append(f"simulation buffers {_mib(r.memory)}{history}")
    if r.wrote:
        parts.append("wrote " + ", ".join(r.wrote))
    else:   # a headless run that keeps nothing: say how to keep something
        parts.append("nothing written (add --output FILE.mp4, .gif, .png or a folder "
                     "to see it; --stats FILE.csv for the figures)")
    if r.camera:
        parts.append(f"{r.size[0]}x{r.size[1]}, {r.camera}")
    return "; ".join(parts)


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 / 10 else f"{n / 1024:.0f} KiB"


class _progress:
    """A rich progress bar on stderr for offline renders, only on a terminal."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.enabled = enabled and sys.stderr.isatty() and not os.environ.get("KZPLAYER_NO_PROGRESS")
        self._progress = None

    def __enter__(self):
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self._progress = Progress(TextColumn("rendering"), BarColumn(), MofNCompleteColumn(),
                                  TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self._progress.start()
        task = self._progress.add_task("frames", total=self.total)
        return lambda: self._progress.advance(task)

    def __exit__(self, *exc):
        if self._progress is not None:
            self._progress.stop()
