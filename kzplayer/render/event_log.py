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
import os
import tempfile
from pathlib import Path
from kzplayer.render.stats import _umask


class EventLog:
    def __init__(self, sim, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # beside the file, as the --stats file is (kzplayer/render/stats.py): renamed into place
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        self._fh = open(fd, "w", encoding="utf-8")
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
            self._fh.write("\n".join(lines) + "\n")
            self.written += len(batch)

    def close(self) -> None:
        """Put the file in place (after the last frame's events are in)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            os.chmod(self._tmp, 0o666 & ~_umask())
            os.replace(self._tmp, self.path)

    def abandon(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            Path(self._tmp).unlink(missing_ok=True)


def _v(a) -> list:
    return [round(float(x), 6) for x in a]
