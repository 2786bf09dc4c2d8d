// The event-driven count: ParticlesPerEvent for every event the source wrote this step.
// The slot's main clamps it to the free slots (a full pool stalls and counts).
#include "Particles/source_events.glsl"

uniform int Emission_ParticlesPerEvent = 1;

uint emissionCount() {
    uint per = uint(max(Emission_ParticlesPerEvent, 0));
    uint events = sourceEventCount();
    return per == 0u ? 0u : min(events, 0xFFFFFFFFu / per) * per;
}
