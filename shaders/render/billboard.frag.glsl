#version 430
// kzplayer's default particle material, fragment stage: a soft round sprite, added to
// what is already there (blend ONE, ONE; no depth test), so dense regions glow.

in vec2 v_corner;
in vec4 v_color;

uniform float u_intensity;     // brightness of one particle's centre

out vec4 f_color;

void main() {
    float r2 = dot(v_corner, v_corner);
    if (r2 >= 1.0) {
        discard;
    }
    // A smooth bump that reaches zero at the rim, plus a tighter hot core.
    float body = (1.0 - r2) * (1.0 - r2);
    float core = exp(-r2 * 12.0);
    float weight = u_intensity * v_color.a * (0.7 * body + 0.3 * core);
    f_color = vec4(v_color.rgb * weight, 1.0);
}
