// Read-only particle access for rendering shaders (vertex stages and the renderer's compute
// passes): the storage block of the emitter being drawn and the accessor API of player.md,
// getters only. Rendering code reads particles ONLY through these, so the simulation may
// change the record layout (docs/rendering.md). When the frame pipeline ships its own
// read-only include, this file becomes that one include.
#include "Particles/particle_data.glsl"

layout(std430, binding = BINDING_PARTICLES) readonly buffer KzParticleBuffer {
    Particle kzParticles[];
};

vec3  getParticlePosition(uint i)         { return kzParticles[i].position; }
vec3  getParticlePreviousPosition(uint i) { return kzParticles[i].previousPosition; }
vec3  getParticleVelocity(uint i)         { return kzParticles[i].velocity; }
vec3  getParticleAcceleration(uint i)     { return kzParticles[i].acceleration; }
float getParticleAge(uint i)              { return kzParticles[i].age; }
float getParticleLifetime(uint i)         { return kzParticles[i].lifetime; }
float getParticleMass(uint i)             { return kzParticles[i].mass; }
vec3  getParticleScale(uint i)            { return kzParticles[i].scale; }
vec3  getParticleRotation(uint i)         { return kzParticles[i].rotation; }
vec3  getParticleAngularVelocity(uint i)  { return kzParticles[i].angularVelocity; }
vec4  getParticleColor(uint i)            { return kzParticles[i].color; }
vec4  getParticleCustom(uint i)           { return kzParticles[i].custom; }
uint  getParticleFlags(uint i)            { return kzParticles[i].flags; }
uint  getParticleHash(uint i)             { return kzParticles[i].hash; }
bool  isParticleAlive(uint i)             { return (kzParticles[i].flags & FLAG_ALIVE) != 0u; }

// Age over lifetime in [0, 1]: 0 at birth, 1 at death.
float getParticleNormalizedAge(uint i) {
    float life = kzParticles[i].lifetime;
    return life > 0.0 ? clamp(kzParticles[i].age / life, 0.0, 1.0) : 1.0;
}
