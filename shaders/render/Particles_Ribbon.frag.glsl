#version 430
// Particles_Ribbon, fragment stage: Particle.Texture (U round, V along), or a tube shaded by
// how squarely it faces the camera (bright along its axis, darker at its silhouette), times
// the particle's colour faded along the trail.
#include "render/particle_fragment.glsl"
uniform vec3 kz_cameraPosition;     // world

in vec2 v_uv;
in vec3 v_normal;
in vec3 v_world;
in vec4 v_color;

void main() {
    float facing = abs(dot(normalize(v_normal), normalize(kz_cameraPosition - v_world)));
#ifdef KZ_TEXTURED
    vec4 sprite = texture(Particle_Texture, v_uv);
#else
    vec4 sprite = vec4(mix(0.3, 1.0, facing));
#endif
    float a = clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(sprite.rgb * v_color.rgb * a, sprite.a * a));
}
