// The accessor API of player.md: materials read and write particles only through these.
// Vectors are in simulation space (world space unless ParticleSystem.LocalSpace).
//
// The particle an invocation works on (kz_self) is held in registers for the whole of a
// program's stages: kz_begin loads its records once (what no stage reads is dropped by the
// compiler; its track only when a stage asks for it), the accessors read and write the
// copies, kz_end stores the 16-byte texels that changed. Another particle (an index other than kz_self) is read and written in memory.
// A material that indexes the storage blocks itself is bracketed by kz_flush / kz_reload
// (the generator does it), so it sees and leaves memory up to date.

uint kz_self = 0xFFFFFFFFu;
Particle kz_p;
ParticleCold kz_c;
ParticleTrack kz_t;
bool kz_hotDirty[4] = bool[4](false, false, false, false);
bool kz_coldDirty[5] = bool[5](false, false, false, false, false);
bool kz_trackDirty[3] = bool[3](false, false, false);
bool kz_trackLoaded[3] = bool[3](false, false, false);
// This step's linear damping rate (1/s) of kz_self, declared by affectors and resolved
// exactly by the integration (Particles/damping.glsl): a register, never stored.
float kz_damping = 0.0;

// ParticleEmitter.Space (NeL's "local basis" flag, per emitter): an emitter whose particles
// live in another space than its system's simulation space stores them there (so they move
// with the system node, or not) and steps them in the system's space: its particle is turned
// into the system's space as its step begins and back as it ends, so affectors, per-step
// constants, colliders, event records and host events all see the system's space.
void kz_enterSystemSpace() {
#if KZ_EMITTER_SPACES
    if (kz_spaced) {
        kz_p.position = (kz_particleToSystem * vec4(kz_p.position, 1.0)).xyz;
        kz_p.previousPosition = (kz_particleToSystem * vec4(kz_p.previousPosition, 1.0)).xyz;
        kz_p.velocity = mat3(kz_particleToSystem) * kz_p.velocity;
        kz_p.acceleration = mat3(kz_particleToSystem) * kz_p.acceleration;
    }
#endif
}

void kz_leaveSystemSpace() {
#if KZ_EMITTER_SPACES
    if (kz_spaced) {
        kz_p.position = (kz_systemToParticle * vec4(kz_p.position, 1.0)).xyz;
        kz_p.previousPosition = (kz_systemToParticle * vec4(kz_p.previousPosition, 1.0)).xyz;
        kz_p.velocity = mat3(kz_systemToParticle) * kz_p.velocity;
        kz_p.acceleration = mat3(kz_systemToParticle) * kz_p.acceleration;
        kz_hotDirty = bool[4](true, true, true, true);
    }
#endif
}

void kz_begin(uint i) {
    kz_self = i;
    kz_p = kz_loadHot(i);
    kz_c = kz_loadCold(i);
    kz_trackLoaded = bool[3](false, false, false);
}

// A texel of the slot's track, loaded on first use (most particles of a step hit nothing;
// the events stage needs only the third texel).
void kz_needTrack(uint t) {
    if (!kz_trackLoaded[t]) {
        kz_t = kz_loadTrackPart(kz_self, t, kz_t);
        kz_trackLoaded[t] = true;
    }
}

void kz_end() {
    for (uint t = 0u; t < 4u; ++t) {
        if (kz_hotDirty[t]) {
            kz_storeHot(kz_self, t, kz_p);
        }
    }
    for (uint t = 0u; t < 5u; ++t) {
        if (kz_coldDirty[t]) {
            kz_storeCold(kz_self, t, kz_c);
        }
    }
    for (uint t = 0u; t < 3u; ++t) {
        if (kz_trackDirty[t]) {
            kz_storeTrack(kz_self, t, kz_t);
        }
    }
}

// Around a material that indexes the blocks itself: memory holds the copies' values while
// it runs, the copies what it left.
void kz_flush() {
    kz_end();
    kz_hotDirty = bool[4](false, false, false, false);
    kz_coldDirty = bool[5](false, false, false, false, false);
    kz_trackDirty = bool[3](false, false, false);
}

void kz_reload() {
    memoryBarrierBuffer();
    kz_begin(kz_self);
}

// -- reading -----------------------------------------------------------------------------------

