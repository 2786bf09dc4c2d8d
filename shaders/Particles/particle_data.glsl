// The std430 structs shared by every particle shader, and the binding points.
// Twin of kzplayer/gpu/layout.py (HOT_DTYPE, COLD_DTYPE, EMITTER_STATE_DTYPE, EVENT_*_DTYPE,
// TRACK_DTYPE, LIVE_HEADER_DTYPE): change both together; tests/gpu/test_layout.py checks every
// field's offset. Each vec3 is followed by a scalar that fills its fourth lane (std430
// aligns vec3 to 16), so every struct is also a whole number of 16-byte texels.

#define FLAG_ALIVE 1u
#define FLAG_BORN  2u
#define FLAG_HIT   4u
#define FLAG_KILL  8u

#define EVENT_LIFETIME     1u
#define EVENT_COLLISION    2u
#define EVENT_VELOCITY     3u
#define EVENT_ACCELERATION 4u
#define EVENT_AGE          5u
#define EVENT_INTERVAL     6u
#define EVENT_EMISSION     7u   // a particle's emission of one child of a bound subemitter

#define BINDING_PARTICLES   0
#define BINDING_COLD        1
#define BINDING_CONTROL     2
#define BINDING_EVENTS      3
#define BINDING_TRACKS      4
#define BINDING_SLOTS       5
#define BINDING_PARAMS_SSBO 6
#define BINDING_SCHEDULE    7
#define BINDING_HISTORY_SSBO 6      // without texel buffers only (layout.py)

#define UNIFORM_FRAME  0
#define UNIFORM_TABLE  1
#define UNIFORM_PARAMS 2
#define UNIFORM_SCHEDULE 3

#define IMAGE_HOT     0
#define IMAGE_COLD    1
#define IMAGE_TRACKS  2
#define IMAGE_EVENTS  3
#define IMAGE_CONTROL 4
#define IMAGE_SLOTS   5
#define IMAGE_SCHEDULE 6
#define IMAGE_HISTORY 7

#define WORKGROUP_SIZE 64
#define GROUPS_PER_RUN 64

// The hot part of a pool slot: what every step reads and writes, one 64-byte cache line.
struct Particle {               // 64 bytes
    vec3  position;             // 0    metres, simulation space
    float age;                  // 12   seconds since spawn
    vec3  previousPosition;     // 16   position one step ago
    float lifetime;             // 28   seconds
    vec3  velocity;             // 32   m/s
    float mass;                 // 44   Density * scale.x * scale.y * scale.z
    vec3  acceleration;         // 48   accumulator, zeroed before the affectors
    uint  flags;                // 60   FLAG_*
};

// The cold part: set at emission, read by drawing and by the materials that ask for it.
struct ParticleCold {           // 80 bytes
    vec3  scale;                // 0
    uint  hash;                 // 12   fixed per particle
    vec3  rotationOrigin;       // 16   Euler radians at age 0: rotation = origin + angularVelocity * age
    float timeScale;            // 28   dt multiplier of the last step (TimeDilation)
    vec3  angularVelocity;      // 32   rad/s
    uint  serial;               // 44   n-th particle of its emitter
    vec4  color;                // 48
    vec4  custom;               // 64
};

struct EmitterState {           // 96 bytes
    uint  groupsX;              // 0    workgroups of this step's emission
    uint  groupsY;              // 4
    uint  groupsZ;              // 8
    uint  count;                // 12   particles to emit this step
    uint  requested;            // 16   the count material's wish
    uint  emitBase;             // 20   free-stack top before this step's emission
    uint  freeCount;            // 24
    uint  capacity;             // 28
    uint  totalEmitted;         // 32
    uint  totalDied;            // 36
    uint  totalStalled;         // 40
    uint  step;                 // 44
    uint  cycle;                // 48
    uint  started;              // 52
    uint  totalHits;            // 56   particle-steps with a collider hit
    uint  _pad0;                // 60
    double carry;               // 64
    double cycleTimer;          // 72
    vec4  user;                 // 80
};

struct EventHeader {            // 32 bytes
    uint count;                 // 0   records written this step (<= capacity)
    uint capacity;              // 4
    uint dropped;               // 8   refused this step (buffer full)
    uint _pad0;                 // 12
    uint totalWritten;          // 16  running totals
    uint totalDropped;          // 20
    uint _pad1;                 // 24
    uint _pad2;                 // 28
};

struct ParticleEvent {          // 64 bytes
    uint  kind;                 // 0   EVENT_*
    uint  particle;             // 4   source pool slot (of its emitter)
    uint  hash;                 // 8
    float age;                  // 12
    vec3  position;             // 16
    float lifetime;             // 28
    vec3  normal;               // 32
    uint  stagedSlot;           // 44  0; while staged: the slot whose invocation wrote it
    vec3  velocity;             // 48
    uint  stagedRank;           // 60  0; while staged: its number among that slot's records
};

// Texel by texel: what a collider writes (0, 1: it need not read them), what the events
// stage keeps (2), so each writer stores whole texels.
struct ParticleTrack {          // 48 bytes, one per pool slot (collider and event stages)
    vec3  hitPosition;          // 0   this step's hit, valid while FLAG_HIT is set
    float hitSpeed;             // 12  speed just before the hit
    vec3  hitNormal;            // 16  unit, towards the free side
    uint  eventBase;            // 28  this step's records' first place among their run's records
    uint  serial;               // 32  owner of lastAge / cycle
    uint  cycle;                // 36  Event_Periodic: last interval index fired
    uint  events;               // 40  records this slot kept in this step's Event Buffer
    float lastAge;              // 44  age when the events stage last ran
};

// One per emitter: its live list's count, with indirect dispatch and draw arguments.
struct LiveHeader {             // 32 bytes
    uint count;                 // 0   entries of the live list (live particles)
    uint dispatchX;             // 4   glDispatchComputeIndirect: ceil(count / 64), 1, 1
    uint dispatchY;             // 8
    uint dispatchZ;             // 12
    uint drawVertices;          // 16  glDrawArraysIndirect: 4, count, 0, 0
    uint drawInstances;         // 20
    uint drawFirst;             // 24
    uint drawBaseInstance;      // 28
};
