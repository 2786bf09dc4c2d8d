// What the NeL representations' vertex shaders share (docs/rendering.md, "Representations"):
// the particle, the camera and the history (render/particle_vertex.glsl, render/history.glsl),
// the over-life look every Particles_* material has (colour, scale and opacity over the
// normalised age: render/over_life.glsl), the geometry LOD's side count, and screen-space
// helpers for the materials drawn in pixels (lines).
#include "render/particle_vertex.glsl"
#include "render/over_life.glsl"
#include "render/history.glsl"

uniform uint kz_sides;          // fan sectors / tube sides after the geometry LOD

// Linear RGB and alpha: over life x the particle's colour x Particle.Color.
vec4 kzRepresentationColor(uint i) {
    return kzOverLifeParticleColor(i);
}

// The particle's scale x the over-life scale, per axis.
vec3 kzRepresentationScale(uint i) {
    return getParticleScale(i) * kzOverLifeScale(getParticleNormalizedAge(i));
}

vec3 kzWorldOf(vec3 simulation) {
    return (kz_model * vec4(simulation, 1.0)).xyz;
}

vec4 kzClipOfWorld(vec3 world) {
    return kz_projection * (kz_view * vec4(world, 1.0));
}

vec4 kzClipOf(vec3 simulation) {
    return kzClipOfWorld(kzWorldOf(simulation));
}

// The camera's right and up in the world (the view's first two rows).
vec3 kzCameraRight() { return vec3(kz_view[0][0], kz_view[1][0], kz_view[2][0]); }
vec3 kzCameraUp()    { return vec3(kz_view[0][1], kz_view[1][1], kz_view[2][1]); }

// A vertex nothing is drawn at (outside the clip volume): a degenerate piece of geometry.
const vec4 KZ_NOWHERE = vec4(0.0, 0.0, 2.0, 1.0);

bool kzInFront(vec4 clip) {
    return clip.w > 1e-5;
}

vec2 kzPixels(vec4 clip) {
    return (clip.xy / clip.w) * 0.5 * kz_viewport;
}

// The unit direction from a to b on screen, in pixels; `fallback` when they coincide.
vec2 kzScreenDirection(vec4 a, vec4 b, vec2 fallback) {
    vec2 d = kzPixels(b) - kzPixels(a);
    float len = length(d);
    return len > 1e-4 ? d / len : fallback;
}

// `p` moved `pixels` across the screen direction `dir` (a line's side; -1 or +1 in `side`).
vec4 kzAcross(vec4 p, vec2 dir, float side, float pixels) {
    vec2 normal = vec2(-dir.y, dir.x);
    vec2 offset = normal * side * pixels / (0.5 * kz_viewport);
    return p + vec4(offset * p.w, 0.0, 0.0);
}

// A small counter-based hash (per particle and vertex: fan-light phases, flare jitter).
uint kzHash(uint a, uint b) {
    uint v = b ^ (a * 747796405u + 2891336453u);
    v = ((v >> ((v >> 28u) + 4u)) ^ v) * 277803737u;
    return (v >> 22u) ^ v;
}

float kzUnit(uint h) {
    return float(h >> 8u) * (1.0 / 16777216.0);
}
