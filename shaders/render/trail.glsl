// What the trails through the position history share (Particles_Ribbon, Particles_FlatRibbon):
// point k of the trail (0 the head, N - 1 the tail), its direction, its width and opacity.
#include "render/representation.glsl"

uniform float Trail_TailOpacity = 0.0;
uniform float Ribbon_TaperEnd = 0.25;

struct KzTrailPoint {
    vec3 position;          // world
    vec3 tangent;           // world, unit, towards the head
    float along;            // 0 at the head, 1 at the tail
    float width;            // 1 at the head, Ribbon.TaperEnd at the tail; 0 where the trail
                            // has not grown yet (the collapsed points of a young particle)
};

KzTrailPoint kzTrailPoint(uint i, uint k, vec3 fallback) {
    uint n = getParticleHistoryLength();
    k = min(k, n - 1u);
    KzTrailPoint t;
    vec3 here = kzWorldOf(getParticleHistory(i, k));
    vec3 newer = kzWorldOf(getParticleHistory(i, k > 0u ? k - 1u : 0u));
    vec3 older = kzWorldOf(getParticleHistory(i, k + 1u));
    vec3 d = newer - older;
    if (length(d) < 1e-7) {
        d = newer - here;
    }
    t.position = here;
    t.tangent = length(d) > 1e-7 ? normalize(d) : fallback;
    t.along = float(k) / float(max(n - 1u, 1u));
    t.width = k > 0u && distance(here, newer) < 1e-6 ? 0.0 : mix(1.0, Ribbon_TaperEnd, t.along);
    return t;
}

// One direction per trail across which each point's section is built (Gram-Schmidt against
// the local tangent): perpendicular to the trail's overall direction, so a section does not
// spin along the length.
vec3 kzTrailReference(uint i, out vec3 overall) {
    uint n = getParticleHistoryLength();
    vec3 d = kzWorldOf(getParticleHistory(i, 0u)) - kzWorldOf(getParticleHistory(i, n - 1u));
    overall = length(d) > 1e-7 ? normalize(d) : vec3(0.0, 1.0, 0.0);
    vec3 axis = abs(overall.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    return normalize(cross(overall, axis));
}

float kzTrailOpacity(float along) {
    return mix(1.0, Trail_TailOpacity, along);
}
