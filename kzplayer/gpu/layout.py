"""The std430 structs the compute shaders share, and their numpy dtype twins.

Each dtype below mirrors a struct of `shaders/Particles/particle_data.glsl` field by field,
with the std430 pads spelled out (a vec3 is aligned to 16 bytes, so each vec3 is followed
by one 4-byte scalar that fills its fourth lane). tests/gpu/test_layout.py writes known
values into every field from a compute shader and reads them back through these dtypes,
which proves the offsets, not only the sizes.

The particle record is split in two (docs/player.md, Buffers): `HOT_DTYPE`, the 64 bytes
every step reads and writes (one cache line), and `COLD_DTYPE`, the 80 bytes that only
emission, some materials and drawing touch. `PARTICLE_DTYPE` is the whole record as the
Python side sees it (read_particles, dumps, writing a pool): `join` and `split` convert.

Vectors are in simulation space: world space, or the particle system's own space when
`ParticleSystem.LocalSpace` is true (see docs/player.md).
"""
from __future__ import annotations

import numpy as np

# Particle.flags bits (FLAG_* defines in particle_data.glsl).
FLAG_ALIVE = 1 << 0    # the slot holds a live particle
FLAG_BORN = 1 << 1     # spawned during the current step
FLAG_HIT = 1 << 2      # a collider hit it during the current step
FLAG_KILL = 1 << 3     # marked for death this step (KillZone, collider); reaped in the kill pass

# struct Particle: the hot part of a pool slot, 64 bytes (4 texels of the rgba32ui view).
HOT_DTYPE = np.dtype([
    ("position", "<f4", 3),          # 0    metres
    ("age", "<f4"),                  # 12   seconds since spawn
    ("previous_position", "<f4", 3), # 16   position one step ago (Verlet, swept collisions)
    ("lifetime", "<f4"),             # 28   seconds; killed when age >= lifetime
    ("velocity", "<f4", 3),          # 32   m/s
    ("mass", "<f4"),                 # 44   Density x scale.x*scale.y*scale.z
    ("acceleration", "<f4", 3),      # 48   accumulator: zeroed before affectors, m/s^2
    ("flags", "<u4"),                # 60   FLAG_* bits
])
assert HOT_DTYPE.itemsize == 64

# struct ParticleCold: the cold part of a pool slot, 80 bytes (5 texels).
COLD_DTYPE = np.dtype([
    ("scale", "<f4", 3),             # 0
    ("hash", "<u4"),                 # 12   fixed random word per particle (getParticleHash)
    ("rotation_origin", "<f4", 3),   # 16   rotation at age 0: the rotation is this + angular_velocity * age
    ("time_scale", "<f4"),           # 28   dt multiplier of the last step (TimeDilation)
    ("angular_velocity", "<f4", 3),  # 32   rad/s around X, Y, Z
    ("serial", "<u4"),               # 44   n-th particle this emitter spawned (stable order)
    ("color", "<f4", 4),             # 48   RGBA, (1,1,1,1) at spawn
    ("custom", "<f4", 4),            # 64   free for custom materials, zero at spawn
])
assert COLD_DTYPE.itemsize == 80

# The whole particle as Python sees it (not a GPU struct): hot + cold, the rotation current.
PARTICLE_DTYPE = np.dtype([
    ("position", "<f4", 3),
    ("age", "<f4"),
    ("previous_position", "<f4", 3),
    ("lifetime", "<f4"),
    ("velocity", "<f4", 3),
    ("mass", "<f4"),
    ("acceleration", "<f4", 3),
    ("hash", "<u4"),
    ("scale", "<f4", 3),
    ("flags", "<u4"),
    ("rotation", "<f4", 3),          # Euler radians around X, Y, Z (now: origin + spin x age)
    ("time_scale", "<f4"),
    ("angular_velocity", "<f4", 3),
    ("serial", "<u4"),
    ("color", "<f4", 4),
    ("custom", "<f4", 4),
])
assert PARTICLE_DTYPE.itemsize == 144

# struct EmitterState: one per emitter. The first three words are the emit pass's
# indirect arguments of the pipeline before v2; they now hold this emitter's share of them.
EMITTER_STATE_DTYPE = np.dtype([
    ("groups", "<u4", 3),            # 0    workgroups of this step's emission
    ("count", "<u4"),                # 12   particles to emit this step (clamped to free slots)
    ("requested", "<u4"),            # 16   what the count material asked for this step
    ("emit_base", "<u4"),            # 20   free-stack top before this step's emission
    ("free_count", "<u4"),           # 24   slots on the free stack
    ("capacity", "<u4"),             # 28   pool size (ParticleEmitter.MaximumAmount)
    ("total_emitted", "<u4"),        # 32   running totals; stats are their differences
    ("total_died", "<u4"),           # 36
    ("total_stalled", "<u4"),        # 40   particles asked for but refused by a full pool
    ("step", "<u4"),                 # 44   steps this emitter has run (randomness counter)
    ("cycle", "<u4"),                # 48   Schedule cycle index (impulse variance counter)
    ("started", "<u4"),              # 52   0 until the first step ran (first-frame impulse)
    ("total_hits", "<u4"),           # 56   particle-steps with a collider hit (one per particle and step)
    ("_pad0", "<u4"),                # 60   align the doubles to 8
    ("carry", "<f8"),                # 64   fractional particles carried to the next step
    ("cycle_timer", "<f8"),          # 72   seconds into the current on/off cycle
    ("user", "<f4", 4),              # 80   free for custom count materials
])
assert EMITTER_STATE_DTYPE.itemsize == 96

