#version 430
// Bloom, 2: one direction of a separable Gaussian at one mip level of the bright image
// (render/bloom.py): taps out to 3 sigma, weights normalised to sum to 1 (the blur moves
// light, it does not add any), coordinates clamped to the image's edge.
uniform sampler2D kz_source;
uniform int kz_level;           // the source's mip level (the output has its size)
uniform ivec2 kz_direction;     // (1, 0) or (0, 1)
uniform float kz_sigma;         // in the level's texels

layout(location = 0) out vec4 kzFragColor;

void main() {
    ivec2 size = textureSize(kz_source, kz_level);
    ivec2 p = ivec2(gl_FragCoord.xy);
    int reach = int(ceil(3.0 * kz_sigma));
    float k = -0.5 / max(kz_sigma * kz_sigma, 1e-6);
    vec3 sum = vec3(0.0);
    float weights = 0.0;
    for (int i = -reach; i <= reach; ++i) {
        float w = exp(k * float(i * i));
        ivec2 q = clamp(p + i * kz_direction, ivec2(0), size - 1);
        sum += w * texelFetch(kz_source, q, kz_level).rgb;
        weights += w;
    }
    kzFragColor = vec4(sum / weights, 1.0);
}
