#version 430
// Particles_FanLight, vertex stage: NeL's fan light, a camera-facing triangle fan of kz_sides
// sectors (FanLight.Sectors, fewer when the geometry LOD says so): vertex 0 is the centre,
// vertices 1 .. sides + 1 the rim (the last closes the fan). Each rim vertex's radius swings
// with time, Radius x (1 - Amplitude (1 - sin(2 pi Frequency t + phase)) / 2), its phase its
// own per particle and vertex. The colour is a texture coordinate, as in NeL: 1 at the
// centre, 0 at the rim (render/Particles_FanLight.frag.glsl looks it up in the gradient).
#include "render/representation.glsl"

uniform float FanLight_Radius = 0.5;
uniform float FanLight_Amplitude = 0.35;
uniform float FanLight_Frequency = 1.5;

out float v_t;
out vec4 v_color;

const float KZ_TAU = 6.28318530718;

void main() {
    uint i = kzParticleIndex();
    vec3 scale = kzRepresentationScale(i);
    vec3 centre = kzWorldOf(getParticlePosition(i));
    v_color = kzRepresentationColor(i);
    uint sides = max(kz_sides, 3u);
    if (gl_VertexID == 0) {
        v_t = 1.0;
        gl_Position = kzClipOfWorld(centre);
        return;
    }
    uint k = uint(gl_VertexID - 1) % sides;
    float spin = getParticleRotation(i).z;
    float angle = KZ_TAU * float(k) / float(sides) + spin;
    float phase = KZ_TAU * kzUnit(kzHash(getParticleHash(i), k));
    float swing = 0.5 * (1.0 - sin(KZ_TAU * FanLight_Frequency * kz_time + phase));
    float radius = FanLight_Radius * max(abs(scale.x), abs(scale.y)) * (1.0 - clamp(FanLight_Amplitude, 0.0, 1.0) * swing);
    vec3 offset = (cos(angle) * kzCameraRight() + sin(angle) * kzCameraUp()) * radius;
    v_t = 0.0;
    gl_Position = kzClipOfWorld(centre + offset);
}
