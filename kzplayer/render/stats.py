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
render/lod.py.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

COLUMNS = ("frame", "time", "emitter", "alive", "emitted", "died", "events_written",
           "events_dropped", "stalled", "hits", "lod_rate", "lod_sides")
COUNTS = ("alive", "emitted", "died", "events_written", "events_dropped", "stalled", "hits", "lod_sides")


class StatsRecorder:
    """Writes rows of per-frame stats AS THEY COME (a run of millions of rows keeps none in
    memory): `open(path)` first (or the path to the constructor), then `add(frame, time,
    stats)` (from Simulation.take_stats) or `record(frame, time)` (sim.stats after a
    step_frame), `close()` at the end. Rows go to a temporary file beside `path`, which
    becomes `path` on `close()` (a JSON array closed properly); a run that stops
    (`abandon()`) leaves no half file."""

    def __init__(self, sim, path: str | Path | None = None):
        self.sim = sim
        self.rows_written = 0
        self._fh = None
        self._csv = None
        self._json = False
        if path is not None:
            self.open(path)

    def open(self, path: str | Path) -> None:
        import tempfile
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, self._temp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        self._fh = open(fd, "w", newline="", encoding="utf-8")
        self._json = self.path.suffix.lower() == ".json"
        if self._json:
            self._fh.write("[")
        else:
            self._csv = csv.DictWriter(self._fh, fieldnames=COLUMNS)
            self._csv.writeheader()

    def record(self, frame: int, time: float) -> None:
        self.add(frame, time, self.sim.stats)

    def add(self, frame: int, time: float, stats) -> None:
        for path, figures in _per_emitter(stats):
            row = {"frame": frame, "time": round(time, 9), "emitter": path}
            row.update({k: int(figures.get(k, 0)) for k in COUNTS[:-1]})
            row["lod_rate"] = round(float(figures.get("lod_rate", 1.0)), 6)
            row["lod_sides"] = int(figures.get("lod_sides", 0))
            if self._json:
                self._fh.write(("\n " if self.rows_written == 0 else ",\n ") + json.dumps(row))
            else:
                self._csv.writerow(row)
            self.rows_written += 1

    def close(self) -> None:
        """Finish the file and put it in place."""
        import os
        if self._fh is None:
            return
        if self._json:
            self._fh.write("\n]\n" if self.rows_written else "]\n")
        self._fh.close()
        self._fh = None
        os.chmod(self._temp, 0o666 & ~_umask())
        os.replace(self._temp, self.path)

    def abandon(self) -> None:
        """A run that stopped: no stats file (nor a temporary one) is left behind."""
        import os
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            try:
                os.unlink(self._temp)
            except OSError:
                pass


def _umask() -> int:
    import os
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
    return {k: getattr(figures, k) for k in ("emitter", *COUNTS, "lod_rate") if hasattr(figures, k)}
