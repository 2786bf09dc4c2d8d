#version 430
// The streak's look: hot in the middle, soft at its sides, fading towards its tail.
#include "render/particle_fragment.glsl"

in vec2 v_corner;
in vec4 v_color;

void main() {
    float across = 1.0 - v_corner.x * v_corner.x;
    float along = smoothstep(-1.0, 0.6, v_corner.y);
    float w = across * across * along * clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(v_color.rgb * w, w));
}
