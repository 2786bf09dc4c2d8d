// Emitter_Sphere: surface or interior of a sphere of Emission.Radius. Directions uniform on
// the sphere (z = cos uniform); interior radius R * u^(1/3) so density is uniform by volume.
#include "Particles/emitter_common.glsl"

uniform float Emission_Radius = 1.0;

void emitParticle(uint index) {
    float z = 2.0 * spawnRandom(SHAPE_RANDOM) - 1.0;
    float phi = 2.0 * PI * spawnRandom(SHAPE_RANDOM + 1u);
    float s = sqrt(max(0.0, 1.0 - z * z));
    vec3 n = vec3(s * cos(phi), s * sin(phi), z);
    float r = abs(Emission_Radius);
    if (Emission_Volume) {
        emitFromShape(index, n * r * pow(spawnRandom(SHAPE_RANDOM + 2u), 1.0 / 3.0), vec3(0.0));
    } else {
        emitFromShape(index, n * r, n);
    }
}
