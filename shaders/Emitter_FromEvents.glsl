// Emitter_FromEvents: each particle starts where its event happened (the hit position for
// a collision event, else the parent particle's position at the event), with the whole
// common contract, so at the defaults it is an Emitter_Point placed at the event.
// Orient To Normal reads the parent's velocity direction as the normal (zero: local +Z).
// Parent inheritance (Emission page): Final = Parent * FromParent + Local for speed,
// lifetime, rotation and angular velocity; scale = Local * mix(1, ParentScale, FromParent).
// The parent is the source's Particle Data Buffer record of the event's particle (the
// event record's own copy of speed and lifetime when that buffer is not bound).
#include "Particles/emitter_common.glsl"
#include "Particles/emit_from_events.glsl"

uniform float Emission_InitialVelocityStrengthFromParent = 0.0;
uniform float Emission_LifetimeFromParent = 0.0;
uniform float Emission_ScaleFromParent = 0.0;
uniform float Emission_InitialRotationFromParent = 0.0;
uniform float Emission_InitialAngularVelocityFromParent = 0.0;

void emitParticle(uint index) {
    ParticleEvent e;
    if (!spawnEvent(index, e)) {
        emitFromShape(index, vec3(0.0), vec3(0.0));
        return;
    }
    vec3 parentVelocity = e.velocity;
    float parentLifetime = e.lifetime;
    vec3 parentScale = vec3(1.0);
    vec3 parentRotation = vec3(0.0);
    vec3 parentSpin = vec3(0.0);
    if (kz_hasSourceParticles) {
        parentVelocity = getSourceParticleVelocity(e.particle);
        parentLifetime = getSourceParticleLifetime(e.particle);
        parentScale = getSourceParticleScale(e.particle);
        parentRotation = getSourceParticleRotation(e.particle);
        parentSpin = getSourceParticleAngularVelocity(e.particle);
    }
    // The common contract at the emitter origin, then moved onto the event.
    emitFromShape(index, vec3(0.0), vec3(0.0));
    setParticlePosition(index, e.position);
    float parentSpeed = length(parentVelocity);
    vec3 axis = velocityAxis();
    if (Emission_InitialVelocityOrientToNormal) {
        vec3 normal = parentSpeed > 0.0 ? parentVelocity / parentSpeed
                                        : normalize(mat3(kz_emitterTransform) * vec3(0.0, 0.0, 1.0));
        axis = basisAround(normal) * axis;
    } else {
        axis = mat3(kz_emitterTransform) * axis;
    }
    vec3 direction = sampleCap(normalize(axis), Emission_InitialVelocityInnerAngle,
                               Emission_InitialVelocityOuterAngle, spawnRandom(2u), spawnRandom(3u));
    float speed = varied(Emission_InitialVelocityStrength, Emission_InitialVelocityStrengthVariance,
                         spawnRandom(4u)) + parentSpeed * Emission_InitialVelocityStrengthFromParent;
    setParticleVelocity(index, direction * speed);
    setParticleLifetime(index, max(getParticleLifetime(index) + parentLifetime * Emission_LifetimeFromParent, 0.0));
    vec3 scale = getParticleScale(index) * mix(vec3(1.0), parentScale, Emission_ScaleFromParent);
    setParticleScale(index, scale);
    setParticleMass(index, Emission_Density * abs(scale.x * scale.y * scale.z));
    setParticleRotation(index, getParticleRotation(index) + parentRotation * Emission_InitialRotationFromParent);
    setParticleAngularVelocity(index, getParticleAngularVelocity(index) + parentSpin * Emission_InitialAngularVelocityFromParent);
}
