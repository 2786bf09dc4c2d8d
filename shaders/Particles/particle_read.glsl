// The Particle Data Buffer as a drawing program reads it: one emitter's slots of the hot
// and cold blocks (kzplayer binds them: `em.particles.bind_to_storage_buffer()`), read-only,
// through the accessors the simulation's materials use. Slot i of the emitter is index i.
// The renderer's include (shaders/render/particle_access.glsl) is this file.
#include "Particles/particle_data.glsl"

layout(std430, binding = BINDING_PARTICLES) readonly buffer KzParticleBuffer { Particle kzParticles[]; };
layout(std430, binding = BINDING_COLD) readonly buffer KzColdBuffer { ParticleCold kzColdParticles[]; };

bool  isParticleAlive(uint i)             { return (kzParticles[i].flags & FLAG_ALIVE) != 0u; }
vec3  getParticlePosition(uint i)         { return kzParticles[i].position; }
vec3  getParticlePreviousPosition(uint i) { return kzParticles[i].previousPosition; }
vec3  getParticleVelocity(uint i)         { return kzParticles[i].velocity; }
vec3  getParticleAcceleration(uint i)     { return kzParticles[i].acceleration; }
float getParticleAge(uint i)              { return kzParticles[i].age; }
float getParticleLifetime(uint i)         { return kzParticles[i].lifetime; }
float getParticleMass(uint i)             { return kzParticles[i].mass; }
uint  getParticleFlags(uint i)            { return kzParticles[i].flags; }
vec3  getParticleScale(uint i)            { return kzColdParticles[i].scale; }
uint  getParticleHash(uint i)             { return kzColdParticles[i].hash; }
vec3  getParticleAngularVelocity(uint i)  { return kzColdParticles[i].angularVelocity; }
// Kept as its value at age 0 (nothing to integrate per step): now it is that plus spin x age.
vec3  getParticleRotation(uint i) {
    return kzColdParticles[i].rotationOrigin + kzColdParticles[i].angularVelocity * kzParticles[i].age;
}
float getParticleTimeScale(uint i)        { return kzColdParticles[i].timeScale; }
uint  getParticleSerial(uint i)           { return kzColdParticles[i].serial; }
vec4  getParticleColor(uint i)            { return kzColdParticles[i].color; }
vec4  getParticleCustom(uint i)           { return kzColdParticles[i].custom; }

// Age over lifetime in [0, 1]: 0 at birth, 1 at death.
float getParticleNormalizedAge(uint i) {
    float life = kzParticles[i].lifetime;
    return life > 0.0 ? clamp(kzParticles[i].age / life, 0.0, 1.0) : 1.0;
}
