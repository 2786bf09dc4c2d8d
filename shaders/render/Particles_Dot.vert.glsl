#version 430
// Particles_Dot, vertex stage: NeL's dot, one GL point per particle, Dot.Size pixels wide.
#include "render/representation.glsl"

uniform float Dot_Size = 1.0;

out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    gl_Position = kzClipOf(getParticlePosition(i));
    gl_PointSize = clamp(Dot_Size, 1.0, 64.0);
    v_color = kzRepresentationColor(i);
}
