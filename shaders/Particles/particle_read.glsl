// The Particle Data Buffer as a drawing program reads it: one emitter's slots of the hot
// and cold blocks (kzplayer binds them: `em.particles.bind_to_storage_buffer()`), read-only,
// through the accessors the simulation's materials use. Slot i of the emitter is index i.
// Its live list (ascending slots, `em.live`) may be bound at BINDING_SLOTS as `liveSlots`.
#include "Particles/particle_data.glsl"

layout(std430, binding = BINDING_PARTICLES) readonly buffer ParticleBlock { Particle particles[]; };
layout(std430, binding = BINDING_COLD) readonly buffer ColdBlock { ParticleCold coldParticles[]; };
layout(std430, binding = BINDING_SLOTS) readonly buffer LiveSlotBlock { uint liveSlots[]; };

bool  isParticleAlive(uint i)             { return (particles[i].flags & FLAG_ALIVE) != 0u; }
vec3  getParticlePosition(uint i)         { return particles[i].position; }
vec3  getParticlePreviousPosition(uint i) { return particles[i].previousPosition; }
vec3  getParticleVelocity(uint i)         { return particles[i].velocity; }
vec3  getParticleAcceleration(uint i)     { return particles[i].acceleration; }
float getParticleAge(uint i)              { return particles[i].age; }
float getParticleLifetime(uint i)         { return particles[i].lifetime; }
float getParticleMass(uint i)             { return particles[i].mass; }
uint  getParticleFlags(uint i)            { return particles[i].flags; }
vec3  getParticleScale(uint i)            { return coldParticles[i].scale; }
uint  getParticleHash(uint i)             { return coldParticles[i].hash; }
vec3  getParticleAngularVelocity(uint i)  { return coldParticles[i].angularVelocity; }
// Kept as its value at age 0 (nothing to integrate per step): now it is that plus spin x age.
vec3  getParticleRotation(uint i) {
    return coldParticles[i].rotationOrigin + coldParticles[i].angularVelocity * particles[i].age;
}
float getParticleTimeScale(uint i)        { return coldParticles[i].timeScale; }
uint  getParticleSerial(uint i)           { return coldParticles[i].serial; }
vec4  getParticleColor(uint i)            { return coldParticles[i].color; }
vec4  getParticleCustom(uint i)           { return coldParticles[i].custom; }
