#version 430
// Radix sort, pass 2 of 3 of each digit: one workgroup turns counts[digit][chunk] into the
// place of each (digit, chunk) run in the output, digit by digit, chunk by chunk: an
// exclusive prefix sum in that order (each invocation sums a stretch, then the stretches).
#include "render/radix_common.glsl"

layout(local_size_x = 256) in;

shared uint partial[256];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint chunks = kzChunks(sortArgs[7]);
    uint total = KZ_RADIX_BINS * chunks;
    uint per = (total + 255u) / 256u;
    uint begin = min(t * per, total);
    uint end = min(begin + per, total);
    uint sum = 0u;
    for (uint e = begin; e < end; ++e) {
        sum += counts[(e / chunks) * kz_maxChunks + e % chunks];
    }
    partial[t] = sum;
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = t >= offset ? partial[t - offset] : 0u;
        barrier();
        partial[t] += add;
        barrier();
    }
    uint base = t > 0u ? partial[t - 1u] : 0u;
    for (uint e = begin; e < end; ++e) {
        uint at = (e / chunks) * kz_maxChunks + e % chunks;
        uint c = counts[at];
        counts[at] = base;
        base += c;
    }
}
