"""The words a system's programs read from their uniform blocks (Particles/common.glsl):

    frame     KzFrame: the step's constants and where the scratch words are (per step)
    table     KzTable: 44 words per emitter: its range, seed, number, flags, level, sources,
              variants and their parameter and per-step bases, its transform, its position
              history (first entry, length) and its emission LOD factor
    params    KzParams: every node's parameter words (generate.Instance.param_base):
              an affector's enabled flag and transform, a collider's enabled flag, then the
              node's uniforms (property values, else the GLSL initializer)

The table and the parameters change only when a property does (Simulation.set_value): one
buffer write each then; the frame block is one write per step.
"""
from __future__ import annotations

import numpy as np

from kzplayer.gpu import layout as L
from kzplayer.gpu.glsl import PARAM_TYPES
from kzplayer.gpu.materials import components_words, param_words, property_of

EMITTER_WORDS = 44
E_FIELDS = {"first": 0, "capacity": 1, "seed": 2, "number": 3, "flags": 4, "level": 5, "source": 6,
            "particle_source": 7, "event_base": 8, "first_group": 9, "groups": 10, "first_run": 11, "runs": 12,
            "self": 13, "events": 14, "count": 15, "emission": 16, "self_params": 17, "events_params": 18,
            "count_params": 19, "emission_params": 20, "self_derived": 21, "events_derived": 22, "per_event": 23,
            "transform": 24, "channel_rate": 24, "channel_variance": 25, "history_base": 40, "history": 41,
            "lod": 42, "space": 43}
LOD_WORD = E_FIELDS["lod"]
EF_RUNS, EF_SOURCE_EVENTS, EF_SOURCE_PARTICLES, EF_EVENTS = 1, 2, 4, 8
EF_NO_COLLIDE, EF_DIE_ON_HIT = 16, 32
EF_HOST = {"birth": 64, "death": 128, "hit": 256}   # the host listens to these (kzplayer.gpu.host_events)
EF_SPAWN_FRAME = 512        # a subemitter spawning in a frame at its event (bound to particles, or a basis)
EF_BASIS_SHIFT = 10         # 2 bits: Emission.EmissionBasis (BASES)
BASES = ("Emitter", "World", "System", "ParentVelocity")
NONE = 0xFFFFFFFF
FRAME_WORDS = 40


def _matrix_words(m) -> list[int]:
    """A 4x4 (or 3x3) numpy matrix, column-major, as float32 words."""
    return [int(w) for w in np.asarray(m, np.float32).T.reshape(-1).view(np.uint32)]


def table_words(emitters, layout, code, runs) -> np.ndarray:
    """KzTable for a system's emitters (dependency order); `runs(em)`: takes part in the step."""
    index = {id(em): k for k, em in enumerate(emitters)}
    words = np.zeros(max(len(emitters), 1) * EMITTER_WORDS, np.uint32)
    for k, em in enumerate(emitters):
        r = layout.ranges[k]
        row = words[k * EMITTER_WORDS:(k + 1) * EMITTER_WORDS]
        flags = 0
        if runs(em):
            flags |= EF_RUNS
        if em.source is not None and runs(em.source):
            flags |= EF_SOURCE_EVENTS
        if em.particle_source is not None and runs(em.particle_source):
            flags |= EF_SOURCE_PARTICLES
        if em.events is not None:
            flags |= EF_EVENTS
        if em.ignore_colliders:
            flags |= EF_NO_COLLIDE
        if em.destroy_on_collision:
            flags |= EF_DIE_ON_HIT
        for kind in em.host_kinds:
            flags |= EF_HOST[kind]
        channel = em.channel_of is not None
        if channel:
            flags |= EF_EVENTS          # its records are ordered like an Event Buffer's
        basis = BASES.index(em.basis) if em.basis in BASES else 0
        spawn_frame = em.source is not None and (em.channel is not None or basis != 0)
        if spawn_frame:
            flags |= EF_SPAWN_FRAME | (basis << EF_BASIS_SHIFT)
        values = {"first": r.first, "capacity": r.capacity, "seed": em.seed & 0xFFFFFFFF, "number": em.index,
                  "flags": flags, "level": em.level,
                  "source": index.get(id(em.source), NONE) if em.source is not None else NONE,
                  "particle_source": index.get(id(em.particle_source), NONE) if em.particle_source is not None else NONE,
                  "event_base": r.event_base, "first_group": r.first_group, "groups": r.groups,
                  "first_run": r.first_run, "runs": r.runs,
                  "history_base": r.history_base, "history": r.history, "lod": lod_word(getattr(em, "lod", 1.0))}
        for kind in ("self", "events", "count", "emission"):
            inst = code.emitter_instances.get((em, kind))
            values[kind] = inst.variant.case if inst is not None else 0
            values[f"{kind}_params"] = inst.param_base if inst is not None else 0
            if kind in ("self", "events"):
                values[f"{kind}_derived"] = inst.derived_base if inst is not None else 0
        values["per_event"] = max(int(em.per_event), 1)
        values["space"] = code.space_bases.get(id(em), NONE)
        for name, value in values.items():
            row[E_FIELDS[name]] = value
        if channel:                     # a channel emits nothing: its transform words hold its rate
            row[E_FIELDS["channel_rate"]:E_FIELDS["channel_rate"] + 2] = np.asarray(em.channel_rate, np.float32).view(np.uint32)
        else:
            row[E_FIELDS["transform"]:E_FIELDS["transform"] + 16] = _matrix_words(
                _spawn_axes(em, BASES[basis]) if spawn_frame else em.transform)
    return words


