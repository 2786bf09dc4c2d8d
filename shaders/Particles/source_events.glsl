// A subemitter's view of its source (Emission.SourceEventBuffer and
// Emission.SourceParticleDataBuffer, bound by the simulation from the buffer handles):
// read-only. The source's events stage ran earlier in this same step and its kill pass has
// not run yet, so every record's `particle` slot still holds the particle that fired it.
layout(std430, binding = BINDING_SOURCE_EVENTS) readonly buffer SourceEventBlock {
    EventHeader sourceHeader;
    ParticleEvent sourceEvents[];
};
layout(std430, binding = BINDING_SOURCE_PARTICLES) readonly buffer SourceParticleBlock {
    Particle sourceParticles[];
};

uniform bool kz_hasSourceEvents = false;      // Emission.SourceEventBuffer holds a handle
uniform bool kz_hasSourceParticles = false;   // Emission.SourceParticleDataBuffer holds one

uint sourceEventCount() {
    return kz_hasSourceEvents ? min(sourceHeader.count, sourceHeader.capacity) : 0u;
}