vec3  getParticlePosition(uint i)         { return i == kz_self ? kz_p.position : kz_loadHot(i).position; }
vec3  getParticlePreviousPosition(uint i) { return i == kz_self ? kz_p.previousPosition : kz_loadHot(i).previousPosition; }
vec3  getParticleVelocity(uint i)         { return i == kz_self ? kz_p.velocity : kz_loadHot(i).velocity; }
vec3  getParticleAcceleration(uint i)     { return i == kz_self ? kz_p.acceleration : kz_loadHot(i).acceleration; }
float getParticleAge(uint i)              { return i == kz_self ? kz_p.age : kz_loadHot(i).age; }
float getParticleLifetime(uint i)         { return i == kz_self ? kz_p.lifetime : kz_loadHot(i).lifetime; }
float getParticleMass(uint i)             { return i == kz_self ? kz_p.mass : kz_loadHot(i).mass; }
uint  getParticleFlags(uint i)            { return i == kz_self ? kz_p.flags : kz_loadHot(i).flags; }
vec3  getParticleScale(uint i)            { return i == kz_self ? kz_c.scale : kz_loadCold(i).scale; }
vec3  getParticleAngularVelocity(uint i)  { return i == kz_self ? kz_c.angularVelocity : kz_loadCold(i).angularVelocity; }
vec4  getParticleColor(uint i)            { return i == kz_self ? kz_c.color : kz_loadCold(i).color; }
vec4  getParticleCustom(uint i)           { return i == kz_self ? kz_c.custom : kz_loadCold(i).custom; }
float getParticleTimeScale(uint i)        { return i == kz_self ? kz_c.timeScale : kz_loadCold(i).timeScale; }
// n-th particle its emitter spawned.
uint  getParticleSerial(uint i)           { return i == kz_self ? kz_c.serial : kz_loadCold(i).serial; }
// Fixed per particle for its whole life: population-level choices (Events.Probability).
uint  getParticleHash(uint i)             { return i == kz_self ? kz_c.hash : kz_loadCold(i).hash; }
float getParticleRandom(uint i, uint k)   { return unitFloat(hash2(getParticleHash(i), k)); }
// The rotation turns with the angular velocity as the particle ages (TimeDilation ages it
// too), so it is kept as its value at age 0: nothing to integrate per step.
vec3  kz_rotationOrigin(uint i)           { return i == kz_self ? kz_c.rotationOrigin : kz_loadCold(i).rotationOrigin; }
vec3  getParticleRotation(uint i) {
    return kz_rotationOrigin(i) + getParticleAngularVelocity(i) * getParticleAge(i);
}

// -- writing ---------------------------------------------------------------------------------

void kz_setHot(uint i, uint t, Particle q) {
    if (i == kz_self) {
        kz_p = q;
        kz_hotDirty[t] = true;
    } else {
        kz_storeHot(i, t, q);
    }
}

void kz_setCold(uint i, uint t, ParticleCold q) {
    if (i == kz_self) {
        kz_c = q;
        kz_coldDirty[t] = true;
    } else {
        kz_storeCold(i, t, q);
    }
}

Particle kz_hot(uint i)      { return i == kz_self ? kz_p : kz_loadHot(i); }
ParticleCold kz_cold(uint i) { return i == kz_self ? kz_c : kz_loadCold(i); }

void setParticlePosition(uint i, vec3 v)         { Particle q = kz_hot(i); q.position = v; kz_setHot(i, 0u, q); }
void setParticlePreviousPosition(uint i, vec3 v) { Particle q = kz_hot(i); q.previousPosition = v; kz_setHot(i, 1u, q); }
void setParticleVelocity(uint i, vec3 v)         { Particle q = kz_hot(i); q.velocity = v; kz_setHot(i, 2u, q); }
void setParticleLifetime(uint i, float v)        { Particle q = kz_hot(i); q.lifetime = v; kz_setHot(i, 1u, q); }
void setParticleMass(uint i, float v)            { Particle q = kz_hot(i); q.mass = v; kz_setHot(i, 2u, q); }
void kz_setParticleAcceleration(uint i, vec3 v)  { Particle q = kz_hot(i); q.acceleration = v; kz_setHot(i, 3u, q); }
void kz_setParticleFlags(uint i, uint v)         { Particle q = kz_hot(i); q.flags = v; kz_setHot(i, 3u, q); }
void setParticleScale(uint i, vec3 v)            { ParticleCold q = kz_cold(i); q.scale = v; kz_setCold(i, 0u, q); }
void setParticleColor(uint i, vec4 v)            { ParticleCold q = kz_cold(i); q.color = v; kz_setCold(i, 3u, q); }
void setParticleCustom(uint i, vec4 v)           { ParticleCold q = kz_cold(i); q.custom = v; kz_setCold(i, 4u, q); }
void setParticleTimeScale(uint i, float v)       { ParticleCold q = kz_cold(i); q.timeScale = v; kz_setCold(i, 1u, q); }
void kz_setParticleHash(uint i, uint v)          { ParticleCold q = kz_cold(i); q.hash = v; kz_setCold(i, 0u, q); }

void setParticleRotation(uint i, vec3 v) {
    ParticleCold q = kz_cold(i);
    q.rotationOrigin = v - q.angularVelocity * getParticleAge(i);
    kz_setCold(i, 1u, q);
}

// Keeps the rotation where it is: only its rate changes from now on.
void setParticleAngularVelocity(uint i, vec3 v) {
    ParticleCold q = kz_cold(i);
    q.rotationOrigin += (q.angularVelocity - v) * getParticleAge(i);
    q.angularVelocity = v;
    kz_setCold(i, 1u, q);
    kz_setCold(i, 2u, q);
}

