#version 430
// Particles_Dot, fragment stage: the particle's colour over the point; a dot of 3 pixels and
// more is round, with a one-pixel soft edge.
#include "render/particle_fragment.glsl"

uniform float Dot_Size = 1.0;

in vec4 v_color;

void main() {
    float size = clamp(Dot_Size, 1.0, 64.0);
    float w = 1.0;
    if (size >= 3.0) {
        w = clamp(0.5 * size + 0.5 - length((gl_PointCoord - 0.5) * size), 0.0, 1.0);
    }
    float a = clamp(v_color.a, 0.0, 1.0) * w;
    kzWriteParticle(vec4(v_color.rgb * a, a));
}
