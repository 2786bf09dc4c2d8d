// Emitter_Box: surface or interior of a box of half-extents Emission.BoxExtents.
// Surface: a face chosen with probability proportional to its area, then a uniform point on
// it; the normal is the face's outward axis.
#include "Particles/emitter_common.glsl"

uniform vec3 Emission_BoxExtents = vec3(0.5);

void emitParticle(uint index) {
    vec3 e = abs(Emission_BoxExtents);
    vec3 u = vec3(spawnRandom(SHAPE_RANDOM), spawnRandom(SHAPE_RANDOM + 1u), spawnRandom(SHAPE_RANDOM + 2u));
    vec3 p = (2.0 * u - 1.0) * e;
    if (Emission_Volume) {
        emitFromShape(index, p, vec3(0.0));
        return;
    }
    // Face pair areas are proportional to ey*ez, ex*ez, ex*ey.
    vec3 area = vec3(e.y * e.z, e.x * e.z, e.x * e.y);
    float total = area.x + area.y + area.z;
    float pick = spawnRandom(SHAPE_RANDOM + 3u) * total;
    int axis = pick < area.x ? 0 : (pick < area.x + area.y ? 1 : 2);
    if (total <= 0.0) {
        axis = 0;
    }
    float side = spawnRandom(SHAPE_RANDOM + 4u) < 0.5 ? -1.0 : 1.0;
    vec3 normal = vec3(0.0);
    normal[axis] = side;
    p[axis] = side * e[axis];
    emitFromShape(index, p, normal);
}
