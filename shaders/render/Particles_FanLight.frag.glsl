#version 430
// Particles_FanLight, fragment stage: the interpolated coordinate t (0 rim, 1 centre) looked
// up in FanLight.Gradient (its middle row), or in black -> the particle's colour -> white
// (the saturated core NeL describes), times the particle's opacity.
#include "render/particle_fragment.glsl"

uniform sampler2D FanLight_Gradient;

in float v_t;
in vec4 v_color;

void main() {
    float t = clamp(v_t, 0.0, 1.0);
    float a = clamp(v_color.a, 0.0, 1.0);
#ifdef KZ_GRADIENT
    vec4 g = texture(FanLight_Gradient, vec2(t, 0.5));     // premultiplied, linear
    kzWriteParticle(vec4(g.rgb * v_color.rgb * a, g.a * t * a));
#else
    vec3 rgb = t < 0.7 ? v_color.rgb * (t / 0.7) : mix(v_color.rgb, vec3(1.0), (t - 0.7) / 0.3 * 0.85);
    kzWriteParticle(vec4(rgb * a, t * a));
#endif
}
