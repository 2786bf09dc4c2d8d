#version 430
// Bloom, 1: the light above the threshold (per channel, after exposure) of the frame, into
// the bright image whose mipmaps are the downsampled chain (render/bloom.py).
uniform sampler2D kz_image;
uniform float kz_exposureScale;
uniform float kz_threshold;

layout(location = 0) out vec4 kzFragColor;

void main() {
    vec3 c = texelFetch(kz_image, ivec2(gl_FragCoord.xy), 0).rgb * kz_exposureScale;
    kzFragColor = vec4(max(c - vec3(kz_threshold), vec3(0.0)), 1.0);
}
