// EmissionCount_FromEvents: one particle per event of the bound source emitter, times
// Emission.ParticlesPerEvent (1 for a 1:1 mapping): the canonical subemitter count. It runs
// right after the source's events stage, in the same step.
#include "Particles/count_from_events.glsl"
