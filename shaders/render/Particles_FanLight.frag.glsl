#version 430
// Particles_FanLight, fragment stage: the interpolated coordinate t (0 rim, 1 centre) looked
// up in FanLight.Gradient (its middle row), or in black -> the particle's colour -> white
// (the saturated core NeL describes), times the particle's opacity. FanLight.Falloff shapes
// t first (t^Falloff: above 1 the light gathers in the core and the rim fades out softly, so
// the fan's straight triangle edges do not show), FanLight.Intensity scales the light (above
// 1 the core is brighter than white: the Scene's bloom and tone curve make it glow).
#include "render/particle_fragment.glsl"

uniform sampler2D FanLight_Gradient;
uniform float FanLight_Falloff = 1.0;
uniform float FanLight_Intensity = 1.0;

in float v_t;
in vec4 v_color;

void main() {
    float t = clamp(v_t, 0.0, 1.0);
    if (FanLight_Falloff != 1.0) {          // (1: exactly NeL's linear coordinate)
        t = pow(t, max(FanLight_Falloff, 0.01));
    }
    float a = clamp(v_color.a, 0.0, 1.0);
    float light = max(FanLight_Intensity, 0.0);
#ifdef KZ_GRADIENT
    vec4 g = texture(FanLight_Gradient, vec2(t, 0.5));     // premultiplied, linear
    kzWriteParticle(vec4(g.rgb * v_color.rgb * a * light, g.a * t * a));
#else
    vec3 rgb = t < 0.7 ? v_color.rgb * (t / 0.7) : mix(v_color.rgb, vec3(1.0), (t - 0.7) / 0.3 * 0.85);
    kzWriteParticle(vec4(rgb * a * light, t * a));
#endif
}
