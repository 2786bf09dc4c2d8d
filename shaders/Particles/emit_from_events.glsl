// Which event the n-th spawn of this step (into slot `index`) belongs to. An event-driven count gives event
// e the spawns e*P .. e*P+P-1 (P = ParticlesPerEvent); a pool that stalls starves the last
// events, not every event a little. A time-based count paired with an event emitter cycles
// over the events. False when the source wrote none (the spawn stays at the emitter).
#include "Particles/source_events.glsl"

uniform int Emission_ParticlesPerEvent = 1;

bool spawnEvent(uint index, out ParticleEvent e) {
    uint count = sourceEventCount();
    if (count == 0u) {
        return false;
    }
    uint per = uint(max(Emission_ParticlesPerEvent, 1));
    uint e_ = kz_spawnIndex / per;
    uint child = kz_spawnIndex % per;
    if (e_ >= count) {
        e_ = kz_spawnIndex % count;
        child = kz_spawnIndex / count;
    }
    e = sourceEvent(e_);
    // The event records are appended by atomics, in an order that may change from run to
    // run on a parallel GPU; a child's random numbers therefore come from its parent and its
    // number among the event's children, not from its place in the batch: the same event
    // always makes the same children.
    kz_spawnHash = hash4(kz_seed, kz_emitter, kz_step, hash2(e.hash ^ (e.kind * 0x9E3779B9u), child));
    kz_setParticleHash(index, kz_spawnHash);
    if (e.kind == EVENT_COLLISION) {
        // Born 0.1 mm off the surface on the free side, as the collider leaves a bounced
        // particle: the child's first swept test then starts outside the solid.
        e.position += e.normal * 1e-4;
    }
    return true;        // same ParticleSystem (others are refused): positions need no mapping
}
