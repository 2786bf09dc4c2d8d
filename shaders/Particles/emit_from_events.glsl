// Which event the n-th spawn of this step belongs to. An event-driven count gives event
// e the spawns e*P .. e*P+P-1 (P = ParticlesPerEvent); a pool that stalls starves the last
// events, not every event a little. A time-based count paired with an event emitter cycles
// over the events. False when the source wrote none (the spawn stays at the emitter).
#include "Particles/source_events.glsl"

uniform int Emission_ParticlesPerEvent = 1;

bool spawnEvent(out ParticleEvent e) {
    uint count = sourceEventCount();
    if (count == 0u) {
        return false;
    }
    uint e_ = kz_spawnIndex / uint(max(Emission_ParticlesPerEvent, 1));
    e = sourceEvents[e_ < count ? e_ : kz_spawnIndex % count];
    e.position = (kz_sourceToSimulation * vec4(e.position, 1.0)).xyz;
    e.normal = mat3(kz_sourceToSimulation) * e.normal;
    e.velocity = mat3(kz_sourceToSimulation) * e.velocity;
    return true;
}
