"""The Player's checkpoints of the running effect, so that a seek re-runs only from the
latest one at or before its time instead of from 0 (docs/play.md, "Timeline").

    timeline = Timeline(budget=64 * 2**20)   # Player(checkpoint_budget=): 0 keeps none
    timeline.started()                       # the Player restarted: its run is at frame 0
    timeline.stepped(player, dt, before)     # after each frame: a checkpoint when one is due
    kept = timeline.latest(player, dt, n)    # the latest kept at or before frame n of dt

A seek(t, dt) re-runs the effect from 0 in frames of dt; the simulation is deterministic, so
the state after frame k of that re-run is the state after frame k of any run from 0 played
in frames of dt (a seek's re-run, a script's steps, an offline render), and a checkpoint
(kzplayer.gpu.checkpoint: everything the next frame reads, restored bit for bit) of that
state stands for the first k frames of the re-run. So checkpoints are kept

* only of a run whose every frame since 0 was dt long (a window plays by wall-clock time,
  off any grid: its checkpoints come from its seeks' re-runs);
* at the first frame at or past each `interval` seconds of effect time (1 s);
* of one state of the effect: its Simulation's `revision` (a new number on every refresh: a
  live save, a `set_value`, a listener added, a rebuild's new Simulation) and the view the
  emission LOD is decided for (only in projects that have a LOD). A frame of another state
  drops them all; `forget()` too (the live preview's saves call it as well);
* within `budget` bytes (compressed): past it, the checkpoint whose neighbours are closest
  goes (the newest stays), so the kept ones thin out evenly over the effect's time; one
  checkpoint bigger than the whole budget is not kept, nor is any other tried for that
  state and frame length.

`player_checkpoint` / `restore_player` are the Player's own checkpoints as bytes, with its
state in them (Player.checkpoint and restore: a long shot in segments, docs/batch.md).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kzplayer.gpu import checkpoint as checkpoints
from kzplayer.gpu.checkpoint import CheckpointError, read_header

DEFAULT_BUDGET = 64 * 2 ** 20     # bytes of checkpoints a Player keeps (its checkpoint_budget)
INTERVAL = 1.0                    # seconds of effect time between two checkpoints
FRESH = "fresh"                   # a run at frame 0: on the grid of any frame length
_EPSILON = 1e-9


@dataclass
class Kept:
    """One checkpoint: frame `frame` of the grid, the Player's time and pending LOD plans."""
    frame: int
    time: float
    data: bytes
    lod_frames: dict = field(default_factory=dict)


