// Everything a simulation program sees, first in every program kzplayer.gpu.generate
// builds: the structs, the system's storage, the step's constants, the emitter table and
// the program's node parameters, randomness, the emitter a workgroup works for, and the
// accessors. Material files are inlined after it, each renamed per node.
#include "Particles/particle_data.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#ifndef KZ_IMAGE_IO
#define KZ_IMAGE_IO 1
#endif
#ifndef KZ_VERLET
#define KZ_VERLET 0
#endif
#ifndef KZ_TIME_SCALE
#define KZ_TIME_SCALE 1
#endif
#ifndef KZ_TABLE_VEC4S
#define KZ_TABLE_VEC4S 1024
#endif
#ifndef KZ_PARAMS_VEC4S
#define KZ_PARAMS_VEC4S 1
#endif
#ifndef KZ_EMITTER_SPACES
#define KZ_EMITTER_SPACES 0         // some emitter of the system lives in a space of its own
#endif
#define KZ_PER_STEP                 // marks a per-step constant of a material (see Wind.glsl)

// The system's storage: every emitter of the system has a range of slots in these blocks
// (its first slot a multiple of 64), so one dispatch covers them all.
layout(std430, binding = BINDING_PARTICLES) buffer ParticleBlock { Particle particles[]; };
layout(std430, binding = BINDING_COLD) buffer ColdBlock { ParticleCold coldParticles[]; };
// states, event headers and live headers of the emitters, then the scratch words of the
// passes (masks, scans): offsets in KzFrame
layout(std430, binding = BINDING_CONTROL) buffer ControlBlock { uint control[]; };
// what the passes plan for the ones after them, the same for a whole workgroup (plans with
// their indirect arguments, walk counts, per-step constants): written as storage, read by
// the later dispatches as the uniform block KzSchedule (one constant-cache read, where a
// storage read costs what a particle's does on llvmpipe)
layout(std430, binding = BINDING_SCHEDULE) buffer ScheduleBlock { uint schedule[]; };
layout(std430, binding = BINDING_EVENTS) buffer EventBlock { ParticleEvent events[]; };
layout(std430, binding = BINDING_TRACKS) buffer TrackBlock { ParticleTrack tracks[]; };
// live lists (slot indices, each emitter's from its first slot), then the free stacks
layout(std430, binding = BINDING_SLOTS) buffer SlotBlock { uint slots[]; };

#if KZ_IMAGE_IO
// The same buffers as texel buffers: image loads and stores move a 16-byte texel at once,
// where a CPU rasteriser (llvmpipe) gathers storage-block reads one 4-byte lane at a time.
layout(rgba32ui, binding = IMAGE_HOT) uniform uimageBuffer kz_hotTexels;
layout(rgba32ui, binding = IMAGE_COLD) uniform uimageBuffer kz_coldTexels;
layout(rgba32ui, binding = IMAGE_TRACKS) uniform uimageBuffer kz_trackTexels;
layout(rgba32ui, binding = IMAGE_EVENTS) uniform uimageBuffer kz_eventTexels;
layout(r32ui, binding = IMAGE_CONTROL) uniform uimageBuffer kz_controlWords;
layout(r32ui, binding = IMAGE_SLOTS) uniform uimageBuffer kz_slotWords;
layout(r32ui, binding = IMAGE_SCHEDULE) uniform uimageBuffer kz_scheduleImage;
#endif
#ifndef KZ_SCHEDULE_VEC4S
#define KZ_SCHEDULE_VEC4S 1024
#endif
layout(std140, binding = UNIFORM_SCHEDULE) uniform KzSchedule { uvec4 kz_scheduleWords[KZ_SCHEDULE_VEC4S]; };

