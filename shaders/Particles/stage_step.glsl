// The fused step (docs/player.md, The frame, stages 2-8): the stages of one particle's step
// that are not materials. The step program's main (Particles/stage_step_main.glsl) runs them
// around the materials' functions, in this order, per live particle:
//   enter the system's space (kz_enterSystemSpace: an emitter in a space of its own),
//   2 reset, 3 the emitter's SelfAffectMaterial, 4 the system's affectors in tree order,
//   5 integrate and age, 6 the system's colliders (Particles/collider_resolve.glsl),
//   the children due from a source of bound subemitters (Particles/bound_emission.glsl),
//   7 the emitter's GenerateEventsMaterial, 8 the death test (Particles/accessors.glsl),
//   leave the system's space, then the position history's write (Particles/history.glsl,
//   trails only).
// Also included by the children program (Particles/stage_children_main.glsl): a subemitter
// level's stage 7 and 8 for the children it made in this step. The particle is in
// registers (Particles/accessors.glsl) throughout.
#include "Particles/damping.glsl"

// 2. Clear the acceleration accumulator and the per-step state before the affectors add
// to them.
// KZ_TIME_SCALE: some material of the system may set the time scale (TimeDilation); when
// none does, it is 1 for every particle and not even read.
vec3 kz_x0;                 // the particle's position and age at the start of its step
float kz_age0;

void kz_reset() {
    kz_x0 = kz_p.position;
    kz_age0 = kz_p.age;
    kz_p.acceleration = vec3(0.0);
    kz_damping = 0.0;
    kz_p.flags &= ~FLAG_HIT;
    kz_hotDirty[3] = true;
#if KZ_TIME_SCALE
    if (kz_c.timeScale != 1.0) {
        kz_c.timeScale = 1.0;
        kz_coldDirty[1] = true;
    }
#else
    kz_c.timeScale = 1.0;
#endif
}

// 5. Integrate and age, with h = kz_dt * timeScale (TimeDilation):
//   Euler (semi-implicit): v += a h; x += v h. First order.
//   Verlet (Stormer, position form): x' = 2x - x_prev + a h^2, started on a particle's
//   first step with x' = x + v h + a h^2 / 2, and the velocity reported as
//   v' = (x' - x) / h + a h / 2. Second order; exact under constant a.
// Linear damping the affectors declared (addParticleDamping: Drag, Wind, the NeL forces) is
// resolved exactly here, with the whole step's acceleration known (Particles/damping.glsl):
// a is replaced by the step's mean acceleration phi a, and the two halves above by r and
// kappa. Undamped, phi = 1 and r = kappa = 1/2: the schemes above, bit for bit.
// The rotation needs no step: it is kept as origin + angular velocity x age.
void kz_integrate() {
    float h = kz_dt * kz_c.timeScale;
    vec3 x = kz_p.position;
    vec3 a = kz_p.acceleration;
    float r = 0.5, kappa = 0.5;
    if (kz_damping > 0.0) {
        float phi;
        dampingFactors(kz_damping * h, phi, r, kappa);
        a *= phi;
        kz_p.acceleration = a;      // what events read: the step's mean acceleration
    }
#if KZ_VERLET
    vec3 next;
    float tail;
    if ((kz_p.flags & FLAG_BORN) != 0u) {
        next = x + kz_p.velocity * h + r * a * h * h;
        tail = 1.0 - r;
    } else {
        next = x + (x - kz_p.previousPosition) + a * h * h;
        tail = kappa;
    }
    if (h > 0.0) {
        kz_p.velocity = (next - x) / h + tail * a * h;
    }
#else
    vec3 v = kz_p.velocity + a * h;
    kz_p.velocity = v;
    vec3 next = x + v * h;
#endif
    kz_p.position = next;
    kz_p.previousPosition = x;
    kz_p.age += h;
    kz_p.flags &= ~FLAG_BORN;
    kz_hotDirty = bool[4](true, true, true, true);
}

