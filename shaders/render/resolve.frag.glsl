#version 430
// The last pass of a frame: the linear, float image the frame was blended into, clamped and
// encoded as sRGB once, for the 8-bit image that is written or shown.
#include "render/color.glsl"

in vec2 v_uv;
uniform sampler2D kz_image;

layout(location = 0) out vec4 kzFragColor;

void main() {
    vec3 linear = texelFetch(kz_image, ivec2(gl_FragCoord.xy), 0).rgb;
    kzFragColor = vec4(kzLinearToSrgb(linear), 1.0);
}
