#version 430
// Particles_Shockwave, vertex stage: NeL's shockwave, a ring of Shockwave.Segments quads in
// the particle's local XZ plane (turned by its rotation), a triangle strip of 2 (segments + 1)
// vertices: vertex 2j + s is the j-th spoke's inner (s = 0) or outer (s = 1) end. The outer
// radius at normalised age t is RadiusStart + (RadiusEnd - RadiusStart) (1 - (1 - t)^Ease),
// times the particle's scale; the ring is Shockwave.Width wide inwards from it. U runs
// round the ring TextureRepeat times, V from the inner edge (0) to the outer (1).
#include "render/representation.glsl"

uniform int Shockwave_Segments = 48;
uniform float Shockwave_RadiusStart = 0.0;
uniform float Shockwave_RadiusEnd = 2.0;
uniform float Shockwave_Ease = 2.0;
uniform float Shockwave_Width = 0.35;
uniform float Shockwave_TextureRepeat = 1.0;

out vec2 v_uv;
out vec4 v_color;

const float KZ_TAU = 6.28318530718;

// The ring's outer radius at normalised age t (scale 1).
float kzShockwaveRadius(float t) {
    float eased = 1.0 - pow(1.0 - clamp(t, 0.0, 1.0), max(Shockwave_Ease, 1.0));
    return mix(Shockwave_RadiusStart, Shockwave_RadiusEnd, eased);
}

void main() {
    uint i = kzParticleIndex();
    int segments = max(Shockwave_Segments, 3);
    int j = gl_VertexID >> 1;
    bool outer = (gl_VertexID & 1) != 0;
    float scale = abs(getParticleScale(i).x);
    float r_out = kzShockwaveRadius(getParticleNormalizedAge(i)) * scale;
    float r = outer ? r_out : max(r_out - Shockwave_Width * scale, 0.0);
    float angle = KZ_TAU * float(j) / float(segments);
    vec3 local = vec3(cos(angle), 0.0, sin(angle)) * r;
    vec3 p = getParticlePosition(i) + kzEulerMatrix(getParticleRotation(i)) * local;
    gl_Position = kzClipOf(p);
    v_uv = vec2(Shockwave_TextureRepeat * float(j) / float(segments), outer ? 1.0 : 0.0);
    v_color = kzRepresentationColor(i);
}
