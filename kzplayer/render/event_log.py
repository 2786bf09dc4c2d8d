"""The `play --events` file: the births, deaths and hits of every emitter, one JSON object a
line (JSON Lines), in the order they happened (docs/cli.md).

    {"frame": 12, "time": 0.2133, "kind": "hit", "emitter": "Screens/.../Sparks",
     "position": [0.41, 0.0, -0.2], "velocity": [1.2, -3.9, 0.1], "normal": [0, 1, 0], "particle": 2368882721}
    {"frame": 12, "kind": "dropped", "count": 40}

`time` is the simulated time of the event in seconds (a hit's within its step), positions,
velocities (a hit's: just before it) and normals (a hit's, else zeros) are in world space,
`particle` is the particle's hash (the same for its birth, hits and death). A frame that
asked for more than the cap (`--events-cap`, per ParticleSystem and frame) keeps the cap and
ends with one `dropped` line. The events come from kzplayer.gpu.host_events, read with the
stats a couple of frames late, so writing them never stalls the GPU. The file is written
under a temporary name and renamed when the run ends, so a run that fails leaves no half file.
"""
from __future__ import annotations

import json
from pathlib import Path

from kzplayer.atomic import AtomicFile, guard


class EventLog:
    def __init__(self, sim, path: str | Path):
        self.path = Path(path)
        with guard(self.path, "--events"):
            self._out = AtomicFile(self.path, text=True)      # kzplayer.atomic: renamed into place
        self._fh = self._out.file
        self.written = 0
        self.listener = sim.listen(None, self._batch, batch=True)

    def _batch(self, batch) -> None:
        lines = []
        for k in range(len(batch)):
            lines.append(json.dumps({
                "frame": batch.frame, "time": round(float(batch.time[k]), 7), "kind": str(batch.kind[k]),
                "emitter": str(batch.emitter[k]), "position": _v(batch.position[k]), "velocity": _v(batch.velocity[k]),
                "normal": _v(batch.normal[k]), "particle": int(batch.particle[k])}))
        if batch.dropped:
            lines.append(json.dumps({"frame": batch.frame, "kind": "dropped", "count": int(batch.dropped)}))
        if lines:
            with guard(self.path, "--events"):
                self._fh.write("\n".join(lines) + "\n")
            self.written += len(batch)

    def close(self) -> None:
        """Put the file in place (after the last frame's events are in)."""
        if self._fh is not None:
            self._fh = None
            with guard(self.path, "--events"):
                self._out.commit()

    def abandon(self) -> None:
        if self._fh is not None:
            self._fh = None
            self._out.abandon()


def _v(a) -> list:
    return [round(float(x), 6) for x in a]
