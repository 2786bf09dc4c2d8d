#version 430
// Particles_FlatRibbon, fragment stage: Particle.Texture (U across, V along), or a band bright
// along its middle and soft at its edges, times the particle's colour faded along the trail.
#include "render/particle_fragment.glsl"

in vec2 v_uv;
in vec2 v_corner;
in vec4 v_color;

void main() {
#ifdef KZ_TEXTURED
    vec4 sprite = texture(Particle_Texture, v_uv);
#else
    float across = 1.0 - v_corner.x * v_corner.x;
    vec4 sprite = vec4(across);
#endif
    float a = clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(sprite.rgb * v_color.rgb * a, sprite.a * a));
}
