"""The `play --stats` file: one row per output frame and emitter (cli.md), as CSV or JSON,
written as the rows come.

Columns: frame, time, emitter, alive, emitted, died, events_written, events_dropped,
stalled, hits, lod_rate, lod_sides. `frame` counts output frames from 0, `time` is the
simulated time at the end of that frame in seconds, `emitter` the emitter's ProjectItemPath;
the counts are for that output frame (the sum over the simulation steps it contained),
`alive` is at its end. `hits` counts particle-steps in which a collider hit the particle (one
per particle and step, however many surfaces it met in the step). `stalled`: particles due
that the pool had no room for, and for a subemitter bound to particles also the children
its parents could not hand over (past 64 a parent and step; docs/player.md). `lod_rate` is the share of
its continuous emission rate the emission LOD left it in that frame (1 without LOD),
`lod_sides` the fan sectors or ribbon sides its geometry LOD chose (0 for other materials):
render/lod.py. With `play --gpu-timers` two more: `sim_gpu_ms` and `draw_gpu_ms`, the GPU
milliseconds the emitter's ParticleSystem took that frame to simulate and to draw (GL timer
queries, gpu/timers.py; the same in every row of the system's emitters; 0 where it ran no
step or drew nothing), rounded to microseconds.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from kzplayer.atomic import AtomicFile, guard

COLUMNS = ("frame", "time", "emitter", "alive", "emitted", "died", "events_written",
           "events_dropped", "stalled", "hits", "lod_rate", "lod_sides")
GPU_COLUMNS = ("sim_gpu_ms", "draw_gpu_ms")
COUNTS = ("alive", "emitted", "died", "events_written", "events_dropped", "stalled", "hits", "lod_sides")


class StatsRecorder:
    """Writes rows of per-frame stats AS THEY COME (a run of millions of rows keeps none in
    memory): `open(path)` first (or the path to the constructor), then `add(frame, time,
    stats)` (from Simulation.take_stats) or `record(frame, time)` (sim.stats after a
    step_frame), `close()` at the end. Rows go to a temporary file beside `path`, which
    becomes `path` on `close()` (a JSON array closed properly); a run that stops
    (`abandon()`) leaves no half file."""

    def __init__(self, sim, path: str | Path | None = None, gpu_times: bool = False):
        self.sim = sim
        self.columns = COLUMNS + (GPU_COLUMNS if gpu_times else ())
        self.rows_written = 0
        self._fh = None
        self._csv = None
        self._json = False
        if path is not None:
            self.open(path)

    def open(self, path: str | Path) -> None:
        self.path = Path(path)
        with guard(self.path, "--stats"):
            self._out = AtomicFile(self.path, text=True)     # never through a link; no half file
        self._temp = self._out.temp
        self._fh = self._out.file
        self._json = self.path.suffix.lower() == ".json"
        if self._json:
            self._fh.write("[")
        else:
            self._csv = csv.DictWriter(self._fh, fieldnames=self.columns)
            self._csv.writeheader()

    def record(self, frame: int, time: float) -> None:
        self.add(frame, time, self.sim.stats)

    def add(self, frame: int, time: float, stats) -> None:
        with guard(self.path, "--stats"):
            self._add(frame, time, stats)

    def _add(self, frame: int, time: float, stats) -> None:
        for path, figures in _per_emitter(stats):
            row = {"frame": frame, "time": round(time, 9), "emitter": path}
            row.update({k: int(figures.get(k, 0)) for k in COUNTS[:-1]})
            row["lod_rate"] = round(float(figures.get("lod_rate", 1.0)), 6)
            row["lod_sides"] = int(figures.get("lod_sides", 0))
            for name in self.columns[len(COLUMNS):]:
                row[name] = round(float(figures.get(name, 0.0)), 3)
            if self._json:
                self._fh.write(("\n " if self.rows_written == 0 else ",\n ") + json.dumps(row))
            else:
                self._csv.writerow(row)
            self.rows_written += 1

    def close(self) -> None:
        """Finish the file and put it in place."""
        if self._fh is None:
            return
        with guard(self.path, "--stats"):
            if self._json:
                self._fh.write("\n]\n" if self.rows_written else "]\n")
            self._fh = None
            self._out.commit()

    def abandon(self) -> None:
        """A run that stopped: no stats file (nor a temporary one) is left behind."""
        if self._fh is not None:
            self._fh = None
            self._out.abandon()


def _per_emitter(stats):
    """(emitter path, {count: value}) pairs from the simulation's per-frame stats."""
    if isinstance(stats, dict):
        for path, figures in stats.items():
            yield path, _as_dict(figures)
    else:
        for figures in stats:
            figures = _as_dict(figures)
            yield figures["emitter"], figures


def _as_dict(figures) -> dict:
    if isinstance(figures, dict):
        return figures
    return {k: getattr(figures, k) for k in ("emitter", *COUNTS, "lod_rate", *GPU_COLUMNS) if hasattr(figures, k)}
