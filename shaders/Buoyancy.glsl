// Buoyancy: a mass-independent lift of MaxBuoyancy m/s^2 along world up, decaying with the
// height above the affector's origin as exp(-BuoyancyFalloff h) (full strength below it),
// plus a divergence-free turbulent acceleration of RMS TurbulenceStrength m/s^2 and eddies
// of 1 / TurbulenceFrequency m that fades with the lift: a plume rises fast and churns near
// its source, then slows and calms as it climbs.
#include "Particles/noise.glsl"

uniform float Buoyancy_MaxBuoyancy = 1.0;
uniform float Buoyancy_BuoyancyFalloff = 0.1;
uniform float Buoyancy_TurbulenceStrength = 0.0;
uniform float Buoyancy_TurbulenceFrequency = 1.0;

#define BUOYANCY_SEED 0x42554F59u       // 'BUOY'

void affectParticle(uint index) {
    vec3 up = normalize(worldToSimulationDirection(vec3(0.0, 1.0, 0.0)));
    vec3 offset = getParticlePosition(index) - getAffectorPosition();
    float lift = exp(-max(Buoyancy_BuoyancyFalloff, 0.0) * max(dot(offset, up), 0.0));
    vec3 a = up * Buoyancy_MaxBuoyancy;
    if (Buoyancy_TurbulenceStrength > 0.0) {
        // an eddy of size 1/F driven by S m/s^2 turns over in 1 / sqrt(S F) seconds
        float evolve = getTime() * sqrt(Buoyancy_TurbulenceStrength * Buoyancy_TurbulenceFrequency);
        a += Buoyancy_TurbulenceStrength * curlNoise(offset * Buoyancy_TurbulenceFrequency, evolve, BUOYANCY_SEED);
    }
    addParticleAcceleration(index, a * lift);
}