// Keeps the rotation where it is: the age is the rotation's clock.
void setParticleAge(uint i, float v) {
    Particle p = kz_hot(i);
    ParticleCold q = kz_cold(i);
    q.rotationOrigin += q.angularVelocity * (p.age - v);
    kz_setCold(i, 1u, q);
    p.age = v;
    kz_setHot(i, 0u, p);
}

void killParticle(uint i) { kz_setParticleFlags(i, getParticleFlags(i) | FLAG_KILL); }

// Does the particle die at the end of this step (end of life, or marked)? The events
// stage and the death test ask the same question of the same data.
bool diesThisStep(uint i) {
    return getParticleAge(i) >= getParticleLifetime(i) || (getParticleFlags(i) & FLAG_KILL) != 0u;
}

#include "Particles/host_events.glsl"

// Stage 8 (and a child born dead). A particle past its lifetime, or marked by a KillZone or a collider, dies at the end
// of the step: its bit in the death mask; the end passes free its slot (in slot order).
void kz_deathTest() {
    if (diesThisStep(kz_self)) {
        kz_atomicOrWord(kz_deathWords + (kz_self >> 5u), 1u << (kz_self & 31u));
        if ((kz_flags & EF_HOST_DEATH) != 0u) {
            kz_notify(HOST_DEATH, 1.0, kz_p.position, kz_p.velocity, vec3(0.0));
        }
    }
}

// Mass-independent: body forces (gravity, buoyancy).
void addParticleAcceleration(uint i, vec3 a)    { kz_setParticleAcceleration(i, getParticleAcceleration(i) + a); }
// Mass-aware: a = F / m (wind, drag).
void addParticleForce(uint i, vec3 f)           { addParticleAcceleration(i, f / max(getParticleMass(i), 1e-6)); }
// Linear damping, resolved exactly by the integrator: declares that this step's acceleration
// also falls by `rate` (1/s) per m/s of velocity, a = A - rate (v - v_ref). An affector that
// adds a drag k (w - v) to the accumulator declares rate k / m with it; the helpers of
// Particles/velocity.glsl (addDragForce, addDragAcceleration) do both, at the velocity v_ref
// the integrator steps from. Rates add up; the terminal velocity is then exact at any step.
// Only the particle being stepped has a rate (another index: nothing, and 0).
void  addParticleDamping(uint i, float rate)    { if (i == kz_self) { kz_damping += rate; } }
float getParticleDamping(uint i)                { return i == kz_self ? kz_damping : 0.0; }

mat4 getAffectorTransform() { return kz_affectorTransform; }
mat4 getEmitterTransform()  { return kz_emitterTransform; }
vec3 getAffectorPosition()  { return kz_affectorTransform[3].xyz; }
// A world-space direction (gravity's -Y) in simulation space.
vec3 worldToSimulationDirection(vec3 d) { return kz_worldToSimulation * d; }
float getDeltaTime() { return kz_dt; }
float getTime() { return kz_time; }

// -- the slot's track: this step's collider hit, the event generators' memory ----------------

// Texel t of a slot's track (the others of the returned struct are undefined).
ParticleTrack kz_track(uint i, uint t) {
    if (i == kz_self) {
        kz_needTrack(t);
        return kz_t;
    }
    ParticleTrack k;
    return kz_loadTrackPart(i, t, k);
}

// Stores texel t of k (the others are left as they are).
void kz_setTrack(uint i, uint t, ParticleTrack k) {
    if (i == kz_self) {
        kz_t = k;
        kz_trackLoaded[t] = true;
        kz_trackDirty[t] = true;
    } else {
        kz_storeTrack(i, t, k);
    }
}

// The collider's record of this step's first hit: written whole, nothing read first.
void kz_setParticleHit(uint i, vec3 position, float speed, vec3 normal) {
    ParticleTrack k = i == kz_self ? kz_t : kz_loadTrack(i);
    k.hitPosition = position;
    k.hitSpeed = speed;
    k.hitNormal = normal;
    kz_setTrack(i, 0u, k);
    kz_setTrack(i, 1u, k);
}

// Valid while FLAG_HIT is set (a collider hit the particle in this step).
vec3  getParticleHitPosition(uint i) { return kz_track(i, 0u).hitPosition; }
float getParticleHitSpeed(uint i)    { return kz_track(i, 0u).hitSpeed; }
vec3  getParticleHitNormal(uint i)   { return kz_track(i, 1u).hitNormal; }
// The events stage's memory (owned by the particle whose serial it holds).
uint  kz_trackSerial(uint i)         { return kz_track(i, 2u).serial; }
float kz_trackLastAge(uint i)        { return kz_track(i, 2u).lastAge; }
// Event_Periodic's memory: the last interval index that fired.
uint  getParticleEventCycle(uint i)  { return kz_track(i, 2u).cycle; }
void  setParticleEventCycle(uint i, uint c) { ParticleTrack k = kz_track(i, 2u); k.cycle = c; kz_setTrack(i, 2u, k); }
