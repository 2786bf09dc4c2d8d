"""Host event notifications: births, deaths and hits of chosen emitters handed to Python
callbacks after the frame, without making the GPU wait (the NeL design: "the system should
be able to handle event notifications (collisions, emissions etc.)", for a sound on a hit).

    def on_hit(event):                           # a HostEvent
        play_sound(event.position, abs(event.velocity[1]))
    listener = sim.listen("Screens/Screen/Scene/Particle System/Sparks", on_hit, kinds=("hit",))
    sim.listen(emitter, on_batch, batch=True)    # one HostEventBatch of numpy arrays per frame
    sim.listen(None, on_any)                     # every emitter of the project
    sim.unlisten(listener)

How: the fused step (and the emission and children programs) write a record of the Event
Buffer's layout for each birth, death and hit of a listened-to emitter into the system's host
records (Particles/host_events.glsl), at most `Simulation(events_cap=...)` per system and
frame; the rest are dropped and counted. At the end of the frame the records are copied on
the GPU into the stats ring and read back with the stats, a couple of frames later
(kzplayer.gpu.stats_ring), so a callback hears of a frame when `take_stats` hands out its figures.
Within a frame the events are in time order (sub-step time for hits), then hits before
deaths before births at one instant, then by emitter and slot: the same on every run.
Which records a full buffer drops is the GPU's order (the count is exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from kzplayer.gpu import layout as L

KINDS = {1: "birth", 2: "death", 3: "hit"}
CODES = {name: code for code, name in KINDS.items()}
_ORDER = np.array([9, 2, 1, 0], np.int64)      # at one instant: hits, then deaths, then births
DEFAULT_CAP = 10_000


@dataclass(frozen=True)
class HostEvent:
    """One birth, death or hit. `time` is the system's time of the event in seconds (a
    level-0 birth at the start of its step, a subemitter's child and a death at its end, a
    hit when in the step it happened); position, velocity (a hit's: just before it) and
    normal (a hit's, else zeros) are in world space; `particle` is the particle's hash
    (fixed for its life: the same particle's hit and death carry the same number)."""
    frame: int
    time: float
    kind: str
    emitter: str
    position: tuple
    velocity: tuple
    normal: tuple
    particle: int


@dataclass
class HostEventBatch:
    """The events of one frame for one listener, as arrays (batch=True), in order."""
    frame: int
    emitter: np.ndarray       # (N,) ProjectItemPaths
    kind: np.ndarray          # (N,) 'birth' / 'death' / 'hit'
    time: np.ndarray          # (N,) float64 s
    position: np.ndarray      # (N, 3) float32, world
    velocity: np.ndarray      # (N, 3)
    normal: np.ndarray        # (N, 3)
    particle: np.ndarray      # (N,) uint32 hashes
    dropped: int              # records of this frame the system's buffer dropped (all its emitters)

    def __len__(self) -> int:
        return len(self.time)


@dataclass(eq=False)
class Listener:
    emitter: object           # kzplayer.gpu.nodes.Emitter, or None: every emitter
    callback: Callable
    kinds: frozenset
    batch: bool


class HostEvents:
    """The listeners of one Simulation and the decoding of the host records."""

    def __init__(self):
        self.listeners: list[Listener] = []
        self.dropped = 0          # records dropped so far, every system
        self.frame_dropped: dict[int, int] = {}

    def kinds_of(self, emitter) -> frozenset:
        return frozenset().union(*(ls.kinds for ls in self.listeners if ls.emitter is emitter or ls.emitter is None))

    def deliver(self, frame: int, systems) -> None:
        """`systems`: [(system number, emitters, step length, simulation_to_world per emitter,
        count, records)] of one frame; calls the listeners."""
        events, dropped = [], 0
        for number, emitters, h, to_world, count, records in systems:
            kept = min(count, len(records))
            dropped += count - kept
            if kept:
                events.append(_decode(records[:kept], number, emitters, h, to_world))
        self.dropped += dropped
        if dropped:
            self.frame_dropped[frame] = dropped
        if not self.listeners:
            return
        if events:
            merged = {k: np.concatenate([e[k] for e in events]) for k in events[0]}
            order = np.lexsort((merged["slot"], merged["emitter"], merged["system"], _ORDER[merged["kind"]],
                                merged["time"]))
            merged = {k: v[order] for k, v in merged.items()}
        else:
            merged = None
        for ls in list(self.listeners):
            if merged is None:
                pick = np.zeros(0, bool)
            else:
                pick = np.isin(merged["kind"], [CODES[k] for k in ls.kinds])
                if ls.emitter is not None:
                    pick &= merged["owner"] == id(ls.emitter)
            if ls.batch:
                ls.callback(_batch(frame, merged, pick, dropped))
                continue
            if merged is None:
                continue
            for k in np.flatnonzero(pick):
                ls.callback(HostEvent(frame, float(merged["time"][k]), KINDS[int(merged["kind"][k])],
                                      str(merged["path"][k]), tuple(merged["position"][k].tolist()),
                                      tuple(merged["velocity"][k].tolist()), tuple(merged["normal"][k].tolist()),
                                      int(merged["particle"][k])))


def _decode(records: np.ndarray, number: int, emitters, h: float, to_world) -> dict:
    e = records["_staged_rank"].astype(np.int64)
    step = records["_staged_slot"].astype(np.float64)
    position = records["position"].astype(np.float32)
    velocity = records["velocity"].astype(np.float32)
    normal = records["normal"].astype(np.float32)
    for k in np.unique(e):               # each emitter's space to the world
        m = to_world[int(k)]
        if not np.array_equal(m, np.eye(4)):
            sel = e == k
            r = m[:3, :3]
            position[sel] = position[sel] @ r.T + m[:3, 3]
            velocity[sel] = velocity[sel] @ r.T
            n = normal[sel] @ np.linalg.inv(r)          # normals by the inverse transpose
            length = np.linalg.norm(n, axis=1, keepdims=True)
            normal[sel] = np.where(length > 0, n / np.maximum(length, 1e-30), 0.0)
    ids = np.array([id(em) for em in emitters], dtype=object)
    paths = np.array([em.path for em in emitters], dtype=object)
    return {"time": (step + records["age"].astype(np.float64)) * h, "kind": records["kind"].astype(np.int64),
            "emitter": e, "slot": records["particle"].astype(np.int64), "system": np.full(len(e), number),
            "owner": ids[e], "path": paths[e], "position": position, "velocity": velocity, "normal": normal,
            "particle": records["hash"].astype(np.uint32)}


def _batch(frame, merged, pick, dropped) -> HostEventBatch:
    if merged is None:
        empty3 = np.zeros((0, 3), np.float32)
        return HostEventBatch(frame, np.zeros(0, object), np.zeros(0, "<U5"), np.zeros(0), empty3, empty3, empty3,
                              np.zeros(0, np.uint32), dropped)
    names = np.array(["", "birth", "death", "hit"])
    return HostEventBatch(frame, merged["path"][pick], names[merged["kind"][pick]], merged["time"][pick],
                          merged["position"][pick], merged["velocity"][pick], merged["normal"][pick],
                          merged["particle"][pick], dropped)


def record_bytes(capacity: int) -> int:
    """Bytes of one frame's host data in the stats ring: a 16-byte count, then the records."""
    return 16 + capacity * L.EVENT_RECORD_DTYPE.itemsize


__all__ = ["HostEvent", "HostEventBatch", "HostEvents", "Listener", "KINDS", "DEFAULT_CAP"]
