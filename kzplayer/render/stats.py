"""The `play --stats` file: one row per output frame and emitter (cli.md), as CSV or JSON.

Columns: frame, time, emitter, alive, emitted, died, events_written, events_dropped,
stalled, lod_rate, lod_sides. `frame` counts output frames from 0, `time` is the simulated
time at the end of that frame in seconds, `emitter` the emitter's ProjectItemPath; the counts
are for that output frame (the sum over the simulation steps it contained), `alive` is at
its end. `lod_rate` is the share of its continuous emission rate the emission LOD left it
in that frame (1 without LOD), `lod_sides` the fan sectors or ribbon sides its geometry LOD
chose (0 for other materials): render/lod.py.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

COLUMNS = ("frame", "time", "emitter", "alive", "emitted", "died", "events_written",
           "events_dropped", "stalled", "lod_rate", "lod_sides")
COUNTS = ("alive", "emitted", "died", "events_written", "events_dropped", "stalled", "lod_sides")


class StatsRecorder:
    """Collects rows of per-frame stats (`add`, from Simulation.take_stats, or `record`,
    from sim.stats after a step_frame); `save(path)` writes them."""

    def __init__(self, sim):
        self.sim = sim
        self.rows: list[dict] = []

    def record(self, frame: int, time: float) -> None:
        self.add(frame, time, self.sim.stats)

    def add(self, frame: int, time: float, stats) -> None:
        for path, figures in _per_emitter(stats):
            row = {"frame": frame, "time": round(time, 9), "emitter": path}
            row.update({k: int(figures.get(k, 0)) for k in COUNTS[:-1]})
            row["lod_rate"] = round(float(figures.get("lod_rate", 1.0)), 6)
            row["lod_sides"] = int(figures.get("lod_sides", 0))
            self.rows.append(row)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".json":
            path.write_text(json.dumps(self.rows, indent=1) + "\n", encoding="utf-8")
            return
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(self.rows)


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
