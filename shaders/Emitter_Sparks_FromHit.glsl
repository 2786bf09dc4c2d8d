// Emitter_Sparks_FromHit: sparks leave each event's position (the hit point of a collision
// event) at ScatterSpeed, in a direction drawn uniformly over the hemisphere around the
// event's normal and pulled toward the normal by NormalBias (0 the whole hemisphere, 1
// straight along the normal). Events without a hit use the parent's direction of travel as
// the normal (zero: the emitter's +Y). Lifetime and the uniform ParticleScale have
// variance bands (the scale band per axis); mass = Density x scale volume.
#include "Particles/emitter_common.glsl"     // Lifetime, ScaleVariance, Density; basisAround
#include "Particles/emit_from_events.glsl"

uniform float Emission_ParticleScale = 1.0;
uniform float Emission_ScatterSpeed = 2.0;
uniform float Emission_NormalBias = 0.5;

void emitParticle(uint index) {
    ParticleEvent e;
    vec3 position = kz_emitterTransform[3].xyz;
    vec3 normal = normalize(mat3(kz_emitterTransform) * vec3(0.0, 1.0, 0.0));
    if (spawnEvent(index, e)) {
        position = e.position;
        if (dot(e.normal, e.normal) > 0.0) {
            normal = normalize(e.normal);
        }
    }
    float c = spawnRandom(2u);                      // cos(theta) uniform on [0, 1]: hemisphere
    float s = sqrt(max(0.0, 1.0 - c * c));
    float phi = 2.0 * PI * spawnRandom(3u);
    vec3 scatter = basisAround(normal) * vec3(s * cos(phi), s * sin(phi), c);
    vec3 direction = normalize(mix(scatter, normal, clamp(Emission_NormalBias, 0.0, 1.0)));
    setParticlePosition(index, position);
    setParticleVelocity(index, direction * Emission_ScatterSpeed);
    setParticleLifetime(index, max(varied(Emission_Lifetime, Emission_LifetimeVariance, spawnRandom(0u)), 0.0));
    vec3 scale = vec3(varied(Emission_ParticleScale, Emission_ScaleVariance.x, spawnRandom(5u)),
                      varied(Emission_ParticleScale, Emission_ScaleVariance.y, spawnRandom(6u)),
                      varied(Emission_ParticleScale, Emission_ScaleVariance.z, spawnRandom(7u)));
    setParticleScale(index, scale);
    setParticleMass(index, Emission_Density * abs(scale.x * scale.y * scale.z));
}