// The step's constants and where the scratch words are: one buffer write per step.
layout(std140, binding = UNIFORM_FRAME) uniform KzFrame {
    float kz_dt;                // seconds in this fixed step
    float kz_time;              // system time at the start of this step
    uint  kz_step;              // steps the system has run before this one
    uint  kz_emitterCount;
    uint  kz_slotCount;         // slots of all emitters of the system
    uint  kz_runCount;          // runs (64 groups of 64 slots) of all emitters
    uint  kz_groupCount;
    uint  kz_headerWords;       // control words: the event headers (the states are at 0)
    uint  kz_liveWords;         // the live headers
    uint  kz_planEmit;          // schedule words: plans (E + 1 workgroup starts, 3 indirect arguments)
    uint  kz_planStep;
    uint  kz_planMove;
    uint  kz_stepCounts;        // schedule: E words, particles the step kernel walks per emitter
    uint  kz_derivedWords;      // schedule: per-step constants of the materials (KZ_PER_STEP)
    uint  kz_aliveWords;        // one bit per slot: holds a live particle
    uint  kz_deathWords;        // one bit per slot: dies in this step
    uint  kz_writerWords;       // one bit per slot: wrote event records in this step
    uint  kz_groupWords;        // 2 words per group: its kill and live bases in its run
    uint  kz_runWords;          // 6 words per run: kill, live, event totals, then bases
    uint  kz_freeSlots;         // slots buffer: where the free stacks start (live lists at 0)
    uint  kz_rebuildWords;      // schedule: E words, the emitter's live list changes at the end of this step
    uint  kz_endArgs;           // schedule: the last end pass's indirect arguments (0 groups: nothing changed)
    uint  kz_historyStep;       // steps the system has really run before this one (the history ring's clock)
    mat3  kz_worldToSimulation; // world directions -> simulation space
    uint  kz_hostWord;          // control word: host event records asked for in this frame
    uint  kz_hostBase;          // events buffer: the first host event record
    uint  kz_hostCapacity;      // host event records kept per frame (0: nobody listens)
};

// The system's emitters, KZ_EMITTER_WORDS words each (kzplayer/gpu/params.py writes them).
#define KZ_EMITTER_WORDS 44u
#define E_FIRST           0u    // first slot in the system's buffers
#define E_CAPACITY        1u
#define E_SEED            2u
#define E_NUMBER          3u    // the emitter's number in tree order over the project
#define E_FLAGS           4u    // EF_* bits
#define E_LEVEL           5u    // 0, or its source's level + 1 (subemitters)
#define E_SOURCE          6u    // index of its event source in the system (or ~0)
#define E_PARTICLE_SOURCE 7u    // index of the emitter whose particles it reads
#define E_EVENT_BASE      8u    // its first record in the events block (staging after capacity)
#define E_FIRST_GROUP     9u
#define E_GROUPS          10u
#define E_FIRST_RUN       11u
#define E_RUNS            12u
#define E_SELF            13u   // variants: 0 none, else the node's case in the generated switch
#define E_EVENTS          14u
#define E_COUNT           15u
#define E_EMISSION        16u
#define E_SELF_PARAMS     17u   // first parameter word of the emitter's node in its program
#define E_EVENTS_PARAMS   18u
#define E_COUNT_PARAMS    19u
#define E_EMISSION_PARAMS 20u
#define E_SELF_DERIVED    21u   // first per-step word of its self-affect node
#define E_EVENTS_DERIVED  22u
#define E_PER_EVENT       23u   // a spawn-frame subemitter's Emission.ParticlesPerEvent
#define E_TRANSFORM       24u   // mat4, column-major: emitter -> simulation space
#define E_CHANNEL_RATE    24u   // a channel (kzplayer/gpu/nodes.py): RatePerParticle, its variance
#define E_HISTORY_BASE    40u   // first entry of its position history (Particles/history.glsl)
#define E_HISTORY         41u   // positions kept per slot (0: none)
#define E_LOD             42u   // float: the emission LOD factor, 1 near, down to Emission.LodMinimumRate far
#define E_SPACE           43u   // ParticleEmitter.Space: its two matrices' first parameter word (~0: none)

