// The std430 structs shared by every particle compute shader.
// Twin of kzplayer/gpu/layout.py (PARTICLE_DTYPE, EMITTER_STATE_DTYPE, EVENT_*_DTYPE):
// change both together; tests/gpu/test_layout.py checks every field's offset.
// Each vec3 is followed by a scalar that fills its fourth lane (std430 aligns vec3 to 16).

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

#define BINDING_PARTICLES        0
#define BINDING_FREE_LIST        1
#define BINDING_EMITTER_STATE    2
#define BINDING_EVENTS           3
#define BINDING_SOURCE_EVENTS    4
#define BINDING_SOURCE_PARTICLES 5
#define BINDING_TRACKS           6
#define BINDING_KILL_GROUPS      7

#define WORKGROUP_SIZE 64

struct Particle {               // 144 bytes
    vec3  position;             // 0    metres, simulation space
    float age;                  // 12   seconds since spawn
    vec3  previousPosition;     // 16   position one step ago
    float lifetime;             // 28   seconds
    vec3  velocity;             // 32   m/s
    float mass;                 // 44   Density * scale.x * scale.y * scale.z
    vec3  acceleration;         // 48   accumulator, zeroed before the affectors
    uint  hash;                 // 60   fixed per particle
    vec3  scale;                // 64
    uint  flags;                // 76   FLAG_*
    vec3  rotation;             // 80   Euler radians
    float timeScale;            // 92   dt multiplier of this step (TimeDilation)
    vec3  angularVelocity;      // 96   rad/s
    uint  serial;               // 108  n-th particle of its emitter
    vec4  color;                // 112
    vec4  custom;               // 128
};

struct EmitterState {           // 96 bytes
    uint  groupsX;              // 0    indirect dispatch arguments of the emit pass
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
    uint  _pad0;                // 56
    uint  _pad1;                // 60
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
    uint  particle;             // 4   source pool slot
    uint  hash;                 // 8
    float age;                  // 12
    vec3  position;             // 16
    float lifetime;             // 28
    vec3  normal;               // 32
    uint  stagedSlot;           // 44  0; while staged: the slot whose invocation wrote it
    vec3  velocity;             // 48
    uint  stagedRank;           // 60  0; while staged: its number among that slot's records
};

struct ParticleTrack {          // 48 bytes, one per pool slot (collider and event stages)
    vec3  hitPosition;          // 0   this step's hit, valid while FLAG_HIT is set
    float hitSpeed;             // 12  speed just before the hit
    vec3  hitNormal;            // 16  unit, towards the free side
    float lastAge;              // 28  age when the events stage last ran
    uint  serial;               // 32  owner of lastAge / cycle
    uint  cycle;                // 36  Event_Periodic: last interval index fired
    uint  events;               // 40  records this slot kept in this step's Event Buffer
    uint  eventBase;            // 44  their first place among the records of its workgroup
};