def _spawn_axes(em, basis: str) -> np.ndarray:
    """The transform a spawn-frame subemitter's table row holds: its node's position (where
    it spawns without events) and the axes of its emission basis in simulation space (NeL's
    three choices, and the node's own): Emitter, the node's axes (scale included); World,
    the world's; System, the ParticleSystem node's (unit length); ParentVelocity is built on
    the GPU from each parent's velocity (these axes are its fallback for a parent at rest)."""
    m = np.array(em.transform, np.float64)
    if basis == "Emitter":
        return m
    system = em.system
    if basis == "System":
        axes = (system.world_to_simulation @ system.node_world)[:3, :3]
    else:                               # World, and ParentVelocity's fallback
        axes = system.world_to_simulation[:3, :3]
    norms = np.linalg.norm(axes, axis=0)
    m[:3, :3] = axes / np.where(norms > 0, norms, 1.0)
    return m


def lod_word(factor: float) -> int:
    """The emission LOD factor (kzplayer.gpu.lod) as the float32 word the count pass reads."""
    return int(np.asarray([factor], np.float32).view(np.uint32)[0])


def parameter_words(code, value, known) -> np.ndarray:
    """KzParams for every node instance of a system. `value(item, property)` reads a property
    after bindings (None when unknown); `known(property)`: a property of the catalog."""
    words = np.zeros(max(code.param_words, 4), np.uint32)
    for inst in code.instances:
        out = instance_words(inst, value, known)
        words[inst.param_base:inst.param_base + len(out)] = out
    for em in code.spaced:              # an emitter's own space: particle -> system space, and back
        b = code.space_bases[id(em)]
        words[b:b + 16] = _matrix_words(em.space)
        words[b + 16:b + 32] = _matrix_words(np.linalg.inv(em.space))
    return words


def instance_words(inst, value, known) -> list[int]:
    """One node instance's parameter words (parameter_words' part for `inst`)."""
    v, owner = inst.variant, inst.owner
    out = []
    if v.kind == "affector":
        out = [1 if owner.visible else 0] + _matrix_words(owner.transform)
    elif v.kind == "collider":
        out = [1 if owner.visible else 0]
    special = _special(v.kind, owner)
    for u in v.uniforms:
        got = None
        if u.name in special:
            got = components_words(special[u.name], u.type)
        else:
            prop = property_of(u.name, v.material, known)
            if prop is not None:
                got = param_words(value(owner.item, prop), u.type)
        if got is None and u.default is not None:
            got = components_words(u.default, u.type)
        out += got if got is not None else [0] * _words(u.type)
    assert len(out) == v.words, (v.material.name, len(out), v.words)
    return out


def _words(glsl_type: str) -> int:
    return PARAM_TYPES[glsl_type]


def _special(kind: str, owner) -> dict:
    """The kz_ uniforms the simulation fills itself: a collider's transforms
    (Particles/collider_stage.glsl), a mesh node's place in the system's mesh data
    (Particles/mesh_data.glsl: kz_meshBase and the block's counts)."""
    out = {}
    block = getattr(owner, "mesh_block", None)
    if block is not None and kind in ("collider", "emission"):
        out["kz_meshBase"] = (block.base,)
        out.update({name: value if isinstance(value, tuple) else (value,) for name, value in block.words.items()})
    if kind != "collider":
        return out
    inverse = np.linalg.inv(owner.transform)
    normal = np.asarray(inverse, np.float32)[:3, :3].T      # the inverse transpose, for normals
    out.update({"kz_colliderInverse": tuple(np.asarray(inverse, np.float32).T.reshape(-1)),
                "kz_colliderNormal": tuple(normal.T.reshape(-1))})
    return out


def frame_words(layout, *, dt: float, time: float, step: int, world_to_simulation, history_step: int | None = None) -> bytes:
    """KzFrame (std140: 22 scalars, then, 16-aligned, a mat3 as three 16-byte columns, then
    the host events' count word, first record and capacity). `history_step`: the steps
    run before this one (the history ring's clock; `step` also counts dropped steps)."""
    w, s = layout.words, layout.schedule
    words = np.zeros(FRAME_WORDS, np.uint32)
    words[0:2] = np.asarray([dt, time], np.float32).view(np.uint32)
    words[2:22] = [step & 0xFFFFFFFF, len(layout.capacities), layout.slots, layout.runs, layout.groups,
                   w["headers"], w["live"], s["plan_emit"], s["plan_step"], s["plan_move"], s["step_counts"],
                   s["derived"], w["alive"], w["death"], w["writer"], w["group"], w["run"],
                   max(layout.slots, L.WORKGROUP_SIZE), s["rebuild"], s["end_args"]]
    words[22] = (step if history_step is None else history_step) & 0xFFFFFFFF
    m = np.asarray(world_to_simulation, np.float32)[:3, :3]
    for c in range(3):
        words[24 + 4 * c:27 + 4 * c] = m[:, c].view(np.uint32)
    words[36:39] = [w["host"], layout.host_base, layout.host_events]
    return words.tobytes()
