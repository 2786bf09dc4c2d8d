"""The simulation's records of the project's nodes: one per ParticleSystem, ParticleEmitter,
ParticleAffector and ParticleCollider, holding what the GPU side derived from their
properties (materials, transforms, pool), and the per-frame stats of an emitter."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kzplayer.gpu.storage import EmitterBuffers
from kzplayer.gpu.materials import Material


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


@dataclass(eq=False)
class Emitter:
    """One ParticleEmitter on the GPU. `particles` is its Particle Data Buffer (PARTICLE_DTYPE
    records, one per pool slot, live ones flagged FLAG_ALIVE) in simulation space, kept as its
    range of the system's hot and cold blocks; `live` its live list (slots of live particles,
    ascending, with a GPU-side count); `simulation_to_world` maps simulation space to the
    world (identity unless local space). docs/player.md, Buffers."""
    item: object
    index: int
    system: "System"
    buffers: EmitterBuffers | None = None            # its view of the system's storage
    count: Material | None = None
    emission: Material | None = None
    self_affect: Material | None = None
    events: Material | None = None                    # GenerateEventsMaterial
    source: "Emitter | None" = None                   # whose Event Buffer feeds this subemitter
    particle_source: "Emitter | None" = None          # whose Particle Data Buffer it reads
    level: int = 0                                    # 0, or its source's level + 1
    pool: int = 0                                     # the pool size asked for (MaximumAmount, capped)
    seed: int = 0
    transform: np.ndarray = field(default_factory=lambda: np.eye(4))   # emitter -> simulation
    totals: np.ndarray | None = None                  # emitter state at the last frame's end
    event_totals: tuple = (0, 0)                      # Event Buffer running totals then
    visible: bool = True                              # Node.Visible of it and its ancestors
    ignore_colliders: bool = False                    # NeL's located flags: "don't collide"
    destroy_on_collision: bool = False                #   and "destroyed on collision"
    host_kinds: frozenset = frozenset()               # "birth", "death", "hit": the host listens
    mesh_block: object = None                         # Emitter_Mesh: its sampling table (kzplayer.gpu.mesh_data)
    # emitters bound to particles (EmissionCount_PerParticle; docs/player.md "Emitters bound
    # to particles"): a bound subemitter reads the emission records its source's particles
    # write into a hidden *channel* record of the system; the channel's fields:
    channel: "Emitter | None" = None                  # a bound subemitter's channel
    channel_of: "Emitter | None" = None               # a channel's bound subemitter
    channel_rate: tuple = (0.0, 0.0)                  # RatePerParticle, its variance (particles/s)
    per_event: int = 1                                # Emission.ParticlesPerEvent (a spawn frame's mapping)
    basis: str = "Emitter"                            # Emission.EmissionBasis of a subemitter
    space: np.ndarray | None = None                   # ParticleEmitter.Space: its particles' space ->
                                                      # the system's simulation space (None: the same)
    space_kind: str = ""                              # "Local" or "World": where its particles are kept
    history: int = 0                                  # positions kept per particle (trails), 0: none
    lod: float = 1.0                                  # emission LOD factor of the coming steps (gpu/lod.py)

    @property
    def path(self) -> str:
        if self.channel_of is not None:
            return self.channel_of.item.path + "#bound"
        return self.item.path

    @property
    def particles(self):
        """storage.ParticleData: `bind_to_storage_buffer()` for drawing, `read`/`write` records."""
        return self.buffers.particles

    @property
    def live(self):
        """storage.LiveList: buffer + offset of its slots, header_buffer + offsets of the count."""
        return self.buffers.live

    @property
    def capacity(self) -> int:
        return self.buffers.capacity if self.buffers is not None else 0

    @property
    def simulation_to_world(self) -> np.ndarray:
        """Where its stored particles are: its space (ParticleEmitter.Space) -> the world."""
        if self.space is not None:
            return self.system.simulation_to_world @ self.space
        return self.system.simulation_to_world

    @property
    def history_newest(self) -> int:
        """The ring entry of its position history the last step wrote (the step numbered s
        writes entry s mod N, s counted in 32 bits as the GPU does, over the steps really run:
        a frame's dropped steps leave the ring alone)."""
        n = self.buffers.history_length if self.buffers is not None else 0
        return ((self.system.runs - 1) & 0xFFFFFFFF) % n if n else 0


@dataclass(eq=False)
class Affector:
    item: object
    material: Material | None = None
    transform: np.ndarray = field(default_factory=lambda: np.eye(4))   # affector -> simulation
    visible: bool = True


@dataclass(eq=False)
class Collider:
    """A ParticleCollider: its material and the collider -> simulation transform."""
    item: object
    material: Material | None = None
    transform: np.ndarray = field(default_factory=lambda: np.eye(4))
    visible: bool = True
    mesh_block: object = None                         # Collider_Mesh: its tree (kzplayer.gpu.mesh_data)


@dataclass(eq=False)
class System:
    """A ParticleSystem: its emitters (in dependency order), affectors and colliders (tree
    order), clock."""
    item: object
    emitters: list[Emitter] = field(default_factory=list)
    affectors: list[Affector] = field(default_factory=list)       # its own and the global ones
    own_affectors: set = field(default_factory=set)                 # ids of its member affector items
    colliders: list[Collider] = field(default_factory=list)
    channels: list[Emitter] = field(default_factory=list)          # bound subemitters' channels
    framerate: float = 60.0
    verlet: bool = False
    local_space: bool = False
    simulation_to_world: np.ndarray = field(default_factory=lambda: np.eye(4))
    world_to_simulation: np.ndarray = field(default_factory=lambda: np.eye(4))
    node_world: np.ndarray = field(default_factory=lambda: np.eye(4))      # the system node's world matrix
    steps: int = 0
    runs: int = 0               # steps really run: `steps` also counts those a frame over budget dropped
    clock: float = 0.0          # frame time handed to this system, in steps (may be fractional)
    visible: bool = True        # a hidden system is frozen: its clock stops too

    @property
    def step_length(self) -> float:
        return 1.0 / self.framerate

    @property
    def members(self) -> list[Emitter]:
        """What the system's buffers and programs hold: its emitters (dependency order), then
        the channels of its bound subemitters."""
        return self.emitters + self.channels