# The Event Buffer: a header (in the system's control buffer, beside the states), and
# `capacity` records (this step's, in slot order) followed by `capacity` staging records
# where the writers append by atomics before the ordering passes move them (docs/player.md,
# Events). Overflow drops and counts.
EVENT_HEADER_DTYPE = np.dtype([
    ("count", "<u4"),                # 0    records written this step (<= capacity)
    ("capacity", "<u4"),             # 4    records that fit (ParticleEmitter.MaximumAmount)
    ("dropped", "<u4"),              # 8    events refused this step because the buffer was full
    ("_pad0", "<u4"),                # 12
    ("total_written", "<u4"),        # 16   running totals (stats are their differences)
    ("total_dropped", "<u4"),        # 20
    ("_pad1", "<u4", 2),             # 24   records start 16-aligned
])
assert EVENT_HEADER_DTYPE.itemsize == 32

# Event kinds (EVENT_* defines).
EVENT_LIFETIME = 1      # death at end of life (or Event_Lifetime window)
EVENT_COLLISION = 2
EVENT_VELOCITY = 3
EVENT_ACCELERATION = 4
EVENT_AGE = 5
EVENT_INTERVAL = 6

EVENT_RECORD_DTYPE = np.dtype([
    ("kind", "<u4"),                 # 0    EVENT_*
    ("particle", "<u4"),             # 4    source pool slot (of its emitter)
    ("hash", "<u4"),                 # 8    source particle's hash
    ("age", "<f4"),                  # 12   source age at the event
    ("position", "<f4", 3),          # 16   hit position for collisions, else particle position
    ("lifetime", "<f4"),             # 28   source lifetime
    ("normal", "<f4", 3),            # 32   collision normal, else normalize(velocity)
    ("_staged_slot", "<u4"),         # 44   0 (the writer's slot while staged, see below)
    ("velocity", "<f4", 3),          # 48   source velocity at the event
    ("_staged_rank", "<u4"),         # 60   0 (its number among that slot's records)
])
assert EVENT_RECORD_DTYPE.itemsize == 64

# struct ParticleTrack: one per pool slot beside the particle, what the collider and event
# stages remember of it: this step's hit (valid while FLAG_HIT is set) and the event
# generators' sweep memory (valid while `serial` equals the slot's particle serial).
TRACK_DTYPE = np.dtype([
    ("hit_position", "<f4", 3),      # 0    where the swept path met the collider, simulation space
    ("hit_speed", "<f4"),            # 12   speed just before the hit
    ("hit_normal", "<f4", 3),        # 16   unit surface normal, pointing to the free side
    ("event_base", "<u4"),           # 28   this step's records' first place among their run's records
    ("serial", "<u4"),               # 32   serial of the particle the event memory belongs to
    ("cycle", "<u4"),                # 36   Event_Periodic: last interval index that fired
    ("events", "<u4"),               # 40   records the slot kept in this step's Event Buffer
    ("last_age", "<f4"),             # 44   the particle's age when the events stage last ran
])
assert TRACK_DTYPE.itemsize == 48

# struct LiveHeader: one per emitter, the count of its live list (the pool slots holding
# live particles, ascending) with indirect dispatch and draw arguments (docs/player.md,
# "The live list"). Rebuilt on the GPU at the end of every step.
LIVE_HEADER_DTYPE = np.dtype([
    ("count", "<u4"),                # 0    live particles = entries of the live list
    ("dispatch", "<u4", 3),          # 4    glDispatchComputeIndirect: (ceil(count / 64), 1, 1)
    ("draw", "<u4", 4),              # 16   glDrawArraysIndirect: (4 vertices, count instances, 0, 0)
])
assert LIVE_HEADER_DTYPE.itemsize == 32

# One entry of an emitter's position history (docs/player.md, "Position history"): N per
# slot, a ring the step writes at entry (step mod N); 16 bytes, one texel.
HISTORY_DTYPE = np.dtype([
    ("position", "<f4", 3),          # 0    simulation space, after this step's colliders
    ("age", "<f4"),                  # 12   the particle's age when written
])
assert HISTORY_DTYPE.itemsize == 16
MAX_HISTORY = 64            # positions per particle at most

