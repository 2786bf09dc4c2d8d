#version 430
// After the opaque passes: the depth buffer as view distance (metres), for soft particles.
uniform sampler2D kz_depth;
uniform vec2 kz_depthRange;     // near, far

layout(location = 0) out vec4 kzFragColor;

void main() {
    float d = texelFetch(kz_depth, ivec2(gl_FragCoord.xy), 0).r;
    float n = kz_depthRange.x, f = kz_depthRange.y;
    float distance = d >= 1.0 ? f : 2.0 * n * f / (f + n - (2.0 * d - 1.0) * (f - n));
    kzFragColor = vec4(distance, 0.0, 0.0, 1.0);
}
