#version 430
// Particles_LensFlare, fragment stage: the element's shape (a glow with a horizontal streak,
// a soft disc, a thin ring) times its colour, added over the picture.
#include "render/particle_fragment.glsl"

in vec2 v_corner;
flat in int v_shape;
in vec3 v_color;

void main() {
    vec2 p = v_corner;
    float w;
    if (v_shape == 0) {
        vec2 q = p * vec2(2.5, 1.0);                    // the quad is 2.5 x wider: round again
        float r2 = dot(q, q);
        float streak = exp(-q.y * q.y * 60.0) * (1.0 - abs(p.x));
        w = (r2 < 1.0 ? pow(1.0 - r2, 3.0) : 0.0) + 0.5 * exp(-r2 * 30.0) + 0.35 * streak;
    } else if (v_shape == 1) {
        float r = length(p);
        w = 0.6 * (1.0 - smoothstep(0.7, 1.0, r));
    } else {
        float r = length(p);
        w = 0.8 * smoothstep(0.72, 0.86, r) * (1.0 - smoothstep(0.88, 1.0, r));
    }
    kzWriteParticle(vec4(v_color * w, 0.0));
}