# Binding points of the shader storage blocks (BINDING_* defines). A simulation program
# sees its system's buffers whole; a drawing program one emitter's ranges.
BINDING_PARTICLES = 0       # Particle (hot) per slot
BINDING_COLD = 1            # ParticleCold per slot
BINDING_CONTROL = 2         # EmitterState[E], EventHeader[E], LiveHeader[E], then scratch words
BINDING_EVENTS = 3          # every emitter's event records and staging records
BINDING_TRACKS = 4          # ParticleTrack per slot
BINDING_SLOTS = 5           # live lists, then free stacks (uint per slot)
BINDING_PARAMS_SSBO = 6     # the parameter words when they outgrow a uniform block
BINDING_SCHEDULE = 7        # plans, walk counts, per-step constants (written here, read as KzSchedule)
# The position history is an image (IMAGE_HISTORY) wherever texel buffers are: GL 4.3
# promises a compute program 8 storage blocks, all taken above. Without texel buffers it
# is a storage block at the parameters' binding, which such a system keeps in its
# uniform block (a system too big for one is refused: frame.py).
BINDING_HISTORY_SSBO = 6

# Uniform blocks (UNIFORM_* defines): the step's constants, the system's emitter table and
# the program's node parameters, each written with one buffer write.
UNIFORM_FRAME = 0
UNIFORM_TABLE = 1
UNIFORM_PARAMS = 2
UNIFORM_SCHEDULE = 3

# Image units of the rgba32ui / r32ui texel-buffer views of the same buffers (IMAGE_*).
IMAGE_HOT = 0
IMAGE_COLD = 1
IMAGE_TRACKS = 2
IMAGE_EVENTS = 3
IMAGE_CONTROL = 4
IMAGE_SLOTS = 5
IMAGE_SCHEDULE = 6
IMAGE_HISTORY = 7           # the eighth and last image unit GL 4.3 promises

WORKGROUP_SIZE = 64
GROUPS_PER_RUN = 64         # the scans' second level: a run is 64 groups of 64 slots

# Texels (16 bytes) per record in the texel-buffer views.
HOT_TEXELS = HOT_DTYPE.itemsize // 16
COLD_TEXELS = COLD_DTYPE.itemsize // 16
TRACK_TEXELS = TRACK_DTYPE.itemsize // 16
EVENT_TEXELS = EVENT_RECORD_DTYPE.itemsize // 16

STATE_WORDS = EMITTER_STATE_DTYPE.itemsize // 4
HEADER_WORDS = EVENT_HEADER_DTYPE.itemsize // 4
LIVE_WORDS = LIVE_HEADER_DTYPE.itemsize // 4


def split(records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PARTICLE_DTYPE records -> (HOT_DTYPE, COLD_DTYPE) arrays; the rotation is stored as
    its origin, rotation - angular_velocity * age (float32, as the shaders compute it)."""
    hot = np.zeros(len(records), HOT_DTYPE)
    cold = np.zeros(len(records), COLD_DTYPE)
    for name in HOT_DTYPE.names:
        hot[name] = records[name]
    for name in COLD_DTYPE.names:
        if name != "rotation_origin":
            cold[name] = records[name]
    age = records["age"].astype(np.float32)[:, None]
    cold["rotation_origin"] = records["rotation"] - records["angular_velocity"] * age
    return hot, cold


def join(hot: np.ndarray, cold: np.ndarray) -> np.ndarray:
    """(HOT_DTYPE, COLD_DTYPE) arrays -> PARTICLE_DTYPE records with the current rotation."""
    records = np.zeros(len(hot), PARTICLE_DTYPE)
    for name in HOT_DTYPE.names:
        records[name] = hot[name]
    for name in COLD_DTYPE.names:
        if name != "rotation_origin":
            records[name] = cold[name]
    age = hot["age"].astype(np.float32)[:, None]
    records["rotation"] = cold["rotation_origin"] + cold["angular_velocity"] * age
    return records


def alive(records: np.ndarray, next_serial: int = 0) -> np.ndarray:
    """The live records of a PARTICLE_DTYPE array, in spawn order. Serials are 32-bit and
    wrap after 4,294,967,296 spawns (70 minutes at a million a second), so the order is by
    distance from `next_serial` (the emitter's `total_emitted`, the serial of its next
    spawn), which is the spawn order while fewer than 2^32 serials separate the live ones
    (a pool holds at most a few million)."""
    return records[alive_slots(records, next_serial)]


def alive_slots(records: np.ndarray, next_serial: int = 0) -> np.ndarray:
    """The slots of the live records, in spawn order (see `alive`)."""
    slots = np.flatnonzero((records["flags"] & FLAG_ALIVE) != 0)
    key = (records["serial"][slots].astype(np.int64) - int(next_serial)) % (1 << 32)
    return slots[np.argsort(key, kind="stable")]
