"""The GPU's holders for the scene's node records (kzplayer.scene.nodes): what the
simulation keeps per ParticleSystem, ParticleEmitter and ParticleCollider on top of what the
scene says of them (buffers, running totals, mesh blocks, clocks), and the per-frame stats
of an emitter. A holder reads its node's fields as its own (`em.count`, `system.framerate`);
references between nodes (`em.source`, `em.system`, ...) come back as holders."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kzplayer.gpu.views import EmitterBuffers


@dataclass
class EmitterStats:
    """What happened to one emitter during the last frame (cli.md, play --stats)."""
    emitter: str
    alive: int = 0
    emitted: int = 0
    died: int = 0
    events_written: int = 0
    events_dropped: int = 0
    stalled: int = 0
    hits: int = 0                 # particle-steps with a collider hit (one per particle and step)
    lod_rate: float = 1.0          # the emission LOD factor applied (render/lod.py; 1: none)
    lod_sides: int = 0             # fan sectors / ribbon sides drawn (0: no such geometry)
    sim_gpu_ms: float = 0.0        # its ParticleSystem's simulation GPU time that frame (gpu/timers.py; 0: not timed)
    draw_gpu_ms: float = 0.0       # its ParticleSystem's draw GPU time that frame (0: not drawn or not timed)


def _reads(*names):
    """Decorate a holder class: each name reads the scene node's field of that name."""
    def add(cls):
        for name in names:
            setattr(cls, name, property(lambda self, name=name: getattr(self.node, name)))
        return cls
    return add


def _holds(*names):
    """Decorate a holder class: each name reads a node reference of the scene node as its holder."""
    def add(cls):
        for name in names:
            setattr(cls, name, property(lambda self, name=name: self.holders.get(id(getattr(self.node, name)))))
        return cls
    return add


@_reads("item", "index", "count", "emission", "self_affect", "events", "level", "seed", "transform", "visible",
        "ignore_colliders", "destroy_on_collision", "channel_rate", "per_event", "basis", "space", "space_kind")
@_holds("source", "particle_source", "channel", "channel_of")
class Emitter:
    """One ParticleEmitter (or channel) on the GPU. `particles` is its Particle Data Buffer
    (PARTICLE_DTYPE records, one per pool slot, live ones flagged FLAG_ALIVE) in simulation
    space, kept as its range of the system's hot and cold blocks; `live` its live list
    (slots of live particles, ascending, with a GPU-side count); `simulation_to_world` maps
    simulation space to the world (identity unless local space). docs/player.md, Buffers."""

    def __init__(self, node, system: "System", holders: dict):
        self.node = node                                  # kzplayer.scene.nodes.SceneEmitter
        self.system = system
        self.holders = holders                            # id(scene node) -> its holder
        self.buffers: EmitterBuffers | None = None        # its view of the system's storage
        self.pool = 0                                     # the pool: MaximumAmount, capped by the driver
        self.totals: np.ndarray | None = None             # emitter state at the last frame's end
        self.event_totals: tuple = (0, 0)                 # Event Buffer running totals then
        self.host_kinds: frozenset = frozenset()          # "birth", "death", "hit": the host listens
        self.mesh_block = None                            # Emitter_Mesh: its sampling table (gpu.mesh_data)
        self.history = 0                                  # positions kept per particle (trails), 0: none
        self.lod = 1.0                                    # emission LOD factor of the coming steps

    @property
    def path(self) -> str:
        return self.node.path

    @property
    def particles(self):
        """views.ParticleData: `bind_to_storage_buffer()` for drawing, `read`/`write` records."""
        return self.buffers.particles

    @property
    def live(self):
        """views.SlotList: buffer + offset of its slots, header_buffer + offsets of the count."""
        return self.buffers.live

    @property
    def capacity(self) -> int:
        return self.buffers.capacity if self.buffers is not None else 0

    @property
    def simulation_to_world(self) -> np.ndarray:
        """Where its stored particles are: its space (ParticleEmitter.Space) -> the world."""
        if self.node.space is not None:
            return self.node.system.simulation_to_world @ self.node.space
        return self.node.system.simulation_to_world

    @property
    def history_newest(self) -> int:
        """The ring entry of its position history the last step wrote (the step numbered s
        writes entry s mod N, s counted in 32 bits as the GPU does, over the steps really run:
        a frame's dropped steps leave the ring alone)."""
        n = self.buffers.history_length if self.buffers is not None else 0
        return ((self.system.runs - 1) & 0xFFFFFFFF) % n if n else 0


@_reads("item", "material", "transform", "visible")
class Collider:
    """A ParticleCollider on the GPU: its scene record and its mesh tree (Collider_Mesh)."""

    def __init__(self, node):
        self.node = node                                  # kzplayer.scene.nodes.SceneCollider
        self.mesh_block = None                            # Collider_Mesh: its tree (gpu.mesh_data)


@_reads("item", "framerate", "verlet", "local_space", "visible", "simulation_to_world", "world_to_simulation",
        "node_world", "step_length", "affectors")
class System:
    """A ParticleSystem on the GPU: holders of its emitters (dependency order), channels and
    colliders, and its clock. Its affectors are the scene's records (no GPU state)."""

    def __init__(self, node):
        self.node = node                                  # kzplayer.scene.nodes.SceneSystem
        self.emitters: list[Emitter] = []
        self.channels: list[Emitter] = []
        self.colliders: list[Collider] = []
        self.steps = 0
        self.runs = 0               # steps really run: `steps` also counts those a frame over budget dropped
        self.clock = 0.0            # frame time handed to this system, in steps (may be fractional)

    @property
    def members(self) -> list[Emitter]:
        """What the system's buffers and programs hold: its emitters (dependency order), then
        the channels of its bound subemitters."""
        return self.emitters + self.channels
