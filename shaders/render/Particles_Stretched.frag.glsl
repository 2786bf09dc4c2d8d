#version 430
// Particles_Stretched, fragment stage: Particle.Texture (U across, V along, head at 1), or a
// streak bright along its axis, soft at its sides, fading towards its tail.
#include "render/particle_fragment.glsl"

in vec2 v_uv;
in vec2 v_corner;
in vec4 v_color;

void main() {
#ifdef KZ_TEXTURED
    vec4 sprite = texture(Particle_Texture, v_uv);
#else
    float across = 1.0 - v_corner.x * v_corner.x;
    float along = smoothstep(-1.0, 0.5, v_corner.y) * (1.0 - smoothstep(0.8, 1.0, v_corner.y));
    vec4 sprite = vec4(across * across * along);
#endif
    float a = clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(sprite.rgb * v_color.rgb * a, sprite.a * a));
}
