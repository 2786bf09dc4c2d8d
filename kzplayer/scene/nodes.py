"""The scene's records of the project's running nodes: one per ParticleSystem,
ParticleEmitter, ParticleAffector and ParticleCollider, holding what their properties say as
they play (materials, transforms, visibility, spaces, pool asked for). No GL: the GPU's
buffers for them are kzplayer.gpu.nodes, which points at these."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kzplayer.scene.materials import Material


def _eye():
    return np.eye(4)


@dataclass(eq=False)
class SceneEmitter:
    """A ParticleEmitter as it plays; or a *channel*, the hidden record a bound subemitter
    (EmissionCount_PerParticle) reads its source's emission records from (docs/player.md,
    "Emitters bound to particles")."""
    item: object
    index: int                                        # its number over the project, tree order
    system: "SceneSystem"
    count: Material | None = None
    emission: Material | None = None
    self_affect: Material | None = None
    events: Material | None = None                    # GenerateEventsMaterial
    source: "SceneEmitter | None" = None              # whose Event Buffer feeds this subemitter
    particle_source: "SceneEmitter | None" = None     # whose Particle Data Buffer it reads
    level: int = 0                                    # 0, or its source's level + 1
    pool: int = 0                                     # ParticleEmitter.MaximumAmount (the GPU caps it)
    seed: int = 0
    transform: np.ndarray = field(default_factory=_eye)   # emitter -> simulation
    visible: bool = True                              # Node.Visible of it and its ancestors
    ignore_colliders: bool = False                    # NeL's located flags: "don't collide"
    destroy_on_collision: bool = False                #   and "destroyed on collision"
    channel: "SceneEmitter | None" = None             # a bound subemitter's channel
    channel_of: "SceneEmitter | None" = None          # a channel's bound subemitter
    channel_rate: tuple = (0.0, 0.0)                  # RatePerParticle, its variance (particles/s)
    per_event: int = 1                                # Emission.ParticlesPerEvent
    basis: str = "Emitter"                            # Emission.EmissionBasis of a subemitter
    space: np.ndarray | None = None                   # its particles' space -> simulation space (None: same)
    space_kind: str = ""                              # "Local" or "World": where its particles are kept

    @property
    def path(self) -> str:
        if self.channel_of is not None:
            return self.channel_of.item.path + "#bound"
        return self.item.path


@dataclass(eq=False)
class SceneAffector:
    item: object
    material: Material | None = None
    transform: np.ndarray = field(default_factory=_eye)   # affector -> simulation
    visible: bool = True


@dataclass(eq=False)
class SceneCollider:
    """A ParticleCollider: its material and the collider -> simulation transform."""
    item: object
    material: Material | None = None
    transform: np.ndarray = field(default_factory=_eye)
    visible: bool = True


@dataclass(eq=False)
class SceneSystem:
    """A ParticleSystem: its emitters (in dependency order), affectors (its own and the
    global ones, tree order), colliders (tree order) and its bound subemitters' channels."""
    item: object
    emitters: list[SceneEmitter] = field(default_factory=list)
    affectors: list[SceneAffector] = field(default_factory=list)
    own_affectors: set = field(default_factory=set)                 # ids of its member affector items
    colliders: list[SceneCollider] = field(default_factory=list)
    channels: list[SceneEmitter] = field(default_factory=list)
    framerate: float = 60.0
    verlet: bool = False
    local_space: bool = False
    visible: bool = True        # a hidden system is frozen
    simulation_to_world: np.ndarray = field(default_factory=_eye)
    world_to_simulation: np.ndarray = field(default_factory=_eye)
    node_world: np.ndarray = field(default_factory=_eye)           # the system node's world matrix

    @property
    def step_length(self) -> float:
        return 1.0 / self.framerate

    @property
    def members(self) -> list[SceneEmitter]:
        """What the system's buffers and programs hold: its emitters, then its channels."""
        return self.emitters + self.channels


def emitter_space(space: str, system: SceneSystem) -> np.ndarray | None:
    """ParticleEmitter.Space as the matrix from its particles' space to the system's
    simulation space: World in a local-space system, Local (the system's basis) in a
    world-space one; None when they are the same space."""
    if space == "World" and system.local_space:
        m = np.linalg.inv(system.node_world)
    elif space == "Local" and not system.local_space:
        m = np.array(system.node_world, np.float64)
    else:
        return None
    return None if np.allclose(m, np.eye(4), atol=0, rtol=0) else m
