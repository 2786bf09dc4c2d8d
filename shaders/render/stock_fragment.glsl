// The fragment stage every stock rendering material shares: the sprite (texture or round),
// times the particle's colour, premultiplied, written for the emitter's blend mode.
#include "render/particle_fragment.glsl"

in vec2 v_uv;
in vec2 v_corner;
in vec4 v_color;

void main() {
    vec4 sprite = kzSprite(v_uv, v_corner);
    float a = clamp(v_color.a, 0.0, 1.0);
    kzWriteParticle(vec4(sprite.rgb * v_color.rgb * a, sprite.a * a));
}
