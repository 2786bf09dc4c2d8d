// GenerateEvents slot (ParticleEmitter.GenerateEventsMaterial), frame stage 7: one
// invocation per pool slot, after integration and colliders, before the kill pass (so a
// death is still readable). The material defines
//     void generateEvents(uint index);
// and calls writeEvent(). Helpers for the spec's predicate classes:
//   eventSweep(index)      -> the step's swept age interval, (prev, age] or [0, age] at birth
//   sweepOverlaps(q0, q1, first, lo, hi)   directional band test without double firing
//   speedSweep(index)      -> [min, max] of the approximate previous and the current speed
//   eventChance(index)     -> Events.Probability on the fixed per-particle hash
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"

uniform float Events_Probability = 1.0;

#define EVENT_RANDOM_STREAM 0x45564E54u    // "EVNT": the probability roll's hash stream

uint kz_eventsKept = 0u;     // records this invocation kept, in the order it wrote them

// Appends a record to the staging half of the Event Buffer; past the capacity the event is
// dropped and counted, nothing overwritten. The atomic gives an order that follows the
// GPU's scheduling: the ordering passes after this stage move each record to its place in
// slot order (its writer's slot, then its number among that slot's records).
void writeEvent(uint kind, uint index, vec3 position, vec3 normal) {
    uint k = atomicAdd(eventHeader.count, 1u);
    if (k >= eventHeader.capacity) {
        atomicAdd(eventHeader.dropped, 1u);
        return;
    }
    ParticleEvent e;
    e.kind = kind;
    e.particle = index;
    e.hash = particles[index].hash;
    e.age = particles[index].age;
    e.position = position;
    e.lifetime = particles[index].lifetime;
    e.normal = normal;
    e.stagedSlot = gl_GlobalInvocationID.x;
    e.velocity = particles[index].velocity;
    e.stagedRank = kz_eventsKept++;
    events[eventHeader.capacity + k] = e;
}

// The record of a particle's own state: its position, the normal its velocity direction.
void writeParticleEvent(uint kind, uint index) {
    vec3 v = particles[index].velocity;
    float len = length(v);
    writeEvent(kind, index, particles[index].position, len > 0.0 ? v / len : vec3(0.0));
}

// Population-level: the roll uses the particle's fixed hash, so the same fraction of the
// population fires every step rather than each particle re-rolling.
bool eventChance(uint index) {
    return unitFloat(hash2(getParticleHash(index), EVENT_RANDOM_STREAM)) < Events_Probability;
}

// True on a particle's first pass through this stage: a new occupant of the slot, or a
// subemitter's child born in this stage (not integrated yet, FLAG_BORN still set).
bool firstSweep(uint index) {
    return tracks[index].serial != particles[index].serial || (particles[index].flags & FLAG_BORN) != 0u;
}

// The age at the previous run of this stage, exactly as stored (0 for a new particle).
float previousAge(uint index) {
    return firstSweep(index) ? 0.0 : min(tracks[index].lastAge, particles[index].age);
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
    vec3 v = particles[index].velocity;
    float h = kz_dt * particles[index].timeScale;
    float s1 = length(v);
    float s0 = length(v - particles[index].acceleration * h);
    return vec2(min(s0, s1), max(s0, s1));
}

bool speedInBand(uint index, float lo, float hi) {
    vec2 s = speedSweep(index);
    return s.y >= lo && s.x <= hi;
}

void generateEvents(uint index);

void main() {
    uint i;
    if (!liveSlot(i)) {
        return;
    }
    generateEvents(i);
    tracks[i].events = kz_eventsKept;       // pass_events_count places them (kill_groups.glsl)
    tracks[i].lastAge = particles[i].age;
    tracks[i].serial = particles[i].serial;
}
