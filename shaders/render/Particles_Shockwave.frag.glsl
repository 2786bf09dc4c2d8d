#version 430
// Particles_Shockwave, fragment stage: Particle.Texture (repeating in U round the ring), or a
// soft band that rises from the inner edge and is brightest just inside the outer one.
#include "render/particle_fragment.glsl"

in vec2 v_uv;
in vec4 v_color;

void main() {
#ifdef KZ_TEXTURED
    vec4 sprite = texture(Particle_Texture, v_uv);
#else
    float v = clamp(v_uv.y, 0.0, 1.0);
    float w = smoothstep(0.0, 0.75, v) * (1.0 - smoothstep(0.82, 1.0, v));
    vec4 sprite = vec4(w * w);
#endif
    float a = clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(sprite.rgb * v_color.rgb * a, sprite.a * a));
}
