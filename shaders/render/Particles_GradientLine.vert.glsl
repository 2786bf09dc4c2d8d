#version 430
// Particles_GradientLine, vertex stage: NeL's gradient line, a polyline through the
// particle's last N positions (its history; N - 1 segments), Line.Width pixels wide, its
// opacity falling linearly from the head (k = 0) to Trail.TailOpacity at the tail (k = N - 1).
// A triangle strip of 2N vertices: vertex 2k + s is point k's side s.
#include "render/representation.glsl"

uniform float Line_Width = 1.5;
uniform float Trail_TailOpacity = 0.0;

noperspective out float v_across;
out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    uint n = getParticleHistoryLength();
    uint k = min(uint(gl_VertexID) >> 1u, n - 1u);
    float side = float(gl_VertexID & 1) * 2.0 - 1.0;
    vec3 here = getParticleHistory(i, k);
    vec3 next = getParticleHistory(i, k > 0u ? k - 1u : 0u);
    vec4 p = kzClipOf(here);
    // the path's direction here: from the next older point to the next newer one
    vec4 newer = kzClipOf(next);
    vec4 older = kzClipOf(getParticleHistory(i, k + 1u));
    // a point where the particle was already (the collapsed tail of a young trail) has no
    // width: the segments to it are degenerate, no dot at the spawn point
    float half_width = k > 0u && distance(here, next) < 1e-6 ? 0.0 : 0.5 * Line_Width + 1.0;
    v_across = side * (0.5 * Line_Width + 1.0);
    float along = float(k) / float(max(n - 1u, 1u));
    vec4 color = kzRepresentationColor(i);
    v_color = vec4(color.rgb, color.a * mix(1.0, Trail_TailOpacity, along));
    if (!kzInFront(p) || !kzInFront(newer) || !kzInFront(older)) {
        gl_Position = KZ_NOWHERE;
        return;
    }
    vec2 dir = kzScreenDirection(older, newer, kzScreenDirection(p, newer, vec2(1.0, 0.0)));
    gl_Position = kzAcross(p, dir, side, half_width);
}
