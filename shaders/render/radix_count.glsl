#version 430
// Radix sort, pass 1 of 3 of each digit: one chunk's digit histogram.
#include "render/radix_common.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

void main() {
    uint chunk = gl_GlobalInvocationID.x;
    uint n = sortArgs[7];
    if (chunk >= kzChunks(n)) {
        return;
    }
    uint histogram[KZ_RADIX_BINS];
    for (uint b = 0u; b < KZ_RADIX_BINS; ++b) {
        histogram[b] = 0u;
    }
    uint end = min((chunk + 1u) * KZ_RADIX_CHUNK, n);
    for (uint i = chunk * KZ_RADIX_CHUNK; i < end; ++i) {
        histogram[kzDigit(pairs[i])] += 1u;
    }
    for (uint b = 0u; b < KZ_RADIX_BINS; ++b) {
        counts[b * kz_maxChunks + chunk] = histogram[b];
    }
}
