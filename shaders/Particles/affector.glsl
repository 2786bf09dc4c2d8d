// Kanzi Particles 3.0's affector include: a custom affector written for Kanzi (a
// `#version 450 core` line, an include of this file, its uniforms, and
//     vec3 Affector(uint index, inout Particle particle)
// ) runs in kzplayer's affector slots (AffectorMaterial and SelfAffectMaterial) unchanged.
// Once per live particle per step, before integration, as Kanzi's include does: `particle`
// holds the particle's state (Particles/particle_data.glsl: position, velocity, mass,
// lifetime, age, previousPosition, acceleration, flags); what the function changes in it is
// kept, and the vec3 it returns is the force on the particle (added as addParticleForce
// does: divided by the particle's mass; "the force computation behind it ... return
// vec3(0.0)", Authoring compute shaders for performance; vec3(0.0) is no effect). The accessor surface
// (getParticle*, addParticleForce, getAffectorTransform ...) and Kanzi's hash and finalised
// fields (Particles/kanzi.glsl) are there too. This file maps the entry point onto kzplayer's
// (affectParticle(uint index)).
#include "Particles/kanzi.glsl"

vec3 Affector(uint index, inout Particle particle);

void affectParticle(uint index) {
    Particle before = kz_hot(index);
    Particle particle = before;
    vec3 force = Affector(index, particle);
    // Write back only what the function changed: an accessor call inside it (an
    // addParticleForce) must not be undone by the copy it was handed.
    if (particle.position != before.position) { setParticlePosition(index, particle.position); }
    if (particle.previousPosition != before.previousPosition) { setParticlePreviousPosition(index, particle.previousPosition); }
    if (particle.velocity != before.velocity) { setParticleVelocity(index, particle.velocity); }
    if (particle.lifetime != before.lifetime) { setParticleLifetime(index, particle.lifetime); }
    if (particle.mass != before.mass) { setParticleMass(index, particle.mass); }
    if (particle.age != before.age) { setParticleAge(index, particle.age); }
    if ((particle.flags & FLAG_KILL) != 0u && (before.flags & FLAG_KILL) == 0u) { killParticle(index); }
    addParticleAcceleration(index, particle.acceleration - before.acceleration);
    addParticleForce(index, force);
}
