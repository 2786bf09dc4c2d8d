// EmissionCount_PerEvent: Emission.ParticlesPerEvent particles for every event of the bound
// source emitter. The same count as EmissionCount_FromEvents (Kanzi ships both names).
#include "Particles/count_from_events.glsl"
