// The light a particle casts (ParticleEmitter.CastLight): its colour as its material draws
// it (KZ_LIGHT_COLOR 1: ParticlesDefault's ramp; 2: over life; 3: over life, 3 stops;
// 0: a custom material: the particle's colour x Particle.Color), times its opacity and
// Particle.LightIntensity; w = Particle.LightRange.
#include "render/color.glsl"
#if KZ_LIGHT_COLOR == 1
#include "render/default_look.glsl"
#elif KZ_LIGHT_COLOR >= 2
#if KZ_LIGHT_COLOR == 3
#define OVER_LIFE_THREE_STOP 1
#endif
#include "render/over_life.glsl"
#else
uniform vec4 Particle_Color = vec4(1.0);
#endif
uniform float Particle_LightRange = 2.0;
uniform float Particle_LightIntensity = 1.0;

vec4 kzParticleLight(uint i) {
#if KZ_LIGHT_COLOR == 1
    vec4 c = kzDefaultColor(i);
#elif KZ_LIGHT_COLOR >= 2
    vec4 c = kzOverLifeParticleColor(i);
#else
    vec4 c = kzParticleTintOf(getParticleColor(i)) * Particle_Color;
#endif
    return vec4(c.rgb * clamp(c.a, 0.0, 1.0) * Particle_LightIntensity, Particle_LightRange);
}