#define EF_RUNS            1u   // visible and with a pool: takes part in the step
#define EF_SOURCE_EVENTS   2u   // Emission.SourceEventBuffer holds a handle of a running emitter
#define EF_SOURCE_PARTICLES 4u  // Emission.SourceParticleDataBuffer likewise
#define EF_EVENTS          8u   // has a GenerateEventsMaterial (its records are ordered)
#define EF_NO_COLLIDE     16u   // ParticleEmitter.IgnoreColliders: its particles skip the colliders
#define EF_DIE_ON_HIT     32u   // ParticleEmitter.DestroyOnCollision: any hit kills the particle
#define EF_HOST_BIRTH     64u   // the host listens to its births (kzplayer.gpu.host_events)
#define EF_HOST_DEATH    128u   //   ... deaths
#define EF_HOST_HIT      256u   //   ... hits
#define EF_SPAWN_FRAME   512u   // a subemitter that spawns in a frame at each event (Particles/stage_emit.glsl)
#define EF_BASIS_SHIFT    10u   // 2 bits: Emission.EmissionBasis, 0 Emitter 1 World 2 System 3 ParentVelocity

#ifdef KZ_WORDS_IN_SSBO
// A system whose table or parameters outgrow a uniform block (hundreds of emitters): both in
// one read-only storage block, the table first, the parameters from word KZ_PARAMS_BASE.
layout(std430, binding = BINDING_PARAMS_SSBO) readonly buffer KzWordsBlock { uvec4 kz_words[]; };
#ifndef KZ_PARAMS_BASE
#define KZ_PARAMS_BASE 0u
#endif
uint kz_table(uint e, uint field) {
    uint w = e * KZ_EMITTER_WORDS + field;
    return kz_words[w >> 2u][w & 3u];
}
uint kz_param(uint w) {
    w += KZ_PARAMS_BASE;
    return kz_words[w >> 2u][w & 3u];
}
#else
layout(std140, binding = UNIFORM_TABLE) uniform KzTable { uvec4 kz_tableWords[KZ_TABLE_VEC4S]; };
layout(std140, binding = UNIFORM_PARAMS) uniform KzParams { uvec4 kz_paramWords[KZ_PARAMS_VEC4S]; };

uint kz_table(uint e, uint field) {
    uint w = e * KZ_EMITTER_WORDS + field;
    return kz_tableWords[w >> 2u][w & 3u];
}

// The node parameters of this program (a node's `uniform`s, loaded into its globals).
uint  kz_param(uint w)      { return kz_paramWords[w >> 2u][w & 3u]; }
#endif
float kz_paramFloat(uint w) { return uintBitsToFloat(kz_param(w)); }
int   kz_paramInt(uint w)   { return int(kz_param(w)); }
bool  kz_paramBool(uint w)  { return kz_param(w) != 0u; }
vec2  kz_paramVec2(uint w)  { return vec2(kz_paramFloat(w), kz_paramFloat(w + 1u)); }
vec3  kz_paramVec3(uint w)  { return vec3(kz_paramFloat(w), kz_paramFloat(w + 1u), kz_paramFloat(w + 2u)); }
vec4  kz_paramVec4(uint w)  { return vec4(kz_paramVec3(w), kz_paramFloat(w + 3u)); }
ivec2 kz_paramIvec2(uint w) { return ivec2(kz_paramInt(w), kz_paramInt(w + 1u)); }
ivec3 kz_paramIvec3(uint w) { return ivec3(kz_paramIvec2(w), kz_paramInt(w + 2u)); }
ivec4 kz_paramIvec4(uint w) { return ivec4(kz_paramIvec3(w), kz_paramInt(w + 3u)); }
uvec2 kz_paramUvec2(uint w) { return uvec2(kz_param(w), kz_param(w + 1u)); }
uvec3 kz_paramUvec3(uint w) { return uvec3(kz_paramUvec2(w), kz_param(w + 2u)); }
uvec4 kz_paramUvec4(uint w) { return uvec4(kz_paramUvec3(w), kz_param(w + 3u)); }
mat2  kz_paramMat2(uint w)  { return mat2(kz_paramVec2(w), kz_paramVec2(w + 2u)); }
mat3  kz_paramMat3(uint w)  { return mat3(kz_paramVec3(w), kz_paramVec3(w + 3u), kz_paramVec3(w + 6u)); }
mat4  kz_paramMat4(uint w)  { return mat4(kz_paramVec4(w), kz_paramVec4(w + 4u), kz_paramVec4(w + 8u), kz_paramVec4(w + 12u)); }

