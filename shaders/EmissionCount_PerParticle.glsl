// EmissionCount_PerParticle: an emitter bound to particles (the NeL design's emitters
// attached to a located: a trail of smoke behind each firework shell). Wired like any
// subemitter (Emission.SourceEventBuffer: the source's EventBuffer), it emits continuously
// from every live particle of its source, Emission.RatePerParticle children a second per
// parent (plus or minus RatePerParticleVariance, drawn once per parent), each emission
// ParticlesPerEvent particles. The source's particles write one emission record per child
// in the fused step (Particles/bound_emission.glsl): this count is their number, as
// EmissionCount_FromEvents counts events. The emission material spawns at the parent's
// position when the child was due, in Emission.EmissionBasis (any shape emitter follows its
// parent, Emitter_FromEvents inherits from it). RatePerParticle is a continuous rate: the
// emission LOD thins each parent's children to its share (bound_emission.glsl); this count
// reads no LOD itself, so the records it counts are all there is.
#include "Particles/count_from_events.glsl"

uniform float Emission_RatePerParticle = 10.0;            // read by the source's step (the channel's table row)
uniform float Emission_RatePerParticleVariance = 0.0;
