#version 430
// kzplayer's default particle material, fragment stage: a soft round sprite (or the
// Particle.Texture), premultiplied. Additive by default (blend ONE, ONE; no depth test), so
// dense regions glow; with Particle.BlendMode = Alpha it is composited over (ONE,
// ONE_MINUS_SRC_ALPHA) in draw order, unsorted; Opaque overwrites, hard-edged.

in vec2 v_corner;
in vec4 v_color;

uniform float u_intensity;     // brightness of one particle's centre
uniform bool u_textured;       // Particle.Texture given: it replaces the round sprite
uniform bool u_opaque;         // Particle.BlendMode = Opaque: full colour inside the edge
uniform sampler2D u_texture;

out vec4 f_color;

void main() {
    vec3 rgb = v_color.rgb;
    float weight;
    if (u_textured) {
        vec4 texel = texture(u_texture, v_corner * 0.5 + 0.5);
        rgb *= texel.rgb;
        weight = texel.a;
    } else {
        float r2 = dot(v_corner, v_corner);
        if (r2 >= 1.0) {
            discard;
        }
        // A smooth bump that reaches zero at the rim, plus a tighter hot core.
        float body = (1.0 - r2) * (1.0 - r2);
        float core = exp(-r2 * 12.0);
        weight = 0.7 * body + 0.3 * core;
    }
    if (u_opaque) {
        // No blending: a hard edge where the sprite is at least half covered.
        if (weight < 0.5 || v_color.a <= 0.0) {
            discard;
        }
        f_color = vec4(rgb, 1.0);
        return;
    }
    weight *= u_intensity * clamp(v_color.a, 0.0, 1.0);
    f_color = vec4(rgb * weight, weight);
}
