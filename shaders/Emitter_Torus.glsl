// Emitter_Torus: a torus in the emitter's local XZ plane, Emission.MajorRadius from the
// centre to the tube centre, Emission.MinorRadius the tube radius. Uniform by area (surface)
// or volume (interior): the tube angle v and tube radius rho are accepted with probability
// (R + rho cos v) / (R + rho_max), the ratio of the true area/volume element to its bound.
#include "Particles/emitter_common.glsl"

uniform float Emission_MajorRadius = 1.0;
uniform float Emission_MinorRadius = 0.25;

#define TORUS_TRIES 32u

void emitParticle(uint index) {
    float R = abs(Emission_MajorRadius);
    float r = abs(Emission_MinorRadius);
    float u = 2.0 * PI * spawnRandom(SHAPE_RANDOM);
    float v = 0.0;
    float rho = r;
    for (uint t = 0u; t < TORUS_TRIES; ++t) {
        uint k = SHAPE_RANDOM + 1u + 3u * t;
        v = 2.0 * PI * spawnRandom(k);
        rho = Emission_Volume ? r * sqrt(spawnRandom(k + 1u)) : r;
        if (spawnRandom(k + 2u) * (R + r) <= R + rho * cos(v)) {
            break;
        }
    }
    vec3 ring = vec3(cos(u), 0.0, sin(u));
    vec3 n = ring * cos(v) + vec3(0.0, sin(v), 0.0);
    vec3 p = ring * R + n * rho;
    emitFromShape(index, p, Emission_Volume ? vec3(0.0) : n);
}
