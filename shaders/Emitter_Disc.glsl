// Emitter_Disc: an annulus in the emitter's local XZ plane between Emission.InnerRadius and
// Emission.OuterRadius. Volume: uniform by area over the annular face (r^2 uniform).
// Surface: the inner and outer edges, each chosen in proportion to its length; the normal
// points away from the ring's material (outward on the outer edge, inward on the inner).
#include "Particles/emitter_common.glsl"

uniform float Emission_InnerRadius = 0.0;
uniform float Emission_OuterRadius = 1.0;

void emitParticle(uint index) {
    float a = abs(Emission_InnerRadius);
    float b = abs(Emission_OuterRadius);
    float ri = min(a, b);
    float ro = max(a, b);
    float phi = 2.0 * PI * spawnRandom(SHAPE_RANDOM);
    vec3 radial = vec3(cos(phi), 0.0, sin(phi));
    if (Emission_Volume) {
        float r = sqrt(mix(ri * ri, ro * ro, spawnRandom(SHAPE_RANDOM + 1u)));
        emitFromShape(index, radial * r, vec3(0.0));
        return;
    }
    bool outer = spawnRandom(SHAPE_RANDOM + 1u) * (ri + ro) < ro;
    emitFromShape(index, radial * (outer ? ro : ri), outer ? radial : -radial);
}