class Timeline:
    def __init__(self, budget: int = DEFAULT_BUDGET, interval: float = INTERVAL):
        self.budget = max(int(budget), 0)
        self.interval = float(interval)
        self.kept: list[Kept] = []        # in frame order
        self.grid = None                  # (dt, state) every kept one is of
        self.run = FRESH                  # (dt, state) of every frame of the run so far; None: mixed
        self.taken = 0                    # checkpoints made, and restored, so far (tests, the benchmark)
        self.restored = 0
        self._named = None                # (state, the simulation's fingerprints in it)
        self._refused = None              # (dt, state) whose checkpoints outgrow the budget

    @property
    def size(self) -> int:
        """Bytes of the checkpoints kept."""
        return sum(len(k.data) for k in self.kept)

    def forget(self) -> None:
        """Drop every checkpoint: the effect from now on is not the one they were made of
        (and the run so far is none from 0 of it)."""
        self.kept.clear()
        self.grid = self.run = self._named = self._refused = None

    def started(self) -> None:
        """The Player is back at frame 0."""
        self.run = FRESH

    def stepped(self, player, dt: float, before: float) -> None:
        """After one frame of `dt` seconds that began at effect time `before`."""
        state = player.timeline_state()
        if self.grid is not None and self.grid[1] != state:
            self.kept.clear()             # of another effect now: none is of any use again
            self.grid = None
        here = (float(dt), state)
        self.run = here if self.run in (FRESH, here) else None
        if self.run is None or not self.budget or self._refused == here:
            return
        if math.floor(player.time / self.interval + _EPSILON) == math.floor(before / self.interval + _EPSILON):
            return
        frame = player.sim.frames
        if self.grid == here and any(k.frame == frame for k in self.kept):
            return                        # a re-run passing a kept frame again
        data = checkpoints.checkpoint(player.sim, named=self.fingerprints(player.sim, state))
        self.taken += 1
        if len(data) > self.budget:
            self._refused = here
            return
        if self.grid != here:
            self.kept.clear()
            self.grid = here
        self.kept.append(Kept(frame, player.time, data, dict(player._lod_frames)))
        self.kept.sort(key=lambda k: k.frame)
        self._thin()

    def latest(self, player, dt: float, frames: int) -> Kept | None:
        """The latest checkpoint at or before frame `frames` of a run in frames of `dt` of
        the Player's effect as it is now (None: there is none)."""
        if self.grid != (float(dt), player.timeline_state()):
            return None
        return max((k for k in self.kept if k.frame <= frames), key=lambda k: k.frame, default=None)

    def on_grid(self, player, dt: float) -> bool:
        """Is the Player's run so far one from 0 in frames of `dt` of its effect as it is now?"""
        return self.run == FRESH or self.run == (float(dt), player.timeline_state())

    def restore(self, player, kept: Kept) -> None:
        """Put a kept checkpoint's state into the Player's simulation."""
        state = player.timeline_state()
        checkpoints.restore(player.sim, kept.data, named=self.fingerprints(player.sim, state))
        self.restored += 1
        self.run = self.grid

    def fingerprints(self, sim, state) -> tuple[str, str]:
        """The simulation's checkpoint fingerprints (gpu/checkpoint.py), worked out once per
        timeline state: the project's files and parameter words do not change within one."""
        if self._named is None or self._named[0] != state:
            self._named = (state, checkpoints.fingerprints(sim))
        return self._named[1]

    def _thin(self) -> None:
        while len(self.kept) > 1 and self.size > self.budget:
            frames = [0] + [k.frame for k in self.kept]
            # kept[i] lies between frames[i] and frames[i + 2]: the narrowest such span goes
            i = min(range(len(self.kept) - 1), key=lambda i: frames[i + 2] - frames[i])
            del self.kept[i]


def view_key(camera) -> tuple | None:
    """What of a camera the emission LOD reads (its place and field of view), comparable."""
    return None if camera is None else (np.asarray(camera.world, float).tobytes(), float(camera.fov_y))


def player_checkpoint(player) -> bytes:
    """The simulation's checkpoint with the Player's own state in it: the effect time, the
    frames stepped, the full-pool tally, the LOD plans of frames whose figures are still to
    come and the probe's box (so a restored player frames the same camera without probing
    again)."""
    seen = player._seen.tolist() if isinstance(player._seen, np.ndarray) else player._seen
    state = {"time": player.time, "frame": player.frame, "size": list(player.size), "seen": seen,
             "stalled": [player.stalled.stalled, player.stalled.frames],
             "lod_frames": [[f, rates, sides] for f, (rates, sides) in sorted(player._lod_frames.items())]}
    named = player.timeline.fingerprints(player.sim, player.timeline_state())
    return checkpoints.checkpoint(player.sim, extra={"player": state}, named=named)


def restore_player(player, data: bytes) -> None:
    """Put a player_checkpoint (or a Simulation's own checkpoint) of the same project, values
    and size into `player`."""
    state = read_header(data)["extra"].get("player")
    if state is not None and tuple(state["size"]) != player.size:
        raise CheckpointError(f"this checkpoint was made at {state['size'][0]}x{state['size'][1]}, not "
                              f"{player.size[0]}x{player.size[1]}: the emission LOD follows the image size",
                              "restore it into a Player of the size it was made at")
    checkpoints.restore(player.sim, data, named=player.timeline.fingerprints(player.sim, player.timeline_state()))
    player.timeline.run = None            # a run from 0, but on which grid of frames is not known
    if state is None:
        return                            # a Simulation's own checkpoint: the effect time stays
    player.time, player.frame = float(state["time"]), int(state["frame"])
    seen = state["seen"]
    player._seen = np.asarray(seen, float) if isinstance(seen, list) else seen
    player.stalled.stalled, player.stalled.frames = dict(state["stalled"][0]), dict(state["stalled"][1])
    player._lod_frames = {int(f): (rates, sides) for f, rates, sides in state["lod_frames"]}


__all__ = ["DEFAULT_BUDGET", "INTERVAL", "Kept", "Timeline", "player_checkpoint", "restore_player", "view_key"]
