"""What a ParticleSystem's generated programs need to know, as plain data.

kzplayer.gpu.generate writes a system's programs from a ProgramSpec alone: its emitters in
dependency order with the material of each slot, its affectors and colliders in tree order,
and the switches of the build (integrator, image io, walk, host events, the driver's block
sizes). `system_spec` is the one place that reads them off the simulation's node records
(kzplayer.gpu.nodes); `validate`'s compile check (kzplayer.gpu.check) builds one itself.

Each node carries an `owner`: the handle of the record it was read from, never looked into
by the generator, handed back in its Instance (kzplayer.gpu.variants) so the parameter words
(kzplayer.gpu.params) can be read for it. It takes no part in comparisons.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kzplayer.gpu.materials import Material


@dataclass(frozen=True)
class EmitterSpec:
    """One emitter (or a bound subemitter's channel) as its system's programs see it."""
    name: str                                  # its node path (comments in the generated text)
    level: int = 0                             # subemitter level: 0, or its source's + 1
    count: Material | None = None              # EmissionCountMaterial
    emission: Material | None = None           # EmissionMaterial
    self_affect: Material | None = None        # SelfAffectMaterial
    events: Material | None = None             # GenerateEventsMaterial
    spaced: bool = False                       # its particles live in a space of their own
    history: int = 0                           # positions kept per particle (trails), 0: none
    channel: bool = False                      # a bound subemitter's channel (ordered like events)
    bound_source: int | None = None            # a channel: the emitter whose particles feed it
    owner: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class NodeSpec:
    """An affector or a collider: its node path and its material."""
    name: str
    material: Material | None = None
    owner: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ProgramSpec:
    """A system's programs' input (see the module docstring)."""
    name: str                                  # the system, as messages name it
    emitters: tuple[EmitterSpec, ...] = ()
    affectors: tuple[NodeSpec, ...] = ()
    colliders: tuple[NodeSpec, ...] = ()
    verlet: bool = False                       # ParticleSystem.IntegrationMethod
    image_io: bool = True                      # particles read and written as images
    full_walk: bool = False                    # the step walks every slot, not the live lists
    host_events: bool = False                  # some emitter's births, deaths or hits go to the host
    history_image: bool = True                 # the position history as an image (texel buffers)
    table_vec4s: int = 1024                    # the driver's uniform block, in vec4s: the emitter table
    params_limit_vec4s: int = 4096             #   and the parameters


def system_spec(system, *, image_io: bool, table_vec4s: int, params_limit_vec4s: int, full_walk: bool,
                host_events: bool, history_image: bool) -> ProgramSpec:
    """The ProgramSpec of a kzplayer.gpu.nodes.System record (its members: emitters, then
    channels)."""
    index = {id(em): k for k, em in enumerate(system.members)}

    def emitter(em) -> EmitterSpec:
        channel = em.channel_of is not None
        source = index.get(id(em.particle_source)) if channel and em.particle_source is not None else None
        return EmitterSpec(em.path, em.level, em.count, em.emission, em.self_affect, em.events,
                           spaced=em.space is not None, history=int(em.history), channel=channel,
                           bound_source=source, owner=em)

    return ProgramSpec(f"'{system.item.path}'", tuple(emitter(em) for em in system.members),
                       tuple(NodeSpec(a.item.path, a.material, owner=a) for a in system.affectors),
                       tuple(NodeSpec(c.item.path, c.material, owner=c) for c in system.colliders),
                       verlet=system.verlet, image_io=image_io, full_walk=full_walk, host_events=host_events,
                       history_image=history_image, table_vec4s=table_vec4s, params_limit_vec4s=params_limit_vec4s)


__all__ = ["EmitterSpec", "NodeSpec", "ProgramSpec", "system_spec"]