// -- 7. events ----------------------------------------------------------------------------------
// A GenerateEventsMaterial defines `void generateEvents(uint index)` and calls writeEvent().
// Helpers for the spec's predicate classes:
//   sweepOverlaps(q0, q1, first, lo, hi)   directional band test without double firing
//   previousAge(index), firstSweep(index)  the step's swept age interval
//   speedSweep(index)                      [min, max] of the approximate previous and the current speed
//   eventChance(index)                     Events.Probability on the fixed per-particle hash
//                                          (Particles/events_params.glsl, per node)

uint kz_eventsKept = 0u;     // records this invocation kept, in the order it wrote them

// Appends a record to the staging half of the emitter's Event Buffer; past the capacity
// the event is dropped and counted, nothing overwritten. The atomic gives an order that
// follows the GPU's scheduling: the ordering passes after this stage move each record to its
// place in slot order (its writer's slot, then its number among that slot's records).
void writeEvent(uint kind, uint index, vec3 position, vec3 normal) {
    uint k = kz_atomicAddWord(kz_headerWord(kz_e, H_COUNT), 1u);
    if (k >= kz_capacity) {
        kz_atomicAddWord(kz_headerWord(kz_e, H_DROPPED), 1u);
        return;
    }
    ParticleEvent e;
    e.kind = kind;
    e.particle = index - kz_first;
    e.hash = getParticleHash(index);
    e.age = getParticleAge(index);
    e.position = position;
    e.lifetime = getParticleLifetime(index);
    e.normal = normal;
    e.stagedSlot = kz_self - kz_first;
    e.velocity = getParticleVelocity(index);
    e.stagedRank = kz_eventsKept++;
    kz_storeEvent(kz_table(kz_e, E_EVENT_BASE) + kz_capacity + k, e);
}

// The record of a particle's own state: its position, the normal its velocity direction.
void writeParticleEvent(uint kind, uint index) {
    vec3 v = getParticleVelocity(index);
    float len = length(v);
    writeEvent(kind, index, getParticlePosition(index), len > 0.0 ? v / len : vec3(0.0));
}

// True on a particle's first pass through this stage: a new occupant of the slot, or a
// subemitter's child born in this step (not integrated yet, FLAG_BORN still set).
bool firstSweep(uint index) {
    return kz_trackSerial(index) != getParticleSerial(index) || (getParticleFlags(index) & FLAG_BORN) != 0u;
}

// The age at the previous run of this stage, exactly as stored (0 for a new particle).
float previousAge(uint index) {
    return firstSweep(index) ? 0.0 : min(kz_trackLastAge(index), getParticleAge(index));
}

// Swept band test on a quantity that only grows: the step covers (q0, q1], or [q0, q1] on
// the particle's first step, and fires when that overlaps [lo, hi]. Half-open so a value
// landing exactly on a band edge fires once, not on two steps.
bool sweepOverlaps(float q0, float q1, bool first, float lo, float hi) {
    return q1 >= lo && (q0 < hi || (first && q0 <= hi));
}

// [min, max] of the speed over the step: the previous speed is reconstructed by stepping
// the velocity back along the current acceleration (speed is not monotonic).
vec2 speedSweep(uint index) {
    vec3 v = getParticleVelocity(index);
    float h = kz_dt * getParticleTimeScale(index);
    float s1 = length(v);
    float s0 = length(v - getParticleAcceleration(index) * h);
    return vec2(min(s0, s1), max(s0, s1));
}

bool speedInBand(uint index, float lo, float hi) {
    vec2 s = speedSweep(index);
    return s.y >= lo && s.x <= hi;
}

void kz_eventsBegin() {
    kz_eventsKept = 0u;
}

// After the emitter's generateEvents: what the slot remembers for the next step, and its
// bit among this step's writers (the ordering passes walk only those).
void kz_eventsEnd() {
    kz_needTrack(2u);       // its cycle stays
    kz_t.events = kz_eventsKept;
    kz_t.lastAge = kz_p.age;
    kz_t.serial = kz_c.serial;
    kz_trackDirty[2] = true;
    if (kz_eventsKept > 0u) {
        kz_atomicOrWord(kz_writerWords + (kz_self >> 5u), 1u << (kz_self & 31u));
    }
}
