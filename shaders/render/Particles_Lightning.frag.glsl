#version 430
// Particles_Lightning, fragment stage: a core Lightning.Width pixels wide (antialiased as a
// line is) whitened towards its axis, in a glow Width x Glow pixels wide that falls off as a
// Gaussian: the bolt's colour over life, times Lightning.Intensity (above 1 it blooms).
#include "render/particle_fragment.glsl"

uniform float Lightning_Width = 2.5;
uniform float Lightning_Glow = 5.0;

noperspective in float v_across;
in vec4 v_color;

void main() {
    float x = abs(v_across);
    float w = max(Lightning_Width, 0.0);
    float core = clamp(0.5 * w + 0.5 - x, 0.0, 1.0);
    float reach = max(0.5 * w * max(Lightning_Glow, 1.0), 1e-3);
    float glow = 0.35 * exp(-3.0 * (x / reach) * (x / reach));
    float a = clamp(v_color.a, 0.0, 1.0);
    vec3 rgb = mix(v_color.rgb, vec3(max(max(v_color.r, v_color.g), v_color.b)), 0.6 * core) * core
             + v_color.rgb * glow;
    kzWriteParticle(vec4(rgb * a, clamp(core + glow, 0.0, 1.0) * a));
}
