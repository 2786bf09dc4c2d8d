#version 430
// Radix sort, pass 3 of 3 of each digit: every pair of a chunk, in order, to its digit's
// next place (stable: within a digit, pairs keep their order).
#include "render/radix_common.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = KZ_BINDING_RADIX_OUT) writeonly buffer KzRadixOut { uvec2 sorted[]; };

void main() {
    uint chunk = gl_GlobalInvocationID.x;
    uint n = sortArgs[7];
    if (chunk >= kzChunks(n)) {
        return;
    }
    uint next[KZ_RADIX_BINS];
    for (uint b = 0u; b < KZ_RADIX_BINS; ++b) {
        next[b] = counts[b * kz_maxChunks + chunk];
    }
    uint end = min((chunk + 1u) * KZ_RADIX_CHUNK, n);
    for (uint i = chunk * KZ_RADIX_CHUNK; i < end; ++i) {
        uvec2 pair = pairs[i];
        uint d = kzDigit(pair);
        sorted[next[d]] = pair;
        next[d] += 1u;
    }
}
