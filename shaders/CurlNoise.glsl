// CurlNoise: a mass-independent acceleration along a divergence-free noise field (the curl
// of a smooth vector potential, Particles/noise.glsl; Bridson et al. 2007): swirls that
// neither gather particles nor spread them. Strength is the field's RMS magnitude (m/s^2),
// Frequency its eddies per metre (sampled from the affector's origin, so moving the node
// moves the field), TimeScale how fast it morphs (noise cells per second). Within
// Affector.Radius the field is scaled by sphereFalloff (divergence-free where that is flat).
#include "Particles/noise.glsl"

uniform float CurlNoise_Strength = 1.0;
uniform float CurlNoise_Frequency = 1.0;
uniform float CurlNoise_TimeScale = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

#define CURL_SEED 0x4355524Cu           // 'CURL'

void affectParticle(uint index) {
    vec3 offset = getParticlePosition(index) - getAffectorPosition();
    float strength = sphereFalloff(length(offset), Affector_Radius, Affector_FalloffExponent);
    if (strength <= 0.0) {
        return;
    }
    vec3 field = curlNoise(offset * max(CurlNoise_Frequency, 0.0), getTime() * max(CurlNoise_TimeScale, 0.0), CURL_SEED);
    addParticleAcceleration(index, field * CurlNoise_Strength * strength);
}