const bool kz_verlet = KZ_VERLET != 0;     // the system integrates with Verlet (else Euler)

#include "Particles/storage.glsl"
#include "Particles/random.glsl"

// The emitter this workgroup works for (every dispatch spreads over the system's emitters
// by workgroup: the values are the same for all its invocations).
uint kz_e = 0u;                 // its index in the system (dependency order)
uint kz_first = 0u;             // its first slot in the system's buffers
uint kz_seed = 0u;              // Emission.Seed (or --seed)
uint kz_emitter = 0u;           // its number in tree order over the project
uint kz_capacity = 0u;          // its pool slots
uint kz_flags = 0u;             // EF_*
mat4 kz_emitterTransform = mat4(1.0);     // emitter -> simulation space
mat4 kz_affectorTransform = mat4(1.0);    // the running affector's node -> simulation space
bool kz_hasSourceEvents = false;          // Emission.SourceEventBuffer holds a handle
bool kz_hasSourceParticles = false;       // Emission.SourceParticleDataBuffer holds one
#if KZ_EMITTER_SPACES
bool kz_spaced = false;                    // the emitter's particles are stored in a space of their own
mat4 kz_particleToSystem = mat4(1.0);      // ... and these map them to the system's simulation space
mat4 kz_systemToParticle = mat4(1.0);
#endif
float kz_emissionLod = 1.0;               // what the camera's distance leaves of a continuous rate

mat4 kz_tableMat4(uint e, uint field) {
    vec4 c[4];
    for (uint k = 0u; k < 4u; ++k) {
        c[k] = uintBitsToFloat(uvec4(kz_table(e, field + 4u * k), kz_table(e, field + 4u * k + 1u),
                                     kz_table(e, field + 4u * k + 2u), kz_table(e, field + 4u * k + 3u)));
    }
    return mat4(c[0], c[1], c[2], c[3]);
}

void kz_bindEmitter(uint e) {
    kz_e = e;
    kz_first = kz_table(e, E_FIRST);
    kz_capacity = kz_table(e, E_CAPACITY);
    kz_seed = kz_table(e, E_SEED);
    kz_emitter = kz_table(e, E_NUMBER);
    kz_flags = kz_table(e, E_FLAGS);
    kz_emitterTransform = kz_tableMat4(e, E_TRANSFORM);
    kz_affectorTransform = kz_emitterTransform;
    kz_hasSourceEvents = (kz_flags & EF_SOURCE_EVENTS) != 0u;
    kz_hasSourceParticles = (kz_flags & EF_SOURCE_PARTICLES) != 0u;
#if KZ_EMITTER_SPACES
    uint space = kz_table(e, E_SPACE);
    kz_spaced = space != 0xFFFFFFFFu;
    if (kz_spaced) {
        kz_particleToSystem = kz_paramMat4(space);
        kz_systemToParticle = kz_paramMat4(space + 16u);
    }
#endif
    kz_emissionLod = uintBitsToFloat(kz_table(e, E_LOD));
}

// The emission LOD (docs/player.md, "LOD"): the factor a count material applies to its
// continuous rate, 1 near the camera, Emission.LodMinimumRate far; bursts are not scaled.
float getEmissionLod() { return kz_emissionLod; }

// A plan spreads one dispatch over the emitters: word plan + e is emitter e's first
// workgroup (the step's plan: every workgroup works for one emitter) or first invocation
// (emission, the children's events, the event records' move: small counts, packed), plan + E
// the total; the largest e whose start is at most x is found by binary search (emitters
// with none are skipped).
uint kz_planEmitter(uint plan, uint g) {
    uint lo = 0u;
    uint hi = kz_emitterCount;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) >> 1u;
        if (kz_scheduleWord(plan + mid) <= g) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

#include "Particles/accessors.glsl"
#include "Particles/source_events.glsl"
